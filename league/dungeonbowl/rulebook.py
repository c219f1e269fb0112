"""Dungeon Bowl's rule ids the site cites (RULES.md section 2), each in a line of our
own, for /rules/ (league/rules/rulebook.py)."""

from __future__ import annotations

from league.rules.rulebook import Rule, Section

SECTION = Section("dungeonbowl", "Dungeon Bowl", (
    Rule("DB-1", "The organiser runs the league of four or more teams, each drafted by its coach."),
    Rule("DB-2", "A season may be split into 2 to 4 divisions of at least 4 teams, usually drawn at random."),
    Rule("DB-3", "Each season: regular season, play-offs, then re-drafting."),
    Rule("DB-4", "3 points for a win, 1 for a draw; optionally 1 more for 3 or more casualties."),
    Rule("DB-5", "The first touchdown wins; a timed game can end level, a draw."),
    Rule("DB-5a", "The table orders by points, then touchdowns, then casualties; an unplayed match is a loss for both, a concession 1-0."),
    Rule("DB-5b", "Play-offs: semi-finals from the top of the divisions, then a final and a third-place match. "
                  "Decision: a play-off needs a winner, so a draw or an unplayed play-off is refused; teams "
                  "level at a qualifying place are put in order by the organiser, with a reason or a roll."),
    Rule("DB-6", "A team belongs to a College of Magic and is drafted on a budget; what is left starts its Treasury."),
    Rule("DB-7", "Each college's roster: positions, costs, characteristics and skills."),
    Rule("DB-8", "Team Value adds up players, re-rolls and staff; Current Team Value leaves out those missing the next game."),
    Rule("DB-9", "After a game: the result, casualties and points are recorded; dead players leave the team."),
    Rule("DB-10", "Winnings come from two dice (more to the winner), plus a bonus for players who gathered funds."),
    Rule("DB-11", "Players earn Star Player Points and spend them on advancements that raise their value."),
    Rule("DB-12", "Teams hire, fire and retire players and staff from their Treasury."),
    Rule("DB-13", "Injuries are kept per player, from a missed game to a lasting characteristic loss."),
    Rule("DB-14", "Prize money for the top three; the champion holds the Trophy and an extra re-roll."),
    Rule("DB-15", "Re-drafting between seasons: scouting, recovery, a new budget, then a new draft."),
    Rule("DB-16", "Every dice roll the site makes is logged with who, when and what."),
))
