"""What a game profile is: the one object the platform asks for everything that differs
between games (seats, teams, the match's score and winner, score columns and their
labels, tie-breaks, the tablet's sheet, the hand-record layout, analysis, rating pool).

What it does
- ``GameProfile`` holds a game's facts as attributes and answers the questions that need
  a tournament's rules (``engine.Options``) or a match's deal results as methods; each
  game's module (``klammern``, ``klaverjas``, ``solo``) makes its profiles.
- ``MatchState`` is a match's score in one shape for every game; ``Column`` a labelled
  score column; ``EntrySheet`` the templates and script of the tablet's score sheet.

What it does not do
- No database, no request: values in, values out. Labels are lazy translations, read in
  the reader's language where they are shown. Nothing here imports ``tournaments``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import engine

Label = str | Promise
Result = Mapping[str, Any]

#: How a club's cards show their suits: French suits (♠ ♥ ♦ ♣) or the Swiss German ones
#: (Schilten, Schellen, Rosen, Eicheln). A record always names suits by the letters C S H
#: D; the style only changes what the sheets and pages show. The Swiss German suits as
#: they stand for the French ones (jassen.ch, "Spielfarben"): Eicheln Clubs, Rosen
#: Spades, Schilten Hearts, Schellen Diamonds.
FRENCH = "french"
SWISS = "swiss"
SUIT_STYLES: dict[str, Label] = {
    FRENCH: pgettext_lazy("suit style", "French suits (♠ ♥ ♦ ♣)"),
    SWISS: pgettext_lazy("suit style", "Swiss German suits (Schilten, Schellen, Rosen, Eicheln)"),
}
#: The suits' names per style, by the record's suit letter (no font has signs for the
#: Swiss suits, so their pages write the names where French suits show ♣ ♠ ♥ ♦).
SUIT_NAMES: dict[str, dict[str, Label]] = {
    FRENCH: {
        "C": pgettext_lazy("suit", "Clubs"),
        "S": pgettext_lazy("suit", "Spades"),
        "H": pgettext_lazy("suit", "Hearts"),
        "D": pgettext_lazy("suit", "Diamonds"),
    },
    SWISS: {
        "C": pgettext_lazy("swiss suit", "Acorns"),
        "S": pgettext_lazy("swiss suit", "Roses"),
        "H": pgettext_lazy("swiss suit", "Shields"),
        "D": pgettext_lazy("swiss suit", "Bells"),
    },
}


def suit_style(profile_styles: Sequence[str], wanted: str) -> str:
    """The suit style a game's pages use: the club's or tournament's choice if the game
    offers it, French suits otherwise."""
    return wanted if wanted in profile_styles else FRENCH


#: Match modes as the platform stores them (``Match.Mode``): a fixed number of deals, or
#: a Liga-Partie / points match to a target.
DEALS = "deals"
TO_TARGET = "liga"


@dataclass(frozen=True)
class Column:
    """A labelled score column: ``label`` is the short heading (tables), ``title`` the
    long one (tooltips, CSV headings)."""

    key: str
    label: Label
    title: Label

    def shown(self) -> dict[str, str]:
        return {"key": self.key, "label": str(self.label), "title": str(self.title)}


#: The paper score sheet's one column per side where a game writes down only its points.
PAPER_POINTS = (Column("points", _("Points"), _("The points of the deal")),)


@dataclass(frozen=True)
class DealColumn:
    """Columns of the results CSV, one per side (team or seat): ``heading`` is a label
    with ``%(side)s``, ``value`` reads one side's value from the engine's deal result."""

    heading: Label
    value: Callable[[Result, int], Any]


def revoke_mark(word: Label, revoker: str) -> tuple[str, str]:
    """A revoke's badge on a deal list: the game's word for it and the player who
    revoked (the record's revoke seat), never the taker the line names before it."""
    if not revoker:
        return ("is-warn", str(word))
    return ("is-warn", gettext("%(word)s: %(name)s") % {"word": word, "name": revoker})


def per_side(key: str) -> Callable[[Result, int], Any]:
    """A side's entry of a result list (``points``, ``roem``, ...); 0 where it has none."""

    def value(result: Result, side: int) -> Any:
        values = result.get(key)
        return values[side] if isinstance(values, list) and side < len(values) else 0

    return value


@dataclass(frozen=True)
class EntrySheet:
    """The tablet's (and the console's) score sheet of a game: the templates included for
    entry and for the match's state, the script and its class (Klammern's ``entry.js``
    unless the game has its own; every sheet's script builds on the sheets' library
    ``sheet.js``, which the pages load first), the stylesheet ("" where the common ones
    serve), and error texts that name the game's own numbers."""

    entry_template: str
    state_template: str
    entry_script: str = "tournaments/entry.js"
    entry_class: str = "DealEntry"
    stylesheet: str = ""
    error_templates: Mapping[str, Label] = field(default_factory=dict)
    strings: Mapping[str, Label] = field(default_factory=dict)

    def context(self) -> dict[str, str]:
        """The names the tablet and console templates include."""
        return {
            "entry_template": self.entry_template,
            "state_template": self.state_template,
            "entry_script": self.entry_script,
            "entry_class": self.entry_class,
            "entry_stylesheet": self.stylesheet,
        }

    def errors(self) -> dict[str, str]:
        return {code: str(text) for code, text in self.error_templates.items()}

    def texts(self) -> dict[str, str]:
        return {key: str(text) for key, text in self.strings.items()}


@dataclass(frozen=True)
class MatchState:
    """A match's score after its current deals, in one shape for every game.

    ``kind`` names the score's terms (``small_big``, ``hamburg``, ``liga``, ``points``);
    ``big``/``small`` are big and small points (Hamburg: rounds and points of the round
    played), ``kalte`` the big points won by a Kalte; ``match_points`` the Augen (a points
    match of two teams: their points); ``points`` the points per side of a points match
    (per team or per seat); ``winner`` the side that won once ``finished`` (None: a draw
    or not decided); ``liga_winner`` the team that won a Liga-Partie or a team points
    match once decided."""

    kind: str
    big: tuple[int, int] = (0, 0)
    small: tuple[int, int] = (0, 0)
    match_points: tuple[int, int] = (0, 0)
    kalte: tuple[int, int] = (0, 0)
    points: tuple[int, ...] = ()
    finished: bool = False
    winner: int | None = None
    liga_winner: int | None = None
    #: Deals counted (thrown-in ones included).
    deals: int = 0

    @property
    def hamburg(self) -> bool:
        return self.kind == "hamburg"


def deals_finished(results: Sequence[Result], *, planned: int | None, played: int | None) -> bool:
    """Whether a match of ``planned`` deals is over: its planned deals are played.
    ``played`` is the caller's count of them (a format counts a thrown-in board as
    played, RULES.md "Duplicate tournaments"); without it, the results that were not
    thrown in (a thrown-in deal is no planned deal). Unknown ``planned``: not over."""
    if planned is None:
        return False
    if played is None:
        played = sum(1 for result in results if result.get("outcome") != "thrown_in")
    return played >= planned


@dataclass(frozen=True)
class BoardCards:
    """The cards of one duplicate board as dealt: its dealer, each seat's hand (in the
    order dealt), the turned-up card ("" in a game without one) and the cards still to
    deal once trump is taken, in the order dealt (Belote: the taker's hand is completed
    with the upcard and two of them, the others' with three; () where all are dealt)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    upcard: str
    stock: tuple[str, ...] = ()


def shuffled_deck(rng: random.Random, deck: Sequence[str]) -> list[str]:
    """A game's deck (``engine.deck_texts``) shuffled by a board's ``rng``."""
    cards = list(deck)
    rng.shuffle(cards)
    return cards


def dealt_in_packets(deck: Sequence[str], dealer: int, packets: Sequence[int]) -> list[list[str]]:
    """``deck`` dealt clockwise from the dealer's left in ``packets`` (3-2-3: three to
    each, then two, then three): each seat's cards in the order dealt."""
    hands: list[list[str]] = [[], [], [], []]
    order = [(dealer + 1 + k) % 4 for k in range(4)]
    position = 0
    for packet in packets:
        for seat in order:
            hands[seat] += deck[position : position + packet]
            position += packet
    return hands


