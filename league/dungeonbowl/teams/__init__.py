"""Dungeon Bowl's teams (DB-1, DB-6 to DB-8, DB-11): founding and drafting a team from
a college, accepting, locking and entering it in a season, its page and feed, the
players' profiles, and a league's own colleges and skills."""
