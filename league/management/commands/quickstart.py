"""``manage.py quickstart``: migrate, load the demo league, print the demo accounts
and serve the site on http://127.0.0.1:8000. Running it again loads nothing twice."""

from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.urls import reverse

from league import demo
from league.dreadball import demo as dreadball_demo

ADDRESS = "127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Migrate, load a demo Guild Ball league and Big League campaign with an organiser and a coach account, "
        "and serve the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("--no-serve", action="store_true", help="set everything up but do not start the server")

    def handle(self, *args, **options):
        verbosity = options["verbosity"]
        call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout)

        if demo.load_demo() is None:
            self.stdout.write(f"The demo league {demo.DEMO_LEAGUE} is already loaded; nothing added.")
        else:
            self.stdout.write(self.style.SUCCESS(
                f"Loaded the demo league {demo.DEMO_LEAGUE}: {len(demo.COACHES)} coaches, "
                f"{demo.PLAYED_ROUNDS} rounds played, round {demo.CURRENT_ROUND} under way, "
                f"the Big League campaign {demo.PLAYED_ROUNDS} weeks in (decks, plot cards, Moments, "
                f"Wheeling & Dealing)."
            ))

        dreadball_accounts = dreadball_demo.load_demo()  # idempotent: the DreadBall league once

        site = f"http://{ADDRESS}"
        self.stdout.write("")
        self.stdout.write(f"Site:   {site}{reverse('league:league_list')}")
        self.stdout.write(f"League: {site}{reverse('league:league_detail', args=[demo.DEMO_SLUG])}")
        self.stdout.write(f"Admin:  {site}{reverse('admin:index')}")
        for account in (demo.ORGANISER, demo.COACH):
            self.stdout.write(f"Log in as {account.role}: username {account.username!r}, password {account.password!r}")
        self.stdout.write(f"DreadBall: {site}{reverse('league:league_detail', args=[dreadball_demo.DEMO_SLUG])}")
        for account in dreadball_accounts:
            self.stdout.write(f"Log in as {account.role}: username {account.username!r}, password {account.password!r}")
        self.stdout.write(
            f"The other demo coaches log in with their first name in lower case (e.g. 'greta') and the "
            f"password {demo.COACH_PASSWORD!r}."
        )

        if not options["no_serve"]:
            self.stdout.write("")
            call_command("runserver", ADDRESS, use_reloader=False)
