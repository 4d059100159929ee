"""Command line: ``python -m games.engine check FILE|-``, ``check --jsonl [FILE]``,
``random --seed N --count K [--rules PRESET]`` (any preset of ``ALL_PRESETS``, ``belote``,
``belote-contree`` and ``schieber`` included), ``analyse FILE|-``, ``analyse --jsonl [FILE]``.

``check`` prints one result per record as one JSON line; exit 0 when valid, 1 when
invalid, 2 when the input cannot be read or parsed as JSON. With ``--jsonl`` every
non-blank input line is one record and gives one output line, in order; the exit code
is 0 when all are valid, 1 otherwise. ``random`` writes K random legal full records,
deterministic for a seed, dealers rotating from seat 0. ``analyse`` writes the par
analysis of each full record (``analysis.analyse``) the same way; exit 0 when every record
was analysed, 1 otherwise (invalid or summary records), 2 when the input is unreadable.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .analysis import analyse
from .dispatch import check
from .errors import Code, Problem
from .randomdeal import random_deal
from .record import unchecked
from .rules import ALL_PRESETS


def _dump(result: dict[str, Any], out: TextIO) -> None:
    out.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")


def _unreadable(message: str) -> dict[str, Any]:
    return unchecked(Problem(Code.BAD_FORMAT, message))


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _check_one(path: str) -> int:
    try:
        record = json.loads(_read(path))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        _dump(_unreadable(f"cannot read a JSON record from {path}: {exc}"), sys.stdout)
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return 2
    result = check(record)
    _dump(result, sys.stdout)
    return 0 if result["valid"] else 1


def _analysed(result: dict[str, Any]) -> bool:
    return bool(result.get("analysed"))


def _analyse_one(path: str, best: bool) -> int:
    try:
        record = json.loads(_read(path))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        _dump(_unreadable(f"cannot read a JSON record from {path}: {exc}"), sys.stdout)
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return 2
    result = analyse(record, best_cards=best)
    _dump(result, sys.stdout)
    return 0 if _analysed(result) else 1


def _analyse_lines(path: str | None, best: bool) -> int:
    source = sys.stdin if path in (None, "-") else open(path, encoding="utf-8")  # noqa: SIM115
    status = 0
    with source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                result = analyse(json.loads(line), best_cards=best)
            except ValueError as exc:
                result = _unreadable(f"line {number} is not JSON: {exc}")
            status = status or (0 if _analysed(result) else 1)
            _dump(result, sys.stdout)
            sys.stdout.flush()
    return status


def _check_lines(path: str | None) -> int:
    source = sys.stdin if path in (None, "-") else open(path, encoding="utf-8")  # noqa: SIM115
    status = 0
    with source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                result = check(json.loads(line))
            except ValueError as exc:
                result = _unreadable(f"line {number} is not JSON: {exc}")
            status = status or (0 if result["valid"] else 1)
            _dump(result, sys.stdout)
    return status


def _random(seed: int, count: int, rules: str | None) -> int:
    rng = random.Random(seed)
    for index in range(count):
        record = random_deal(rng, dealer=index % 4, rules=rules)
        sys.stdout.write(json.dumps(record, separators=(",", ":")) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    check_p = sub.add_parser("check", help="check deal records")
    check_p.add_argument("file", nargs="?", help="a JSON record file, or - for stdin")
    check_p.add_argument("--jsonl", action="store_true", help="one record per line")
    random_p = sub.add_parser("random", help="write random legal deal records")
    random_p.add_argument("--seed", type=int, required=True)
    random_p.add_argument("--count", type=int, default=1)
    random_p.add_argument(
        "--rules", default=None, choices=sorted(ALL_PRESETS), help="preset name (default klammern)"
    )
    analyse_p = sub.add_parser("analyse", help="perfect-play (par) analysis of full records")
    analyse_p.add_argument("file", nargs="?", help="a JSON record file, or - for stdin")
    analyse_p.add_argument("--jsonl", action="store_true", help="one record per line")
    analyse_p.add_argument(
        "--no-best", action="store_true", help="leave out each play's best cards (faster)"
    )
    args = parser.parse_args(argv)
    if args.command == "random":
        return _random(args.seed, args.count, args.rules)
    if args.command == "analyse":
        if args.jsonl:
            return _analyse_lines(args.file, not args.no_best)
        if args.file is None:
            parser.error("analyse needs a FILE (or - for stdin), or --jsonl")
        return _analyse_one(args.file, not args.no_best)
    if args.jsonl:
        return _check_lines(args.file)
    if args.file is None:
        parser.error("check needs a FILE (or - for stdin), or --jsonl")
    return _check_one(args.file)


if __name__ == "__main__":
    sys.exit(main())
