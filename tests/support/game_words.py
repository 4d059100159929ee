"""The words of each game (or family of games) as its pages write them, and German an
other language's page must not show: the tests that every page of a game speaks that
game in the page's language (issue 35) share them."""

from __future__ import annotations

import re
from collections.abc import Iterable

LANGUAGES = ("de", "nl", "fr", "en")
#: The words only one game (or family of games) has, as its pages write them. Capitalised
#: words match as written (German has "besser" and "kleines" as ordinary words), the
#: others in any case; 162 card points are Klaverjas's and Belote's.
FAMILIES: dict[str, set[str]] = {
    "klammern": {"Bella", "Jappa", "Mie", "Terz", "Fünfzig", "164", "Orgi", "Kleines"}
    | {"Besser", "Kalte", "Laube", "Liga", "Augen", "Klammern", "Hamburg"}
    | {"small points", "big points", "small/big", "petits points", "grands points"}
    | {"petits/grands", "kleine Punkte", "große Punkte", "kleine/große", "kleine punten"}
    | {"grote punten", "kleine/grote"},
    "klaverjas": {"roem", "pit", "nat", "verzaakt", "162", "Klaverjas"},
    "belote": {"belote", "rebelote", "dedans", "capot", "tierce", "cinquante", "carré", "162"},
    "contree": {"coinche", "surcoinche", "coinché", "surcoinché", "coinchiert", "surcoinchiert"}
    | {"gecoincheerd", "gesurcoincheerd", "coincher", "surcoincher", "Contrée"}
    | {"belote", "capot", "162"},
    "schieber": {"Weis", "Stöck", "157", "Obenabe", "Undenufe", "schieben", "geschoben", "36"}
    | {"Schieber", "Schieberjass"},
}
FAMILY = {
    "klammern": "klammern",
    "klammern-hamburg": "klammern",
    "klammern-2": "klammern",
    "klammern-3": "klammern",
    "klaverjas-rotterdam": "klaverjas",
    "klaverjas-amsterdam": "klaverjas",
    "belote": "belote",
    "belote-contree": "contree",
    "schieber": "schieber",
}
#: A game's own word that another game's also is in one language: German calls Belote's
#: tierce a Terz, as it calls Klammern's.
SAME_WORD = {("belote", "de"): {"Terz"}}
#: Words of one game that are a language's ordinary word for every game: Dutch says
#: "verzaakt" for any revoke, French "carré" for any four of a kind.
ORDINARY = {"nl": {"verzaakt"}, "fr": {"carré"}}
#: German left untranslated on a French, Dutch or English page: its ordinary words (not
#: the games' own terms, which every language keeps: Terz, Fünfzig, Weis, Stöck).
#: ("der" is French too: Belote's "dix de der".)
GERMAN = {"und", "nicht", "das", "dem", "ein", "eine", "einen", "ist", "hat", "mit", "wird"}
GERMAN |= {"von", "für", "oder", "kann", "muss", "Karten", "Punkte", "Stich", "Stiche"}
GERMAN |= {"Spieler", "Trumpf", "Farbe", "Spiel", "Runde", "Platz", "Herz", "Pik", "Kreuz"}
#: Texts a language writes as English does (Dutch and German say "Board 3", as bridge
#: players do).
SAME_AS_ENGLISH = {("nl", "board"), ("de", "board")}
KEPT_TERMS = {"Fünfzig", "Stöck", "Jappa"}


def forbidden(preset: str, language: str) -> set[str]:
    own = FAMILIES[FAMILY[preset]] | SAME_WORD.get((FAMILY[preset], language), set())
    others = set().union(*(words for key, words in FAMILIES.items() if key != FAMILY[preset]))
    return others - own - ORDINARY.get(language, set())


def has_word(text: str, word: str) -> bool:
    flags = 0 if word[0].isupper() else re.IGNORECASE
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags) is not None


def offences(texts: Iterable[str], words: Iterable[str]) -> list[tuple[str, str]]:
    return [(word, text) for text in texts for word in words if has_word(text, word)]


def german_left(texts: Iterable[str], preset: str) -> list[tuple[str, str]]:
    kept = KEPT_TERMS | FAMILIES[FAMILY[preset]]
    found = offences(texts, GERMAN)
    for text in texts:
        for word in re.findall(r"[\wäöüÄÖÜß-]*[äöüÄÖÜß][\wäöüÄÖÜß-]*", text):
            if word not in kept:
                found.append((word, text))
    return found
