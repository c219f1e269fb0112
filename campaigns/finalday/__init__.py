"""The Final Day (GB-26): the three titles (GB-3) and the carry-over."""
