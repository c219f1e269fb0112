"""A local receiver of events: http.server on 127.0.0.1 in a thread, answering
with the statuses of ``script`` in turn (the last one repeated), keeping each
post's headers and body as received."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, HTTPServer


class Receiver:
    def __init__(self, script=(204,), location: str = ""):
        self.script = list(script)
        self.location = location
        self.posts: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.posts.append((dict(self.headers), raw))
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
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/league-events"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
