"""Ringball's rule ids, declared for the engine's rulebook like any game's."""

from __future__ import annotations

from league.rules.rulebook import Rule, Section

SECTION = Section("ringball", "Ringball", (
    Rule("RB-1", "A ring scores one; the side with more rings wins, level is a draw."),
))
