"""Take a league away: one documented JSON file (docs/export-format.md).

``registry`` holds the parts: the engine's own rows, and each game's and
layer's, declared once with its other facets (league/games.py); ``export.stream_league`` writes
a league as chunks of that file; ``importer.import_league`` writes one into a
new league as ``reading.read_file`` streams it, batch by batch
(``inserting``). The organiser downloads theirs from ``views``; ``manage.py
import_league`` reads one. The engine imports no game: the games tell it their rows.
"""
