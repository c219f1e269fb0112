"""Print a league's table from the read API (docs/api.md).

    python docs/examples/print_table.py https://league.example.org midlands

Standard library only. ``fetch`` sends the ETag it was given back: a client that
polls (an overlay, a bot) gets 304 and no body while the table is unchanged."""

import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def fetch(url, etag=None):
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if etag:
        request.add_header("If-None-Match", etag)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer), answer.headers.get("ETag")
    except urllib.error.HTTPError as refused:
        if refused.code == 304:
            return None, etag
        raise


def table(site, slug, season=""):
    """The lines printed for league ``slug`` (its current season without ``season``)."""
    query = f"?season={urllib.parse.quote(season)}" if season else ""
    body, _ = fetch(f"{site.rstrip('/')}/api/v1/leagues/{slug}/standings/{query}")
    lines = [f"{body['league']} - {body['season']}", f"{'#':>3}  {'Coach':<24}{'P':>4}{'W':>4}{'LP':>5}"]
    for row in body["standings"]:
        place = f"{row['position']}=" if row["tied"] else str(row["position"])
        lines.append(f"{place:>3}  {row['coach'][:23]:<24}{row['played']:>4}{row['won']:>4}{row['lp']:>5}")
    return lines


if __name__ == "__main__":
    print("\n".join(table(*sys.argv[1:4])))
