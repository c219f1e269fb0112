"""Delete the result forms' submission keys older than ``IDEMPOTENCY_KEY_DAYS``
(league/idempotency.py): such a key is refused anyway, so its record is no longer
needed. ``run_tasks`` does it as it starts; run it daily from cron otherwise."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from league import idempotency


class Command(BaseCommand):
    help = "Delete the used form submission keys that can no longer be sent."

    def handle(self, *args, verbosity, **options):
        deleted = idempotency.purge()
        if verbosity:
            self.stdout.write(f"Deleted {deleted} used submission key(s).")
