"""Guild Ball's rule ids the site cites (RULES.md section 1: roles, fixtures, results
and the table), each in a line of our own, for /rules/ (league/rules/rulebook.py).
The Big League's campaign ids are the campaign's (campaigns/rulebook.py)."""

from __future__ import annotations

from league.rules.rulebook import Rule, Section

SECTION = Section("guildball", "Guild Ball", (
    Rule("GB-1", "The organiser runs fixtures, results, Favours, Moments and titles, and may play too."),
    Rule("GB-2", "Built for 8 to 12 coaches; the site works from 2."),
    Rule("GB-3", "Three titles at the end: League Champion, Master Strategos (most CP), Master of Shadows (most Favours spent)."),
    Rule("GB-4", "Everyone plays everyone once; an odd number means a bye each round; twice round is a league setting."),
    Rule("GB-5", "One match a week by default; a match moved to another day is rearranged and every coach is told."),
    Rule("GB-6", "A match that cannot finish is abandoned: a loss for both, its VP kept only for the record."),
    Rule("GB-7", "No draws: 3 League Points for a win, none for a loss."),
    Rule("GB-8", "A report gives the winner and both VP totals; the site checks them against the game's target, and both coaches agree before approval."),
    Rule("GB-9", "The table orders by League Points, then VP scored, then VP difference; still level means a shared place."),
    Rule("GB-10", "The table is published after each week's results with the next week's fixtures."),
))
