"""Norwegian Whist, also called Minnesota Whist (shared/rules/norwegian_whist.md).

Terms:

- **grand**: "our side takes at least seven tricks", bid with a **black** card (``grand_colour:
  red`` swaps the colours). **nullo**: "six or fewer", a **red** card. Any rank may carry a bid;
  the card stays in the hand. A seat with no card of the colour it needs bids **verbally**.
- The reveal goes `D+3, D, D+1, D+2` (the original page; ``reveal_from: dealer_left`` gives
  `D+1, D+2, D+3, D`) and stops at the first grand: that seat `G` has **granded**, and `G+3` leads.
  Four nullos make a nullo hand, led by `D+1`. No trumps.
- **One-colour hand**: a seat whose 13 cards are all red or all black may ``expose`` it during the
  bid phase (before or after committing); the hand is annulled and the same dealer deals again.
- Scoring (``scoring: pagat``): the team with 7+ tricks changes its total by `m − 6`, plus in a
  grand hand and minus in a nullo hand. ``scoring: wikipedia``: a set grand pays the defenders
  double, and in a nullo hand the team with fewer tricks scores `7 − f`. 13 (``target``) wins.

Transcript actions: ``bid`` (``value`` grand/nullo, optional ``card``), ``expose``, ``play``
(``card``).

Choices where the contract is silent:

- An annulled (exposed) deal appears in the summary with no tricks and the result
  ``{"hand": "annulled", "exposed_by": seat, "points": 0}``; its ``score_after`` is unchanged.
  A redeal does not move the deal to the next dealer.
- A seat may expose whether or not it has committed; its commitment (and everyone else's) is
  never revealed.
- The game is won by the first team with ``target`` or more at the end of a hand (only one total
  changes per hand, so there is never a tie).
- Random play always ends: almost every hand is a grand hand, which adds 1..7 to one total.

Hidden information: see :mod:`games.bidcards`. An exposed hand is public (the hand is annulled).
"""

from __future__ import annotations

from typing import Any

from games.base import Event, IllegalMove, Move, Option
from games.bidcards import BidCardGame, against, malformed, team_title
from games.cards import display
from games.facts import GameFacts, team_points, three
from games.seats import next_seat, other_team, seat_ref, team_of
from games.views import NorwegianWhistView

EXPOSE_MOVE = Move.of("expose")


