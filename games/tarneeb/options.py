"""The options of both Tarneeb games (contract A.1.7 and A.2.3; ``hand_limit`` is an engine
safeguard) and Tarneeb's rules summary shown at a table. Egyptian Tarneeb's own options are in
:mod:`games.tarneeb_egyptian`."""

from __future__ import annotations

from games.base import Option

COMMON_OPTIONS: tuple[Option, ...] = (
    Option("target", 41, "Points a team needs to win the game.", choices=(31, 41, 61)),
    Option(
        "hand_limit",
        30,
        "Engine safeguard: after this many deals (throw-ins included) the game ends with the "
        "first hand that leaves the totals unequal; the higher total wins.",
        minimum=10,
        maximum=1000,
    ),
    Option(
        "all_pass",
        "redeal_same_dealer",
        "When all four pass: the same dealer redeals, the next dealer deals, or the last "
        "player must bid.",
        choices=("redeal_same_dealer", "redeal_next_dealer", "dealer_forced_7"),
    ),
)


TARNEEB_OPTIONS: tuple[Option, ...] = (
    Option(
        "auction",
        "single_round",
        "single_round: everyone calls once, the dealer last; open: bid until the others "
        "pass (a pass is final).",
        choices=("single_round", "open"),
    ),
    Option(
        "dealer_may_equal",
        True,
        "In the single-round auction the dealer may equal the highest bid to take it.",
    ),
    COMMON_OPTIONS[2],
    Option(
        "trump_declaration",
        "named",
        "named: the declarer names trump; first_lead: their first lead sets it.",
        choices=("named", "first_lead"),
    ),
    Option("allow_no_trump", False, "The declarer may choose no trump."),
    Option(
        "scoring",
        "plain",
        "plain: tricks or minus the bid; kaboot: 13-trick bonuses.",
        choices=("plain", "kaboot"),
    ),
    Option(
        "defenders_always_score",
        False,
        "The defenders score their tricks even when the contract is made.",
    ),
    Option(
        "instant_win",
        "none",
        "kaboot_bid: bidding and taking 13 wins at once; kaboot_any: taking all 13 as "
        "declarers wins at once.",
        choices=("none", "kaboot_bid", "kaboot_any"),
    ),
    COMMON_OPTIONS[0],
    COMMON_OPTIONS[1],
)

SUMMARY_TEXT = (
    "Four players, partners opposite; play goes counter-clockwise (to the right).\n"
    "Bid 7 to 13 tricks, each bid higher than the last (the dealer, last to speak, may equal); "
    "the winner names trump and leads.\n"
    "Follow suit if you can; otherwise play anything. Highest trump, else highest card of the "
    "suit led, wins.\n"
    "Made: the declaring side scores its tricks. Failed: it loses its bid and the opponents "
    "score their tricks.\n"
    "First side to 41 wins."
)
