"""Queued task rows name their function by dotted path; the league's webhook tasks
(``announce``, ``post``) live in ``league.events.webhooks`` with the subscriptions
they post for. A row written before the move that has yet to run (waiting, or left
running by a stopped worker and requeued by ``run_tasks``) would fail to import its
function, so it is pointed at the new path. A finished row keeps the path it ran
under: it is a record. The paths and statuses are written out here, so the
migration imports no application code."""

from django.db import migrations

MOVED = {
    "league.outbox.webhooks.announce": "league.events.webhooks.announce",
    "league.outbox.webhooks.post": "league.events.webhooks.post",
}
NOT_RUN = ("READY", "RUNNING")


def _repoint(apps, schema_editor, moves: dict[str, str]) -> None:
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    rows = DBTaskResult.objects.using(schema_editor.connection.alias).filter(status__in=NOT_RUN)
    for old, new in moves.items():
        rows.filter(task_path=old).update(task_path=new)


def forwards(apps, schema_editor) -> None:
    _repoint(apps, schema_editor, MOVED)


def backwards(apps, schema_editor) -> None:
    _repoint(apps, schema_editor, {new: old for old, new in MOVED.items()})


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0002_league_webhooks"),
        ("league", "0019_task_paths_in_outbox"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
