"""Ringball, a fourth game defined only in the test suite: an app of
its own with settings, a result form and standings terms, registered from its
``AppConfig.ready()`` like the three real games. ``tests/settings.py`` installs it;
no engine file names it."""
