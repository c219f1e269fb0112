"""Report a Guild Ball result with a personal API token (docs/api.md).

    LEAGUE_API=https://league.example.org LEAGUE_TOKEN=lgt_... \
        python report_result.py 42 12 8

Make the token on your API tokens page (/accounts/tokens/) with "Report, confirm
and dispute results as your coach". The Idempotency-Key makes it safe to run again
after a lost connection: the second run is answered with the first one's result.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
import uuid


def report(base: str, token: str, fixture: int, home: int, away: int, key: str | None = None) -> tuple[int, dict]:
    """POST the report; (HTTP status, JSON answer)."""
    request = urllib.request.Request(
        f"{base.rstrip('/')}/api/v1/fixtures/{fixture}/report/",
        data=json.dumps({"facts": {"home_score": home, "away_score": away}}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                 "Idempotency-Key": key or str(uuid.uuid4())},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:  # 400 and 403 carry {"errors": [...]}
        return refused.code, json.load(refused)


def main(argv: list[str]) -> int:
    fixture, home, away = (int(value) for value in argv[1:4])
    status, body = report(os.environ["LEAGUE_API"], os.environ["LEAGUE_TOKEN"], fixture, home, away)
    if status == 200:
        print(f"Fixture {body['fixture']}: {body['summary']}, {body['status']}")
        return 0
    print(f"Refused ({status}):", *body.get("errors", [body]), sep="\n  ")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
