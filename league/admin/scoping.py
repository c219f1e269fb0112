"""Scoping the admin to the leagues an organiser runs (GB-1), for every app whose
models belong to a league (league/admin/, campaigns/admin.py).

A non-superuser organiser sees and changes only the leagues they organise and
what hangs off them: ``OrganiserScopedAdmin`` scopes querysets, object
permissions and foreign-key choices, ``OrganiserScopedInline`` the choices of an
inline, ``ScopedRelatedFilter`` a changelist's related-field filter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.exceptions import NotRegistered
from django.contrib.admin.views.main import SEARCH_VAR
from django.core import checks
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, PermissionDenied, ValidationError
from django.db import models
from django.forms.models import _get_foreign_key
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.text import smart_split

from league.web.converters import MAX_ID
from league.models import League


# Scoping ---------------------------------------------------------------------


def organised_leagues(request: HttpRequest) -> models.QuerySet[League]:
    """The leagues the request's user organises (every league for a superuser)."""
    return League.objects.organised_by(request.user)


def error_text(exc: Exception) -> str:
    """A service refusal as one line for a message."""
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc) or "You are not allowed to do this."


class Refused(Exception):
    """A service refused what an admin page saves: its reason is already shown as a
    message, and the page's transaction is rolled back (``ServiceSaveMixin``)."""


class ServiceSaveMixin:
    """For an admin whose add or change page saves through a service (the site's
    own): ``call_service`` runs it with the page's values, and a refusal
    (``ValidationError``/``PermissionDenied``) becomes an error message and the same
    page again, with nothing written (the admin saves a page in one transaction,
    which the refusal rolls back)."""

    def call_service(self, request: HttpRequest, service: Callable[..., Any], **kwargs) -> Any:
        try:
            return service(**kwargs)
        except (ValidationError, PermissionDenied) as error:
            self.message_user(request, error_text(error), messages.ERROR)
            raise Refused from error

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except Refused:
            return redirect(request.get_full_path())


class CheckedModelForm(forms.ModelForm):
    """The base form of every admin page that writes.

    Django's ModelForm checks only the constraints whose fields are all on the
    form; one that also names a field the admin sets itself or shows read-only (a
    fixture's ``stage``, a coach's ``created_by``, a player's ``team`` and
    ``status``) reached the database as an IntegrityError, a 500. Here every
    unique check and constraint is checked against the whole instance (skipping
    only the fields that already have an error), and a violation is a form error;
    one on a field that is not on the form is shown above the form.

    An admin that sets a field in ``save_model`` sets it on the form's instance
    first (``CoachAdmin.get_form``), so that the check sees the row to be saved.
    """

    def validate_unique(self):
        super().validate_unique()
        failed = {name for name in self._errors if name != NON_FIELD_ERRORS}
        shown = {message for messages in self.errors.values() for message in messages}
        for check in (self.instance.validate_unique, self.instance.validate_constraints):
            try:
                check(exclude=failed)
            except ValidationError as error:
                for name, messages in error.message_dict.items():
                    for message in messages:
                        if message not in shown:
                            shown.add(message)
                            self.add_error(name if name in self.fields else None, message)


class ScopedChoicesMixin:
    """Limits the choices of foreign-key and many-to-many form fields, for users who
    are not superusers, to the objects the related model's admin lets them see.

    Works on ``ModelAdmin`` and ``InlineModelAdmin`` alike. A related model is
    scoped when its admin on the same site has a ``scope_queryset(request, qs)``
    method (every ``OrganiserScopedAdmin`` has one); other relations keep Django's
    default choices, so register a scoped admin for every model that belongs to a
    league (an ``Entry`` of another league must never be offered).
    """

    admin_site: admin.AdminSite

    def scoped_choices(self, request: HttpRequest, model: type[models.Model]) -> models.QuerySet | None:
        """The queryset of ``model`` the user may pick from, or None when the model
        has no organiser-scoped admin."""
        try:
            related_admin = self.admin_site.get_model_admin(model)
        except NotRegistered:
            return None
        scope = getattr(related_admin, "scope_queryset", None)
        if scope is None:
            return None
        return scope(request, model._default_manager.all())

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser and "queryset" not in kwargs:
            queryset = self.scoped_choices(request, db_field.remote_field.model)
            if queryset is not None:
                kwargs["queryset"] = queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if not request.user.is_superuser and "queryset" not in kwargs:
            queryset = self.scoped_choices(request, db_field.remote_field.model)
            if queryset is not None:
                kwargs["queryset"] = queryset
        return super().formfield_for_manytomany(db_field, request, **kwargs)


