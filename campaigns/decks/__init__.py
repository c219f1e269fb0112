"""The plot-card pool and deck (GB-15 to GB-17): the deck a coach registers for a
match, the cards achieved in it, and a fixture's campaign page."""
