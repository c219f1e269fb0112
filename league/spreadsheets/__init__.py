"""Importing results and teams from a spreadsheet (docs/import-format.md): ``files``
reads and checks a CSV file line by line, ``writer`` writes its rows in bulk,
``preview`` and ``views`` are the web import (upload, preview, confirm);
``manage.py import_results`` runs the same reader and writer."""
