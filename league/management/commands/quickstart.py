"""``manage.py quickstart``: migrate, load every registered layer's demo league,
print the demo accounts and serve the site on http://127.0.0.1:8000. Running it
again loads nothing twice."""

from __future__ import annotations

import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.urls import reverse

from league.services import demo

ADDRESS = "127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Migrate, load the demo leagues (a Guild Ball league with its Big League campaign, a DreadBall league, a Dungeon Bowl league) "
        "with an organiser and coach accounts, and serve the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("--no-serve", action="store_true", help="set everything up but do not start the server")

    def handle(self, *args, **options):
        verbosity = options["verbosity"]
        call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout)

        reports = demo.load_demos()
        for report in reports:
            self.stdout.write(self.style.SUCCESS(report.message) if report.loaded else report.message)

        site = f"http://{ADDRESS}"
        self.stdout.write("")
        self.stdout.write(f"Site:   {site}{reverse('league:league_list')}")
        for report in reports:
            self.stdout.write(f"League: {site}{reverse('league:league_detail', args=[report.league_slug])}")
        self.stdout.write(f"Admin:  {site}{reverse('admin:index')}")
        for role, username, password in demo.demo_accounts():
            self.stdout.write(f"Log in as {role}: username {username!r}, password {password!r}")
        for report in reports:
            if report.note:
                self.stdout.write(report.note)

        if not options["no_serve"]:
            self.stdout.write("")
            # Mail and webhooks are tasks (league/outbox/tasks.py): the demo works them beside
            # the server, as a site runs run_tasks beside gunicorn (mail goes to the console).
            self.stdout.write("Task worker: python manage.py run_tasks, started beside the server.")
            worker = subprocess.Popen([sys.executable, str(settings.BASE_DIR / "manage.py"), "run_tasks"])
            try:
                call_command("runserver", ADDRESS, use_reloader=False)
            finally:
                worker.terminate()
                worker.wait(timeout=30)
