"""A Dungeon Bowl game's report and what follows its approval (DB-4, DB-5, DB-9 to
DB-13): the result form, the report's players, the post-game sequence and its
reversal, and the game's panel."""
