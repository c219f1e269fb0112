"""Appending many rows of plain values at once, for the writes that derive
thousands of rows (a Big League import's ledger lines, a game's ratings from
scratch).

``bulk_create`` builds and compiles a model instance per row, which is most of
such a write's time; ``insert_rows`` takes the values as they are: PostgreSQL's
own bulk load (COPY) from a few hundred rows on, else one INSERT run for every
row (``executemany``). It sends no signal and bumps no version: the caller says
what changed, as after any bulk write.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection, models

COPY_FROM = 500  # rows: below this one INSERT statement costs less than opening a COPY

# Field kinds whose values of these exact Python types every backend's driver
# takes as they are; any other value (a date, a time, a decimal, a UUID, JSON) is
# prepared by its field, as ``bulk_create`` would.
_AS_IS = (
    (models.BooleanField, bool),
    (models.IntegerField, int),
    (models.FloatField, float),
    (models.CharField, str),
    (models.TextField, str),
)


def as_is_type(field) -> type | None:
    """The Python type whose values go into ``field``'s column untouched (a
    relation's: its target's), or None when every value is prepared."""
    target = field.target_field if field.is_relation else field
    if isinstance(target, (models.AutoField, models.BigAutoField)):
        return int
    if isinstance(field, models.JSONField):
        return None
    for kind, python_type in _AS_IS:
        if isinstance(target, kind):
            return python_type
    return None


class Prepare:
    """A column's values made ready for the database: ``None`` and values of the
    field's as-is type go as they are, any other through the field's own
    ``get_db_prep_save``, each distinct value once (a column of dates or
    timestamps repeats its values; JSON values are not hashable, so not kept)."""

    __slots__ = ("field", "connection", "as_is", "seen")

    def __init__(self, field, db):
        self.field, self.connection, self.as_is = field, db, as_is_type(field)
        self.seen: dict | None = None if isinstance(field, models.JSONField) else {}

    def __call__(self, value):
        if value is None or type(value) is self.as_is:
            return value
        if self.seen is None:
            return self.field.get_db_prep_save(value, self.connection)
        try:
            return self.seen[value]
        except KeyError:
            prepared = self.seen[value] = self.field.get_db_prep_save(value, self.connection)
            return prepared


def insert_rows(model, fields: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Insert ``rows`` into ``model``'s table, each a sequence of values in the
    order of ``fields`` (attnames: ``coach_id``, not ``coach``); a column not named
    takes its database default, or NULL. Returns how many rows were written."""
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        return 0
    chosen = [model._meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    table, columns = quote(model._meta.db_table), ", ".join(quote(field.column) for field in chosen)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(rows) >= COPY_FROM:
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return len(rows)
        prepared = [(i, Prepare(field, connection)) for i, field in enumerate(chosen) if as_is_type(field) is None]
        if prepared and connection.vendor != "postgresql":  # PostgreSQL's driver adapts dates and UUIDs itself
            rows = [list(row) for row in rows]
            for i, prepare in prepared:
                for row in rows:
                    row[i] = prepare(row[i])
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(chosen))})", rows)
    return len(rows)
