"""The history file's reading and planning (pure, no database): every refusal code."""

from __future__ import annotations

from datetime import date

import pytest

from tests.history.files import (
    HEADER,
    csv_bytes,
    xlsx_bomb,
    xlsx_bytes,
    xlsx_huge_dimension,
)
from tournaments.history import parsing
from tournaments.history.parsing import FileRefused, parse_rows, plan_import, read_cells

TODAY = date(2026, 12, 6)
ROWS = [
    HEADER,
    ["2025-09-05", "Anna", "Maier", "member", 3, 2, 120, 1],
    ["2025-09-05", "Bernd", "Maier", "guest", 3, 1, -120, 2],
]


def parsed(data: bytes) -> parsing.ParsedFile:
    return parse_rows(read_cells(data), today=TODAY)


def plan(data: bytes, *, known=None, dates=(), create=True) -> parsing.ImportPlan:  # type: ignore[no-untyped-def]
    return plan_import(
        parsed(data), known_players=known or {}, existing_dates=dates, create_players=create
    )


def refused_code(data: bytes) -> FileRefused:
    with pytest.raises(FileRefused) as caught:
        parsed(data)
    return caught.value


@pytest.mark.parametrize(
    ("data", "delimiter"),
    [
        (csv_bytes(ROWS), ","),
        (csv_bytes(ROWS, delimiter=";", bom=True), ";"),
        (csv_bytes(ROWS, delimiter="\t"), "\t"),
        (xlsx_bytes(ROWS), ""),
    ],
)
def test_a_good_file_in_every_form_reads_alike(data: bytes, delimiter: str) -> None:
    result = parsed(data)
    assert result.refusals == ()
    assert [
        (r.date, r.player, r.household, r.status, r.played, r.won, r.point_difference, r.rank)
        for r in result.rows
    ] == [
        (date(2025, 9, 5), "Anna", "Maier", "member", 3, 2, 120, 1),
        (date(2025, 9, 5), "Bernd", "Maier", "guest", 3, 1, -120, 2),
    ]


def test_german_headers_dates_and_xlsx_date_cells() -> None:
    rows = [
        ["Datum", "Spieler", "Haushalt", "Mitglied", "Spiele", "Gewonnen", "Differenz", "Platz"],
        [date(2024, 3, 12), "Anna", "", "Gast", 4, 4, 10, 1],
        ["13.03.2024", "Anna", "", "ja", 4, 0, -10, 1],
    ]
    result = parse_rows(read_cells(xlsx_bytes(rows)), today=TODAY)
    assert [(r.date, r.status) for r in result.rows] == [
        (date(2024, 3, 12), "guest"),
        (date(2024, 3, 13), "member"),
    ]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "empty_file"),
        (b"  \n\n", "empty_file"),
        (csv_bytes([HEADER]), "empty_file"),
        (b"x" * (parsing.MAX_BYTES + 1), "file_too_large"),
        (b"\x00\x01\x02\x03binary" * 100, "binary_file"),
        ("date,player\n2025-09-05,Jürgen\n".encode("cp1252"), "wrong_encoding"),
        (csv_bytes([HEADER] + [["2025-09-05", "A", "", "", 1, 0, 0, 1]] * 50_000), "too_many_rows"),
        (csv_bytes([[*HEADER, "colour"]]), "wrong_columns"),
        (csv_bytes([[*HEADER, "Spieler"]]), "repeated_column"),
        (csv_bytes([["date", "player", "won"]]), "missing_columns"),
        (b"PK\x03\x04 this is no zip", "unreadable_file"),
        (xlsx_huge_dimension(ROWS), "too_many_rows"),
        (xlsx_bomb(ROWS), "file_too_large"),
        (csv_bytes([["date", '"player']]) + b'\n"unterminated', "missing_columns"),
    ],
)
def test_a_bad_file_is_refused_as_a_whole(data: bytes, code: str) -> None:
    assert refused_code(data).code == code


def test_fifty_thousand_rows_of_xlsx_are_refused_by_counting() -> None:
    rows = [HEADER] + [["2025-09-05", f"P{i}", "", "", 1, 0, 0, None] for i in range(50_000)]
    assert refused_code(xlsx_bytes(rows, write_only=True)).code == "too_many_rows"


def test_too_many_columns_in_xlsx() -> None:
    wide = [[*HEADER, *[f"x{i}" for i in range(40)]]]
    assert refused_code(xlsx_bytes(wide)).code == "too_many_columns"


def test_a_formula_is_refused_with_its_cell_and_not_evaluated() -> None:
    rows = [HEADER, ["2025-09-05", "Anna", "", "", 3, "=1+1", 0, 1]]
    refused = refused_code(xlsx_bytes(rows))
    assert (refused.code, refused.params) == ("formula_cell", {"cell": "F2"})


def test_the_encoding_refusal_names_the_byte() -> None:
    refused = refused_code("date,player\n2025-09-05,Jürgen\n".encode("latin-1"))
    assert refused.params == {"position": 24}


