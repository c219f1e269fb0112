"""A coach across every league and season of every game: the profile, the titles
each game says were won, and head-to-head between two coaches."""
