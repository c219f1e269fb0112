"""The markers of a kept page (league/caching/kept_pages.py): the places filled in
per request, written where the page is rendered to be kept.

A marker is a word between two U+FFFF, a noncharacter that every text a user can
type refuses (league/text/plaintext.py: every model text field, the site's own
forms and the import files), so no coach, team or league name and no reason can
ever read as one. HTML escaping leaves U+FFFF alone and the words hold nothing it
escapes, so a marker renders as itself in text and in an attribute (the CSRF
token's value)."""

from __future__ import annotations

import re

EDGE = "\uffff"


def marker(word: str) -> str:
    """The marker named ``word`` (letters, digits, ``-``, ``_`` and ``:``)."""
    return f"{EDGE}kept-{word}{EDGE}"


# A layer's panel that is not kept with the page (league/layers.py ``panel_marker``):
# the layer's name and the page's, rendered per request.
PANEL = f"{EDGE}kept-panel:"
PANEL_PATTERN = re.compile(f"{PANEL}([^:{EDGE}]+):([a-z_]+){EDGE}")
