"""Receive a league's signed events and check each one before trusting it.

Run it where the league can reach it over HTTPS (behind your web server), with
the subscription's signing secret from the league's Events page:

    pip install standardwebhooks
    LEAGUE_EVENTS_SECRET=whsec_... python check_event.py 8080

Each event is checked with the ``standardwebhooks`` package: the signature over
the id, the timestamp and the body, and a timestamp within five minutes, so a
replayed post is refused. An event seen before (same ``webhook-id``: a retry)
is answered and not handled twice.
"""

import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

webhook = Webhook(os.environ["LEAGUE_EVENTS_SECRET"])
seen: set[str] = set()


def handle(event: dict) -> None:
    data = event["data"]
    if event["type"] == "result.approved":
        fixture, result = data["fixture"], data["result"]
        print(f"{fixture['home']} v {fixture['away']}: {result['summary']}")
    else:
        print(event["type"], data.get("league"))


class Events(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            event = webhook.verify(body, dict(self.headers))
        except WebhookVerificationError as refusal:
            self.send_response(400)  # not from the league, changed, or too old
            self.end_headers()
            self.wfile.write(str(refusal).encode())
            return
        if self.headers["webhook-id"] not in seen:
            seen.add(self.headers["webhook-id"])
            handle(event)
        self.send_response(204)
        self.end_headers()


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8080), Events).serve_forever()
