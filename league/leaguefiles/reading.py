"""Read a league's file as a stream (docs/export-format.md): the header at once,
then each table's rows a batch at a time, so memory holds one batch of rows
whatever the file's size, never the file.

The parser is ijson (its C backend, yajl2_c, where installed), fed by
``read(READ_SIZE)`` calls. The file's header keys (``format``, ``version``,
``league``) come before ``tables``, as the export writes them, and a table's
``model`` and ``columns`` (and ``key``) before its ``rows``: that order is
what lets a table's rows be written as they are read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import ijson
from ijson.common import ObjectBuilder

from league.leaguefiles import registry

READ_SIZE = 64 * 1024  # bytes per read() of the file
BATCH = 1000  # rows per batch: what memory holds of a table at once

_STARTS = frozenset({"start_map", "start_array"})
_ENDS = frozenset({"end_map", "end_array"})


class ImportRefused(Exception):
    """The file cannot become a league here; the message says why, for a person."""


def not_json(error: Exception) -> ImportRefused:
    """The refusal for a file the parser cannot read: its first line says where."""
    detail = error.args[0] if error.args else error
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    detail = str(detail).strip().splitlines()[0] if str(detail).strip() else type(error).__name__
    return ImportRefused(f"This is not a league file (not JSON: {detail}).")


def does_not_fit(why: str) -> ImportRefused:
    return ImportRefused(f"The file does not fit together here ({why}).")


@dataclass
class Table:
    """One table of the file: its rows come in ``batches`` (lists of rows),
    read from the file as they are asked for, before the next table is read."""

    model: str
    columns: list
    key: list | None
    batches: Iterator[list[list]]


class _Bytes:
    """A binary ``read(size)`` over a text file or an iterable of chunks (bytes
    or text), so the parser reads either as it reads a binary file."""

    def __init__(self, source):
        self._read = getattr(source, "read", None)
        self._chunks = None if self._read is not None else iter(source)
        self._left = b""

    def _next(self, size: int) -> bytes:
        if self._read is not None:
            piece = self._read(size)
        else:
            piece = next(self._chunks, b"")
        return piece.encode("utf-8") if isinstance(piece, str) else piece

    def read(self, size: int = -1) -> bytes:
        while len(self._left) < size or size < 0:
            piece = self._next(size if size > 0 else READ_SIZE)
            if not piece:
                break
            self._left += piece
        if size < 0:
            out, self._left = self._left, b""
        else:
            out, self._left = self._left[:size], self._left[size:]
        return out


def _binary(source):
    """``source`` itself when it reads bytes, else wrapped so that it does."""
    read = getattr(source, "read", None)
    if read is not None and isinstance(read(0), bytes):
        return source
    return _Bytes(source)


class LeagueFile:
    """A league's file being read: ``header`` (``format``, ``version``,
    ``exported_at``, ``league``) is read and checked by ``read_file``; ``tables()``
    then yields each table, its rows read batch by batch as the import asks."""

    def __init__(self, source):
        self._events = ijson.basic_parse(_binary(source), buf_size=READ_SIZE, use_float=True)
        self.header: dict = {}
        self._at_tables = False

    def _next(self) -> tuple[str, object]:
        try:
            return next(self._events)
        except StopIteration:
            raise ImportRefused("This is not a league file (not JSON: the file ends too early).") from None

    def _value(self, event: str, value):
        """The whole value beginning with ``event`` (an object or a list built
        from its events, else the scalar itself)."""
        if event not in _STARTS:
            return value
        builder = ObjectBuilder()
        builder.event(event, value)
        depth = 1
        for event, value in self._events:
            builder.event(event, value)
            if event in _STARTS:
                depth += 1
            elif event in _ENDS:
                depth -= 1
                if not depth:
                    return builder.value
        raise ImportRefused("This is not a league file (not JSON: the file ends too early).")

    def read_header(self) -> None:
        """The header, up to ``tables`` (or the end of a file without tables)."""
        event, _ = self._next()
        if event != "start_map":
            self.header = {}
            return
        while True:
            event, key = self._next()
            if event == "end_map":
                return
            event, value = self._next()
            if key == "tables":
                if event != "start_array":
                    raise does_not_fit('its "tables" is not a list')
                self._at_tables = True
                return
            self.header[key] = self._value(event, value)

    def tables(self) -> Iterator[Table]:
        """Each table in the file's order. A table's batches must be read before
        the next table is asked for; whatever is left of them is skipped."""
        if self._at_tables:
            while True:
                event, _ = self._next()
                if event == "end_array":
                    break
                if event != "start_map":
                    raise does_not_fit("a table is not an object")
                yield from self._table()
        for _ in self._events:  # keys after the tables are read past, and the file checked to its end
            pass

    def _table(self) -> Iterator[Table]:
        meta: dict = {}
        while True:
            event, key = self._next()
            if event == "end_map":  # a table without rows
                if "model" in meta:
                    yield Table(str(meta["model"]), list(meta.get("columns") or []), meta.get("key"), iter(()))
                return
            event, value = self._next()
            if key != "rows":
                meta[key] = self._value(event, value)
                continue
            if not isinstance(meta.get("model"), str) or not isinstance(meta.get("columns"), list):
                raise does_not_fit('a table\'s "model" and "columns" must come before its "rows"')
            if event != "start_array":
                raise does_not_fit(f'the rows of "{meta["model"]}" are not a list')
            table = Table(meta["model"], meta["columns"], meta.get("key"), self._rows(meta["model"]))
            yield table
            for _ in table.batches:  # what the import did not read is skipped
                pass

    def _rows(self, model: str) -> Iterator[list[list]]:
        events, batch = self._events, []
        for event, _ in events:
            if event == "end_array":
                break
            if event != "start_array":
                raise does_not_fit(f'a row of "{model}" is not a list')
            row = []
            for event, value in events:
                if event == "end_array":
                    break
                row.append(self._value(event, value) if event in _STARTS else value)
            batch.append(row)
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch


def read_file(source: Iterable) -> LeagueFile:
    """A league's file being read from ``source`` (a file, binary or text, or an
    iterable of chunks), its header read and checked: refused unless it is a
    league file of this version."""
    file = LeagueFile(source)
    try:
        file.read_header()
    except (ijson.JSONError, UnicodeDecodeError) as error:
        raise not_json(error) from None
    header = file.header
    if header.get("format") != registry.FORMAT:
        raise ImportRefused(f"This is not a league file (its \"format\" is not \"{registry.FORMAT}\").")
    if header.get("version") != registry.VERSION:
        raise ImportRefused(
            f"This league file is format version {header.get('version')!r}; this installation reads "
            f"version {registry.VERSION} only. Export the league again from an installation of "
            f"the same version."
        )
    return file
