"""Thunee's scoring: the counting total against its target, contracts, declarations, balls.

The trumper's opponents are the counting team: they need 105 (two players:
``two_player_target``) by ``points + last trick ±10 + call + own Jodhi − opponents' Jodhi``.
A hand's end records its result, awards balls, ends the game at the ball target and otherwise
deals the next hand at once (inside the ``apply`` that ended the hand: reads never deal).

Replay ``result`` per deal: ``kind`` (normal, thunee, royals, blind_thunee, blind_royals, double,
khanaak, annulled, challenge), ``counting_team``, ``call``, ``points`` and ``jodhi`` per team,
``total`` and ``target`` (normal hands, with or without a declaration), ``balls`` per team, plus
``contract``, ``trumper``, ``trump``, ``caller``, ``game_target`` (the ball target the hand was
judged against) and, where they apply, ``success``, ``partner_catch``, ``declarer``, ``backside``,
``reason`` (annulments: ``weak_hand`` or ``no_trump``), ``challenger``/``accused``/``proven``.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.seats import next_seat, other_team, team_of
from games.thunee.deck import SEAT_REFS, seat_ref
from games.thunee.moves import CONTRACT_NAMES
from games.thunee.state import ThuneeState

# A ball award's event by (team, balls, score, two players), built on first use and shared by
# every game (events are read-only); bounded, as scores are.
BALLS_AWARDED: dict[tuple[int, int, int, int, bool], Event] = {}


def _team_name(team: int, two: bool) -> str:
    """A side as the texts name it: the player in a 2-player game, else Team A or B."""
    return SEAT_REFS[team] if two else ("Team A" if team == 0 else "Team B")


def _balls_awarded(team: int, balls: int, score_a: int, score_b: int, two: bool) -> Event:
    return Event(
        "balls_awarded",
        f"{_team_name(team, two)} scores {balls} ball{'s' if balls != 1 else ''} "
        f"({score_a}–{score_b}).",
        {"team": team, "balls": balls, "score": [score_a, score_b]},
        history=True,
    )


class Scoring(ThuneeState):
    """Ends hands: annulments, contract and normal scoring, ball awards, the next deal."""

    def _target(self) -> int:
        bonus = 1 if self.khanaak_called and self.options["khanaak_raises_target"] else 0
        return int(self.options["balls_to_win"]) + bonus

    def _base_result(self, kind: str) -> dict[str, Any]:
        normal = self.contract == "normal" and self.trumper is not None
        return {
            "kind": kind,
            "contract": self.contract,
            "counting_team": other_team(team_of(self.trumper))
            if normal and self.trumper is not None
            else None,
            "trumper": self.trumper if self.contract == "normal" else None,
            "trump": self.trump,
            "call": self.call,
            "caller": self.caller,
            "points": list(self.points),
            "jodhi": list(self.jodhi_tot),
            "total": None,
            "target": None,
            "balls": [0, 0],
            "game_target": self._target(),
        }

    def _annul(self, reason: str, events: list[Event], counting: int | None) -> None:
        result = self._base_result("annulled")
        result["counting_team"] = counting
        result["reason"] = reason
        self.records[-1].finish(result, self.balls)
        why = (
            "the trumpman's weak hand"
            if reason == "weak_hand"
            else "the counting side holds no trump"
        )
        events.append(
            Event(
                "hand_annulled",
                f"The hand is annulled ({why}); {seat_ref(self.dealer)} deals again.",
                {"result": result},
                history=True,
            )
        )
        self._next_hand(events)

    def _score_contract(self, success: bool, partner_catch: bool, events: list[Event]) -> None:
        caller = self.caller
        assert caller is not None
        blind = self.contract.startswith("blind")
        base = int(self.options["blind_balls"]) if blind else 4
        result = self._base_result(self.contract)
        result["success"] = success  # set one by one: no dict built to update from
        result["partner_catch"] = partner_catch
        if success:
            self._award(team_of(caller), base, result, events)
        else:
            extra = int(self.options["partner_catch_extra"]) if partner_catch else 0
            self._award(other_team(team_of(caller)), base + extra, result, events)

    def _score_normal(self, events: list[Event]) -> None:
        assert self.trumper is not None
        counting = other_team(team_of(self.trumper))
        trumping = team_of(self.trumper)
        last = self.winners[-1]
        if team_of(last) == counting:
            bonus = 10
        else:
            bonus = -10 if self.options["last_trick"] == "transfer" else 0
        total = (
            self.points[counting]
            + bonus
            + self.call
            + self.jodhi_tot[counting]
            - self.jodhi_tot[trumping]
        )
        target = self.count_target
        kind = self.declaration or "normal"
        result = self._base_result(kind)
        result["total"] = total
        result["target"] = target
        if self.declaration is not None and self.declarer is not None:
            declarer = self.declarer
            team = team_of(declarer)
            other = other_team(team)
            backside = team == counting and (
                self.call > 0 or not self.options["backside_requires_call"]
            )
            result.update({"declarer": declarer, "backside": backside})
            if self.declaration == "double":
                if self.options["double_winner"] == "declarer":
                    won = last == declarer
                else:
                    won = team_of(last) == team
                result["success"] = won
                if won:
                    self._award(team, 4 if backside else 2, result, events)
                else:
                    self._award(other, 4, result, events)
                return
            won = (
                team_of(last) == team
                if self.options["khanaak_winner"] == "team"
                else last == declarer
            )
            against = self.points[other]
            if self.options["khanaak_formula"] == "strict":
                against += self.jodhi_tot[other]
            success = won and self.jodhi_tot[team] + 10 > against
            result["success"] = success
            if success:
                self._award(team, 6 if backside else 3, result, events)
            else:
                self._award(other, 4, result, events)
            return
        if total >= target:
            self._award(counting, 2 if self.call else 1, result, events)
        else:
            self._award(trumping, 1, result, events)

    def _award(self, team: int, balls: int, result: dict[str, Any], events: list[Event]) -> None:
        self.balls[team] += balls
        result["balls"] = [balls, 0] if team == 0 else [0, balls]
        self.records[-1].finish(result, self.balls)
        self.jodhi_team = None
        self.pending = []
        if result["total"] is not None:
            two = self.players == 2
            counting = _team_name(other_team(team_of(result["trumper"])), two)
            side = "side" if two else "team"
            text = (
                f"Hand over: {counting}, the counting {side}, made {result['total']} "
                f"against {result['target']}."
            )
        else:
            text = f"Hand over ({CONTRACT_NAMES.get(result['kind'], result['kind'])})."
        events.append(Event("hand_scored", text, {"result": result}, history=True))
        two = self.players == 2
        key = (team, balls, self.balls[0], self.balls[1], two)
        awarded = BALLS_AWARDED.get(key)
        if awarded is None:
            awarded = _balls_awarded(*key)
            if len(BALLS_AWARDED) < 4096:
                BALLS_AWARDED[key] = awarded
        events.append(awarded)
        target = result["game_target"]  # self._target(), as _base_result found it
        clear = self.options["two_to_clear"]
        need_two = clear == "always" or (clear == "after_khanaak" and self.khanaak_called)
        lead = self.balls[team] - self.balls[other_team(team)]
        if self.balls[team] >= target and (not need_two or lead >= 2):
            self.winner_team = team
            self.phase = "over"
            self.status = "finished"
            self.trick = []
            events.append(
                Event(
                    "game_over",
                    f"{_team_name(team, two)} wins the game {self.balls[0]}–{self.balls[1]}.",
                    {"winner": team, "score": list(self.balls)},
                    history=True,
                )
            )
            return
        dealer_team = team_of(self.dealer)
        if (
            self.options["dealer_rotation"] == "every_hand"
            or self.balls[dealer_team] >= self.balls[other_team(dealer_team)]
        ):
            self.dealer = next_seat(self.dealer, self.players)
        self._next_hand(events)

    def _next_hand(self, events: list[Event]) -> None:
        """The hand is over and the game goes on: deal the next hand now (or wait for it)."""
        self.jodhi_team = None
        self.pending = []
        self._start_hand(events)
