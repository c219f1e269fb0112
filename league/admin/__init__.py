"""The Django admin as the Longshanks' cockpit (STYLE habit 8, GB-1), one module
per job: the actions' forms, coaches, leagues and seasons, rounds and fixtures,
results.

An organiser who is not a superuser sees and changes only the leagues they
organise and what hangs off them (``league.admin.scoping``, shared with
campaigns/admin.py).

Every write of the result workflow goes through ``league.services.results``: results are
read-only here and change only through the admin actions (approve, correct, reopen;
on fixtures: enter a result, abandon, rearrange), which call the services and turn
their ``ValidationError``/``PermissionDenied`` into admin messages.

An add page that starts a workflow step calls the site's service for it, through
``ServiceSaveMixin.call_service`` (a refusal is a message, nothing written): a
league (``founding.create_league``), a season (``season_services.open_next_season``),
a coach (``invitations.add_coach``), an entrant (``season_entrants.place``; they
leave with the "Withdraw" action), a fixture (``season_services.add_fixture``). What remains a row's own edit here
(a name, a date, an entry's division) is checked by the model's constraints and,
for divisions, again when the fixtures are generated (DB-2).
"""

from django.contrib import admin

from league.admin import coaches, fixtures, forms, leagues, results, tasks  # noqa: F401  registers the model admins
from league.admin.scoping import OrganiserScopedAdmin, OrganiserScopedInline  # noqa: F401  for the game apps' admins

admin.site.site_header = "League Manager: the organiser's site"
admin.site.site_title = "League Manager"
admin.site.index_title = "Your leagues, results and campaigns"
