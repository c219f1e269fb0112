"""The guard every test runs under (tests/support/bulk_writes.py): the site's code that
writes a tracked model in bulk without a version bump after it fails the test; a
bump after it, a write rolled back, or a test's own set-up write does not."""

import pytest
from django.db import transaction

from league.caching import writes
from league.models import Entry
from tests.support.bulk_writes import ROOT, Guard
from tests.support.factories import EntryFactory

pytestmark = pytest.mark.django_db


def as_site_code(source: str, **names) -> None:
    """Run ``source`` as if it were a module of league/ (its frames name that file)."""
    exec(compile(source, str(ROOT / "league" / "services" / "example.py"), "exec"), {**names})


@pytest.fixture
def guard(monkeypatch):
    watching = Guard()
    watching.watch(monkeypatch)
    return watching


def test_a_bulk_update_without_a_bump_is_named(guard):
    entry = EntryFactory(team="Old")
    as_site_code("Entry.objects.filter(pk=pk).update(team='New')", Entry=Entry, pk=entry.pk)
    assert guard.unbumped == ["Entry.objects.update() at league/services/example.py:1"]
    writes.changed(entry.season)  # or the guard around every test fails this one too


def test_a_bump_after_it_clears_it(guard):
    entry = EntryFactory(team="Old")
    as_site_code("Entry.objects.filter(pk=pk).update(team='New'); writes.changed(entry.season)",
                 Entry=Entry, pk=entry.pk, writes=writes, entry=entry)
    assert guard.unbumped == []


def test_a_rolled_back_write_and_a_tests_own_write_do_not_count(guard):
    entry = EntryFactory(team="Old")
    with pytest.raises(RuntimeError), transaction.atomic():
        as_site_code("Entry.objects.filter(pk=pk).update(team='New'); raise RuntimeError", Entry=Entry, pk=entry.pk)
    Entry.objects.filter(pk=entry.pk).update(team="Set up by the test")
    assert guard.unbumped == []