def is_id(value: str) -> bool:
    """A database id as league/web/converters.py bounds it (no int() of a long string)."""
    return value.isascii() and value.isdigit() and len(value) <= len(str(MAX_ID)) and 0 < int(value) <= MAX_ID


# What one changelist request may ask: a search of more words made
# SQLite's "Expression tree is too large" (a misreported outage), a year past 9999 an
# OverflowError. Generous for an organiser, small for the database.
MAX_SEARCH_TERMS = 10
MAX_SEARCH_LENGTH = 200
# A date transform in a changelist's query (the date hierarchy's date__year, or any
# date field's, which the admin accepts on every list) and the values it may take.
DATE_PARTS = {
    "year": (1, 9999), "iso_year": (1, 9999), "quarter": (1, 4), "month": (1, 12), "week": (1, 53),
    "day": (1, 31), "week_day": (1, 7), "iso_week_day": (1, 7),
}


def changelist_refusal(request: HttpRequest) -> tuple[str, list[str]] | None:
    """Why a changelist query is out of bounds and which parameters to drop, or None."""
    query = request.GET.get(SEARCH_VAR, "")
    if len(query) > MAX_SEARCH_LENGTH or len(list(smart_split(query))) > MAX_SEARCH_TERMS:
        return f"Search for at most {MAX_SEARCH_TERMS} words ({MAX_SEARCH_LENGTH} characters).", [SEARCH_VAR]
    off = [name for name in request.GET if not all(_on_calendar(name, value) for value in request.GET.getlist(name))]
    if off:
        return "That date is not on the calendar.", off
    return None


def _on_calendar(name: str, value: str) -> bool:
    """A date part's value within its bounds (``date__year=2026``); True for a
    parameter that is no date part. ``value`` may be a comma-separated list."""
    parts = [part for part in name.split("__") if part in DATE_PARTS]
    if not parts:
        return True
    low, high = DATE_PARTS[parts[-1]]
    return all(v.isascii() and v.isdigit() and len(v) <= 4 and low <= int(v) <= high for v in value.split(","))


