"""The columns of a part as the file writes them (docs/export-format.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey

# Never leaves the installation, whatever a part says: addresses and secrets.
SECRET_NAMES = frozenset({"email", "password", "webhook_secret", "invitation_nonce"})


@dataclass(frozen=True)
class Column:
    name: str  # the name in the file (a foreign key's field name, not its _id)
    attname: str  # the model's attribute
    field: object
    points_at: str | None = None  # a foreign key's model label
    content_type: bool = False  # written as "app_label.model"
    object_id_of: str | None = None  # a generic key's id: the name of its content-type column


def is_account(field) -> bool:
    return field.is_relation and field.related_model._meta.label == settings.AUTH_USER_MODEL


def columns(part) -> list[Column]:
    """Every column of the part's model the file holds, the primary key first."""
    meta = part.model._meta
    generic = {
        f.fk_field: meta.get_field(f.ct_field).name
        for f in meta.private_fields
        if isinstance(f, GenericForeignKey)
    }
    out = [Column("id", meta.pk.attname, meta.pk)]
    for f in meta.concrete_fields:
        if f.primary_key or f.name in part.leave_out or f.name in SECRET_NAMES or is_account(f):
            continue
        if f.is_relation:
            label = f.related_model._meta.label_lower
            if label == "contenttypes.contenttype":
                out.append(Column(f.name, f.attname, f, content_type=True))
            else:
                out.append(Column(f.name, f.attname, f, points_at=label))
        else:
            out.append(Column(f.name, f.attname, f, object_id_of=generic.get(f.name)))
    return out


def accounts_required(part) -> list:
    """The part's account columns that cannot be empty: the importing organiser fills them."""
    return [f for f in part.model._meta.concrete_fields if is_account(f) and not f.null]
