"""Read a league's file into a new league, in one transaction (docs/export-format.md).

The file is read as a stream (``reading.read_file``): each table's rows arrive
a batch at a time and each batch is written in multi-row INSERTs returning the
new ids (``inserting.Inserter``), so memory holds one batch of rows and the id
maps (two 8-byte ints per row), never the file. A
refusal half way (a row that does not fit, a file that stops being JSON) undoes
every row written before it: the whole import is one transaction.

Every row gets a new id: the file's ids are read as names, mapped table by table
(``id_maps``). A key pointing at a row not yet written (a forward or a
self-reference, a generic key's object) is set once every row exists. A
catalogue shared by every league (``Part.key``) is matched by its key and only
the missing entries are created. Who acted stays behind with the accounts: an
account column is left empty, or given the importing organiser where it must
have one.
"""

from __future__ import annotations

from collections import defaultdict

import ijson
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models import Q

from league.caching.writes import changed
from league.facts import kinds as fact
from league.facts import recording as facts
from league.leaguefiles import registry
from league.leaguefiles.columns import accounts_required, columns
from league.leaguefiles.inserting import IdMap, Inserter
from league.leaguefiles.reading import ImportRefused, LeagueFile, Table, does_not_fit, not_json, read_file
from league.models import League
from league.text import plaintext

__all__ = ["ImportRefused", "import_league", "read_file"]

UPDATE_BATCH = 1000  # rows per bulk_update of the keys set once every row exists

# Columns whose file value (text) is already the model's value: no to_python per value.
_TEXT = (models.CharField, models.TextField, models.JSONField)


def import_league(file: LeagueFile, *, organiser=None, slug: str | None = None):
    """A new league from a league file being read (``read_file``), organised by
    ``organiser`` (an account, or None for none yet), at ``slug`` (the file's
    when None)."""
    try:
        with transaction.atomic():
            return _import(file, organiser=organiser, slug=slug)
    except ImportRefused:
        raise
    except (ijson.JSONError, UnicodeDecodeError) as error:
        raise not_json(error) from None
    except (IntegrityError, ValidationError, DatabaseError, KeyError, TypeError, ValueError, AttributeError) as error:
        raise does_not_fit(f"{type(error).__name__}: {error}") from None


class _Ids:
    def __init__(self):
        self.maps: dict[str, IdMap] = defaultdict(IdMap)

    def __call__(self, label: str, old):
        """The new id of ``label``'s row ``old`` (None for None)."""
        if old is None:
            return None
        new = self.maps[label].get(old)
        if new is None:
            raise KeyError(f"{label} {old!r} is not in the file")
        return new


def _import(file: LeagueFile, *, organiser, slug):
    slug = slug or (file.header.get("league") or {})["slug"]
    try:
        validate_slug(slug)
    except ValidationError:
        raise ImportRefused(f"{slug!r} cannot be a league's address: letters, digits, hyphens and underscores only.") from None
    if League.objects.filter(slug=slug).exists():
        raise ImportRefused(f"A league at /leagues/{slug}/ exists here already: choose another address (--slug).")

    writer = _Writer(organiser=organiser, slug=slug, league_model=League)
    for table in file.tables():
        writer.write(table)
    writer.set_deferred()

    if writer.league_pk is None:
        raise ImportRefused("The file holds no league.")
    league = League.objects.get(pk=writer.league_pk)
    if organiser is not None:
        league.organisers.add(organiser)
    changed(Q(league_id=league.pk))
    # RT-2: its approved results count in the game's ratings (the fact's follower).
    facts.record(fact.LEAGUE_IMPORTED, by=organiser, league=league)
    return league


def _refuse_what_is_not_plain(label: str, cols: list, objects: list[dict], olds: list) -> None:
    """A batch's texts are plain text, as every other way in asks of them
    (league/text/plaintext.py): a file is refused whole for one text that is not,
    so nothing a form would refuse (a control character, a kept page's marker
    character) reaches the database this way. One search per text column a batch."""
    for col in cols[1:]:
        field = col.field
        if col.points_at is not None or col.content_type:
            continue
        if isinstance(field, models.JSONField):
            for obj, old in zip(objects, olds):
                if (value := obj.get(col.attname)) is not None and (found := plaintext.problem_in(value)):
                    raise _not_plain(label, old, col.name, found)
        elif isinstance(field, (models.CharField, models.TextField)):
            multiline = plaintext.is_multiline(field)
            texts = [value for obj in objects if isinstance(value := obj.get(col.attname), str)]
            if plaintext.problem(" ".join(texts), multiline=multiline) is None:
                continue
            for obj, old in zip(objects, olds):
                value = obj.get(col.attname)
                if isinstance(value, str) and (found := plaintext.problem(value, multiline=multiline)):
                    raise _not_plain(label, old, col.name, found)


def _not_plain(label: str, old, column: str, found: str) -> ImportRefused:
    return ImportRefused(f"The file's \"{label}\" {old!r} holds {found} in its \"{column}\": "
                         f"only plain text can be imported.")


