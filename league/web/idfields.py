"""Form fields that pick rows by id, bounded like the ``<id:>`` URL converter: an id
beyond 64 bits is refused as an unknown choice before it reaches the database
(SQLite raises OverflowError on it, a 500). Django's own model choice
fields catch ValueError and TypeError, not OverflowError."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from league.web.converters import MAX_ID


def _fits(value) -> bool:
    """False for a whole number outside a signed 64-bit column; anything else is
    left to Django's own checks (which refuse text as an invalid choice)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return True
    return -MAX_ID - 1 <= number <= MAX_ID


class IdChoiceField(forms.ModelChoiceField):
    def to_python(self, value):
        if value not in self.empty_values and not _fits(value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdsChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        if isinstance(value, (list, tuple)):
            for pk in value:
                if not _fits(pk):
                    raise ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                                          params={"pk": str(pk)[:30]})
        return super()._check_values(value)