@pytest.mark.parametrize(
    ("row", "code", "column"),
    [
        (["31.02.2025", "Anna", "", "", 3, 2, 1, None], "bad_date", "date"),
        (["2027-01-01", "Anna", "", "", 3, 2, 1, None], "bad_date", "date"),
        (["yesterday", "Anna", "", "", 3, 2, 1, None], "bad_date", "date"),
        (["2025-09-05", "Anna", "", "", "three", 2, 1, None], "bad_number", "played"),
        (["2025-09-05", "Anna", "", "", 0, 0, 1, None], "bad_number", "played"),
        (["2025-09-05", "Anna", "", "", 3, -1, 1, None], "bad_number", "won"),
        (["2025-09-05", "Anna", "", "", 3, 2, 1.5, None], "bad_number", "difference"),
        (["2025-09-05", "Anna", "", "", 3, 2, 1, 0], "bad_number", "rank"),
        (["2025-09-05", "", "", "", 3, 2, 1, None], "missing_value", "player"),
        (["2025-09-05", "A" * 201, "", "", 3, 2, 1, None], "bad_name", "player"),
        (["2025-09-05", "Anna", "", "friend", 3, 2, 1, None], "bad_status", "status"),
        (["2025-09-05", "Anna", "", "", 3, 4, 1, None], "totals_do_not_add_up", "won"),
    ],
)
def test_a_bad_row_is_refused_with_its_code(row: list[object], code: str, column: str) -> None:
    result = parsed(xlsx_bytes([HEADER, row, ["2025-09-06", "Bernd", "", "", 1, 1, 5, 1]]))
    assert [(r.code, r.line, r.column) for r in result.refusals] == [(code, 2, column)]
    assert [r.player for r in result.rows] == ["Bernd"]


def test_unknown_players_are_refused_unless_created() -> None:
    data = csv_bytes(ROWS)
    known = {"anna": (7, "Anna")}
    refused = plan(data, known=known, create=False)
    assert [(r.code, r.line, r.value) for r in refused.refusals] == [("unknown_player", 3, "Bernd")]
    created = plan(data, known=known, create=True)
    assert created.refusals == ()
    assert [p.name for p in created.players] == ["Bernd"]
    assert created.matched_players == ("Anna",)
    assert [(line.player, line.player_id) for line in created.evenings[0].lines] == [
        ("Anna", 7),
        ("Bernd", None),
    ]


def test_an_evening_the_club_has_is_refused_whole() -> None:
    result = plan(csv_bytes(ROWS), dates=[date(2025, 9, 5)])
    assert [(r.code, r.line) for r in result.refusals] == [
        ("duplicate_evening", 2),
        ("duplicate_evening", 3),
    ]
    assert result.evenings == ()
    assert result.players == ()


def test_an_evening_twice_in_the_file_is_refused_whole() -> None:
    rows = [*ROWS, ["2025-09-05", "anna ", "", "", 3, 2, 120, 1]]
    result = plan(csv_bytes(rows))
    assert {r.code for r in result.refusals} == {"duplicate_evening_in_file"}
    assert [r.line for r in result.refusals] == [2, 3, 4]


def test_ranks_that_contradict_the_figures_refuse_the_evening() -> None:
    rows = [
        HEADER,
        ["2025-09-05", "Anna", "", "", 3, 1, 120, 1],
        ["2025-09-05", "Bernd", "", "", 3, 2, -120, 2],
        ["2025-09-12", "Anna", "", "", 3, 2, 0, 1],
        ["2025-09-12", "Bernd", "", "", 3, 2, 0, 1],
        ["2025-09-12", "Carla", "", "", 3, 1, 0, 3],
    ]
    result = plan(csv_bytes(rows))
    assert [(r.code, r.line) for r in result.refusals] == [
        ("rank_does_not_match", 2),
        ("rank_does_not_match", 3),
    ]
    assert [e.date for e in result.evenings] == [date(2025, 9, 12)]


def test_the_plan_names_players_evenings_and_seasons() -> None:
    rows = [
        [*HEADER, "season"],
        ["2024-03-01", "Anna", "Maier", "guest", 2, 1, 5, None, "2023/24"],
        ["2024-03-01", "Bernd", "", "", 2, 1, -5, None, "2023/24"],
        ["2024-09-01", "Anna", "", "", 2, 2, 9, None, "2024/25"],
    ]
    result = plan(csv_bytes(rows))
    assert [p.to_dict() for p in result.players] == [
        {"name": "Anna", "household": "Maier", "status": "guest"},
        {"name": "Bernd", "household": "", "status": "member"},
    ]
    assert result.seasons == ("2023/24", "2024/25")
    assert [(e.date.isoformat(), e.season, len(e.lines)) for e in result.evenings] == [
        ("2024-03-01", "2023/24", 2),
        ("2024-09-01", "2024/25", 1),
    ]
