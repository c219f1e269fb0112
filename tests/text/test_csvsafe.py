"""CSV formula injection: text a spreadsheet would run is written as text."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.http import HttpResponse

from league.text.csvsafe import csv_cell, writer


@pytest.mark.parametrize(
    "value",
    ["=1+1", '=HYPERLINK("http://x","y")', "+44 7700", "-2+3", "@SUM(A1)", "\tTab", "\rCR", "=", "-", "- Velocity"],
)
def test_formula_starts_get_a_quote(value):
    assert csv_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["Ada Blackwater", "Zoë O'Brien", "a=b", "", " =still text", "Renée-d'Arc"])
def test_other_text_is_unchanged(value):
    assert csv_cell(value) == value


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("Zed;=1+2", "Zed;'=1+2"),
        ("Zed,@SUM(A1)", "Zed,'@SUM(A1)"),
        ("a\t+1+1", "a\t'+1+1"),
        ("a|-2+3", "a|'-2+3"),
        ("a\n=1", "a\n'=1"),
        ("=a;=b", "'=a;'=b"),
    ],
)
def test_formula_after_a_separator_gets_a_quote_there(value, written):
    """Excel in many European locales splits on ";" (an import dialog
    on tab or "|"), so what follows a separator is the start of a cell too."""
    assert csv_cell(value) == written


@pytest.mark.parametrize("value", ["Ada; Bea", "Zed;-3", "1,5", "a; =1", "Ada - Velocity"])
def test_safe_text_after_a_separator_is_unchanged(value):
    assert csv_cell(value) == value


def test_a_semicolon_spreadsheet_sees_no_formula_cell():
    """The file as Excel with ";" as its list separator reads it: no cell starts a formula."""
    out = io.StringIO()
    csv_writer = writer(out, ["coach"])
    csv_writer.writerow({"coach": "Zed;=1+2"})
    cells = [cell for row in csv.reader(io.StringIO(out.getvalue()), delimiter=";") for cell in row]
    assert cells == ["Zed", "'=1+2"]


@pytest.mark.parametrize("value", [-3, 0, 12, -1.5, Decimal("-2.50"), None, True, "-3", "+4", "12.5", "-0.25"])
def test_numbers_are_left_alone(value):
    assert csv_cell(value) is value


def test_writer_neutralises_every_cell_of_an_http_response():
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    out = writer(response, ["position", "coach", "vp_difference"])
    out.writeheader()
    out.writerows([
        {"position": 1, "coach": "=cmd|' /C calc'!A0", "vp_difference": -4},
        {"position": 2, "coach": "@evil", "vp_difference": "-3"},
    ])
    out.writerow({"position": 3, "coach": "Ada", "vp_difference": 7})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows == [
        ["position", "coach", "vp_difference"],
        ["1", "'=cmd|' /C calc'!A0", "-4"],
        ["2", "'@evil", "-3"],
        ["3", "Ada", "7"],
    ]


def test_writer_keeps_dictwriter_checks():
    out = writer(io.StringIO(), ["a"])
    with pytest.raises(ValueError):
        out.writerow({"a": 1, "b": 2})
