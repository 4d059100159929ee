"""Reading a club's history spreadsheet and planning its import: pure functions.

What it does
- ``read_cells``: the bytes of an uploaded file as rows of cells. A CSV file (its
  delimiter sniffed, UTF-8 with or without a byte order mark) or an ``.xlsx`` workbook
  (its first sheet, read-only, values only: a formula is refused with its cell address,
  never evaluated). Limits hold before anything is parsed: an empty file, a file over
  ``MAX_BYTES`` (an ``.xlsx`` also by what it unpacks to), a binary, a wrong encoding, a
  sheet of more than ``MAX_ROWS`` rows or ``MAX_COLUMNS`` columns raise ``FileRefused``.
- ``parse_rows``: the header (column names in English, German, French or Dutch) and each
  row as a ``HistoryRow``, or a ``Refusal`` with a stable code saying why not.
- ``plan_import``: what an import would create (players, evenings, past seasons) given
  the club's known players, seasons and the dates it already has, and every refused row.
  A season named as one of the club's (``name_key``) counts into it; any other is
  created with the days of its evenings (``NewSeason``).

What it does not do: no Django, no database, no translation (``refusals`` puts the codes
into words). The service decides and writes; a view shows the plan.

Columns (``docs/history-import.md``): date, player, household, status (member or
guest), played, won, point difference, rank, season. One row is one player's evening; the
rows of one date are one evening.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

import openpyxl
from openpyxl.utils.exceptions import InvalidFileException

MAX_BYTES = 2_000_000
"""The largest file accepted (an ``.xlsx`` also unpacks to at most ``MAX_UNPACKED``)."""
MAX_UNPACKED = 20_000_000
MAX_ROWS = 10_000
"""Rows of data (the header not counted)."""
MAX_COLUMNS = 30
MAX_TEXT = 200

Cell = str | int | float | date | None

XLSX_MAGIC = b"PK\x03\x04"


class FileRefused(Exception):
    """The whole file is refused: nothing of it is read further."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Refusal:
    """One refused row (``line``: its row number in the file, the header being 1)."""

    code: str
    line: int
    column: str = ""
    value: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "line": self.line, "column": self.column, "value": self.value}


@dataclass(frozen=True)
class HistoryRow:
    """One player's evening as the file gives it."""

    line: int
    date: date
    player: str
    household: str
    status: str  # "member", "guest" or "" (not given)
    played: int
    won: int
    point_difference: int
    rank: int | None
    season: str


# --------------------------------------------------------------------------- reading


def read_cells(data: bytes) -> list[list[Cell]]:
    """The file's rows of cells (see the module's docstring for what is refused)."""
    if not data.strip():
        raise FileRefused("empty_file")
    if len(data) > MAX_BYTES:
        raise FileRefused("file_too_large", limit=MAX_BYTES // 1_000_000)
    if data.startswith(XLSX_MAGIC):
        return _read_xlsx(data)
    return _read_csv(data)


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 13))
    return b"\x00" in sample or controls > len(sample) // 100


