"""Spending a Dungeon Bowl team's Treasury and Star Player Points after a game
(DB-11, DB-12): hiring, firing, re-rolls, Journeymen and advancements."""