class _Writer:
    """Writes the file's tables one batch of rows at a time, keeping only the
    id maps and the keys waiting for rows not yet written."""

    def __init__(self, *, organiser, slug: str, league_model):
        self.organiser, self.slug, self.League = organiser, slug, league_model
        self.ids = _Ids()
        # model -> new pk -> attname -> (label, old id): keys set once every row exists
        self.deferred: dict[type, dict[int, dict]] = defaultdict(lambda: defaultdict(dict))
        self.content_types: dict[str, int] = {}
        self.inserters: dict[type, Inserter] = {}
        self.league_pk = None

    def content_type_id(self, label):
        if label is None:
            return None
        if label not in self.content_types:
            app_label, model = label.split(".", 1)
            self.content_types[label] = ContentType.objects.get_by_natural_key(app_label, model).pk
        return self.content_types[label]

    def write(self, table: Table) -> None:
        part = registry.part_for(table.model)
        if part is None:
            raise ImportRefused(f"This installation has nothing to hold \"{table.model}\" (a game or layer it lacks).")
        known = {c.name: c for c in columns(part)}
        unknown = [str(name) for name in table.columns if name not in known]
        if unknown:
            raise ImportRefused(f"\"{table.model}\" has columns this installation lacks: {', '.join(unknown)}.")
        if not table.columns or table.columns[0] != "id":
            raise does_not_fit(f'the first column of "{table.model}" is not its "id"')
        cols = [known[name] for name in table.columns]
        required = accounts_required(part)
        for rows in table.batches:
            if required and self.organiser is None:
                raise ImportRefused(f"\"{table.model}\" needs an account for who acted: name the organiser (--organiser).")
            self._write_rows(part, table.columns, cols, required, rows)

    def _write_rows(self, part, names: list, cols: list, required: list, rows: list[list]) -> None:
        """One batch of a table's rows: multi-row INSERTs (inserting.py), and for a
        catalogue one query for its existing rows."""
        model, ids, label = part.model, self.ids, part.label
        id_map = ids.maps[label]
        existing, attnames = {}, []
        if part.key:
            first = names.index(part.key[0])
            attnames = [model._meta.get_field(name).attname for name in part.key]
            existing = {
                tuple(getattr(obj, a) for a in attnames): obj.pk
                for obj in model.objects.filter(**{f"{part.key[0]}__in": {row[first] for row in rows}})
            }
        # Per column, what its value needs: (index in the row, attname, kind, and for a key
        # the model it points at, for a generic key's id where the row names the object's
        # model, for a value to convert its field).
        plan = []
        for index, col in enumerate(cols[1:], start=1):
            if col.points_at is not None:
                plan.append((index, col.attname, "key", col.points_at))
            elif col.content_type:
                plan.append((index, col.attname, "type", None))
            elif col.object_id_of is not None:
                if col.object_id_of not in names:
                    raise does_not_fit(f'"{label}" has "{col.name}" without "{col.object_id_of}"')
                plan.append((index, col.attname, "object", names.index(col.object_id_of)))
            elif isinstance(col.field, _TEXT):
                plan.append((index, col.attname, "as is", None))
            else:
                plan.append((index, col.attname, "convert", col.field))
        width = len(names)
        objects, olds, later = [], [], []
        for row in rows:
            if len(row) != width:
                raise does_not_fit(f'a row of "{label}" has {len(row)} values for {width} columns')
            values = dict(zip(names, row)) if part.remap is not None else None
            if values is not None:
                part.remap(values, ids)
                row = [values[name] for name in names]
            old_pk = row[0]
            kwargs, waits = {}, {}
            for index, attname, kind, extra in plan:
                value = row[index]
                if kind == "as is" or value is None:
                    pass
                elif kind == "key":
                    new = ids.maps[extra].get(value)
                    if new is None:
                        waits[attname] = (extra, value)
                    value = new
                elif kind == "type":
                    value = self.content_type_id(value)
                elif kind == "object":
                    waits[attname] = (row[extra], value)
                elif isinstance(value, str):
                    value = extra.to_python(value)
                kwargs[attname] = value
            for field in required:
                kwargs[field.attname] = self.organiser.pk
            if model is self.League:
                kwargs["slug"] = self.slug
            if part.key:
                found = existing.get(tuple(kwargs[a] for a in attnames))
                if found is not None:
                    id_map.add(old_pk, found)
                    continue
            objects.append(kwargs)
            olds.append(old_pk)
            later.append(waits)
        _refuse_what_is_not_plain(label, cols, objects, olds)
        if model not in self.inserters:
            self.inserters[model] = Inserter(model)
        created = self.inserters[model].insert(objects)
        for pk, old_pk, waits in zip(created, olds, later):
            id_map.add(old_pk, pk)
            if waits:
                self.deferred[model][pk].update(waits)
        if model is self.League and created:
            self.league_pk = created[0]

    def set_deferred(self) -> None:
        """The keys that waited for rows written after theirs."""
        ids = self.ids
        for model, rows in self.deferred.items():
            # Grouped by the columns waiting, so a row's other columns are never written.
            groups: dict[tuple, list] = defaultdict(list)
            for pk, waits in rows.items():
                obj = model(pk=pk)
                for attname, (label, old) in waits.items():
                    # A foreign key's model, or a generic key's content type: both "app_label.model".
                    setattr(obj, attname, ids(label, old))
                groups[tuple(sorted(waits))].append(obj)
            for fields, objects in groups.items():
                model.objects.bulk_update(objects, list(fields), batch_size=UPDATE_BATCH)
