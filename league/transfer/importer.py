"""Read a league's file into a new league, in one transaction (docs/export-format.md).

Every row gets a new id: the file's ids are read as names, mapped table by table
(``id_maps``). A key pointing at a row not yet written (a forward or a
self-reference, a generic key's object) is set once every row exists. A
catalogue shared by every league (``Part.key``) is matched by its key and only
the missing entries are created. Who acted stays behind with the accounts: an
account column is left empty, or given the importing organiser where it must
have one.
"""

from __future__ import annotations

import json
from collections import defaultdict

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models import Q

from league.caching.writes import changed
from league.transfer import registry
from league.transfer.columns import accounts_required, columns

BATCH = 1000


class ImportRefused(Exception):
    """The file cannot become a league here; the message says why, for a person."""


def read_file(handle) -> dict:
    """The file's content, refused unless it is a league file of this version."""
    try:
        data = json.load(handle)
    except (ValueError, UnicodeDecodeError) as error:
        raise ImportRefused(f"This is not a league file (not JSON: {error}).") from None
    if not isinstance(data, dict) or data.get("format") != registry.FORMAT:
        raise ImportRefused(f"This is not a league file (its \"format\" is not \"{registry.FORMAT}\").")
    if data.get("version") != registry.VERSION:
        raise ImportRefused(
            f"This league file is format version {data.get('version')!r}; this installation reads "
            f"version {registry.VERSION} only. Export the league again from an installation of "
            f"the same version."
        )
    return data


def import_league(data: dict, *, organiser=None, slug: str | None = None):
    """A new league from a read file (``read_file``), organised by ``organiser``
    (an account, or None for none yet), at ``slug`` (the file's when None)."""
    try:
        with transaction.atomic():
            return _import(data, organiser=organiser, slug=slug)
    except (IntegrityError, ValidationError, DatabaseError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, ImportRefused):
            raise
        raise ImportRefused(f"The file does not fit together here ({type(error).__name__}: {error}).") from None


class _Ids:
    def __init__(self):
        self.maps: dict[str, dict] = defaultdict(dict)

    def __call__(self, label: str, old):
        """The new id of ``label``'s row ``old`` (None for None)."""
        if old is None:
            return None
        return self.maps[label][old]


def _import(data: dict, *, organiser, slug):
    from league.models import League

    ids = _Ids()
    deferred: dict[type, dict[int, dict]] = defaultdict(lambda: defaultdict(dict))  # model -> pk -> attname -> (label, old)
    content_types: dict[str, int] = {}
    league_pk = None
    slug = slug or data["league"]["slug"]
    try:
        validate_slug(slug)
    except ValidationError:
        raise ImportRefused(f"{slug!r} cannot be a league's address: letters, digits, hyphens and underscores only.") from None
    if League.objects.filter(slug=slug).exists():
        raise ImportRefused(f"A league at /leagues/{slug}/ exists here already: choose another address (--slug).")

    def content_type_id(label):
        if label is None:
            return None
        if label not in content_types:
            app_label, model = label.split(".", 1)
            content_types[label] = ContentType.objects.get_by_natural_key(app_label, model).pk
        return content_types[label]

    for table in data["tables"]:
        part = registry.part_for(table["model"])
        if part is None:
            raise ImportRefused(f"This installation has nothing to hold \"{table['model']}\" (a game or layer it lacks).")
        known = {c.name: c for c in columns(part)}
        unknown = [name for name in table["columns"] if name not in known]
        if unknown:
            raise ImportRefused(f"\"{table['model']}\" has columns this installation lacks: {', '.join(unknown)}.")
        cols = [known[name] for name in table["columns"]]
        required = accounts_required(part)
        if required and table["rows"] and organiser is None:
            raise ImportRefused(f"\"{table['model']}\" needs an account for who acted: name the organiser (--organiser).")
        model = part.model
        timestamps = [f.attname for f in model._meta.concrete_fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
        existing = {}
        if part.key:
            first = table["columns"].index(part.key[0])
            names = {row[first] for row in table["rows"]}
            attnames = [model._meta.get_field(name).attname for name in part.key]
            existing = {
                tuple(getattr(obj, a) for a in attnames): obj.pk
                for obj in model.objects.filter(**{f"{part.key[0]}__in": names})
            }

        objects, olds, later, kept_times = [], [], [], []
        for row in table["rows"]:
            values = dict(zip(table["columns"], row))
            old_pk = values.pop("id")
            if part.remap is not None:
                part.remap(values, ids)
            kwargs, waits = {}, {}
            for col in cols[1:]:
                value = values[col.name]
                if col.points_at is not None:
                    if value is not None and value not in ids.maps[col.points_at]:
                        waits[col.attname] = (col.points_at, value)
                        value = None
                    else:
                        value = ids(col.points_at, value)
                elif col.content_type:
                    value = content_type_id(value)
                elif col.object_id_of is not None and value is not None:
                    waits[col.attname] = (values[col.object_id_of], value)
                elif isinstance(value, str) and not isinstance(col.field, models.JSONField):
                    value = col.field.to_python(value)
                kwargs[col.attname] = value
            for field in required:
                kwargs[field.attname] = organiser.pk
            if model is League:
                kwargs["slug"] = slug
            if part.key:
                found = existing.get(tuple(kwargs[a] for a in attnames))
                if found is not None:
                    ids.maps[part.label][old_pk] = found
                    continue
            objects.append(model(**kwargs))
            olds.append(old_pk)
            later.append(waits)
            kept_times.append({name: kwargs[name] for name in timestamps if kwargs.get(name) is not None})
        created = []
        for start in range(0, len(objects), BATCH):
            created += model.objects.bulk_create(objects[start:start + BATCH])
        for obj, old_pk, waits, times in zip(created, olds, later, kept_times):
            ids.maps[part.label][old_pk] = obj.pk
            if waits:
                deferred[model][obj.pk].update(waits)
            for name, value in times.items():
                setattr(obj, name, value)
        if timestamps and created:
            model.objects.bulk_update(created, timestamps, batch_size=BATCH)
        if model is League:
            league_pk = created[0].pk

    for model, rows in deferred.items():
        # Grouped by the columns waiting, so a row's other columns are never written.
        groups: dict[tuple, list] = defaultdict(list)
        for pk, waits in rows.items():
            obj = model(pk=pk)
            for attname, (label, old) in waits.items():
                # A foreign key's model, or a generic key's content type: both "app_label.model".
                setattr(obj, attname, ids(label, old))
            groups[tuple(sorted(waits))].append(obj)
        for fields, objects in groups.items():
            model.objects.bulk_update(objects, list(fields), batch_size=BATCH)

    if league_pk is None:
        raise ImportRefused("The file holds no league.")
    league = League.objects.get(pk=league_pk)
    if organiser is not None:
        league.organisers.add(organiser)
    changed(Q(league_id=league.pk))
    return league
