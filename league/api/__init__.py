"""The public API in one room: the read endpoints (``endpoints``, ``across`` and what
each game adds through ``registry``), the result workflow's and the league file's
writes with a personal token (``writes``), the tokens themselves (``models``,
``tokens``; made, listed and revoked on /accounts/tokens/, ``views``), who may ask
and how often (``access``), and the one NinjaAPI object they hang on (``site``,
mounted at /api/v1/ by league/urls.py).

The package is also the Django app of the tokens (``apps``, label ``apitokens``), so
importing it imports nothing that needs the app registry."""
