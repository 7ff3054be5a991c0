"""Tuppi: the Finnish no-trump partnership game with secret bid cards (shared/rules/tuppi.md).

Terms:

- **rami**: "we take most tricks"; bid with a **red** card. **nolo**: "we take fewest"; a **black**
  card. A **bid card** is a 3..10 from the own hand (`bid_card_ranks: federation` adds the ace);
  it is only shown, never spent. A seat without an allowed card of the colour it needs bids
  **verbally** (no card). With `bid_with: token` (tournaments) bids are red/black tokens.
- The reveal goes `D+1, D+2, D+3, D` and stops at the first rami: that seat is the **declarer**
  `R`, the hand is rami and `R+3` leads. Four nolos make a nolo hand, led by `D+1`.
- **sooli**: after a rami reveal, `R+1` and then `R+3` may declare sooli (solo nolo). The soloist
  `S` plays alone against `S+1` and `S+3`, his partner `S+2` sits out, aces rank lowest, and the
  hand stops as soon as the soloist wins a trick. 24 points either way.
- **nousussa**: the team that has points. Only one team can have points: when the other team
  scores, both totals go back to 0. A team with 52 (``target``) at the end of a hand wins.

Transcript actions: ``bid`` (``value`` rami/nolo, optional ``card``), ``sooli``, ``pass``,
``give`` (``card``, the soloist's partner), ``return`` (``card``, the soloist), ``play``
(``card``).

Options: ``rules`` (home | federation | tournament: presets; an option given explicitly wins over
its preset), ``sooli``, ``sooli_exchange``, ``sooli_soloist_last``, ``bid_with``,
``bid_card_ranks``, ``rami_defender_points``, ``nolo_points``, ``target``, ``max_hands`` (0 = no
limit), ``stop_when_decided``.

Choices where the contract is silent:

- A stopped hand (`stop_when_decided`, or a sooli the soloist has lost) is scored from the tricks
  taken so far; its result says ``stopped_early``. Under `stop_when_decided` the points are moot
  (the totals reset).
- ``max_hands`` counts scored hands. When it is reached the higher peak wins, equal peaks are a
  draw (no winner; ``Outcome.winners`` is empty). The peak rule applies whenever ``max_hands``
  is set, not only under `rules: tournament`.
- In sooli tricks the summary's trick records add ``seats`` (the three seats in order of play).
- The sooli window asks `R+1` first (the contract's choice); ``pass`` is the answer "no sooli".
- Random play can in principle go on for ever (every score by the other team resets the totals);
  in practice games end, and a table that wants a bound sets ``max_hands``.

Hidden information: see :mod:`games.bidcards`. In the exchange the card given is told to the
soloist and his partner only, and so is the card returned; the partner's hand is never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import (
    Event,
    IllegalMove,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    validate_options,
)
from games.bidcards import (
    ORDERS,
    PASS_MOVE,
    BidCardGame,
    against,
    malformed,
    team_title,
    team_word,
)
from games.cards import display
from games.facts import GameFacts, Preset, teams_score
from games.seats import next_seat, other_team, partner, seat_ref, seats_from, team_of
from games.tricks import strength_table
from games.views import TuppiView

ACE_LOW_STRENGTH = strength_table("A23456789TJQK")
SEED_RANKS = frozenset("3456789T")
FEDERATION_RANKS = frozenset("3456789TA")
SOOLI_MOVE = Move.of("sooli")
SOOLI_POINTS = 24

PRESETS: dict[str, dict[str, Any]] = {
    "home": {},
    "federation": {
        "rami_defender_points": 8,
        "nolo_points": 4,
        "bid_card_ranks": "federation",
        "sooli_exchange": True,
        "sooli_soloist_last": True,
    },
    "tournament": {"sooli": False, "bid_with": "token", "max_hands": 16},
}


def hand_score(result: Mapping[str, Any], players: int) -> list[float]:
    """Each seat's score of one hand: the scoring team's points, nothing to the other."""
    team = [0.0, 0.0]
    team[int(result["scoring_team"])] = float(result["points"])
    return teams_score(team, players)


@dataclass(init=False, eq=False, repr=False)
class Tuppi(BidCardGame):
    VIEW = TuppiView

    name = "tuppi"
    facts = GameFacts(
        # short is the tournament length (16 hands, the higher peak wins; rules §B.2); long is
        # one and a half times the standard 52, with no hand limit
        presets=(
            Preset("short", {"target": 52, "max_hands": 16}, "16 hands, the higher peak wins"),
            Preset("standard", {"target": 52, "max_hands": 0}, "first to 52 points"),
            Preset("long", {"target": 78, "max_hands": 0}, "first to 78 points"),
        ),
        hand_score=hand_score,
        card_points=None,
        card_margin=None,
        search_steps={4: 2.5},
        search_worlds={},
        endgame_solver=True,
    )
    title = "Tuppi"
    HIGH = "rami"
    LOW = "nolo"
    OPTIONS = (
        Option(
            "rules",
            "home",
            "Preset: home (the original page), federation or tournament.",
            choices=("home", "federation", "tournament"),
        ),
        Option("sooli", True, "Defenders may declare sooli (solo nolo) after a rami reveal."),
        Option("sooli_exchange", False, "The soloist swaps one card with their partner."),
        Option("sooli_soloist_last", False, "The soloist plays last to every trick."),
        Option(
            "bid_with",
            "hand_card",
            "Bid with a card from the hand, or with tokens.",
            choices=("hand_card", "token"),
        ),
        Option(
            "bid_card_ranks",
            "seed",
            "seed: 3 to 10; federation: also the ace.",
            choices=("seed", "federation"),
        ),
        Option(
            "rami_defender_points",
            6,
            "Points per trick over six for beaten rami defenders.",
            minimum=1,
            maximum=100,
        ),
        Option(
            "nolo_points", 1, "Points per trick under seven in a nolo hand.", minimum=1, maximum=100
        ),
        Option("target", 52, "Points that win the game.", minimum=1, maximum=10_000),
        Option(
            "max_hands",
            0,
            "Stop after this many hands; the higher peak wins (0: no limit).",
            minimum=0,
            maximum=10_000,
        ),
        Option(
            "stop_when_decided",
            False,
            "End a rami or nolo hand once the totals will reset whatever the count.",
        ),
    )
    summary_text = (
        "Four players, two teams, no trumps. Everyone secretly picks a bid card: red (3-10) = rami "
        "(take most tricks), black = nolo (take fewest).\n"
        "Bids are shown from the dealer's left and the first rami decides the hand; four nolos "
        "make a nolo hand. A defender may call sooli: play alone, aces low, and take no trick.\n"
        "Rami: 4 a trick over six for the declarers, 6 a trick over six if the defenders win. "
        "Nolo: 7 minus its tricks to the team with fewer. Sooli: 24.\n"
        "Only one team can have points: if the other team scores, both go back to 0. "
        "52 wins."
    )

    soloist: int | None
    sooli_asked: int
    given: str | None
    peaks: list[int]
    stopped_early: bool

    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        given = dict(options or {})
        values = validate_options(cls.OPTIONS, given)
        for key, value in PRESETS[values["rules"]].items():
            if key not in given:
                values[key] = value
        return values

    def _init_extra(self) -> None:
        self.peaks = [0, 0]
        self._start_extra()

    def _start_extra(self) -> None:
        self.soloist = None
        self.sooli_asked = 0
        self.given = None
        self.stopped_early = False

    # ------------------------------------------------------------------ bids
    def _value_of_card(self, card: str) -> str:
        return "nolo" if card[1] in "SC" else "rami"

    def _card_allowed(self, card: str) -> bool:
        ranks = FEDERATION_RANKS if self.options["bid_card_ranks"] == "federation" else SEED_RANKS
        return card[0] in ranks

    def _bid_with_token(self) -> bool:
        return bool(self.options["bid_with"] == "token")

    def _verbal_refusal(self, colour: str, value: str) -> str:
        return f"You have an allowed {colour} card, so you cannot bid {value} verbally."

    def _reveal_order(self) -> list[int]:
        return [next_seat(self.dealer, 4, step) for step in (1, 2, 3, 4)]

    def _after_reveal(self, events: list[Event]) -> None:
        if self.hand_type == "nolo":
            events.append(
                Event(
                    "hand_type",
                    "All four bid nolo: the hand is nolo.",
                    {"hand": "nolo", "declarer": None},
                )
            )
            self._start_tricks(next_seat(self.dealer, 4), events)
            return
        declarer = self.declarer
        assert declarer is not None
        events.append(
            Event(
                "hand_type",
                f"{seat_ref(declarer)} bid rami: the hand is rami.",
                {"hand": "rami", "declarer": declarer},
            )
        )
        if self.options["sooli"]:
            self.phase = "sooli"
            self.turn = next_seat(declarer, 4)
            self.sooli_asked = 1
            events.append(
                Event(
                    "sooli_window", f"{seat_ref(self.turn)} may declare sooli.", {"seat": self.turn}
                )
            )
        else:
            self._start_tricks(next_seat(declarer, 4, 3), events)

    # ------------------------------------------------------------------ sooli and exchange
    def _other_moves(self, seat: int) -> list[Move]:
        if seat != self.turn:
            return []
        if self.phase == "sooli":
            return [SOOLI_MOVE, PASS_MOVE]
        if self.phase == "exchange":
            action = "give" if self.given is None else "return"
            return [_EXCHANGE_MOVES[action][card] for card in self.hands[seat]]
        return []

    def _turn_refusal(self) -> IllegalMove:
        if self.phase == "sooli":
            return NotYourTurn(
                f"It is {seat_ref(self.turn)} who answers about sooli now.",
                params={"turn": self.turn},
            )
        if self.phase == "exchange":
            soloist = self.soloist
            assert soloist is not None
            if self.given is None:
                mate = partner(soloist, 4)
                return NotYourTurn(
                    f"First {seat_ref(mate)} gives a card to the soloist.",
                    params={"turn": mate},
                )
            return NotYourTurn(
                f"Now the soloist {seat_ref(soloist)} returns a card.", params={"turn": soloist}
            )
        return super()._turn_refusal()

    def _other_refusal(self, seat: int, move: Move) -> IllegalMove:
        action = move.action
        if action in ("sooli", "pass"):
            if action == "sooli" and not self.options["sooli"]:
                if self.options["rules"] == "tournament":
                    return against("Sooli is not played in tournaments.", "no_sooli")
                return against("Sooli is not played at this table.", "no_sooli")
            if self.phase != "sooli":
                if action == "sooli":
                    return against(
                        "Sooli can only be declared right after a rami reveal.", "no_sooli_now"
                    )
                return against("There is nothing to pass on now.", "nothing_to_pass")
            if seat != self.turn:
                return self._turn_refusal()
            return malformed(f"{action.capitalize()} takes no card or value.")
        if action in ("give", "return"):
            if self.phase != "exchange":
                return against("No cards are being exchanged now.", "no_exchange_now")
            expected = "give" if self.given is None else "return"
            if seat != self.turn:
                return self._turn_refusal()
            if action != expected:
                refusal = self._turn_refusal()
                return against(refusal.text, "exchange_order", **refusal.params)
            if len(move.fields) != 1 or move.fields[0][0] != "card":
                return malformed("Name one card to pass.")
            return against("That card is not in your hand.", "not_in_hand")
        return malformed("That is not a move in Tuppi.")

    def _apply_other(self, seat: int, move: Move, events: list[Event]) -> None:
        action = move.action
        if action == "sooli":
            self.soloist = seat
            self.hand_type = "sooli"
            self.strength = ACE_LOW_STRENGTH
            mate = partner(seat, 4)
            events.append(
                Event(
                    "sooli",
                    f"{seat_ref(seat)} declares sooli; {seat_ref(mate)} sits out.",
                    {"soloist": seat, "sitting_out": mate},
                )
            )
            if self.options["sooli_exchange"]:
                self.phase = "exchange"
                self.turn = mate
                events.append(
                    Event(
                        "exchange",
                        f"{seat_ref(mate)} passes a card to {seat_ref(seat)}.",
                        {"seat": mate},
                    )
                )
            else:
                self._start_tricks(next_seat(seat, 4), events)
        elif action == "pass":
            events.append(Event("sooli_pass", f"{seat_ref(seat)} passes.", {"seat": seat}))
            declarer = self.declarer
            assert declarer is not None
            if self.sooli_asked == 1:
                self.sooli_asked = 2
                self.turn = next_seat(declarer, 4, 3)
                events.append(
                    Event(
                        "sooli_window",
                        f"{seat_ref(self.turn)} may declare sooli.",
                        {"seat": self.turn},
                    )
                )
            else:
                self._start_tricks(next_seat(declarer, 4, 3), events)
        elif action == "give":
            card: str = move.get("card")
            soloist = self.soloist
            assert soloist is not None
            self.hands[seat].remove(card)
            self.hands[soloist].append(card)
            self.given = card
            self.known[seat].add(card)
            pair = frozenset({seat, soloist})
            events.append(
                Event(
                    "card_given", f"{seat_ref(seat)} passes a card to the soloist.", {"seat": seat}
                )
            )
            events.append(
                Event(
                    "card_given_private",
                    f"{seat_ref(seat)} passes {display(card)} to {seat_ref(soloist)}.",
                    {"seat": seat, "card": card},
                    pair,
                )
            )
            self.turn = soloist
        elif action == "return":
            card = move.get("card")
            mate = partner(seat, 4)
            self.hands[seat].remove(card)
            self.hands[mate].append(card)
            self.known[seat].add(card)
            self.known[mate].discard(card)
            pair = frozenset({seat, mate})
            events.append(
                Event(
                    "card_returned",
                    f"{seat_ref(seat)} passes a card back to {seat_ref(mate)}.",
                    {"seat": seat},
                )
            )
            events.append(
                Event(
                    "card_returned_private",
                    f"{seat_ref(seat)} passes {display(card)} back to {seat_ref(mate)}.",
                    {"seat": seat, "card": card},
                    pair,
                )
            )
            self._start_tricks(next_seat(seat, 4), events)

    def secret_move(self, seat: int, mover: int, move: Move) -> bool:
        """The cards of the exchange are told to the soloist and his partner only: a defender
        does not learn which card was passed, even once it is played."""
        if move.action in ("give", "return"):
            soloist = self.soloist
            return soloist is None or seat not in (soloist, partner(soloist, 4))
        return super().secret_move(seat, mover, move)

    # ------------------------------------------------------------------ tricks
    def _trick_order(self, leader: int) -> Sequence[int]:
        soloist = self.soloist
        if soloist is None:
            return ORDERS[leader]
        out = partner(soloist, 4)
        if self.options["sooli_soloist_last"]:
            other = (
                next_seat(soloist, 4)
                if leader == next_seat(soloist, 4, 3)
                else next_seat(soloist, 4, 3)
            )
            return [leader, other, soloist]
        return [s for s in seats_from(leader, 4) if s != out]

    def _hand_over(self) -> bool:
        if self.soloist is not None:
            if self.seat_won[self.soloist]:
                self.stopped_early = len(self.records[-1].tricks) < 13
                return True
            return len(self.records[-1].tricks) == 13
        if len(self.records[-1].tricks) == 13:
            return True
        if self.options["stop_when_decided"] and max(self.won) >= 7:
            scorer = self._scoring_team()
            if self.score[scorer] == 0 and self.score[other_team(scorer)] > 0:
                self.stopped_early = True
                return True
        return False

    def _scoring_team(self) -> int:
        """Which team scores, from the tricks so far (one team has 7, or all 13 are played)."""
        if self.hand_type == "rami":
            assert self.declarer is not None
            side = team_of(self.declarer)
            return side if self.won[side] >= 7 else other_team(side)
        return 0 if self.won[0] < self.won[1] else 1

    # ------------------------------------------------------------------ scoring
    def _score_hand(self, events: list[Event]) -> dict[str, Any]:
        result: dict[str, Any] = {
            "hand": self.hand_type,
            "declarer": self.declarer,
            "soloist": self.soloist,
            "revealed": [{"seat": s, "value": v, "card": c} for s, v, c in self.revealed],
            "tricks": list(self.won),
        }
        if self.soloist is not None:
            soloist_team = team_of(self.soloist)
            took = self.seat_won[self.soloist]
            team = soloist_team if took == 0 else other_team(soloist_team)
            points = SOOLI_POINTS
            result["soloist_tricks"] = took
        else:
            team = self._scoring_team()
            if self.hand_type == "rami":
                assert self.declarer is not None
                if team == team_of(self.declarer):
                    points = 4 * (self.won[team] - 6)
                else:
                    points = int(self.options["rami_defender_points"]) * (self.won[team] - 6)
            else:
                points = int(self.options["nolo_points"]) * (7 - self.won[team])
        other = other_team(team)
        reset = self.score[other] > 0
        if reset:
            self.score = [0, 0]
            events.append(
                Event(
                    "totals_reset",
                    f"{team_title(team)} scores {points}, but "
                    f"{team_word(other)} had points: both totals go back to 0.",
                    {"team": team, "points": points},
                    history=True,
                )
            )
        else:
            self.score[team] += points
        for i in range(2):
            self.peaks[i] = max(self.peaks[i], self.score[i])
        result.update(
            {
                "scoring_team": team,
                "points": points,
                "reset": reset,
                "stopped_early": self.stopped_early,
            }
        )
        return result

    def _result_text(self, result: dict[str, Any]) -> str:
        team = team_title(result["scoring_team"])
        return f"{team} scores {result['points']} ({result['hand']})."

    def _game_winner(self) -> tuple[bool, int | None]:
        target = int(self.options["target"])
        for team in range(2):
            if self.score[team] >= target:
                return True, team
        max_hands = int(self.options["max_hands"])
        if max_hands and self.hands_played >= max_hands:
            if self.peaks[0] == self.peaks[1]:
                return True, None
            return True, 0 if self.peaks[0] > self.peaks[1] else 1
        return False, None

    def _on_peaks(self) -> bool:
        """Whether the game ended at ``max_hands`` with no team at the target: the peaks
        decided it, not the final score."""
        target = int(self.options["target"])
        return self.phase == "over" and max(self.score) < target

    def _peaks_words(self) -> str:
        if self.peaks[0] == self.peaks[1]:
            return f"equal peaks, {self.peaks[0]} to {self.peaks[1]}"
        return f"the higher peak, {self.peaks[0]} to {self.peaks[1]}"

    def _game_over_text(self, winner: int | None) -> str:
        if not self._on_peaks():
            return super()._game_over_text(winner)
        hands = self.hands_played
        after = f"after {hands} hand{'' if hands == 1 else 's'}"
        if winner is None:
            return f"The game is a draw on {self._peaks_words()}, {after}."
        return f"{team_title(winner)} wins the game on {self._peaks_words()}, {after}."

    def outcome(self) -> Outcome | None:
        found = super().outcome()
        if found is None or not self._on_peaks():
            return found
        return Outcome(found.winners, found.score, reason=f"on {self._peaks_words()}")

    # ------------------------------------------------------------------ views
    def _prompt(self) -> str:
        if self.phase == "sooli":
            return f"{seat_ref(self.turn)}: declare sooli or pass?"
        if self.phase == "exchange":
            if self.given is None:
                return f"{seat_ref(self.turn)} passes a card to the soloist."
            return f"{seat_ref(self.turn)} returns a card to their partner."
        if self.phase == "bids" and self._bid_with_token():
            return "Commit a bid: the red token for rami, the black token for nolo."
        return super()._prompt()

    def _hand_line(self) -> str:
        if self.soloist is not None:
            return (
                f"Sooli by {seat_ref(self.soloist)}; {seat_ref(partner(self.soloist, 4))} "
                "sits out; aces are low."
            )
        return super()._hand_line()

    def _lines(self, seat: int | None) -> list[str]:
        lines = super()._lines(seat)
        if self.score[0] or self.score[1]:
            team = 0 if self.score[0] else 1
            lines.append(f"Nousussa: {team_word(team)} ({self.score[team]}).")
        if self.options["max_hands"]:
            lines.append(
                f"Hand {len(self.records)} of {self.options['max_hands']}; peaks "
                f"A {self.peaks[0]}, B {self.peaks[1]}."
            )
        return lines

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        soloist = self.soloist
        data: dict[str, Any] = {
            "soloist": soloist,
            "sitting_out": None if soloist is None else partner(soloist, 4),
            "nousussa": (0 if self.score[0] else 1) if any(self.score) else None,
            "peaks": tuple(self.peaks),
            "target": self.options["target"],
            "max_hands": self.options["max_hands"],
            "score_label": "points (only one team can have points)",
        }
        if (
            seat is not None
            and self.phase == "exchange"
            and soloist is not None
            and self.given is not None
            and seat in (soloist, partner(soloist, 4))
        ):
            data["exchange_card"] = self.given
        return data


_EXCHANGE_MOVES = {
    action: {
        card: Move.of(action, card=card)
        for card in [r + s for s in "SHDC" for r in "23456789TJQKA"]
    }
    for action in ("give", "return")
}
