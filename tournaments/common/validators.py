"""Validation of the names and short texts people type (players, users, clubs and their
cities, tournaments, teams, leagues, seasons, divisions, venues), one validator for all:

- no control characters (Unicode category Cc: ESC, BEL, NUL, CR, LF, tabs), line or
  paragraph separators, and no bidirectional overrides, embeddings, isolates or marks,
  which let a name display as something else than it is (U+202E turns "Anna" + "txt.exe"
  around), garble the page, the CSV exports, or break a line of the calendar feed;
- no invisible characters (format characters such as the zero-width space or the word
  joiner, and blank "letters" such as U+3164), which make two names look the same; a
  zero-width (non-)joiner stays allowed between letters of scripts that need it (Persian,
  Indic scripts);
- no word mixing look-alike alphabets (Latin, Cyrillic, Greek, ...): "Оlga" with a
  Cyrillic "О" passes for "Olga". Names in one script stay fine ("Jürgen", "Çelik",
  "Ольга", "Ολγα"), and so do words of different scripts side by side.

Used by the models (so the admin, model forms and model serializers check it), by the
plain serializers and forms that take names, and by the sign-up. It does not limit length;
``validate_text`` is the same for free text that may span lines (a correction's reason).

``validate_slug`` is the one rule for the web addresses (slugs) of clubs, leagues and
tournaments, wherever they are typed: lower-case letters, digits, dashes and underscores,
as ``slugify`` writes them (a page is found by its address exactly: ``Unsinn-Liga`` would
be stored and its page never found under the address people type).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # embeddings and overrides
    + [chr(c) for c in range(0x2066, 0x206A)]  # isolates
    + ["\u200e", "\u200f", "\u061c"]  # left-to-right, right-to-left and Arabic letter marks
)
#: Letters and symbols that show as nothing (Hangul fillers, the blank Braille pattern).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
JOINERS = frozenset("\u200c\u200d")
#: Scripts whose letters look alike: a word may use one of them, not two.
CONFUSABLE_SCRIPTS = frozenset(
    {"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "COPTIC", "CHEROKEE", "GEORGIAN"}
)
WORD = re.compile(r"\w+")


def is_forbidden(char: str) -> bool:
    """A control, separator or text-direction character."""
    return char in BIDI_CONTROLS or unicodedata.category(char) in {"Cc", "Cs", "Zl", "Zp"}


def script_of(char: str) -> str | None:
    """The script of a letter as its Unicode name starts ("LATIN", "CYRILLIC"), if any."""
    if not unicodedata.category(char).startswith("L"):
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else None


def invisible_at(value: str, index: int) -> bool:
    """An invisible character; a joiner only where no look-alike script surrounds it."""
    char = value[index]
    if char in BLANK_LETTERS:
        return True
    if unicodedata.category(char) != "Cf" or char in BIDI_CONTROLS:
        return False
    if char not in JOINERS:
        return True
    around = value[max(0, index - 1) : index] + value[index + 1 : index + 2]
    return any(script_of(c) is None or script_of(c) in CONFUSABLE_SCRIPTS for c in around or " ")


def mixed_word(value: str) -> tuple[str, list[str]] | None:
    """The first word mixing look-alike scripts, and those scripts."""
    for word in WORD.findall(unicodedata.normalize("NFKC", value)):
        scripts = {script_of(c) for c in word} & CONFUSABLE_SCRIPTS
        if len(scripts) > 1:
            return word, sorted(scripts)
    return None


def codes(chars: set[str]) -> str:
    return ", ".join(sorted(f"U+{ord(c):04X}" for c in chars))


def check_text(value: str, *, allowed: frozenset[str]) -> None:
    forbidden = {c for c in value if is_forbidden(c) and c not in allowed}
    if forbidden:
        raise ValidationError(
            _("Names may not contain control or text-direction characters (%(chars)s)."),
            code="forbidden_characters",
            params={"chars": codes(forbidden)},
        )
    invisible = {c for i, c in enumerate(value) if invisible_at(value, i)}
    if invisible:
        raise ValidationError(
            _("Names may not contain invisible characters (%(chars)s)."),
            code="invisible_characters",
            params={"chars": codes(invisible)},
        )
    if mixed := mixed_word(value):
        raise ValidationError(
            _("The word '%(word)s' mixes letters of different alphabets (%(scripts)s)."),
            code="mixed_scripts",
            params={"word": mixed[0], "scripts": ", ".join(s.title() for s in mixed[1])},
        )


def validate_name(value: str) -> None:
    """A name or a one-line text: see the module's docstring."""
    check_text(value, allowed=frozenset())


