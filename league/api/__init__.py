"""The public read API (``/api/v1/``): ``api`` is the NinjaAPI object other
packages add routers to (league/api/site.py)."""

from league.api.site import api, docs_view

__all__ = ["api", "docs_view"]
