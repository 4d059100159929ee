"""Problems found in a deal record, and the engine's exception types.

Every problem has a stable snake_case ``code`` (the web layer renders it in German from
``code`` + ``params``), an English ``message`` naming seats and cards, optionally the
``play`` index into ``plays`` and the record ``field`` it concerns (``"melds[1]"``,
``"contract.trump"``...).

Codes:

- ``bad_format``: the record is not a deal record: not an object, a missing field or one
  that belongs to the other mode (``plays`` in a summary), a value of the wrong type, an
  unknown card or suit text.
- ``unknown_field``: a top-level field the game's record does not have (each game's
  module lists its own, ``RECORD_FIELDS``): a typing error, another game's field
  (``weis`` in a Klaverjas record) or a table's note; ``field`` and ``params.field`` name
  it.
- ``unknown_rules``: the ``rules`` field names an unknown preset or option, or an
  option value of the wrong type.
- ``wrong_card_count``: a hand does not hold exactly 8 cards.
- ``duplicate_card``: one card appears twice in the hands, or two seats claim one card
  (summary: melds, Bella, revoke card, upcard).
- ``card_not_in_hand``: a seat plays (or revokes with) a card it does not hold, or the
  upcard is not in the dealer's hand.
- ``illegal_play``: a play breaks follow suit / must trump / must overtrump and no
  revoke was declared.
- ``incomplete_play``: a full record without a revoke does not play all 32 cards.
- ``too_many_plays``: more than 32 plays, or a revoke after the last card.
- ``revoke_wrong_seat``: the revoking seat is not the seat whose turn it was.
- ``revoke_not_illegal``: the declared revoke card was a legal play.
- ``contract_mismatch``: the contract does not fit the upcard (orgi = upcard suit,
  besser = Clubs and not when the upcard is a Club, kleines = another suit).
- ``bidding_mismatch``: the bidding sequence breaks the calling order or does not lead
  to the contract (Belote Contrée: a call after the auction is over, or an auction that
  stops before it is over).
- ``bid_not_higher``: Belote Contrée: a bid not higher than the last bid (the trump does
  not count; capot is above 160).
- ``bid_value_not_allowed``: Belote Contrée: a bid's or a contract's value other than
  80, 90, … 160 or ``"capot"``.
- ``coinche_not_allowed``: Belote Contrée: a coinche with no bid to double, or by a
  player of the bidding partnership (a coinche doubles the last bid, by the other side).
- ``surcoinche_not_allowed``: Belote Contrée: a surcoinche that does not answer a
  coinche at once, or by a player of the coinching partnership.
- ``not_a_meld``: an announced meld is not 3 or more cards of one suit in sequence.
- ``meld_not_held``: a seat announces a meld with cards it did not hold at the start.
- ``meld_not_maximal``: an announced meld is not a whole maximal sequence of the hand.
- ``duplicate_meld``: the same meld (or overlapping melds) announced twice by one seat.
- ``bella_not_held``: the Bella seat did not hold the trump King and Queen.
- ``impossible_points``: summary card points that no set of tricks can give.
- ``impossible_tricks``: summary trick counts that do not add up.
- ``missing_field``: a field the record needs in its case is absent (a Klaverjas or
  Belote summary with all 162 card points to one team and no ``tricks_won``).
- ``thrown_in_not_empty``: a thrown-in deal lists plays, melds, Bella, Kontra, a March
  or a revoke.
- ``internal_error``: a bug in the engine (never expected; reported, not raised).

The exceptions (``EngineError`` and subclasses) are raised only by the library helpers
(``resolve_rules``, the scorekeepers); ``check`` never raises.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """Stable problem codes (see the module docstring)."""

    BAD_FORMAT = "bad_format"
    UNKNOWN_FIELD = "unknown_field"
    UNKNOWN_RULES = "unknown_rules"
    WRONG_CARD_COUNT = "wrong_card_count"
    DUPLICATE_CARD = "duplicate_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    ILLEGAL_PLAY = "illegal_play"
    INCOMPLETE_PLAY = "incomplete_play"
    TOO_MANY_PLAYS = "too_many_plays"
    REVOKE_WRONG_SEAT = "revoke_wrong_seat"
    REVOKE_NOT_ILLEGAL = "revoke_not_illegal"
    CONTRACT_MISMATCH = "contract_mismatch"
    BIDDING_MISMATCH = "bidding_mismatch"
    BID_NOT_HIGHER = "bid_not_higher"
    BID_VALUE_NOT_ALLOWED = "bid_value_not_allowed"
    COINCHE_NOT_ALLOWED = "coinche_not_allowed"
    SURCOINCHE_NOT_ALLOWED = "surcoinche_not_allowed"
    NOT_A_MELD = "not_a_meld"
    MELD_NOT_HELD = "meld_not_held"
    MELD_NOT_MAXIMAL = "meld_not_maximal"
    DUPLICATE_MELD = "duplicate_meld"
    BELLA_NOT_HELD = "bella_not_held"
    IMPOSSIBLE_POINTS = "impossible_points"
    IMPOSSIBLE_TRICKS = "impossible_tricks"
    MISSING_FIELD = "missing_field"
    THROWN_IN_NOT_EMPTY = "thrown_in_not_empty"
    INTERNAL_ERROR = "internal_error"


@dataclass(frozen=True)
class Problem:
    """One problem in a record."""

    code: Code
    message: str
    play: int | None = None
    field: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON error object of the result."""
        out: dict[str, Any] = {"code": str(self.code), "message": self.message}
        if self.play is not None:
            out["play"] = self.play
        if self.field is not None:
            out["field"] = self.field
        out["params"] = dict(self.params)
        return out


class EngineError(Exception):
    """An error raised by an engine helper, with a stable code."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class RulesError(EngineError):
    """Unknown preset or option (code ``unknown_rules``)."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(str(Code.UNKNOWN_RULES), message, **params)


class KeeperError(EngineError):
    """A scorekeeper got a result it cannot score (code ``bad_result``) or a deal after
    the end of the game (code ``game_over``)."""
