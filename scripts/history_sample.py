"""Writes the history import's sample files, ``docs/history-sample.csv`` and
``docs/history-sample.xlsx``: three past club evenings of eight players (two tables of
four, three rounds, the games drawn with a fixed seed, so the figures add up as played
ones do) and one row with an impossible date, which the import's preview refuses.

    .venv/bin/python scripts/history_sample.py [directory]

The files are the same bytes on every run (``tests/history/test_samples.py`` checks the
committed ones against it).
"""

from __future__ import annotations

import csv
import io
import random
import re
import sys
import zipfile
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path

import openpyxl

HEADER = ["date", "player", "household", "status", "played", "won", "difference", "rank", "season"]
PLAYERS = [
    ("Anna Maier", "Maier", "member"),
    ("Bernd Maier", "Maier", "member"),
    ("Carla Schmid", "", "member"),
    ("Dieter Huber", "", "member"),
    ("Eva Fischer", "", "member"),
    ("Frank Weber", "", "member"),
    ("Gitte Wolf", "", "guest"),
    ("Hans Keller", "", "member"),
]
EVENINGS = [date(2025, 9, 5), date(2025, 9, 12), date(2025, 9, 19)]
SEASON = "2025/26"
REFUSED_ROW = ["31.02.2025", "Anna Maier", "Maier", "member", 3, 2, 40, 1, SEASON]
FIXED_TIME = datetime(2025, 10, 1, 12, 0, 0)


def evening_rows(day: date, rng: random.Random) -> list[list[object]]:
    """One evening: three rounds of two tables of four; each player's line with rank."""
    tally: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    names = [name for name, _household, _status in PLAYERS]
    for _round in range(3):
        rng.shuffle(names)
        for table in (names[:4], names[4:]):
            own, other = rng.randrange(400, 1200), rng.randrange(400, 1200)
            for team, mine, theirs in ((table[0::2], own, other), (table[1::2], other, own)):
                for name in team:
                    tally[name][0] += 1
                    tally[name][1] += mine > theirs
                    tally[name][2] += mine - theirs
    order = sorted(tally, key=lambda n: (-tally[n][1], -tally[n][2], n))
    rows = []
    for name in order:
        played, won, difference = tally[name]
        rank = 1 + sum(1 for n in order if (tally[n][1], tally[n][2]) > (won, difference))
        household, status = next((h, s) for n, h, s in PLAYERS if n == name)
        rows.append(
            [day.isoformat(), name, household, status, played, won, difference, rank, SEASON]
        )
    return rows


def sample_rows() -> list[list[object]]:
    rng = random.Random(39)
    rows = [row for day in EVENINGS for row in evening_rows(day, rng)]
    return [HEADER, *rows[:8], REFUSED_ROW, *rows[8:]]


def sample_csv() -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(sample_rows())
    return out.getvalue().encode("utf-8")


def sample_xlsx() -> bytes:
    """The workbook, its zip entries and document dates fixed: the same bytes every time."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "History"
    for row in sample_rows():
        sheet.append(row)
    book.properties.created = FIXED_TIME
    book.properties.modified = FIXED_TIME
    book.properties.creator = "Klammern"
    saved = io.BytesIO()
    book.save(saved)
    return _fixed_zip(saved.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2025, 10, 1, 12, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            body = source.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the saving time
                body = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2025-10-01T12:00:00Z", body
                )
            target.writestr(fixed, body)
    return out.getvalue()


def main(directory: Path) -> None:
    (directory / "history-sample.csv").write_bytes(sample_csv())
    (directory / "history-sample.xlsx").write_bytes(sample_xlsx())


if __name__ == "__main__":
    main(
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "docs"
    )
