"""A local webhook receiver for the tests: http.server on 127.0.0.1 in a thread,
keeping each post's headers and body as received and answering with the statuses
of ``script`` in turn (the last one repeated), after ``delay`` seconds, with a
``Location`` header when ``location`` is given (a redirect's target).

The site posts to it only with the tests' ``WEBHOOKS_ALLOW_LOOPBACK`` on
(league/outbox/addresses.py): a test that starts one sets it."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer


class Receiver:
    def __init__(self, script=(204,), *, delay: float = 0.0, location: str = "", path: str = "/hook"):
        self.script = list(script)
        self.delay = delay
        self.location = location
        self.path = path
        self.posts: list[tuple[dict[str, str], bytes]] = []  # each post's headers and body as sent
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.posts.append((dict(self.headers), raw))
                time.sleep(receiver.delay)
                self.send_response(receiver.script[min(len(receiver.posts), len(receiver.script)) - 1])
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def bodies(self) -> list:
        """Each post's body read as JSON."""
        return [json.loads(raw) for _, raw in self.posts]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}{self.path}"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
