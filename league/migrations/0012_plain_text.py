"""Rows written before text refused control characters are made plain text, in
every text column of every app, so that the backup (docs/backup.md: ``dumpdata --format
xml``: XML 1.0 has no place for C0 control characters) can be taken of them.

What the cleaning refuses and keeps is frozen here, as it was when the rule came
in: a migration imports no live application code, so a later change to
``league/text/plaintext.py`` cannot change what this migration does to a database
that has not run it yet."""

import re
from typing import Any

from django.db import IntegrityError, migrations, models, transaction

BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
# Everything refused in a one-line text; a multi-line one allows \t, \n and \r.
ONE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}\ufffe\uffff\ud800-\udfff]")
MULTI_LINE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI_CONTROLS}\ufffe\uffff\ud800-\udfff]")
BREAKS_AND_TABS = re.compile(r"[\r\n\t]+")
BLANK_CONTROLS = re.compile("[\x0b\x0c\x1c-\x1f\x85]")  # the controls str.split() counts as blanks


def refused(multiline: bool) -> re.Pattern[str]:
    return MULTI_LINE if multiline else ONE_LINE


def cleaned(text: str, *, multiline: bool = False) -> str:
    """``text`` made plain: a blank control (a vertical tab, a form feed ...) becomes
    a space, and so do the tabs and line breaks of a one-line text; every other
    refused character goes."""
    text = BLANK_CONTROLS.sub(" ", text)
    if not multiline:
        text = BREAKS_AND_TABS.sub(" ", text)
    return refused(multiline).sub("", text)


def text_fields(model: type[models.Model]) -> list[models.Field]:
    """The model's concrete text columns (CharField and TextField, with their
    subclasses: slugs, email and web addresses)."""
    return [field for field in model._meta.concrete_fields if isinstance(field, (models.CharField, models.TextField))]


def is_multiline(field: models.Field) -> bool:
    return isinstance(field, models.TextField)


def clean_rows(registry, alias: str, *, skipped_apps: tuple[str, ...] = ("sessions",)) -> int:
    """Make every text column of every model of ``registry`` (the migration's
    historical apps) plain text, row by row, :func:`cleaned`; rows already plain are
    not written. A cleaned text that another row already holds where the two must
    differ (a unique column or constraint) gets its row's id appended rather than
    stopping the migration. Log-in sessions are encoded, never user text. Returns
    how many rows changed."""
    changed = 0
    for model in registry.get_models():
        if model._meta.app_label in skipped_apps or model._meta.proxy or not model._meta.managed:
            continue
        fields = {field.attname: field for field in text_fields(model)}
        if not fields:
            continue
        rows = model._base_manager.using(alias).values_list("pk", *fields).order_by("pk").iterator(chunk_size=2000)
        for pk, *texts in rows:
            changes = {
                name: cleaned(text, multiline=is_multiline(field))
                for (name, field), text in zip(fields.items(), texts)
                if isinstance(text, str) and refused(is_multiline(field)).search(text)
            }
            if changes:
                _update_row(model, alias, pk, changes, fields)
                changed += 1
    return changed


def _update_row(model, alias: str, pk: Any, changes: dict[str, str], fields: dict[str, models.Field]) -> None:
    rows = model._base_manager.using(alias).filter(pk=pk)
    try:
        with transaction.atomic(using=alias):
            rows.update(**changes)
    except IntegrityError:
        suffix = f" ({pk})"
        for name, text in changes.items():
            limit = (fields[name].max_length or len(text) + len(suffix)) - len(suffix)
            changes[name] = text[:limit] + suffix
        rows.update(**changes)


def clean_every_text_column(apps, schema_editor):
    clean_rows(apps, schema_editor.connection.alias)


class Migration(migrations.Migration):

    # Every app whose rows the backup holds, at its latest migration.
    dependencies = [
        ("league", "0011_coach_invitation_nonce"),
        ("guildball", "0001_initial"),
        ("campaigns", "0006_bounded_ledgers_and_unlocks"),
        ("dungeonbowl", "0013_team_accepted"),
        ("dreadball", "0004_published_roster"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("axes", "0010_accessattemptexpiration"),
    ]

    operations = [
        migrations.RunPython(clean_every_text_column, migrations.RunPython.noop),
    ]
