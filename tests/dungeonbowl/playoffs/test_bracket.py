"""The play-off bracket picture (DB-5b) as a pure function: readable on a phone,
described in words, no script and no inline style (the CSP)."""

import re

from league.dungeonbowl.playoffs.bracket import Game, bracket_svg, describe


def test_no_semi_finals_no_picture():
    assert bracket_svg([]) == ""


def test_semi_finals_then_the_final_still_to_come():
    games = [Game(1, "Karak Scorchers", "Mist Stalkers", 1, 0, "home", "approved"),
             Game(2, "Grey Phantoms", "Forge Wardens", 0, 1, None, "awaiting confirmation")]
    svg = str(bracket_svg(games, chart_id="b", title="Play-offs of Season One"))
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 236"')
    assert 'role="img" aria-labelledby="b-title b-desc"' in svg and "<title id=\"b-title\">Play-offs of Season One" in svg
    assert "Semi-final 1: Karak Scorchers 1–0 Mist Stalkers, Karak Scorchers won." in svg
    assert "Semi-final 2: Grey Phantoms v Forge Wardens, result awaiting confirmation." in svg
    assert "The final and the match for third place follow" in svg
    assert "Semi-final 1 winner" in svg and "Semi-final 2 loser" in svg
    assert svg.count('font-weight="bold"') == 2  # the winner's name and score
    assert "style=" not in svg and "<script" not in svg and not re.search(r"\son\w+=", svg)


def test_long_names_are_clipped_in_the_picture_and_whole_in_words():
    long = "The Very Long Named College Team of the Bright Order"
    games = [Game(1, long, "B", 1, 0, "home", "approved"), Game(2, "C", "D"),
             Game(3, long, "C", 0, 1, "away", "approved"), Game(4, "B", "D")]
    svg = str(bracket_svg(games, chart_id="x"))
    assert f"<title>{long}</title>" in svg and 'clip-path="url(#x-clip-1)"' in svg
    assert re.search(r">The Very Long[^<]*…<title>", svg)  # shortened to the box's room (charts.fit)
    assert describe(games[2]) == f"Final: {long} 0–1 C, C won."
    assert describe(games[3]) == "Third place: B v D, to be played."
    assert "follow once" not in svg
