"""People in a league, in one room: who enters and leaves a season (``entrants``,
LG-1 to LG-5), join links and pasted names (``joining``), the requests a join link
sends the organiser (``join_requests``), invitations and claim links
(``invitations``), one person's two coach rows made one (``merges``), with their
pages (``views``) and forms (``forms``). The rows are the engine's models
(league/models/coaches.py, joining.py)."""
