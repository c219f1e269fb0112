"""Queries every logged-in or warm page runs, without the ORM's compiling.

A warm page is a handful of small queries, and compiling a queryset costs more
than running it (a millisecond against a few tenths). The few queries that every
such request runs (a league's season versions, the session, the account and its
coach) are written once per process by the ORM and run here with their
parameters (``Statement``). On PostgreSQL they are prepared statements: planning them cost more
than running them (pgbench: 0.34 ms a query planned each time, 0.14 ms prepared).
Turn that off with PREPARED_STATEMENTS=false (league/settings.py).
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.conf import settings
from django.db import connection


class Statement:
    """``queryset``'s SQL, compiled once. ``markers`` are the placeholder values it
    was written with (distinct, as the database takes them; one may be used more
    than once): ``rows(values)`` runs it with ``values`` in their places, the
    query's own constants kept, and
    converts the values as the ORM would (SQLite's dates and booleans)."""

    def __init__(self, queryset, markers: list):
        compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.slots = [
            next((i for i, marker in enumerate(markers) if type(marker) is type(param) and marker == param), None)
            for param in self.params
        ]
        assert {slot for slot in self.slots if slot is not None} == set(range(len(markers))), (params, markers)
        self.converters = compiler.get_converters([column for column, _, _ in compiler.select])
        self.compiler = compiler

    def rows(self, values: list[Any]) -> list:
        params = [param if slot is None else values[slot] for param, slot in zip(self.params, self.slots)]
        rows = fetch(self.sql, params)
        if self.converters:
            rows = [tuple(row) for row in self.compiler.apply_converters(rows, self.converters)]
        return rows


def fetch(sql: str, params: list[Any]) -> list[tuple]:
    """The rows of ``sql`` run with ``params``, logged as Django logs its own
    queries (``connection.queries``, ``django_assert_num_queries``)."""
    if connection.vendor != "postgresql" or not settings.PREPARED_STATEMENTS:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    # psycopg's server-binding cursor prepares what it runs once the connection's
    # ``prepare_threshold`` (settings.py: 0, the first time) is reached; Django's own
    # cursors bind client-side and never prepare. Wrapped as Django wraps its own
    # (execute wrappers, error translation) and logged as the statement composed
    # with its parameters: psycopg keeps no text of a prepared execution.
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = psycopg.Cursor(connection.connection)
    with connection.make_cursor(raw) as cursor:
        if connection.queries_logged:
            with connection.make_debug_cursor(raw).debug_sql(connection.ops.compose_sql(sql, params), params):
                cursor.execute(sql, params)
        else:
            cursor.execute(sql, params)
        return cursor.fetchall()
