"""``manage.py quickstart [addrport]``: migrate, load every registered layer's demo
league, print the demo accounts and serve the site on http://127.0.0.1:8000 (or the
port or address:port given, as ``runserver`` takes it: ``quickstart 8001``,
``quickstart --port 8001``). Running it again loads nothing twice."""

from __future__ import annotations

import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands.runserver import naiveip_re
from django.urls import reverse

from league.services import demo

HOST, PORT = "127.0.0.1", 8000
ADDRESS = f"{HOST}:{PORT}"


def address(addrport: str | None, port: int | None) -> str:
    """Where to serve: ``addrport`` as runserver reads it (a port, or an address and
    a port), or ``port`` on this machine, else 127.0.0.1:8000."""
    if addrport and port is not None:
        raise CommandError("Give the port once: either quickstart 8001 or quickstart --port 8001.")
    if port is not None:
        addrport = str(port)
    if not addrport:
        return ADDRESS
    match = naiveip_re.match(addrport)
    if match is None or not match["port"].isdigit() or not 0 < int(match["port"]) < 65536:
        raise CommandError(f"{addrport!r} is not a port number or address:port (for example 8001 or 0.0.0.0:8001).")
    return addrport if match["addr"] else f"{HOST}:{match['port']}"


class Command(BaseCommand):
    help = (
        "Migrate, load the demo leagues (a Guild Ball league with its Big League campaign, a DreadBall league, a Dungeon Bowl league) "
        "with an organiser and coach accounts, and serve the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", help="the port, or address:port, to serve on (as runserver's); default 127.0.0.1:8000")
        parser.add_argument("--port", type=int, help="the port to serve on, on 127.0.0.1")
        parser.add_argument("--no-serve", action="store_true", help="set everything up but do not start the server")

    def handle(self, *args, **options):
        serve_on = address(options["addrport"], options["port"])  # refused before anything is done
        verbosity = options["verbosity"]
        call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout)

        reports = demo.load_demos()
        for report in reports:
            self.stdout.write(self.style.SUCCESS(report.message) if report.loaded else report.message)

        site = f"http://{serve_on}"
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
                call_command("runserver", serve_on, use_reloader=False)
            finally:
                worker.terminate()
                worker.wait(timeout=30)
