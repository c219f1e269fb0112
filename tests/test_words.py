"""Pages speak in words: no label or sentence is built on a rule id (the id is at
most a small link to its line on /rules/), and the person who runs a league is
the organiser on every page and in every mail; only /rules/ says once what the
rulebooks call them.

The pages are every page of a league of each game reachable from its pages,
crawled as its organiser and as one of its coaches (the crawl of
tests/test_rule_ids_per_game.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from league.models import Result
from league.web import charts
from tests.test_rule_ids_per_game import crawl_a_games_leagues
from tests.support.world import GAMES, World, world_in_transaction

RULE_ID = r"\b(?:GB|DB|DR|LG)-\d+[a-z]?"
# A rule id opening a sentence or naming what follows: "LG-1: nobody joins ...".
ID_AS_LEAD = re.compile(RULE_ID + r":")
# Elements whose whole text is a name for something: a rule id has no place in it.
NAMING = ("label", "button", "th", "legend", "h1", "h2", "h3", "option")
# A rule id standing alone as a text (a help text that is only "GB-4"): a label of
# nothing but an id. Its one place is the small link to /rules/.
ID_ALONE = re.compile(r"^\(?" + RULE_ID + r"\)?\.?$")
# The demo organiser's username is "longshanks": a login, not a word on the page.
THE_RULEBOOKS_WORDS = re.compile(r"[Cc]ommissioner|\bLongshanks\b")


class _Text(HTMLParser):
    """The text a reader sees, and the text of each naming element."""

    def __init__(self) -> None:
        super().__init__()
        self.visible: list[str] = []
        self.names: list[tuple[str, str]] = []
        self._open: list[tuple[str, list[str]]] = []
        self._hidden = 0
        self._links = 0
        self.alone: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "title"):
            self._hidden += 1
        if tag == "a":
            self._links += 1
        if tag in NAMING:
            self._open.append((tag, []))

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title"):
            self._hidden = max(0, self._hidden - 1)
        if tag == "a":
            self._links = max(0, self._links - 1)
        if tag in NAMING and self._open and self._open[-1][0] == tag:
            name, parts = self._open.pop()
            self.names.append((name, " ".join("".join(parts).split())))

    def handle_data(self, data):
        if self._hidden:
            return
        self.visible.append(data)
        if not self._links and ID_ALONE.match(data.strip()):
            self.alone.append(data.strip())
        for _, parts in self._open:
            parts.append(data)


def rule_ids_as_words(page: str) -> list[str]:
    """What on ``page`` uses a rule id as a label or to open a sentence."""
    parser = _Text()
    parser.feed(page)
    text = " ".join(" ".join(parser.visible).split())
    found = [text[max(0, m.start() - 40): m.end() + 40] for m in ID_AS_LEAD.finditer(text)]
    found += [f"<{tag}>{words}" for tag, words in parser.names if re.search(RULE_ID, words)]
    found += [f"alone: {text}" for text in parser.alone]
    return found


def test_the_checks_see_a_rule_id_used_as_words():
    assert rule_ids_as_words("<p>LG-1: nobody joins a running round robin.</p>")
    assert rule_ids_as_words('<label for="x">Abandoned (GB-6: both coaches record a loss)</label>')
    assert rule_ids_as_words("<th>DB-5a</th>")
    assert not rule_ids_as_words('<p>Nobody joins a running round robin <a class="rule" href="/rules/#LG-1">LG-1</a>.</p>')
    assert rule_ids_as_words('<span class="help">GB-4</span>')  # a help text of nothing but an id
    assert not rule_ids_as_words('<span class="help">How many times each pair plays. <a class="rule" href="/rules/#GB-4">GB-4</a></span>')
    assert THE_RULEBOOKS_WORDS.search("Only the Longshanks")


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_no_page_builds_a_label_or_sentence_on_a_rule_id_or_says_commissioner(game, world: World):
    crawled = crawl_a_games_leagues(world, game).pages

    as_words = sorted({(role, address, found) for role, pages in crawled.items()
                       for address, text in pages.items() for found in rule_ids_as_words(text)})
    assert not as_words, as_words
    rulebooks_words = sorted({(role, address, m.group(0)) for role, pages in crawled.items()
                              for address, text in pages.items() for m in THE_RULEBOOKS_WORDS.finditer(text)})
    assert not rulebooks_words, rulebooks_words


@pytest.mark.django_db
def test_only_the_rules_page_says_what_the_rulebooks_call_the_organiser(client):
    page = client.get(reverse("rules")).content.decode()
    assert len(re.findall("Longshanks", page)) == 1 and len(re.findall("commissioner", page, re.I)) == 1
    sentence = re.search(r"[^.>]*Longshanks[^.<]*", page).group(0)
    assert "organiser" in sentence and "commissioner" in sentence, sentence
    assert not rule_ids_as_words(page)


def test_no_mail_says_commissioner_or_cites_a_rule_id():
    mails = Path(settings.BASE_DIR, "templates", "emails")
    for template in sorted(mails.iterdir()):
        text = template.read_text()
        assert not THE_RULEBOOKS_WORDS.search(text), template.name
        assert not re.search(RULE_ID, text), template.name  # a mail has no /rules/ link to give


@pytest.mark.django_db
def test_dungeon_bowl_messages_name_the_teams(world: World, django_capture_on_commit_callbacks):
    """A Dungeon Bowl side is its team: the approval on the dashboard names the
    teams, the mail to the coaches the teams with their coaches."""
    played = world.games["dungeonbowl"]
    fixture = played.fixture
    home, away = fixture.home, fixture.away
    assert home.team and away.team and home.team != str(home)
    coach = Client()
    coach.force_login(played.right.user)
    assert coach.post(reverse("league:confirm_result", args=[fixture.pk])).status_code == 302
    organiser = Client()
    organiser.force_login(world.organiser)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        page = organiser.post(reverse("league:dashboard_approve", args=[played.league.slug]),
                              {"result": fixture.result.pk}, follow=True).content.decode()

    fixture.result.refresh_from_db()
    assert fixture.result.status == Result.Status.APPROVED
    said = f"Approved 1 result: {home.team} {fixture.result.summary} {away.team}."
    assert said.replace("'", "&#x27;") in page
    assert mail.outbox and all(f"{home.team} ({home}) v {away.team} ({away})" in message.subject
                               for message in mail.outbox)
    assert all(f"{home.team} ({home}) v {away.team} ({away})" in message.body for message in mail.outbox)


BADGE = re.compile(r'<span class="badged"><span class="badge b(\d+)" aria-hidden="true">(.)</span>([^<]+)</span>')
CHART_LINE = re.compile(r'<g class="series" data-name="([^"]+)"><polyline points="[^"]*" fill="none" stroke="([^"]+)"')


@pytest.mark.django_db
def test_a_coachs_badge_is_the_same_wherever_they_stand(world: World):
    """The Coaches page lists coaches by name, the league page's chart by place: a
    coach's letter and colour depend on the coach alone, not on their row."""
    league = world.games["guildball"].league
    organiser = Client()
    organiser.force_login(world.organiser)
    coaches_page = organiser.get(reverse("league:organiser_coaches", args=[league.slug])).content.decode()
    league_page = organiser.get(reverse("league:league_detail", args=[league.slug])).content.decode()

    badges = [(name, int(colour), letter) for colour, letter, name in BADGE.findall(coaches_page)]
    lines = CHART_LINE.findall(league_page)
    by_name = {name: (colour, letter) for name, colour, letter in badges}
    shown_in_both = [name for name, _ in lines if name in by_name]
    assert len(shown_in_both) >= 4, (badges, lines)
    order_here = [name for name, *_ in badges if name in shown_in_both]
    assert order_here != shown_in_both  # the same coaches, in another order
    for name, stroke in lines:
        if name in by_name:
            colour, letter = by_name[name]
            assert stroke == charts.PALETTE[colour] and letter == name[0].upper(), name


@pytest.mark.django_db
def test_dungeon_bowl_ledgers_and_dice_name_the_game_by_its_teams(world: World):
    """The Treasury lines and the dice log a Dungeon Bowl game leaves say which game by
    its teams, as the league's pages do, not by its coaches."""
    played = world.games["dungeonbowl"]
    fixture = played.approved_fixture
    home, away = fixture.home, fixture.away
    organiser = Client()
    organiser.force_login(world.organiser)
    dice = organiser.get(reverse("dungeonbowl:dice_log", args=[played.league.slug])).content.decode()
    assert f"{fixture.title}: {home.team} v {away.team}".replace("'", "&#x27;") in dice
    assert f"{fixture.title}: {home.coach} v {away.coach}" not in dice
