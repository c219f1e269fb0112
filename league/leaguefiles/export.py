"""Write a league as one JSON file, in chunks (docs/export-format.md).

``stream_league(league)`` yields pieces of text that joined are the file: the
page streams them (league/web/settings.py) and the API may too. Each part is one
query read with ``.iterator(chunk_size)``, so the queries are fixed per model,
never per row, and memory holds one chunk of rows at a time.
"""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from collections.abc import Iterator

from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from league.leaguefiles import registry
from league.leaguefiles.columns import columns

CHUNK = 2000


def _plain(value):
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()  # to the microsecond (DjangoJSONEncoder stops at milliseconds)
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    raise TypeError(f"{type(value).__name__} cannot be written to a league file")


_encode = json.JSONEncoder(default=_plain, ensure_ascii=False, separators=(",", ":")).encode


def _content_type_label(ct_id) -> str | None:
    if ct_id is None:
        return None
    ct = ContentType.objects.get_for_id(ct_id)  # cached per process: one query per kind at most
    return f"{ct.app_label}.{ct.model}"


def stream_league(league) -> Iterator[str]:
    """The league's file, piece by piece: the header, then each part's rows."""
    header = {
        "format": registry.FORMAT,
        "version": registry.VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {"name": league.name, "slug": league.slug, "game_system": league.game_system},
    }
    yield _encode(header)[:-1] + ',"tables":['
    for index, part in enumerate(registry.parts_for(league)):
        cols = columns(part)
        table = {"model": part.label, "columns": [c.name for c in cols]}
        if part.key:
            table["key"] = list(part.key)
        yield ("," if index else "") + _encode(table)[:-1] + ',"rows":['
        cts = [i for i, c in enumerate(cols) if c.content_type]
        rows = part.rows(league).order_by("pk").values_list(*[c.attname for c in cols])
        buffer: list[str] = []
        first = True
        for row in rows.iterator(chunk_size=CHUNK):
            if cts:
                row = list(row)
                for i in cts:
                    row[i] = _content_type_label(row[i])
            buffer.append(_encode(row))
            if len(buffer) >= CHUNK:
                yield ("" if first else ",") + ",".join(buffer)
                first, buffer = False, []
        if buffer:
            yield ("" if first else ",") + ",".join(buffer)
        yield "]}"
    yield "]}\n"
