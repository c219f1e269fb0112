"""What one API request costs cold: the cache empty and this process holding no
lease of the rate limit's count (league/api/access.py ``Leases``), so the
count is written as for the first request of a block: the most a request costs."""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.api.access import rate_limit


def cold(client, url: str):
    """(the queries of answering ``url``, the answer), which must be a 200."""
    cache.clear()
    rate_limit.leases.forget()
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.content[:300])
    return len(queries), answer
