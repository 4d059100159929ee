"""The draw methods, one module each (as Tabbycat's ``draw/generator/`` package): ``base``
(what they share), ``individual``, ``small_tables`` and ``pairs`` (a schedule's round
robin is ``tournaments/leagues/fixtures.py``). Pure functions; callers reach them through
``tournaments.draw.seating``, the one entry."""
