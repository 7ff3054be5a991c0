"""Scoring a Tarneeb hand (contract A.1.6 and A.2.2) and ending the game at the target.

The values are :func:`hand_points` (the search's endgame uses it too); a played-out hand is
scored by :meth:`Scoring._score_hand`, which then ends the game or deals the next hand.
"""

from __future__ import annotations

from games.base import Event
from games.seats import next_seat, other_team, team_of
from games.tarneeb.moves import TEAM_NAMES
from games.tarneeb.state import TarneebState


def hand_points(
    contract: int, tricks: int, *, kaboot: bool, defenders_always: bool, multiplier: int = 1
) -> tuple[int, int, bool]:
    """(declaring side, defending side, made) for one hand (contract A.1.6 and A.2.2)."""
    other = 13 - tricks
    made = tricks >= contract
    if kaboot and contract == 13:
        declaring, defending = (26, 0) if made else (-16, 2 * other)
    elif kaboot and tricks == 13:
        declaring, defending = 16, 0
    elif made:
        declaring, defending = tricks, 0
    else:
        declaring, defending = -contract, other
    if made and defenders_always:
        defending = other
    return declaring * multiplier, defending, made


class Scoring(TarneebState):
    """The end of a hand: its points, the totals, and the winner once a team is through."""

    def _score_hand(self) -> list[Event]:
        declaring = team_of(self.declarer)
        tricks = self.team_tricks[declaring]
        if self.egyptian:
            kaboot = bool(self.options["kaboot_scoring"])
            always = False
        else:
            kaboot = self.options["scoring"] == "kaboot"
            always = bool(self.options["defenders_always_score"])
        multiplier = 2 if self.doubled else 1
        mine, theirs, made = hand_points(
            self.contract, tricks, kaboot=kaboot, defenders_always=always, multiplier=multiplier
        )
        points = [0, 0]
        points[declaring] = mine
        points[other_team(declaring)] = theirs
        self.score[0] += points[0]
        self.score[1] += points[1]
        instant = False
        if not self.egyptian and tricks == 13:
            rule = self.options["instant_win"]
            instant = rule == "kaboot_any" or (rule == "kaboot_bid" and self.contract == 13)
        result = {
            "throw_in": False,
            "declarer": self.declarer,
            "team": declaring,
            "contract": self.contract,
            "trump": self.trump,
            "doubled": self.doubled,
            "tricks": list(self.team_tricks),
            "made": made,
            "kaboot": tricks == 13,
            "instant_win": instant,
            "points": points,
        }
        self.records[-1].finish(result, self.score)
        word = "make" if made else "fail"  # a pair: "{s0} & {s2} make"
        events = [
            Event(
                "hand_scored",
                f"{TEAM_NAMES[declaring]} {word} the contract of {self.contract} with {tricks} "
                f"trick{'' if tricks == 1 else 's'}: "
                f"{TEAM_NAMES[0]} {points[0]:+d}, {TEAM_NAMES[1]} {points[1]:+d}. "
                f"Score {self.score[0]} to {self.score[1]}.",
                {**result, "score": list(self.score)},
                history=True,
            )
        ]
        target = self.options["target"]
        if instant:
            self.winner = declaring
        elif self.score[0] != self.score[1] and (
            max(self.score) >= target or self.deal_no + 1 >= self.options["hand_limit"]
        ):
            self.winner = 0 if self.score[0] > self.score[1] else 1
        if self.winner is not None:
            self.phase = "over"
            how = " with a kaboot" if instant else ""
            events.append(
                Event(
                    "game_over",
                    f"{TEAM_NAMES[self.winner]} win the game{how}, "
                    f"{self.score[0]} to {self.score[1]}.",
                    {"winner": self.winner, "score": list(self.score), "instant_win": instant},
                    history=True,
                )
            )
            return events
        self.deal_no += 1
        self.dealer = next_seat(self.dealer, 4)
        events.extend(self._start_deal())
        return events
