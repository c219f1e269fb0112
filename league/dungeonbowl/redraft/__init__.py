"""Dungeon Bowl's off-season (DB-3, DB-15): re-drafting a team step by step, retiring
it, and opening the next season, with the reads and pages of both."""
