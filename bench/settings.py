"""The benchmark's settings, never the site's: the site's own settings plus the
``bench`` app (its ``benchmark`` command) and the benchmark's URLconf, which mounts
the bare view beside every page of the site.

    DJANGO_SETTINGS_MODULE=bench.settings python manage.py benchmark
"""

from league.settings import *  # noqa: F403  the site exactly as it runs, plus what follows
from league.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "bench"]
ROOT_URLCONF = "bench.urls"

# The benchmark's clients are one address sending thousands of requests a minute:
# the API counts them as on the site (the cost is measured) and never refuses one.
API_ANONYMOUS_RATE = API_TOKEN_RATE = 1_000_000
