"""Write a batch of an imported table's rows in multi-row INSERTs returning the
new ids, and keep each table's map from the file's ids to the new ones.

Why not ``bulk_create``: at 400 coaches (160,000 fixtures and results) most of
the import's time went into Django compiling each value of each model instance
(``prepare_value``, ``get_db_prep_save``, a placeholder per value) and building
the instances. Here each column's values are converted once per value only
where the database needs it (a date, a timestamp, JSON, a UUID; an int into an
integer column, text into a text column go as they are), through the field's
own ``get_db_prep_save``, as ``bulk_create`` does (``league.bulkinsert.Prepare``,
which ``insert_rows`` uses too), with the field's default for
a column the file does not hold (as a model instance would get it). As with
``bulk_create``, no ``save()`` runs and no signal is sent. The file's
timestamps are kept, ``auto_now`` ones included (a raw insert, as ``loaddata``
writes). The INSERT returns the new ids in the order of its rows, as
``bulk_create`` relies on (SQLite 3.35 or later, PostgreSQL).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from league.bulkinsert import Prepare

# Parameters per statement, at most: SQLite's own limit (999) sets the pace there; on
# PostgreSQL (65,535 allowed) the driver parses and keeps each statement's text, so
# statements of tens of thousands of parameters cost memory and time, not queries saved.
PARAMETERS = 1_000

class Inserter:
    """Inserts rows (dicts of attname to Python value) of ``model``, returning
    their new ids."""

    def __init__(self, model):
        meta = model._meta
        # A generated column is the database's to write.
        self.fields = [f for f in meta.concrete_fields if f is not meta.pk and not getattr(f, "generated", False)]
        self.stamped = {f.attname for f in self.fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)}
        qn = connection.ops.quote_name
        self.head = (f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in self.fields)}) VALUES ")
        self.tail = f" RETURNING {qn(meta.pk.column)}"
        self.one = "(" + ", ".join(["%s"] * len(self.fields)) + ")"

    def _values(self, row: dict, prepares: list[Prepare]) -> list:
        out = []
        for field, prepare in zip(self.fields, prepares):
            name = field.attname
            value = row[name] if name in row else field.get_default()
            if value is None and name in self.stamped:
                value = timezone.now()
            out.append(prepare(value))
        return out

    def insert(self, rows: list[dict]) -> list[int]:
        if not rows:
            return []
        db = connections[DEFAULT_DB_ALIAS]  # the connection itself, not its per-attribute proxy
        size = max(1, min(db.ops.bulk_batch_size(self.fields, rows), PARAMETERS // max(1, len(self.fields))))
        # A batch's dates and times repeat (a round's date, an approval's time): each
        # distinct value is converted once per batch.
        prepares = [Prepare(field, db) for field in self.fields]
        ids: list[int] = []
        with db.cursor() as cursor:
            for start in range(0, len(rows), size):
                chunk = rows[start:start + size]
                params = [value for row in chunk for value in self._values(row, prepares)]
                cursor.execute(self.head + ", ".join([self.one] * len(chunk)) + self.tail, params)
                ids += [found[0] for found in cursor.fetchall()]
        return ids


class IdMap:
    """A table's file ids to new ids: two arrays of 8-byte ints while the file's
    ids rise (as the export writes them), a dict from the first that does not."""

    __slots__ = ("olds", "news", "by_old")

    def __init__(self):
        self.olds, self.news, self.by_old = array("q"), array("q"), None

    def add(self, old, new: int) -> None:
        if self.by_old is None:
            if type(old) is int and (not self.olds or old > self.olds[-1]) and -(2**63) <= old < 2**63:
                self.olds.append(old)
                self.news.append(new)
                return
            self.by_old = dict(zip(self.olds, self.news))
            self.olds = self.news = None
        self.by_old[old] = new

    def get(self, old):
        """The new id, or None when the file's row ``old`` is not written yet."""
        if self.by_old is not None:
            return self.by_old.get(old)
        if type(old) is not int:
            return None
        index = bisect_left(self.olds, old)
        if index < len(self.olds) and self.olds[index] == old:
            return self.news[index]
        return None
