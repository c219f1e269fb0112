"""Helpers for the organiser's result form tests of every game: where the special
cases start in the page, and what a refused form says."""

from __future__ import annotations

import re

from django.urls import reverse


def record_url(fixture) -> str:
    return reverse("league:record_result", args=[fixture.pk])


def record_form_html(page: str, fixture) -> str:
    """The organiser's record form alone, out of the fixture page."""
    start = page.index(f'action="{record_url(fixture)}"')
    return page[start:page.index("</form>", start)]


def field_order(form_html: str) -> list[str]:
    """The names of the form's inputs, in page order (no hidden ones)."""
    return [name for tag, name in re.findall(r'<(input|select|textarea)[^>]*name="([^"]+)"', form_html)
            if not re.search(rf'<input type="hidden" name="{re.escape(name)}"', form_html)]


def assert_scores_first_and_cases_folded(form_html: str, first: list[str], cases: list[str]) -> None:
    names = field_order(form_html)
    assert names[:len(first)] == first, names
    folded = form_html[form_html.index('<details class="special-cases"'):]
    assert form_html.index('<details class="special-cases">') > 0, "folded (not open) without a ticked box"
    assert "<summary>Special cases</summary>" in folded
    for case in cases:
        assert f'name="{case}"' in folded and f'name="{case}_reason"' in folded
        reason = re.search(rf'<input[^>]*name="{case}_reason"[^>]*>', folded).group(0)
        assert "required" not in reason, reason
    assert not re.search(r'name="(abandoned|override|acknowledge)"', form_html[:form_html.index("<details")])


def reason_asked(page: str, case: str) -> bool:
    """The refusal names the ticked case, and the special cases are shown open."""
    return f"Give a reason: you ticked \u201c{case}\u201d." in page and '<details class="special-cases" open>' in page
