"""A league's memory: leaderboards (``boards``), champions and titles (``titles``)
and the records kept across seasons (``halloffame``), with their pages and CSV
downloads (``views``).

The engine holds the registries and the shared queries; each game fills them from
its ``AppConfig.ready()`` with boards and titles over its own models, as it
registers its rules (league/rules) and a layer its panels (league/layers.py).
"""
