"""DreadBall's rule ids the site cites (RULES.md section 3), each in a line of our
own, for /rules/ (league/rules/rulebook.py)."""

from __future__ import annotations

from league.rules.rulebook import Rule, Section

SECTION = Section("dreadball", "DreadBall", (
    Rule("DR-1", "The score is one running difference; a Strike moves it by 1 to 4."),
    Rule("DR-2", "A 7-point lead wins at once (a landslide); otherwise the leader after 14 Rushes, then Sudden Death."),
    Rule("DR-3", "A result records the winner, the difference, a landslide, the last Rush and Sudden Death; the site checks they fit. "
                 "Decision: a Sudden Death game is won with the score level when only one team can still throw: a win by 0."),
    Rule("DR-4", "League points are league settings (landslide 3, win 2, draw 1 by default); ties break on Strike Difference, then landslides."),
    Rule("DR-5", "A team plays one of the published teams; players have a role, stats and a cost."),
))
