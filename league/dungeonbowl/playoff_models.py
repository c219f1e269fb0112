"""The old address of these Dungeon Bowl models, now league/dungeonbowl/models/playoffs.py.

Kept only for league/rules/dungeonbowl.py and league/dungeonbowl/apps.py, which issue
20.1 (another branch) moves and rewrites: import from league.dungeonbowl.models
and delete this module once they do.
"""

from league.dungeonbowl.models.playoffs import *  # noqa: F401,F403
