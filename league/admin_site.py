"""The admin index as the superuser's cockpit (STYLE habit 8).

Django lists every model under its app, alphabetically: about 35 of them, a
database browser. Here the organiser's everyday models come first under one
heading (leagues, seasons, coaches, fixtures, results, teams), then each app's own
catalogues as Django groups them (colleges, plot cards ...), then the ledgers and
logs under their own heading (CP, Favours, Treasury, dice, the task queue, the
login log), then the accounts.

A model's admin says where it belongs with ``cockpit_group`` (and its place with
``cockpit_rank``); an app that cannot say it (axes, django-tasks, auth) is placed by
its label in ``APP_GROUPS``. So a game or layer places its own models from its own
admin module, and the engine names none of them. The site is Django's own
``AdminSite`` with ``get_app_list`` overridden, installed as the default site
through ``league.apps.CockpitAdminConfig`` (the documented way to override the default admin
site); every ``admin.site.register`` and the organisers' scoping
(``league.admin.scoping``) are unchanged. The class lives at the top of league/,
not in league/admin/: Django builds the default site while it imports that
package, so the class cannot be a module of it.
"""

from __future__ import annotations

from django.contrib import admin

EVERYDAY = "everyday"
LEDGERS = "ledgers"
ACCOUNTS = "accounts"

#: The cockpit's own headings, in order; the apps' remaining models go between
#: the first and the others.
HEADINGS = {
    EVERYDAY: "Running the leagues",
    LEDGERS: "Ledgers and logs",
    ACCOUNTS: "Accounts and permissions",
}

#: Apps whose admins are not ours: placed by their label.
APP_GROUPS = {"axes": LEDGERS, "django_tasks_database": LEDGERS, "auth": ACCOUNTS}

#: Ranks of the everyday models (the first heading keeps this order): the game
#: apps' teams use TEAMS.
LEAGUES, SEASONS, COACHES, FIXTURES, RESULTS, TEAMS, ENTRIES, ROUNDS = (10, 20, 30, 40, 50, 60, 70, 80)


class CockpitSite(admin.AdminSite):
    def get_app_list(self, request, app_label=None):
        """The index's (and the side bar's) groups; an app's own page
        (``app_label``) keeps Django's list of that app."""
        apps = super().get_app_list(request, app_label)
        if app_label is not None:
            return apps
        grouped: dict[str, list[tuple[int, str, dict]]] = {key: [] for key in HEADINGS}
        rest = []
        for app in apps:
            left = []
            for entry in app["models"]:
                model_admin = self._registry.get(entry["model"])
                group = getattr(model_admin, "cockpit_group", None) or APP_GROUPS.get(app["app_label"])
                if group in grouped:
                    grouped[group].append((getattr(model_admin, "cockpit_rank", 100), entry["name"], entry))
                else:
                    left.append(entry)
            if left:
                rest.append({**app, "models": left})
        headed = [
            {"name": HEADINGS[key], "app_label": f"cockpit-{key}", "app_url": f"#cockpit-{key}",
             "has_module_perms": True, "models": [entry for *_, entry in sorted(grouped[key], key=lambda e: e[:2])]}
            for key in HEADINGS
        ]
        everyday, *others = headed
        return [group for group in (everyday, *rest, *others) if group["models"]]

