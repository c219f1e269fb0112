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

from django.db import connection

COPY_FROM = 500  # rows: below this one INSERT statement costs less than opening a COPY

# Field types whose Python values every backend's driver takes as they are; any
# other (a date, a time, a decimal, a UUID on SQLite) is prepared by its field.
_PLAIN = frozenset({
    "AutoField", "BigAutoField", "BigIntegerField", "BooleanField", "CharField", "FloatField", "ForeignKey",
    "IntegerField", "PositiveBigIntegerField", "PositiveIntegerField", "PositiveSmallIntegerField", "SlugField",
    "SmallIntegerField", "TextField",
})


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
        prepared = [(i, field) for i, field in enumerate(chosen) if field.get_internal_type() not in _PLAIN]
        if prepared and connection.vendor != "postgresql":
            rows = [list(row) for row in rows]
            for i, field in prepared:
                seen: dict = {}  # such columns repeat their values (a week, a timestamp): each prepared once
                for row in rows:
                    value = row[i]
                    if value not in seen:
                        seen[value] = field.get_db_prep_save(value, connection)
                    row[i] = seen[value]
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(chosen))})", rows)
    return len(rows)
