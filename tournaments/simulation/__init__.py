"""A whole tournament played through the real HTTP API, as organisers and table tablets
would: ``manage.py simulate_tournament`` and ``bench/load.py`` build on it.

- ``client``: a small thread-safe JSON client (keep-alive sessions, timings, 429 retries).
- ``scenario``: the organiser's steps and every table's deals, with retries, duplicates
  and invalid first tries mixed in.
- ``checks``: pure functions that compare what was sent with what the API stores.
- ``server``: starts the site locally (runserver) when no base URL is given.

It does not touch the database except to create the club and organiser for a local run.
"""
