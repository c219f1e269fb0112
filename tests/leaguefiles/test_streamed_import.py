"""The import reads a league's file as a stream (league/leaguefiles/reading.py):
never the whole file at once, rows written batch by batch while the rest of
the file is still unread, and a refusal half way undoes every batch written
(docs/export-format.md)."""

from __future__ import annotations

import io
import json

import pytest

from league.models import Entry, Fixture, League
from league.ratings.models import RatedGame, Rating
from league.ratings.services import recompute
from league.standings.season import standings_for
from league.leaguefiles import reading, registry
from league.leaguefiles.export import stream_league
from league.leaguefiles.importer import ImportRefused, import_league, read_file
from league.web import feeds
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory
from tests.ratings.test_recompute import from_scratch, snapshot


@pytest.fixture
def small_reads(monkeypatch):
    """Reads of 512 bytes and batches of 5 rows, so a small league's file is read
    in many pieces and written in many batches."""
    monkeypatch.setattr(reading, "READ_SIZE", 512)
    monkeypatch.setattr(reading, "BATCH", 5)


def _league_file(coaches: int = 6) -> tuple[League, bytes]:
    league = LeagueFactory()
    season_with_results(coaches=coaches, played_rounds=3, season=SeasonFactory(league=league, name="Spring"))
    return league, "".join(stream_league(league)).encode()


def _rows_held() -> dict[str, int]:
    """Every row of every model a league's file holds, counted."""
    return {part.label: part.model.objects.count() for part in registry.ordered_parts()}


class Recording(io.BytesIO):
    """A binary file that records each read's size (``read`` or ``readinto``) and how many fixtures the
    database held at that moment."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.reads: list[tuple[int, int]] = []

    def read(self, size: int = -1) -> bytes:
        self.reads.append((size, Fixture.objects.count()))
        return super().read(size)

    def readinto(self, buffer) -> int:  # what the C parser calls, with a buffer of its read size
        self.reads.append((len(buffer), Fixture.objects.count()))
        return super().readinto(buffer)


@pytest.mark.django_db
def test_the_file_is_read_in_pieces_and_written_before_its_end_is_read(small_reads):
    league, body = _league_file()
    fixtures_before = Fixture.objects.count()
    handle = Recording(body)
    copy = import_league(read_file(handle), slug="streamed")
    sizes = [size for size, _ in handle.reads]
    assert len(body) > 10 * 512 and len(sizes) > 10
    assert all(0 <= size <= 512 for size in sizes), "a read asked for more than READ_SIZE (or for the rest of the file)"
    # The new league's fixtures were in the database while the file was still being read.
    assert any(fixtures > fixtures_before for _, fixtures in handle.reads)
    old, new = league.seasons.get(), copy.seasons.get()
    assert feeds.standings_rows(standings_for(new), copy.rules) == feeds.standings_rows(standings_for(old), league.rules)


@pytest.mark.django_db
def test_the_imported_results_count_in_the_games_ratings(django_capture_on_commit_callbacks):
    """RT-2: an imported league's approved results are rated with the game's
    others once the import has committed, as from scratch."""
    league, body = _league_file(coaches=4)
    recompute("guildball")
    with django_capture_on_commit_callbacks(execute=True):
        copy = import_league(read_file(io.BytesIO(body)), slug="rated-copy")
    coaches = set(Entry.objects.filter(season__league=copy).values_list("coach_id", flat=True))
    assert coaches <= set(Rating.objects.filter(game_system="guildball").values_list("coach_id", flat=True))
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert snapshot() == from_scratch()


@pytest.mark.django_db
def test_a_file_given_as_chunks_of_text_imports_as_the_file_does(small_reads):
    league, body = _league_file()
    text = body.decode()
    copy = import_league(read_file(text[i:i + 100] for i in range(0, len(text), 100)), slug="from-chunks")
    old, new = league.seasons.get(), copy.seasons.get()
    assert Fixture.objects.filter(round__season=new).count() == Fixture.objects.filter(round__season=old).count() > 0
    assert feeds.standings_rows(standings_for(new), copy.rules) == feeds.standings_rows(standings_for(old), league.rules)


@pytest.mark.django_db
def test_a_file_cut_short_half_way_is_refused_and_nothing_is_written(small_reads):
    _, body = _league_file()
    held = _rows_held()
    cut = body[: body.index(b'"model":"league.result"') + 200]  # inside the results, after the fixtures
    handle = Recording(cut)
    file = read_file(handle)  # the header is whole: the refusal comes half way through the rows
    with pytest.raises(ImportRefused, match="not a league file \\(not JSON"):
        import_league(file, slug="cut-short")
    assert any(fixtures > held["league.fixture"] for _, fixtures in handle.reads), "nothing was written before the cut"
    assert _rows_held() == held and not League.objects.filter(slug="cut-short").exists()


@pytest.mark.django_db
def test_a_row_that_does_not_fit_in_a_later_batch_undoes_the_batches_before_it(small_reads):
    _, body = _league_file()
    data = json.loads(body)
    results = next(t for t in data["tables"] if t["model"] == "league.result")
    assert len(results["rows"]) > reading.BATCH  # the bad row is not in the first batch
    results["rows"][-1][results["columns"].index("fixture")] = 10**9  # a fixture the file does not hold
    held = _rows_held()
    with pytest.raises(ImportRefused, match="does not fit together"):
        import_league(read_file(io.BytesIO(json.dumps(data).encode())), slug="misfit")
    assert _rows_held() == held


@pytest.mark.django_db
@pytest.mark.parametrize("body, message", [
    (b"", "not JSON"),
    (b"\xff\xfe not text", "not JSON"),
    (b"[1, 2]", 'its "format" is not'),
    # The header comes before the tables, as the export writes it: read in one pass.
    (b'{"tables": [], "format": "league-export", "version": 1}', 'its "format" is not'),
    (b'{"format": "league-export", "version": 99, "tables": []}', "format version 99"),
])
def test_what_is_not_a_league_file_of_this_version_is_refused_before_anything_is_read_further(body, message):
    with pytest.raises(ImportRefused, match=message):
        read_file(io.BytesIO(body))


@pytest.mark.django_db
def test_rows_before_their_columns_cannot_be_streamed_and_are_refused():
    body = json.dumps({"format": registry.FORMAT, "version": registry.VERSION,
                       "league": {"name": "L", "slug": "l", "game_system": "guildball"},
                       "tables": [{"rows": [[1, "L"]], "model": "league.league", "columns": ["id", "name"]}]})
    with pytest.raises(ImportRefused, match='"model" and "columns" must come before its "rows"'):
        import_league(read_file(io.BytesIO(body.encode())))
    assert not League.objects.filter(slug="l").exists()


@pytest.mark.django_db
def test_rows_out_of_id_order_are_mapped_as_well(small_reads):
    """The export writes each table in id order (its id map is then two arrays);
    a file in another order maps its ids all the same."""
    league, body = _league_file()
    data = json.loads(body)
    for table in data["tables"]:
        if table["model"] in ("league.coach", "league.entry", "league.fixture", "league.result"):
            table["rows"].reverse()
    copy = import_league(read_file(io.BytesIO(json.dumps(data).encode())), slug="reversed")
    old, new = league.seasons.get(), copy.seasons.get()
    assert Fixture.objects.filter(round__season=new).count() == Fixture.objects.filter(round__season=old).count() > 0
    assert feeds.standings_rows(standings_for(new), copy.rules) == feeds.standings_rows(standings_for(old), league.rules)
