"""The rule ids the site cites (../shared/RULES.md), each with a one-line summary in
our own words, for the /rules/ page that the ``rule`` filter links to. The
rulebooks' own sentences are not ours to copy: these lines say what the site
does, not what the books say."""

from __future__ import annotations

from typing import NamedTuple


class Rule(NamedTuple):
    id: str
    summary: str


GAMES: tuple[tuple[str, str, tuple[Rule, ...]], ...] = (
    # The engine's own Decisions for every game (league/services/entrants.py).
    ("seasons", "Every game: who plays in a season", (
        Rule("LG-1", "Decision: once a season's fixtures exist nobody joins it without fixtures: a newcomer goes to the "
                     "next season, or, while no result is reported, the fixtures are generated again with them in."),
        Rule("LG-2", "Decision: an entrant who withdraws mid-season keeps their approved results; their fixtures without "
                     "an approved result are not played and count for nothing for either side (no double loss)."),
        Rule("LG-3", "Decision: the next season opens with the same coaches and teams, without divisions; the organiser "
                     "adds or withdraws entrants before generating its fixtures (Dungeon Bowl re-drafts first: DB-15)."),
        Rule("LG-4", "Decision: an entrant who withdrew is not in the next season unless the organiser enters them "
                     "again, and gains no end-of-season carry-over (The Big League's 5 Favours are for finishing)."),
        Rule("LG-5", "Decision: a sponsorship or a loan bought for a fixture that a withdrawal or new fixtures remove is "
                     "cancelled and its Favours go back, as ledger lines saying why; the organiser is told first."),
    )),
    ("guildball", "Guild Ball: The Big League", (
        Rule("GB-1", "The organiser is the Longshanks: runs fixtures, results, Favours, Moments and titles, and may play too."),
        Rule("GB-2", "Built for 8 to 12 coaches; the site works from 2."),
        Rule("GB-3", "Three titles at the end: League Champion, Master Strategos (most CP), Master of Shadows (most Favours spent)."),
        Rule("GB-4", "Everyone plays everyone once; an odd number means a bye each round; twice round is a league setting."),
        Rule("GB-5", "One match a week by default; a match moved to another day is rearranged and every coach is told."),
        Rule("GB-6", "A match that cannot finish is abandoned: a loss for both, its VP kept only for the record."),
        Rule("GB-7", "No draws: 3 League Points for a win, none for a loss."),
        Rule("GB-8", "A report gives the winner and both VP totals; the site checks them against the game's target, and both coaches agree before approval."),
        Rule("GB-9", "The table orders by League Points, then VP scored, then VP difference; still level means a shared place."),
        Rule("GB-10", "The table is published after each week's results with the next week's fixtures."),
        Rule("GB-11", "Campaign Points come from plot cards achieved, Campaign Advancement and adjustments; they are never spent."),
        Rule("GB-12", "Reaching a CP threshold unlocks a Moment, and each Moment one card (every 20 CP, Rare cards from 60)."),
        Rule("GB-13", "Each Moment reached is confirmed by the Longshanks, then the coach picks its card."),
        Rule("GB-14", "Every coach picks one starting Guild card at the start, for good."),
        Rule("GB-15", "A coach's pool: the core Guild plots, the common campaign plots and every card they unlocked, bought or traded."),
        Rule("GB-16", "Before each match a coach registers 12 different cards from their pool."),
        Rule("GB-17", "Only a card in that match's registered deck can be reported as achieved."),
        Rule("GB-18", "Favours after each match: 3 for a loss, 1 for a win, more for facing or beating a coach higher in the table."),
        Rule("GB-19", "At most 5 Favours spent in one dealing phase."),
        Rule("GB-20", "Favours are spent between matches and never below zero; a correction may leave a debt to pay back."),
        Rule("GB-21", "A sponsorship costs 1 Favour and lasts the coach's next match."),
        Rule("GB-22", "Borrowing a model costs 3 Favours (2 to the lender); never a Captain or Mascot."),
        Rule("GB-23", "Cards can be bought for up to 5 Favours or swapped for free; the Longshanks hears of each deal."),
        Rule("GB-24", "Once per dealing phase, 1 Favour buys 5 CP."),
        Rule("GB-25", "Each round: build a deck, play, record results, then deal."),
        Rule("GB-26", "On the Final Day the titles are declared; coaches without a title carry 5 Favours to the next campaign."),
    )),
    ("dungeonbowl", "Dungeon Bowl", (
        Rule("DB-1", "The commissioner runs the league of four or more teams, each drafted by its coach."),
        Rule("DB-2", "A season may be split into 2 to 4 divisions of at least 4 teams, usually drawn at random."),
        Rule("DB-3", "Each season: regular season, play-offs, then re-drafting."),
        Rule("DB-4", "3 points for a win, 1 for a draw; optionally 1 more for 3 or more casualties."),
        Rule("DB-5", "The first touchdown wins; a timed game can end level, a draw."),
        Rule("DB-5a", "The table orders by points, then touchdowns, then casualties; an unplayed match is a loss for both, a concession 1-0."),
        Rule("DB-5b", "Play-offs: semi-finals from the top of the divisions, then a final and a third-place match. "
                      "Decision: a play-off needs a winner, so a draw or an unplayed play-off is refused; teams "
                      "level at a qualifying place are put in order by the commissioner, with a reason or a roll."),
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
    )),
    ("dreadball", "DreadBall", (
        Rule("DR-1", "The score is one running difference; a Strike moves it by 1 to 4."),
        Rule("DR-2", "A 7-point lead wins at once (a landslide); otherwise the leader after 14 Rushes, then Sudden Death."),
        Rule("DR-3", "A result records the winner, the difference, a landslide, the last Rush and Sudden Death; the site checks they fit. "
                     "Decision: a Sudden Death game is won with the score level when only one team can still throw: a win by 0."),
        Rule("DR-4", "League points are league settings (landslide 3, win 2, draw 1 by default); ties break on Strike Difference, then landslides."),
        Rule("DR-5", "A team plays one of the published teams; players have a role, stats and a cost."),
    )),
)

BY_ID: dict[str, Rule] = {rule.id: rule for _, _, rules in GAMES for rule in rules}
