"""What a format profile is: the one object the platform asks for everything that differs
between tournament formats (individual evenings with changing partners, fixed pairs,
duplicate, finals, league match days), as a game profile (``games.profiles``) is for
everything that differs between games.

What it does
- ``FormatProfile`` holds a format's answers: who the entrants are, how a round is
  seated, how a table's result becomes standings (the table's result, duplicate match
  points, league points), which template shows the tablet's running score and the
  confirm box, what the player page lists for a table, which exports the results offer,
  how the club rating moves, and whether a deal may be seen now (``sealed``).
- Each format's module (``individual``, ``pairs``, ``duplicate``, ``finals``, ``league``)
  makes its profile(s); ``tournaments.formats.format_profile`` picks a tournament's.

What it does not do
- No database reads and no writes: values in, values out (``sealed_rows`` builds a
  query filter, it runs none). Nothing here imports a sub-domain of ``tournaments``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.functional import Promise

Label = str | Promise

#: How a round is seated (``tournaments.draw.services`` maps each to its seater).
CHANGING_PARTNERS = "changing_partners"
FIXED_PAIRS = "fixed_pairs"
MATCH_DAY = "match_day"

#: How a table's result becomes standings.
TABLE_RESULT = "table_result"
MATCH_POINTS = "match_points"
LEAGUE_POINTS = "league_points"

#: How the club rating moves: one game per table (its result against the opponents),
#: one ranking per direction (duplicate: by match points), or not at all.
RATE_TABLES = "tables"
RATE_DIRECTIONS = "directions"

#: What the player page says of a table: won, lost or drawn, or a percentage.
TABLE_OUTCOME = "table"
PERCENTAGE = "percentage"

#: A round's status once it is closed (``Round.Status.CLOSED``).
CLOSED = "closed"

#: The tournament settings a format may use beyond the common ones (the forms, the API
#: and the services refuse the others).
BALANCE_BY_RATING = "balance_by_rating"
SEED_BY_RATING = "seed_by_rating"
FINALS_SEEDING = "finals_seeding"
ROUND_ROBIN = "round_robin"
SWISS = "swiss"
FORBIDDEN_PAIRINGS = "forbidden_pairings"
PAIRS_AND_FINALS = "pairs_and_finals"
SELF_REGISTRATION = "self_registration"
DRAWN_BY_ORGANISER = "drawn_by_organiser"


@dataclass(frozen=True)
class FormatProfile:
    """A tournament format as the platform runs it.

    Attributes
    - ``key``: the profile's name; ``format``: the ``Tournament.format`` value it plays
      (a duplicate tournament stores its entrants' format and ``duplicate``);
      ``label``: the format in words (the tournament page, forms).
    - ``teams``: the entrants are fixed teams (pairs, league teams), not players.
    - ``seating``: how a round is seated (``CHANGING_PARTNERS``, ``FIXED_PAIRS``,
      ``MATCH_DAY``); ``settings``: the tournament settings the format uses.
    - ``standings``: how a table's result becomes standings (``TABLE_RESULT``,
      ``MATCH_POINTS``, ``LEAGUE_POINTS``); ``standings_words``: the ranking in a
      sentence on the tournament page ("" where the game's own words serve).
    - ``boards``: every table of a round plays the same boards (``deal k`` = board k);
      ``thrown_in_played``: a thrown-in deal counts among the match's planned deals.
    - ``score_template``: the tablet's running score (``points_score_template``: of a
      points match, Klaverjas, Belote, the Schieber); ``terms_template``: the confirm
      box's and the console's score in words; ``player_template``: a table's cells on
      the player page; ``player_heading``: the heading above those cells ("": the game's
      points); ``outcome``: the player page's last column ("won"/"lost", or the pair's
      match-point percentage).
    - ``rating``: how the club rating moves (``RATE_TABLES``, ``RATE_DIRECTIONS``, "").
    - ``exports``: the results' downloads beyond the standings CSV (url name taking
      the tournament's id, and the link's words).
    - ``evening``: counted as a club evening (the club page's evenings, seasons).
    - ``seals_until_closed``: its rounds' deals stay hidden from everyone but their
      table and the organisers until the round is closed (``sealed``).
    """

    key: str
    format: str
    label: Label
    teams: bool
    seating: str
    standings: str = TABLE_RESULT
    standings_words: Label = ""
    boards: bool = False
    thrown_in_played: bool = False
    score_template: str = "tablet/_score_table.html"
    points_score_template: str = "tablet/_score_points.html"
    terms_template: str = "console/_score_terms.html"
    player_template: str = "public/_player_table_result.html"
    player_heading: Label = ""
    outcome: str = TABLE_OUTCOME
    rating: str = RATE_TABLES
    exports: tuple[tuple[str, Label], ...] = ()
    evening: bool = True
    seals_until_closed: bool = False
    settings: frozenset[str] = field(default_factory=frozenset)
    #: Whether a tournament of this format is this profile's (``duplicate`` read from
    #: the tournament's setting): the registry asks, in order.
    duplicate: bool = False
    #: The format in the new-tournament form's words ("" = ``label``).
    choice_label: Label = ""
    #: The match mode a tournament of it plays unless told otherwise ("" = the game's).
    default_match_mode: str = ""
    #: The organiser may delete a draft of it (a league's match day belongs to the
    #: league's fixture list).
    deletable: bool = True
    #: The players a team of it holds at most (None: as many as its roster).
    team_size: int | None = None

    def plays(self, *, game_format: str, duplicate: bool) -> bool:
        """Whether a tournament of ``game_format`` (duplicate or not) is this format."""
        return game_format == self.format and duplicate == self.duplicate

    def plays_game(self, game: Any) -> bool:
        """Whether a tournament of this format may play ``game`` (a game profile): a
        game of single players only in a format of single players, a league only where
        the game's profile says ``league``."""
        if game.individual_only and self.teams:
            return False
        return game.league or self.standings != LEAGUE_POINTS

    def game_label(self, game: Any) -> str:
        """A game (its profile) in words on the tournament's pages: a format that does
        not count a table's own match names it without its match's terms (Klammern, not
        "small and big points")."""
        if self.standings == MATCH_POINTS:
            return str(game.board_label or game.label)
        return str(game.label)

    def allows(self, setting: str) -> bool:
        """Whether the format uses a tournament setting (``settings``)."""
        return setting in self.settings

    # --- who sees a deal when ----------------------------------------------------------

    def sealed(self, round_status: str) -> bool:
        """Whether a round's deals are hidden now from everyone but the table that
        played them and the organisers."""
        return self.seals_until_closed and round_status != CLOSED

    def sealed_rows(self, prefix: str = "") -> Q | None:
        """A filter for the rounds (through ``prefix``) of this format that are sealed
        now; None where the format seals nothing."""
        if not self.seals_until_closed:
            return None
        return self.rows(prefix) & ~Q(**{f"{prefix}status": CLOSED})

    def rows(self, prefix: str = "") -> Q:
        """A filter for the rounds (through ``prefix``) of this format's tournaments."""
        return Q(
            **{f"{prefix}tournament__format": self.format},
            **{f"{prefix}tournament__duplicate": self.duplicate},
        )

    # --- standings ---------------------------------------------------------------------

    def entrant_kind(self) -> str:
        """The standings' entrants: "team" or "player"."""
        return "team" if self.teams else "player"
