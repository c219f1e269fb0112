"""Wheeling & Dealing (GB-19 to GB-25): the phase, sponsorships, Campaign
Advancement, loans and card offers, and the deals a cancelled fixture gives back (LG-5)."""