def _read_csv(data: bytes) -> list[list[Cell]]:
    if _looks_binary(data):
        raise FileRefused("binary_file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileRefused("wrong_encoding", position=error.start) from None
    if text.count("\n") > MAX_ROWS + 1:
        raise FileRefused("too_many_rows", limit=MAX_ROWS)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    rows: list[list[Cell]] = []
    try:
        for row in reader:
            rows.append([cell.strip() or None for cell in row[: MAX_COLUMNS + 1]])
    except csv.Error:
        raise FileRefused("unreadable_file") from None
    return rows


def _delimiter(text: str) -> str:
    head = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(head, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def _read_xlsx(data: bytes) -> list[list[Cell]]:
    _check_unpacked_size(data)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError):
        raise FileRefused("unreadable_file") from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise FileRefused("empty_file")
        return _sheet_cells(sheet)
    finally:
        book.close()


def _check_unpacked_size(data: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise FileRefused("unreadable_file") from None
    if unpacked > MAX_UNPACKED:
        raise FileRefused("file_too_large", limit=MAX_BYTES // 1_000_000)


def _sheet_cells(sheet: Any) -> list[list[Cell]]:
    """The sheet's values; its stated size is checked first, and the rows are counted
    while read (a sheet may state less than it holds)."""
    if (sheet.max_row or 0) > MAX_ROWS + 1:
        raise FileRefused("too_many_rows", limit=MAX_ROWS)
    if (sheet.max_column or 0) > MAX_COLUMNS:
        raise FileRefused("too_many_columns", limit=MAX_COLUMNS)
    rows: list[list[Cell]] = []
    for row in sheet.iter_rows(max_col=MAX_COLUMNS):
        if len(rows) > MAX_ROWS:
            raise FileRefused("too_many_rows", limit=MAX_ROWS)
        rows.append([_cell_value(cell) for cell in row])
    return rows


def _cell_value(cell: Any) -> Cell:
    if getattr(cell, "data_type", None) == "f":
        raise FileRefused("formula_cell", cell=cell.coordinate)
    value = cell.value
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | date) or value is None:
        return value
    return str(value)


# --------------------------------------------------------------------------- columns

COLUMNS = ("date", "player", "household", "status", "played", "won", "difference", "rank", "season")
REQUIRED = ("date", "player", "played", "won", "difference")

#: Column names as clubs write them (compared without case, accents, spaces or signs).
ALIASES: Mapping[str, str] = {
    alias: column
    for column, names in {
        "date": ("date", "datum", "day", "tag", "jour"),
        "player": ("player", "name", "spieler", "spielerin", "joueur", "nom", "speler", "naam"),
        "household": ("household", "haushalt", "foyer", "menage", "huishouden"),
        "status": ("status", "member", "mitglied", "membre", "lid", "kind", "art", "statut"),
        "played": ("played", "games", "spiele", "gespielt", "parties", "jouees", "gespeeld"),
        "won": ("won", "gameswon", "gewonnen", "siege", "gagnees", "victoires"),
        "difference": (
            "difference",
            "pointdifference",
            "points",
            "diff",
            "differenz",
            "punkte",
            "augen",
            "ecart",
            "verschil",
            "punten",
            "saldo",
        ),
        "rank": ("rank", "platz", "rang", "place", "plaats", "position"),
        "season": ("season", "saison", "seizoen"),
    }.items()
    for alias in names
}

STATUS_WORDS: Mapping[str, str] = {
    **dict.fromkeys(("member", "mitglied", "membre", "lid", "m", "yes", "ja", "oui"), "member"),
    **dict.fromkeys(("guest", "gast", "invite", "g", "no", "nein", "non", "nee"), "guest"),
}


def _key(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


def header_columns(header: Sequence[Cell]) -> dict[str, int]:
    """Column name -> index; refuses unknown, repeated or missing columns."""
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        if cell is None or str(cell).strip() == "":
            continue
        column = ALIASES.get(_key(str(cell)))
        if column is None:
            raise FileRefused("wrong_columns", column=str(cell)[:MAX_TEXT])
        if column in found:
            raise FileRefused("repeated_column", column=str(cell)[:MAX_TEXT])
        found[column] = index
    missing = [c for c in REQUIRED if c not in found]
    if missing:
        raise FileRefused("missing_columns", columns=", ".join(missing))
    return found


# --------------------------------------------------------------------------- rows


class _RowRefused(Exception):
    def __init__(self, code: str, column: str, value: Cell) -> None:
        super().__init__(code)
        self.refusal = (code, column, "" if value is None else str(value)[:MAX_TEXT])


DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%y")


def _date(value: Cell, today: date) -> date:
    day: date | None = value if isinstance(value, date) else None
    if isinstance(value, str):
        for pattern in DATE_FORMATS:
            try:
                day = datetime.strptime(value, pattern).date()
                break
            except ValueError:
                continue
    if day is None or day > today or day.year < 1900:
        raise _RowRefused("bad_date", "date", value)
    return day


def _whole(value: Cell, column: str, *, minimum: int | None = 0) -> int:
    number: int | None = None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,9}", value.replace("\u2212", "-")):
        number = int(value.replace("\u2212", "-"))
    if number is None or (minimum is not None and number < minimum) or abs(number) > 10**9:
        raise _RowRefused("bad_number", column, value)
    return number


def _text(value: Cell, column: str, *, required: bool = False) -> str:
    text = "" if value is None else str(value).strip()
    if required and not text:
        raise _RowRefused("missing_value", column, value)
    if len(text) > MAX_TEXT:
        raise _RowRefused("bad_name", column, value)
    return text


def _status(value: Cell) -> str:
    if value is None:
        return ""
    status = STATUS_WORDS.get(_key(str(value)))
    if status is None:
        raise _RowRefused("bad_status", "status", value)
    return status


def _row(cells: Sequence[Cell], columns: Mapping[str, int], line: int, today: date) -> HistoryRow:
    def cell(column: str) -> Cell:
        index = columns.get(column)
        return cells[index] if index is not None and index < len(cells) else None

    played = _whole(cell("played"), "played", minimum=1)
    won = _whole(cell("won"), "won")
    if won > played:
        raise _RowRefused("totals_do_not_add_up", "won", won)
    rank_cell = cell("rank")
    return HistoryRow(
        line=line,
        date=_date(cell("date"), today),
        player=_text(cell("player"), "player", required=True),
        household=_text(cell("household"), "household"),
        status=_status(cell("status")),
        played=played,
        won=won,
        point_difference=_whole(cell("difference"), "difference", minimum=None),
        rank=None if rank_cell is None else _whole(rank_cell, "rank", minimum=1),
        season=_text(cell("season"), "season"),
    )


@dataclass(frozen=True)
class ParsedFile:
    rows: tuple[HistoryRow, ...]
    refusals: tuple[Refusal, ...]


def parse_rows(cells: Sequence[Sequence[Cell]], *, today: date) -> ParsedFile:
    """The header and every row (blank rows skipped); a header-only file is empty."""
    if not cells:
        raise FileRefused("empty_file")
    columns = header_columns(cells[0])
    rows: list[HistoryRow] = []
    refusals: list[Refusal] = []
    for line, row in enumerate(cells[1:], start=2):
        if all(c is None for c in row):
            continue
        try:
            rows.append(_row(row, columns, line, today))
        except _RowRefused as refused:
            refusals.append(_as_refusal(refused, line))
    if not rows and not refusals:
        raise FileRefused("empty_file")
    return ParsedFile(tuple(rows), tuple(refusals))


def _as_refusal(refused: _RowRefused, line: int) -> Refusal:
    code, column, value = refused.refusal
    return Refusal(code, line, column, value)


# --------------------------------------------------------------------------- the plan


def name_key(name: str) -> str:
    """How a name in the file matches a player of the club: case and spacing ignored."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class NewPlayer:
    name: str
    household: str
    status: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "household": self.household, "status": self.status or "member"}


@dataclass(frozen=True)
class PlannedLine:
    line: int
    player: str  # the name as matched: the club's player's or the new player's
    player_id: int | None  # None: created by the import
    played: int
    won: int
    point_difference: int
    rank: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "player": self.player,
            "player_id": self.player_id,
            "played": self.played,
            "won": self.won,
            "point_difference": self.point_difference,
            "rank": self.rank,
        }


@dataclass(frozen=True)
class PlannedEvening:
    date: date
    season: str
    lines: tuple[PlannedLine, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "date": self.date.isoformat(),
            "season": self.season,
            "lines": [line.to_dict() for line in self.lines],
        }


@dataclass(frozen=True)
class NewSeason:
    """A past season the import creates: its name and the days of its first and last
    evening in the file."""

    name: str
    starts_on: date
    ends_on: date
    evenings: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "starts_on": self.starts_on.isoformat(),
            "ends_on": self.ends_on.isoformat(),
            "evenings": self.evenings,
        }


@dataclass(frozen=True)
class ImportPlan:
    """What confirming would create, and what it refuses. ``seasons``: every season
    named (as in the file); ``new_seasons`` the ones created, ``matched_seasons`` the
    club's seasons the others count into (their names as the club has them)."""

    players: tuple[NewPlayer, ...]
    evenings: tuple[PlannedEvening, ...]
    seasons: tuple[str, ...]
    refusals: tuple[Refusal, ...]
    matched_players: tuple[str, ...] = field(default=())
    new_seasons: tuple[NewSeason, ...] = field(default=())
    matched_seasons: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [p.to_dict() for p in self.players],
            "matched_players": list(self.matched_players),
            "evenings": [e.to_dict() for e in self.evenings],
            "seasons": list(self.seasons),
            "new_seasons": [s.to_dict() for s in self.new_seasons],
            "matched_seasons": list(self.matched_seasons),
            "refusals": [r.to_dict() for r in self.refusals],
        }


def plan_import(
    parsed: ParsedFile,
    *,
    known_players: Mapping[str, tuple[int, str]],
    existing_dates: Iterable[date],
    create_players: bool,
    known_seasons: Mapping[str, tuple[int, str]] | None = None,
) -> ImportPlan:
    """The import of ``parsed`` into a club. ``known_players``: ``name_key`` -> (id,
    name) of the club's players; ``existing_dates``: the dates of its evenings (played or
    imported); ``known_seasons``: ``name_key`` -> (id, name) of its seasons. Every row of
    an evening already in the club, or in the file twice (a player twice on one date), is
    refused; so is every row of an evening whose ranks
    contradict its figures (the evening as the file has it). Then a row of an unknown
    player is refused unless players are created; the evening keeps its other rows."""
    refusals = list(parsed.refusals)
    by_date: defaultdict[date, list[HistoryRow]] = defaultdict(list)
    for row in parsed.rows:
        by_date[row.date].append(row)
    taken = set(existing_dates)
    evenings: list[PlannedEvening] = []
    rows: list[HistoryRow] = []
    for day in sorted(by_date):
        refused = _evening_refusal(by_date[day], taken)
        if refused is not None:
            refusals.extend(Refusal(refused, r.line, "date", day.isoformat()) for r in by_date[day])
            continue
        kept = []
        for row in by_date[day]:
            if create_players or name_key(row.player) in known_players:
                kept.append(row)
            else:
                refusals.append(Refusal("unknown_player", row.line, "player", row.player))
        if kept:
            rows.extend(kept)
            evenings.append(_planned_evening(day, kept, known_players))
    plan = _plan(evenings, rows, known_players, refusals)
    return _with_seasons(plan, known_seasons or {})


def _evening_refusal(rows: Sequence[HistoryRow], taken: set[date]) -> str | None:
    if rows[0].date in taken:
        return "duplicate_evening"
    keys = [name_key(r.player) for r in rows]
    if len(set(keys)) != len(keys):
        return "duplicate_evening_in_file"
    if not ranks_match(rows):
        return "rank_does_not_match"
    return None


def ranks_match(rows: Sequence[HistoryRow]) -> bool:
    """Whether the ranks given follow the evening's figures (games won, then point
    difference; equal figures share a rank, the next rank skips: 1, 2, 2, 4)."""
    if all(r.rank is None for r in rows):
        return True
    if any(r.rank is None for r in rows):
        return False
    ordered = sorted(rows, key=lambda r: (-r.won, -r.point_difference))
    first: dict[tuple[int, int], int] = {}
    for index, row in enumerate(ordered):
        first.setdefault((row.won, row.point_difference), index + 1)
    return all(row.rank == first[(row.won, row.point_difference)] for row in ordered)


def _planned_evening(
    day: date, rows: Sequence[HistoryRow], known: Mapping[str, tuple[int, str]]
) -> PlannedEvening:
    lines = []
    for r in sorted(rows, key=lambda r: (r.rank or 0, r.line)):
        match = known.get(name_key(r.player))
        player_id, name = match if match is not None else (None, " ".join(r.player.split()))
        lines.append(
            PlannedLine(r.line, name, player_id, r.played, r.won, r.point_difference, r.rank)
        )
    season = next((r.season for r in rows if r.season), "")
    return PlannedEvening(day, season, tuple(lines))


def _plan(
    evenings: Sequence[PlannedEvening],
    rows: Sequence[HistoryRow],
    known: Mapping[str, tuple[int, str]],
    refusals: Sequence[Refusal],
) -> ImportPlan:
    used = {name_key(line.player) for e in evenings for line in e.lines}
    new: dict[str, NewPlayer] = {}
    matched: dict[str, str] = {}
    for row in rows:
        key = name_key(row.player)
        if key not in used:
            continue
        if key in known:
            matched.setdefault(key, known[key][1])
        elif key not in new:
            new[key] = NewPlayer(" ".join(row.player.split()), row.household, row.status)
    seasons = tuple(dict.fromkeys(e.season for e in evenings if e.season))
    return ImportPlan(
        players=tuple(new.values()),
        evenings=tuple(evenings),
        seasons=seasons,
        refusals=tuple(sorted(refusals, key=lambda r: (r.line, r.code))),
        matched_players=tuple(matched.values()),
    )


def _with_seasons(plan: ImportPlan, known: Mapping[str, tuple[int, str]]) -> ImportPlan:
    """The plan with the seasons it creates (a name the club has not: spanning the days
    of its evenings) and the club's seasons it counts into."""
    days: dict[str, list[date]] = {}
    for evening in plan.evenings:
        if evening.season:
            days.setdefault(name_key(evening.season), []).append(evening.date)
    new, matched = [], []
    for name in plan.seasons:
        key = name_key(name)
        if key in known:
            matched.append(known[key][1])
        elif key in days:
            dates = days.pop(key)
            new.append(NewSeason(" ".join(name.split()), min(dates), max(dates), len(dates)))
    return replace(plan, new_seasons=tuple(new), matched_seasons=tuple(dict.fromkeys(matched)))
