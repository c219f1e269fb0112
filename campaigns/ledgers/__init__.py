"""Campaign Points and Favours as append-only ledgers (GB-11, GB-18): what a result
gives and takes back, the Longshanks' adjustments, CP from an import, the sums and
the charts of them."""