class NorwegianWhist(BidCardGame):
    VIEW = NorwegianWhistView
    name = "norwegian_whist"
    facts = GameFacts(
        presets=three("target", (7, 13, 20), "points"),  # 13 is the rules' default
        hand_score=team_points("changes"),
        card_points=None,
        card_margin=None,
        search_steps={4: 2.5},
        search_worlds={},
        endgame_solver=True,
    )
    title = "Norwegian Whist"
    HIGH = "grand"
    LOW = "nullo"
    OPTIONS = (
        Option(
            "grand_colour",
            "black",
            "The colour that bids grand (the other bids nullo).",
            choices=("black", "red"),
        ),
        Option(
            "reveal_from",
            "dealer_right",
            "Where the reveal starts.",
            choices=("dealer_right", "dealer_left"),
        ),
        Option(
            "scoring",
            "pagat",
            "pagat: only the majority side scores, +/-; wikipedia: a set "
            "grand pays double, nullo pays the side with fewer tricks.",
            choices=("pagat", "wikipedia"),
        ),
        Option("target", 13, "Points that win the game.", minimum=1, maximum=1000),
        Option("one_colour_redeal", True, "A one-colour hand may be exposed for a redeal."),
    )
    summary_text = (
        "Four players, two teams, no trumps. Everyone secretly picks a card: black = grand "
        "(take 7+ tricks), red = nullo (take 6 or fewer).\n"
        "Bids are shown from the dealer's right; the first grand decides the hand and the player "
        "on the grander's right leads. Four nullos make a nullo hand.\n"
        "The side with 7+ tricks scores 1 per trick over six in a grand hand, and loses as much "
        "in a nullo hand. 13 points wins.\n"
        "A hand of one colour may be exposed: the same dealer deals again."
    )

    def _value_of_card(self, card: str) -> str:
        black = card[1] in "SC"
        if self.options["grand_colour"] == "black":
            return "grand" if black else "nullo"
        return "nullo" if black else "grand"

    def _reveal_order(self) -> list[int]:
        steps = (3, 4, 5, 6) if self.options["reveal_from"] == "dealer_right" else (1, 2, 3, 4)
        return [next_seat(self.dealer, 4, step) for step in steps]

    def _after_reveal(self, events: list[Event]) -> None:
        if self.declarer is None:
            events.append(
                Event(
                    "hand_type",
                    "All four bid nullo: the hand is nullo.",
                    {"hand": "nullo", "declarer": None},
                )
            )
            self._start_tricks(next_seat(self.dealer, 4), events)
            return
        events.append(
            Event(
                "hand_type",
                f"{seat_ref(self.declarer)} grands.",
                {"hand": "grand", "declarer": self.declarer},
            )
        )
        self._start_tricks(next_seat(self.declarer, 4, 3), events)

    # ------------------------------------------------------------------ one-colour hands
    def _one_colour(self, seat: int) -> bool:
        hand = self.hands[seat]
        return bool(hand) and len({card[1] in "SC" for card in hand}) == 1

    def _bid_moves(self, seat: int) -> list[Move]:
        return super()._bid_moves(seat) + self._committed_moves(seat)

    def _committed_moves(self, seat: int) -> list[Move]:
        """A one-colour hand may be exposed before or after its seat commits."""
        if self.options["one_colour_redeal"] and self._one_colour(seat):
            return [EXPOSE_MOVE]
        return []

    def _other_moves(self, seat: int) -> list[Move]:
        return []

    def _other_refusal(self, seat: int, move: Move) -> IllegalMove:
        if move.action != "expose":
            return malformed("That is not a move in Norwegian Whist.")
        if not self.options["one_colour_redeal"]:
            return against("One-colour hands are not redealt at this table.", "no_redeal")
        if self.phase != "bids":
            return against("A hand can only be exposed while bids are being made.", "bids_over")
        if move.fields:
            return malformed("Expose takes no card or value.")
        return against("Only a hand of one colour can be exposed.", "not_one_colour")

    def _apply_other(self, seat: int, move: Move, events: list[Event]) -> None:
        cards = self._sorted(self.hands[seat])
        events.append(
            Event(
                "hand_exposed",
                f"{seat_ref(seat)} exposes a one-colour hand: "
                + " ".join(display(c) for c in cards)
                + ". The hand is dealt again.",
                {"seat": seat, "cards": cards},
                history=True,
            )
        )
        self.records[-1].finish({"hand": "annulled", "exposed_by": seat, "points": 0}, self.score)
        self._close_hand()
        events.append(
            Event("new_deal", f"{seat_ref(self.dealer)} deals again.", {"dealer": self.dealer})
        )
        self._ensure_dealt()

    # ------------------------------------------------------------------ scoring
    def _score_hand(self, events: list[Event]) -> dict[str, Any]:
        won = self.won
        major = 0 if won[0] > won[1] else 1
        over = won[major] - 6
        grand_team = None if self.declarer is None else team_of(self.declarer)
        if self.options["scoring"] == "pagat":
            team, change = major, over if self.hand_type == "grand" else -over
        elif self.hand_type == "grand":
            team, change = major, over if major == grand_team else 2 * over
        else:
            team = other_team(major)
            change = 7 - won[team]
        self.score[team] += change
        changes = [0, 0]
        changes[team] = change
        return {
            "hand": self.hand_type,
            "declarer": self.declarer,
            "granding_team": grand_team,
            "revealed": [{"seat": s, "value": v, "card": c} for s, v, c in self.revealed],
            "tricks": list(won),
            "team": team,
            "points": change,
            "changes": changes,
        }

    def _result_text(self, result: dict[str, Any]) -> str:
        change = result["points"]
        sign = "+" if change >= 0 else "−"
        return (
            f"{team_title(result['team'])} {sign}{abs(change)} "
            f"({result['hand']}, tricks A {result['tricks'][0]}, B {result['tricks'][1]})."
        )

    def _game_winner(self) -> tuple[bool, int | None]:
        target = int(self.options["target"])
        for team in range(2):
            if self.score[team] >= target:
                return True, team
        return False, None

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        return {
            "target": self.options["target"],
            "granding_team": None if self.declarer is None else team_of(self.declarer),
        }
