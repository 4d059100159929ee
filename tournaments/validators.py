"""Validation of the names people type (players, clubs, tournaments, teams, seasons):
no control characters (Unicode category Cc: ESC, BEL, NUL, newlines, tabs) and no
bidirectional overrides, embeddings, isolates or marks, which let a name display as
something else than it is (U+202E turns "Anna" + "txt.exe" around) or garble the page,
the table cards and the CSV exports around it.

Used by the models (so the admin, model forms and model serializers check it) and by
the plain serializers and forms that take names. It does not limit length or letters.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # embeddings and overrides
    + [chr(c) for c in range(0x2066, 0x206A)]  # isolates
    + ["\u200e", "\u200f", "\u061c"]  # left-to-right, right-to-left and Arabic letter marks
)


def is_forbidden(char: str) -> bool:
    return char in BIDI_CONTROLS or unicodedata.category(char) == "Cc"


def validate_name(value: str) -> None:
    forbidden = sorted({f"U+{ord(c):04X}" for c in value if is_forbidden(c)})
    if forbidden:
        raise ValidationError(
            _("Names may not contain control or text-direction characters (%(chars)s)."),
            code="forbidden_characters",
            params={"chars": ", ".join(forbidden)},
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
