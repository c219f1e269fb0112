"""What every page package's forms share, below the pages and the services that
refuse them: a service's refusal shown on the form it came from."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def refuse(form: forms.Form, error: ValidationError) -> None:
    """Put a service's refusal on the form: on the field it names when the form
    has it, else above the form."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