def validate_text(value: str) -> None:
    """Free text on several lines: as a name, with line feeds allowed."""
    check_text(value, allowed=frozenset("\n"))


SLUG = re.compile(r"[-a-z0-9_]+\Z")


def validate_slug(value: str) -> None:
    """A web address (slug): lower-case letters, digits, dashes and underscores."""
    if not SLUG.match(value):
        raise ValidationError(
            _(
                "Write the web address in lower-case letters, digits and dashes, "
                "for example %(example)s."
            ),
            code="invalid",
            params={"example": slugify(value) or "bodensee-liga"},
        )


MAX_EMBED_ORIGINS = 10
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
LABEL = r"[a-z0-9]([a-z0-9-]*[a-z0-9])?"
ORIGIN_HOST = re.compile(rf"(\[[0-9a-f:]+\]|{LABEL}(\.{LABEL})*)(:[0-9]{{1,5}})?")


def validate_embed_origins(value: object) -> None:
    """The web sites (origins) that may show a club's tables in a frame: a list of at most
    ``MAX_EMBED_ORIGINS`` addresses written as ``https://host`` or ``https://host:port``,
    lower case, without path, query, user or wildcard (plain http only for this machine,
    for trying an embed out locally). They become the embed pages' ``frame-ancestors``."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError(
            _("Give a list of web addresses such as https://www.my-club.de."),
            code="invalid_origins",
        )
    if len(value) > MAX_EMBED_ORIGINS:
        raise ValidationError(
            _("At most %(n)s web sites may show the club's tables."),
            code="too_many_origins",
            params={"n": MAX_EMBED_ORIGINS},
        )
    for origin in value:
        if not is_origin(origin):
            raise ValidationError(
                _(
                    "%(origin)s is not the address of a web site: write it as "
                    "https://www.my-club.de, without a path."
                ),
                code="invalid_origin",
                params={"origin": origin},
            )


def is_origin(text: str) -> bool:
    """Whether ``text`` is exactly an origin as a browser writes it (``https://host[:port]``)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname or ""
    if parts.scheme == "http" and host not in LOOPBACK_HOSTS:
        return False
    netloc = parts.netloc
    return (
        parts.scheme in ("https", "http")
        and bool(host)
        and ORIGIN_HOST.fullmatch(netloc) is not None
        and text == f"{parts.scheme}://{netloc}"
        and (port is None or 0 < port < 65536)
        and "@" not in netloc
    )


def normalize_origin(text: str) -> str:
    """What a person types (``HTTPS://WWW.My-Club.de/``) as an origin's canonical form."""
    text = text.strip()
    parts = urlsplit(text)
    if parts.path in ("", "/") and not parts.query and not parts.fragment:
        return f"{parts.scheme.lower()}://{parts.netloc.lower()}"
    return text


#: The tie-break names an organiser may give a tournament (API and form), each with the
#: criterion it names (a value of ``results.standings.TieBreak``; the standings map them).
TIEBREAK_NAMES = {
    "match_points": "tournament_points",
    "tournament_points": "tournament_points",
    "games_won": "games_won",
    "point_difference": "point_difference",
    "points": "augen",
    "augen": "augen",
    "opponents_strength": "buchholz",
    "buchholz": "buchholz",
    "head_to_head": "head_to_head",
}
