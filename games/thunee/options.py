"""Thunee's variant options (contract §4) and the rules summary shown at a table."""

from __future__ import annotations

from games.base import Option

SUMMARY_TEXT = (
    "Two teams of two (or 1 v 1, 3 v 3). 24 cards: J 9 A 10 K Q, worth 30 20 11 10 3 2.\n"
    "The trumper lays a trump card face down after calling; their opponents must count 105 "
    "points (plus ±10 for the last trick, plus any call, plus or minus Jodhi).\n"
    "Follow suit; you may not undercut a trump unless you hold only trumps.\n"
    "Thunee/Royals: win every trick alone for 4 balls (Blind: 8). Double and Khanaak on the "
    "last trick.\n"
    "First team to 12 balls wins (13 once a Khanaak has been called)."
)

OPTIONS: tuple[Option, ...] = (
    Option("players", 4, "Number of players.", choices=(4, 2, 6)),
    Option(
        "last_trick",
        "transfer",
        "Last trick: ±10 transfer or +10 bonus.",
        choices=("transfer", "bonus"),
    ),
    Option("balls_to_win", 12, "Balls needed to win the game.", minimum=1, maximum=100),
    Option("khanaak_raises_target", True, "A Khanaak raises the target by one ball."),
    Option(
        "two_to_clear",
        "off",
        "The winner must also lead by two balls.",
        choices=("off", "always", "after_khanaak"),
    ),
    Option("call_single_step", False, "Calls go up one step (10) at a time."),
    Option(
        "last_card_trump",
        "four_suits",
        "When the trumper may choose 'last card'.",
        choices=("four_suits", "always", "never"),
    ),
    Option("last_card_visible_to_trumper", False, "The trumper may see a last-card trump."),
    Option("trumpman_weak_redeal", True, "The trumpman may redeal a first packet worth ≤ 10."),
    Option("no_trump_annul", True, "Annul a hand when the counting side holds no trump."),
    Option("undercut_restriction", True, "No undercutting unless holding only trumps."),
    Option("royals", True, "Royals (reversed ranking) may be called."),
    Option("blind_thunee", True, "Blind Thunee may be called in the auction."),
    Option("blind_royals", True, "Blind Royals may be called in the auction."),
    Option("blind_balls", 8, "Balls for a blind contract.", minimum=1, maximum=100),
    Option(
        "thunee_caller",
        "anyone",
        "Who may call Thunee or Royals.",
        choices=("anyone", "trumper_only"),
    ),
    Option(
        "thunee_must_win",
        "caller",
        "Who must win every trick in a Thunee.",
        choices=("caller", "team"),
    ),
    Option(
        "partner_catch_extra",
        4,
        "Extra balls when a partner catches a Thunee.",
        minimum=0,
        maximum=100,
    ),
    Option("jodhi", True, "Jodhi (K+Q) claims are used."),
    Option(
        "jodhi_timing",
        "team_first_or_third",
        "Which tricks open a Jodhi window.",
        choices=("team_first_or_third", "hand_tricks_1_and_3", "any_won_trick"),
    ),
    Option(
        "jodhi_window",
        "before_third_card_of_next_trick",
        "When a Jodhi window closes.",
        choices=("before_third_card_of_next_trick", "before_next_lead"),
    ),
    Option(
        "jodhi_cards",
        "in_hand",
        "Jodhi cards must be in hand, or merely dealt.",
        choices=("in_hand", "dealt"),
    ),
    Option("jodhi_reveal_suit", False, "A Jodhi claim announces its suit."),
    Option("double", True, "Double may be declared on the last trick."),
    Option(
        "double_winner",
        "declarer",
        "Who must win the last trick for a Double.",
        choices=("declarer", "team"),
    ),
    Option(
        "corner_house_scope",
        "own_team",
        "Which team's corner house forbids Double.",
        choices=("own_team", "either_team", "off"),
    ),
    Option("khanaak", True, "Khanaak may be declared on the last trick."),
    Option(
        "khanaak_winner",
        "team",
        "Who must win the last trick for a Khanaak.",
        choices=("team", "declarer"),
    ),
    Option("khanaak_requires_lost_trick", False, "Khanaak needs a lost trick first."),
    Option(
        "khanaak_formula",
        "strict",
        "Khanaak test: strict or simple.",
        choices=("strict", "simple"),
    ),
    Option("backside_requires_call", True, "Backside Double/Khanaak needs a call."),
    Option(
        "dealer_rotation",
        "stay_while_behind",
        "When the deal passes on.",
        choices=("stay_while_behind", "every_hand"),
    ),
    Option(
        "first_dealer",
        "black_jack",
        "How the first dealer is found.",
        choices=("black_jack", "any_jack", "random"),
    ),
    Option("challenge_mode", False, "Accept revokes; an opponent's challenge settles them."),
    Option("two_player_target", 125, "Counting target in the two-player game.", choices=(125, 105)),
    Option("six_player_first_packet", 2, "First packet size with six players.", choices=(2, 3)),
)
