"""A stand-in for Discord's OAuth2 server on 127.0.0.1, started by a test: the
authorize page (with an Authorize and a Cancel button), the token endpoint and
``/users/@me``, at the same paths under its ``/api`` as Discord's. The site is
pointed at it with ``settings.DISCORD_API_URL`` (league/accounts/discord.py).

It checks what Discord checks: the client's id and secret, that a code is used
once and with the redirect address it was issued for, and the bearer token."""

from __future__ import annotations

import html
import json
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import requests

CLIENT_ID = "1234567890"
CLIENT_SECRET = "stand-in-secret"


@dataclass
class StandIn:
    """The Discord person who authorizes next is ``person`` (a /users/@me body)."""

    person: dict = field(default_factory=lambda: {
        "id": "80351110224678912", "username": "nelly", "global_name": "Nelly",
        "email": "nelly@example.com", "verified": True,
    })
    codes: dict = field(default_factory=dict)  # code -> (redirect_uri, person)
    tokens: dict = field(default_factory=dict)  # access token -> person
    token_requests: list = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def api_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/api"

    def start(self) -> "StandIn":
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _send(self, status: int, body: str | dict, kind: str = "application/json", location: str = "") -> None:
                data = (json.dumps(body) if isinstance(body, dict) else body).encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                if location:
                    self.send_header("Location", location)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/api/oauth2/authorize":
                    if query.get("client_id") != CLIENT_ID or query.get("response_type") != "code":
                        return self._send(400, {"error": "invalid_request"})
                    return self._send(200, standin.authorize_page(query), "text/html; charset=utf-8")
                if url.path == "/api/oauth2/decide":
                    return self._send(302, "", location=standin.decide(query))
                if url.path == "/api/users/@me":
                    person = standin.tokens.get(self.headers.get("Authorization", "").removeprefix("Bearer "))
                    return self._send(200, person) if person else self._send(401, {"message": "401: Unauthorized"})
                return self._send(404, {"message": "404: Not Found"})

            def do_POST(self) -> None:
                if urlsplit(self.path).path != "/api/oauth2/token":
                    return self._send(404, {"message": "404: Not Found"})
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                form = {k: v[0] for k, v in parse_qs(body).items()}
                standin.token_requests.append(form)
                if (form.get("client_id"), form.get("client_secret")) != (CLIENT_ID, CLIENT_SECRET):
                    return self._send(401, {"error": "invalid_client"})
                issued = standin.codes.pop(form.get("code", ""), None)
                if issued is None or issued[0] != form.get("redirect_uri") or form.get("grant_type") != "authorization_code":
                    return self._send(400, {"error": "invalid_grant"})
                token = secrets.token_urlsafe(16)
                standin.tokens[token] = issued[1]
                return self._send(200, {"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                                        "refresh_token": secrets.token_urlsafe(16), "scope": "identify email"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()  # harmless when already stopped
        self.server.server_close()

    def authorize_page(self, query: dict) -> str:
        hidden = "".join(
            f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in query.items()
        )
        name = html.escape(self.person.get("username", ""))
        return (
            '<!doctype html><html><head><meta name="viewport" content="width=device-width">'
            f"<title>Discord</title></head><body><h1>Authorize the league site?</h1><p>as {name}</p>"
            f'<form action="/api/oauth2/decide">{hidden}'
            '<button name="decision" value="approve">Authorize</button>'
            '<button name="decision" value="cancel">Cancel</button></form></body></html>'
        )

    def decide(self, query: dict) -> str:
        """Where the browser goes back to: a code, or Discord's refusal."""
        back = query["redirect_uri"]
        if query.get("decision") != "approve":
            answer = {"error": "access_denied", "error_description": "The resource owner or authorization server "
                      "denied the request", "state": query.get("state", "")}
        else:
            code = secrets.token_urlsafe(16)
            self.codes[code] = (back, dict(self.person))
            answer = {"code": code, "state": query.get("state", "")}
        return back + ("&" if "?" in back else "?") + urlencode(answer)

    def authorize(self, authorize_url: str, decision: str = "approve") -> str:
        """What a person's browser does on Discord's page: the address it is sent back to."""
        page = requests.get(authorize_url, timeout=5)
        assert page.status_code == 200, page.text
        query = {k: v[0] for k, v in parse_qs(urlsplit(authorize_url).query).items()}
        answer = requests.get(
            self.api_url + "/oauth2/decide", params={**query, "decision": decision}, allow_redirects=False, timeout=5
        )
        return answer.headers["Location"]
