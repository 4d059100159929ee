"""Spreadsheets for the history import's tests: CSV and .xlsx made in memory, and the
hostile ones (a formula, a stated huge sheet, a zip bomb)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Sequence

import openpyxl

HEADER = ["date", "player", "household", "status", "played", "won", "difference", "rank"]


def csv_bytes(
    rows: Sequence[Sequence[object]], *, delimiter: str = ",", bom: bool = False
) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter).writerows(rows)
    return (b"\xef\xbb\xbf" if bom else b"") + out.getvalue().encode("utf-8")


def xlsx_bytes(rows: Sequence[Sequence[object]], *, write_only: bool = False) -> bytes:
    book = openpyxl.Workbook(write_only=write_only)
    sheet = book.create_sheet() if write_only else book.active
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _rewrite_sheet(data: bytes, change: object) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                body = change(body)  # type: ignore[operator]
            target.writestr(info.filename, body)
    return out.getvalue()


def xlsx_huge_dimension(rows: Sequence[Sequence[object]]) -> bytes:
    """A small workbook whose sheet says it spans A1:XFD1048576."""
    return _rewrite_sheet(
        xlsx_bytes(rows),
        lambda body: re.sub(
            rb'<dimension ref="[^"]*" ?/>', b'<dimension ref="A1:XFD1048576"/>', body
        ),
    )


def xlsx_bomb(rows: Sequence[Sequence[object]]) -> bytes:
    """A workbook of a few kilobytes that unpacks to 40 MB (padding in its sheet)."""
    padding = b"<!--" + b" " * 40_000_000 + b"-->"
    return _rewrite_sheet(
        xlsx_bytes(rows), lambda body: body.replace(b"<sheetData>", padding + b"<sheetData>", 1)
    )
