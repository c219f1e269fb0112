"""The ratings' rules (RULES.md section 4) on /rules/, in the site's own words."""

from league.rules.rulebook import Rule, Section

SECTION = Section("ratings", "Every game: ratings", (
    Rule("RT-1", "Glicko-2, one rating per coach per game (Guild Ball, Dungeon Bowl and DreadBall are rated apart): "
                 "everyone starts at 1500, rating deviation 350, volatility 0.06."),
    Rule("RT-2", "A week (Monday to Sunday, the match's date) is one rating period. Every approved game between two "
                 "coaches counts, in any league, regular, play-off or friendly: a win 1, a draw a half, a loss 0 (a "
                 "Dungeon Bowl concession is a loss for the side that conceded); abandoned and unplayed games and byes "
                 "do not."),
    Rule("RT-3", "A week without a game, up to the site's latest week with a game of that game, raises only the "
                 "coach's rating deviation: their rating grows less certain, not lower."),
    Rule("RT-4", "A rating is provisional while its rating deviation is above 110."),
))
