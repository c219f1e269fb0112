"""A mail backend for the worker that tests/outbox/test_tasks.py runs in a
subprocess: each message sent is a line in ``$MAIL_DIR/sent.log``; a message to an
address starting "slow" first leaves ``$MAIL_DIR/started``, then waits (at most 30
seconds) while ``$MAIL_DIR/hold`` exists, so the test can kill the worker mid-task."""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        folder = Path(os.environ["MAIL_DIR"])
        for message in email_messages:
            if message.to[0].startswith("slow"):
                (folder / "started").touch()
                deadline = time.monotonic() + 30
                while (folder / "hold").exists() and time.monotonic() < deadline:
                    time.sleep(0.05)
            with open(folder / "sent.log", "a", encoding="utf-8") as log:
                log.write(f"{message.to[0]} {message.subject}\n")
        return len(email_messages)
