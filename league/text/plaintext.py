"""Text a user writes is plain text.

A display name such as ``Hollis\\x0bSprocket`` or a ``\\x1b`` in a CP adjustment
reason stopped the backup's ``dumpdata --format xml`` (docs/backup.md) ("contains unserializable
characters": XML 1.0 has no place for C0 control characters), so any coach could
break every backup. Every text a user can write therefore refuses:

- C0 control characters, DEL and C1 control characters (U+0080..U+009F). A line
  break (LF, CR) and a tab are allowed only in a multi-line text: a model
  ``TextField`` or a form field made ``multiline``. A one-line field refuses the
  tab too: it is invisible in a name and starts a formula in a spreadsheet;
- the bidirectional overrides and isolates U+202A..U+202E and U+2066..U+2069,
  which make a name read on the page otherwise than it is stored;
- U+FFFE, U+FFFF and lone surrogates, which XML 1.0 cannot hold either (the
  backup is written, and its restore fails), and every other noncharacter
  (U+FDD0..U+FDEF, the last two of each plane): Unicode keeps them for a
  program's own use, and this one uses U+FFFF for a kept page's markers
  (league/caching/markers.py), so a text holding one could read as a marker.

One rule (:func:`problem`), applied at every way text comes in, each door with its
own way of saying where:

- :class:`PlainText`, a validator that :func:`install` adds to every ``CharField``
  and ``TextField`` of every installed model (the league's, the games', the Big
  League's and Django's own users): model forms (the admin) and ``full_clean``
  refuse with the field's message. It is added when the apps are ready, not in
  each field's definition, so a field added later cannot forget it and the
  migrations do not change;
- :class:`PlainTextField`, the form field of every free text on the site's own
  forms (a form that is not a model form does not run the model's validators);
  the API's writes bind the same forms, so they answer with the same messages;
- ``league.rules.importing.csv_records``, which refuses such a field in any
  spreadsheet (results, teams) as "line N: ...";
- a league's file (league/transfer/importer.py), refused whole with the table,
  the row and the column, :func:`problem_in` for the text inside a JSON column;
- text from elsewhere that nobody here can correct (a Discord username) is
  :func:`cleaned` instead.

Rows written before the rule were made plain by ``league/migrations/0012_plain_text.py``,
which keeps its own copy of the rule as it was then.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from django import forms
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.deconstruct import deconstructible

BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
# The 66 noncharacters, U+FFFE and U+FFFF first: the last two code points of every plane.
NONCHARACTERS = "\ufffe\uffff\ufdd0-\ufdef" + "".join(
    chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(1, 17))
# Everything refused in a one-line text; a multi-line one allows \t, \n and \r.
_ONE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}{NONCHARACTERS}\ud800-\udfff]")
_MULTI_LINE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI_CONTROLS}{NONCHARACTERS}\ud800-\udfff]")
_NONCHARACTER = re.compile(f"[{NONCHARACTERS}]")
BREAKS_AND_TABS = re.compile(r"[\r\n\t]+")
BLANK_CONTROLS = re.compile("[\x0b\x0c\x1c-\x1f\x85]")  # the controls str.split() counts as blanks


def problem(text: str, *, multiline: bool = False) -> str | None:
    """What in ``text`` is not plain text, as words ("the control character
    U+001B"), or None when it is plain text."""
    match = (_MULTI_LINE if multiline else _ONE_LINE).search(text)
    if match is None:
        return None
    char = match.group()
    code = f"U+{ord(char):04X}"
    if char == "\x00":
        return "a NUL byte"
    if char in "\r\n":
        return "a line break"
    if char == "\t":
        return "a tab"
    if re.fullmatch(f"[{BIDI_CONTROLS}]", char):
        return f"the text-direction control {code}"
    if _NONCHARACTER.fullmatch(char) or "\ud800" <= char <= "\udfff":
        return f"the non-character {code}"
    return f"the control character {code}"


def cleaned(text: str, *, multiline: bool = False) -> str:
    """``text`` made plain, for text from elsewhere that nobody here can correct (a
    Discord username): a blank control (a vertical tab, a form feed ...) becomes a
    space, and so do the tabs and line breaks of a one-line text; every other
    refused character goes. (league/migrations/0012_plain_text.py keeps its own
    copy, as the rule was when it ran.)"""
    text = BLANK_CONTROLS.sub(" ", text)
    if not multiline:
        text = BREAKS_AND_TABS.sub(" ", text)
    return (_MULTI_LINE if multiline else _ONE_LINE).sub("", text)


def problem_in(value: Any) -> str | None:
    """:func:`problem` for every text inside ``value``, a JSON value (its keys too):
    a JSON column may hold words on several lines, never a control character."""
    if isinstance(value, str):
        return problem(value, multiline=True)
    if isinstance(value, dict):
        return next((found for pair in value.items() for item in pair if (found := problem_in(item))), None)
    if isinstance(value, list):
        return next((found for item in value if (found := problem_in(item))), None)
    return None


def message(text: str, *, multiline: bool = False) -> str | None:
    """The form's message for ``text``, or None when it is plain text."""
    found = problem(text, multiline=multiline)
    if found is None:
        return None
    if found in ("a line break", "a tab"):
        return f"Remove {found}: this is one line of text."
    return f"Remove {found}: only plain text can be saved."


@deconstructible
class PlainText:
    """A validator: the value is plain text (one line unless ``multiline``)."""

    code = "plain_text"

    def __init__(self, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, value: Any) -> None:
        if isinstance(value, str) and (text := message(value, multiline=self.multiline)):
            raise ValidationError(text, code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlainText) and other.multiline == self.multiline


class PlainTextField(forms.CharField):
    """A form's free text: one line of plain text unless ``multiline``. A one-line
    text shown in a box (a reason in a ``Textarea``) keeps what was typed on
    several lines as one line, its line breaks made spaces, as it is stored."""

    def __init__(self, *, multiline: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.multiline = multiline
        self.validators.append(PlainText(multiline=multiline))

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        if not self.multiline and isinstance(self.widget, forms.Textarea):
            text = BREAKS_AND_TABS.sub(" ", text)
        return text


def plain(field: forms.CharField, *, multiline: bool = False) -> forms.CharField:
    """``field``, a form's email or web address field, refusing what is not plain
    text as :class:`PlainTextField` does (an email address's quoted part may
    otherwise hold control characters)."""
    field.validators.append(PlainText(multiline=multiline))
    return field


def name_key(name: str) -> str:
    """What two names share when a reader cannot tell them apart:
    NFKC (a full-width "Ａda" is "Ada"), without format characters (zero-width
    spaces and joiners, direction marks, soft hyphens), blanks collapsed, casefolded."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return " ".join(text.split()).casefold()


def same_name(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` a reader could not tell from ``name``, or None."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), None)


def is_multiline(field: models.Field) -> bool:
    return isinstance(field, models.TextField)


def text_fields(model: type[models.Model]) -> list[models.Field]:
    """The model's concrete text columns (CharField and TextField, with their
    subclasses: slugs, email and web addresses)."""
    return [field for field in model._meta.concrete_fields if isinstance(field, (models.CharField, models.TextField))]


def install() -> None:
    """Add :class:`PlainText` to every text field of every installed model (called
    from ``LeagueConfig.ready``, when every model is loaded). ``validators`` is the
    field's list that ``clean`` runs; its definition (``deconstruct``) is unchanged."""
    for model in apps.get_models():
        for field in text_fields(model):
            if not any(isinstance(validator, PlainText) for validator in field.validators):
                field.validators.append(PlainText(multiline=is_multiline(field)))
