"""The campaign's own pages (the campaign table, its feed, a coach's campaign page,
what waits on a coach) and the helpers every concern's views share."""
