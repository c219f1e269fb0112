"""Dungeon Bowl's play-off season (DB-5b, DB-14, DB-16): seeding and settling ties,
the semi-finals and the final, the prizes, the bracket picture and the pages."""