@dataclass(frozen=True)
class GameProfile:
    """A game as the platform plays it. Subclasses answer the match's score.

    Attributes
    - ``key``: the registry's name (the engine preset it starts from); ``label``: the
      game in words (console, public pages).
    - ``players``: seats per table; ``teams``: two teams of partners (seats 0+2, 1+3)
      or single players.
    - ``points_match``: a match of summed deal points (``engine.score_match``) rather
      than Klammern's small and big points; ``league``: a league may play it.
    - ``tiebreaks``: the fixed tie-break chain (criterion names of ``standings.TieBreak``)
      or None where the tournament's own chain counts.
    - ``standings_columns``: the standings' criteria named in the game's own words
      (key → ``Column``); the others keep the platform's names.
    - ``deal_columns``: the results CSV's points columns; ``match_columns``: the
      console's per-deal columns of a match (names of a deal's result, see
      ``deal_cells``); ``names_declarer``: the console names who played a deal.
    - ``sheet``: the tablet's entry sheet; ``contract_words``: a contract kind in words;
      ``outcome_words``: an outcome the game names in its own word (Klaverjas: nat; ""
      where the game's outcome says nothing beyond the points, the Schieber's
      "played"); ``declarer_word``: the role of the declarer's side on the hand record
      ("playing"; the Schieber's chooser "chose trump").
    - ``par_unit``: what the hand record's par graph plots: "points" (the playing
      team's par in deal points against half the total, Klammern, Belote) or "margin"
      (the playing team's margin, its points less the other team's, made above 0: the
      unit of Klaverjas's analysis, whose par in points stays flat at 0 when nat).
    - ``analysable``: perfect-play analysis applies to its full records;
      ``analysis_note`` says in words why not (yet) where it does not.
    - ``rating_pool``/``rating_pool_label``: the club rating its tables count in
      ("" where its tables are not rated).
    - ``individual_only``: tournaments of single players only.
    - ``ranks``: the deck's ranks from low to high in natural order (the sheet's rank
      buttons); ``suit_styles``: the suit styles its clubs may show (``SUIT_STYLES``).
    - ``paper_columns``: the columns the paper score sheet (the fallback when a tablet
      fails) gives each side for every deal, as the game counts them.
    - ``duplicate``: a tournament of it may be played in duplicate (RULES.md, "Duplicate
      tournaments"); ``deal_board`` then deals a board, ``board_hands`` says which hands
      a record of the board holds, ``board_result`` reads a team's result of a board
      from the engine's deal result and ``par_board_result`` a par's; ``board_par`` is
      the par of a summary record from the board's hands (None where the game has none).
    - ``match_modes``, ``target_label``, ``criteria_words``: what the new-tournament
      form offers for the game, in its words; ``match_length`` says how long a table
      plays.
    """

    key: str
    label: Label
    players: int
    teams: bool
    points_match: bool
    sheet: EntrySheet
    rating_pool: str
    rating_pool_label: Label
    analysable: bool
    league: bool = False
    individual_only: bool = False
    names_declarer: bool = False
    tiebreaks: tuple[str, ...] | None = None
    standings_columns: Mapping[str, Column] = field(default_factory=dict)
    deal_columns: tuple[DealColumn, ...] = ()
    match_columns: tuple[Column, ...] = ()
    contract_words: Mapping[str, Label] = field(default_factory=dict)
    outcome_words: Mapping[str, Label] = field(default_factory=dict)
    declarer_word: Label = _("playing")
    par_unit: str = "points"
    ranks: str = "789TJQKA"
    #: Why a game without analysis has none, in words ("" for the common note).
    analysis_note: Label = ""
    suit_styles: tuple[str, ...] = (FRENCH,)
    paper_columns: tuple[Column, ...] = PAPER_POINTS
    duplicate: bool = False
    #: The game in words where a table's own match does not count (a duplicate
    #: tournament: board results and match points); "" = ``label``.
    board_label: Label = ""
    #: The match modes the organiser chooses among (``DEALS``, ``TO_TARGET``), in the
    #: game's words; empty where the game's rules fix a table's match (``match_fields``).
    match_modes: Mapping[str, Label] = field(default_factory=dict)
    #: The target of a match to a target, in the game's words (with ``match_modes``).
    target_label: Label = ""
    #: Ranking criteria the game names in its own words on the new-tournament form
    #: (where the organiser chooses the ranking: ``tiebreaks`` None).
    criteria_words: Mapping[str, Label] = field(default_factory=dict)

    # --- seats -------------------------------------------------------------------------

    def seat_team(self, seat: int) -> int:
        """The side a seat plays for: its team (0 or 1), or the seat itself."""
        return seat % 2 if self.teams else seat

    def sides(self) -> int:
        return 2 if self.teams else self.players

    def side_names(self, names: Sequence[str]) -> list[str]:
        """The sides in words: "A & C" per team, or each player."""
        if self.teams:
            return [f"{names[t]} & {names[t + 2]}" for t in (0, 1)]
        return list(names[: self.players])

    def side_heading(self, side: int) -> str:
        """A side in a column heading: "seats 1+3" or "seat 2"."""
        if self.teams:
            return f"{side + 1}+{side + 3}"
        return str(side + 1)

    # --- rules -------------------------------------------------------------------------

    def plays(self, options: engine.Options) -> bool:
        """Whether these resolved rules are this game (the registry asks, in order)."""
        raise NotImplementedError

    def match_fields(self, options: engine.Options) -> dict[str, Any]:
        """The tournament's match fields these rules fix (``match_mode`` and
        ``deals_per_match`` or ``liga_target``); {} where the organiser chooses."""
        return {}

    def match_description(self, *, mode: str, target: int, deals: int) -> str:
        """How long a table's match is, in words, for the public pages (``mode``: the
        tournament's match mode; ``target`` and ``deals`` its length either way)."""
        raise NotImplementedError

    def match_length(self) -> str:
        """How long a table plays under the game's own rules, in a sentence (the
        new-tournament form): the length its rules fix, or the choice its
        ``match_modes`` offer."""
        if self.match_modes:
            modes = " / ".join(str(words) for words in self.match_modes.values())
            return gettext("A table plays as you choose: %(modes)s.") % {"modes": modes}
        rules = engine.resolve_rules({"preset": self.key, "options": {}}, include_engine_only=True)
        fields = self.match_fields(rules)
        length = self.match_description(
            mode=fields.get("match_mode", DEALS),
            target=fields.get("liga_target", 0),
            deals=fields.get("deals_per_match", 0),
        )
        return gettext("A table plays %(length)s.") % {"length": length}

    # --- scores ------------------------------------------------------------------------

    def match_state(
        self,
        results: Sequence[Result],
        options: engine.Options,
        *,
        mode: str,
        target: int,
        planned: int | None = None,
        played: int | None = None,
    ) -> MatchState:
        """The match after these deal results (``mode``/``target``: the match's), its
        ``finished`` included: a match to a target when its keeper says so, a match of
        ``planned`` deals once they are played (``deals_finished``; ``played``: the
        caller's count of them where it has one, else counted from ``results``)."""
        raise NotImplementedError

    def running_score(
        self, results: Sequence[Result], options: engine.Options, *, mode: str, target: int
    ) -> dict[str, Any]:
        """The tablet's running score (JSON): the keepers' states by name."""
        raise NotImplementedError

    def score_terms(self, state: MatchState, *, decided: bool) -> dict[str, Any]:
        """The console's score of a match in its own terms (``console/_score_terms``)."""
        return {
            "kind": "points",
            "points": list(state.points),
            "finished": state.finished,
            "winner": state.winner,
        }

    def deal_cells(self, result: Result) -> list[Any]:
        """The results CSV's points cells of one deal (``deal_columns``)."""
        return [
            column.value(result, side)
            for column in self.deal_columns
            for side in range(self.sides())
        ]

    def deal_headings(self) -> list[str]:
        return [
            str(column.heading) % {"side": self.side_heading(side)}
            for column in self.deal_columns
            for side in range(self.sides())
        ]

    def match_cells(self, result: Result) -> list[str]:
        """The console's extra cells of one deal (``match_columns``), as text."""
        return []

    def contract_word(self, kind: str) -> str:
        word = self.contract_words.get(kind)
        return kind if word is None else str(word)

    def deal_marks(self, result: Result, revoker: str = "") -> list[tuple[str, str]]:
        """The badges of one deal on the tablet's list of a team points match, as (CSS
        class, word): Klaverjas's nat, verzaakt and pit, Belote's dedans and capot; a
        revoke's badge names ``revoker``, the player who revoked (``revoke_mark``)."""
        return []

    def deal_note(self, result: Result) -> str:
        """A line under a deal's points on the tablet's list ("" for none): Klaverjas's
        roem, Belote's announcements and belote."""
        return ""

    # --- duplicate ---------------------------------------------------------------------

    def deal_board(self, rng: random.Random, dealer: int) -> BoardCards:
        """One board's cards, shuffled by ``rng`` and dealt by ``dealer`` (games with
        ``duplicate`` only)."""
        raise NotImplementedError

    def board_result(self, result: Result) -> tuple[int, int]:
        """Each team's result of a board: its deal points as the match counts them
        (RULES.md: the deal's points in the game's count; a points match's ``points``
        are already the score after nat, dedans or a revoke; thrown in: 0 for both)."""
        points = result.get("points") or [0, 0]
        return (int(points[0]), int(points[1]))

    def board_hands(
        self, cards: BoardCards, contract: Mapping[str, Any] | None
    ) -> tuple[tuple[str, ...], ...]:
        """The hands a record of this board holds under ``contract`` (the record's): the
        hands dealt, where every card is dealt before trump is taken."""
        return cards.hands

    def board_problems(
        self, cards: BoardCards, record: Result, options: engine.Options
    ) -> list[tuple[str, str, dict[str, Any]]]:
        """What a record of this board gets wrong beyond its dealer, upcard and hands,
        under these rules, as (field, message, params): [] where the cards say no more
        (Klaverjas: a turned-up card fixes trump)."""
        return []

    def par_board_result(
        self, par: Sequence[int], *, outcome: str, playing_team: int
    ) -> tuple[int, int]:
        """A par (the analysis's ``par``, with its ``par_outcome``) as a board result, as
        ``board_result`` reads a played deal: a points match's par is already the score."""
        return (int(par[0]), int(par[1]))

    def board_par(
        self, cards: BoardCards, result: Result, record: Result, options: engine.Options
    ) -> tuple[tuple[int, int], str] | None:
        """The par of a summary record of a board (each team's deal points and the
        outcome for the playing team) from the board's hands; None where the game
        cannot say (no solver for its summaries)."""
        return None