class BoundedSelectionMixin:
    """Bounds what one request may ask of a changelist, for every admin of the
    project (the scoped admins, the catalogue's, the colleges'):

    - an action on ids beyond 64 bits (``_selected_action=999…9``) reached the ORM,
      where SQLite raises OverflowError (a 500): such a selection is refused with a
      message instead, as the ``<id:>`` URL converter does for paths;
    - a search of more than ``MAX_SEARCH_TERMS`` words or ``MAX_SEARCH_LENGTH``
      characters, and a date part off the calendar (``?date__year=9999…9``, the
      date hierarchy's or any date field's), are refused with a message and the
      list without them.
    """

    def changelist_view(self, request, extra_context=None):
        refusal = changelist_refusal(request)
        if refusal is not None:
            message, dropped = refusal
            self.message_user(request, message, messages.ERROR)
            query = request.GET.copy()
            for name in dropped:
                query.pop(name, None)
            return HttpResponseRedirect(f"{request.path}?{query.urlencode()}" if query else request.path)
        return super().changelist_view(request, extra_context)

    def response_action(self, request, queryset):
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if not all(is_id(value) for value in selected):
            self.message_user(request, "The selection holds something that is not an item of this list.", messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
        return super().response_action(request, queryset)


class OrganiserScopedAdmin(ServiceSaveMixin, BoundedSelectionMixin, ScopedChoicesMixin, admin.ModelAdmin):
    """A ModelAdmin for a model that belongs to a league (GB-1: each league has its
    own Longshanks).

    Set ``league_lookup`` to the ORM path from the model to its ``League``:
    ``"league"`` for Season, ``"season__league"`` for Entry and Round,
    ``"round__season__league"`` for Fixture, ``"fixture__round__season__league"``
    for Result, ``""`` for League itself. For a user who is not a superuser:

    - ``get_queryset`` lists only objects of leagues the user organises
      (``League.organisers``); other leagues' objects do not exist for them, so a
      direct change URL redirects to the admin index with "does not exist";
    - ``has_view_permission`` / ``has_change_permission`` /
      ``has_delete_permission`` are False for an object outside that scope, on top
      of the model permissions the user's group gives;
    - foreign-key and many-to-many choices are scoped by ``ScopedChoicesMixin`` (a
      Season form offers only the user's leagues, a Fixture form only their rounds
      and entries, and so on);
    - adding a ``League`` makes its creator one of its organisers (``save_related``).

    To scope by another rule than one league path (coaches, say), override
    ``scope_queryset(request, queryset)``; everything above follows from it.
    ``run_form_action`` is the helper behind the workflow actions that need an
    intermediate form.
    """

    league_lookup: str | None = None
    form = CheckedModelForm

    def check(self, **kwargs):
        """``manage.py check`` catches a missing or wrong ``league_lookup``."""
        errors = super().check(**kwargs)
        if type(self).scope_queryset is not OrganiserScopedAdmin.scope_queryset:
            return errors
        hint = 'The ORM path from the model to its League, e.g. "season__league"; "" for League itself.'
        if self.league_lookup is None:
            return [*errors, checks.Error(f"{type(self).__name__} must set league_lookup.", hint=hint, obj=type(self), id="league.E001")]
        model = self.model
        try:
            for part in filter(None, self.league_lookup.split("__")):
                model = model._meta.get_field(part).related_model
        except (FieldDoesNotExist, AttributeError):
            model = None
        if model is not League:
            errors.append(
                checks.Error(
                    f"{type(self).__name__}.league_lookup {self.league_lookup!r} does not lead from "
                    f"{self.model.__name__} to League.",
                    hint=hint,
                    obj=type(self),
                    id="league.E002",
                )
            )
        return errors

    def scope_queryset(self, request: HttpRequest, queryset: models.QuerySet) -> models.QuerySet:
        """``queryset`` narrowed to what the request's user may see."""
        if request.user.is_superuser:
            return queryset
        if self.league_lookup is None:
            raise NotImplementedError(f"{type(self).__name__} must set league_lookup or override scope_queryset().")
        # A subquery rather than a join on organisers: no duplicate rows, no distinct().
        field = f"{self.league_lookup}__in" if self.league_lookup else "pk__in"
        return queryset.filter(**{field: organised_leagues(request).values("pk")})

    def get_queryset(self, request: HttpRequest) -> models.QuerySet:
        return self.scope_queryset(request, super().get_queryset(request))

    def is_in_scope(self, request: HttpRequest, obj: models.Model | None) -> bool:
        """True for no object (the model-level question), for a superuser, and for an
        object the user may see. Cached per request: the admin asks several times."""
        if obj is None or obj.pk is None or request.user.is_superuser:
            return True
        cache = request.__dict__.setdefault("_organiser_scope_cache", {})
        key = (obj._meta.label, obj.pk)
        if key not in cache:
            cache[key] = self.scope_queryset(request, self.model._default_manager.filter(pk=obj.pk)).exists()
        return cache[key]

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self.is_in_scope(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.is_in_scope(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.is_in_scope(request, obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        league = form.instance
        # The creator of a league runs it, or they could not see what they just made.
        # A superuser who picked the organisers explicitly is taken at their word.
        if not change and isinstance(league, League):
            if not request.user.is_superuser or not league.organisers.exists():
                league.organisers.add(request.user)

    # Workflow actions with an intermediate form --------------------------------

    def run_form_action(
        self,
        request: HttpRequest,
        queryset: models.QuerySet,
        *,
        form_class: type[forms.Form],
        title: str,
        apply: Callable[[Any, dict], object],
        done_message: str,
        intro: str = "",
        single: bool = False,
    ) -> TemplateResponse | None:
        """Show ``form_class`` for the selected objects, then call ``apply(obj,
        cleaned_data)`` (a service call) for each one.

        ``ValidationError``/``PermissionDenied`` from the service become error
        messages naming the object; each object is its own transaction, so a refusal
        changes nothing for that object. With ``single`` exactly one object must be
        selected and a refusal shows the form again with the reason, so the
        organiser can fix the input. ``done_message`` takes ``{count}``.
        """
        if single and queryset.count() != 1:
            self.message_user(request, f"Select exactly one {self.model._meta.verbose_name} for “{title}”.", messages.ERROR)
            return None
        if "apply" in request.POST:
            form = form_class(request.POST)
            if form.is_valid():
                done, failed = 0, []
                for obj in queryset:
                    try:
                        apply(obj, form.cleaned_data)
                    except (ValidationError, PermissionDenied) as exc:
                        failed.append((obj, error_text(exc)))
                    else:
                        done += 1
                if single and failed:
                    form.add_error(None, failed[0][1])
                else:
                    if done:
                        self.message_user(request, done_message.format(count=done), messages.SUCCESS)
                    for obj, reason in failed:
                        self.message_user(request, f"{obj}: {reason}", messages.ERROR)
                    return None
        else:
            form = form_class()
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "intro": intro,
            "form": form,
            "objects": list(queryset),
            "action": request.POST.get("action", ""),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/league/action_form.html", context)


# Django's inline formsets accept max_num + 1,000 forms whatever the
# page showed; a POST of entries-TOTAL_FORMS=2000 built and rendered 2,000 forms of
# the Season page (a query for each one's select of coaches) until gunicorn killed
# the worker.
INLINE_MAX = 64  # the rows an inline offers unless it says otherwise (a season's entries)


class BoundedInlineMixin:
    """Every editable inline (``class XInline(BoundedInlineMixin, admin.TabularInline)``):
    its page offers at most ``max_num`` rows, and a POST may hold at most that many
    forms, or the rows its parent already has when there are more (``absolute_max``);
    more is refused as a form error after building no more forms than that. Its
    form checks the whole row (``CheckedModelForm``)."""

    form = CheckedModelForm
    max_num = INLINE_MAX

    def get_formset(self, request, obj=None, **kwargs):
        bound = kwargs.get("max_num", self.get_max_num(request, obj))
        bound = INLINE_MAX if bound is None else bound
        existing = 0
        if obj is not None and obj.pk is not None:
            fk = _get_foreign_key(self.parent_model, self.model, fk_name=self.fk_name)
            existing = self.model._default_manager.filter(**{fk.name: obj}).count()
        kwargs.setdefault("max_num", bound)
        kwargs.setdefault("absolute_max", max(bound, existing))
        return super().get_formset(request, obj, **kwargs)


class OrganiserScopedInline(BoundedInlineMixin, ScopedChoicesMixin):
    """For inlines (``class XInline(OrganiserScopedInline, admin.TabularInline)``):
    their rows belong to a parent the scoped admin already checked, so only the
    choices of their own foreign keys need scoping; bounded like every inline."""


class ScopedRelatedFilter(admin.RelatedFieldListFilter):
    """A related-field list filter that offers only objects appearing in the
    user's own changelist, fetched through the related model's admin so their
    labels cost one query (Django's RelatedFieldListFilter lists every league's)."""

    def field_choices(self, field, request, model_admin):
        pks = model_admin.get_queryset(request).values(f"{self.field_path}__pk")
        model = field.related_model
        try:
            queryset = model_admin.admin_site.get_model_admin(model).get_queryset(request)
        except NotRegistered:
            queryset = model._default_manager.all()
        return [(obj.pk, str(obj)) for obj in queryset.filter(pk__in=pks)]


class SuperuserEditsAdminMixin(BoundedSelectionMixin):
    """Edited by a superuser, read by any staff user (organisers): the rows every league shares, such as
    Dungeon Bowl's colleges and DreadBall's published teams."""

    form = CheckedModelForm

    def has_add_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff
