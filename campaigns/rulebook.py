"""The Big League's rule ids the site cites (RULES.md section 1: Campaign Points and
Moments, the plot-card pool and deck, Favours, the campaign's sequence and end),
each in a line of our own, for /rules/ (league/rules/rulebook.py)."""

from __future__ import annotations

from league.rules.rulebook import Rule, Section

SECTION = Section("bigleague", "Guild Ball: The Big League", (
    Rule("GB-11", "Campaign Points come from plot cards achieved, Campaign Advancement and adjustments; they are never spent."),
    Rule("GB-12", "Reaching a CP threshold unlocks a Moment, and each Moment one card (every 20 CP, Rare cards from 60)."),
    Rule("GB-13", "Each Moment reached is confirmed by the organiser, then the coach picks its card."),
    Rule("GB-14", "Every coach picks one starting Guild card at the start, for good."),
    Rule("GB-15", "A coach's pool: the core Guild plots, the common campaign plots and every card they unlocked, bought or traded."),
    Rule("GB-16", "Before each match a coach registers 12 different cards from their pool."),
    Rule("GB-17", "Only a card in that match's registered deck can be reported as achieved."),
    Rule("GB-18", "Favours after each match: 3 for a loss, 1 for a win, more for facing or beating a coach higher in the table."),
    Rule("GB-19", "At most 5 Favours spent in one dealing phase."),
    Rule("GB-20", "Favours are spent between matches and never below zero; a correction may leave a debt to pay back."),
    Rule("GB-21", "A sponsorship costs 1 Favour and lasts the coach's next match."),
    Rule("GB-22", "Borrowing a model costs 3 Favours (2 to the lender); never a Captain or Mascot."),
    Rule("GB-23", "Cards can be bought for up to 5 Favours or swapped for free; the organiser hears of each deal."),
    Rule("GB-24", "Once per dealing phase, 1 Favour buys 5 CP."),
    Rule("GB-25", "Each round: build a deck, play, record results, then deal."),
    Rule("GB-26", "On the Final Day the titles are declared; coaches without a title carry 5 Favours to the next campaign."),
))
