"""Moments (GB-12 to GB-14): unlocks reached by a coach's CP total, the Longshanks'
confirmation, the starting pick and the Moment picks."""
