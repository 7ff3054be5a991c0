"""Right-to-left text: left-to-right runs (cards, numbers, scores, names, mentions) isolated."""

from __future__ import annotations

from bot.bidi import LRI, PDI, for_direction, isolate_ltr


def test_cards_scores_names_and_mentions_are_isolated_whole() -> None:
    text = "لا تملك A♠ 10♥. النتيجة 31-7 مع <@123> و Bob."
    assert isolate_ltr(text) == (
        f"لا تملك {LRI}A♠ 10♥{PDI}. النتيجة {LRI}31-7{PDI} مع {LRI}<@123>{PDI} و {LRI}Bob{PDI}."
    )


def test_a_sentences_full_stop_stays_outside_the_run() -> None:
    assert isolate_ltr("الدور على Alice.") == f"الدور على {LRI}Alice{PDI}."


def test_isolating_twice_changes_nothing_more() -> None:
    once = isolate_ltr("مؤقت الدور: **90 ثانية** و J♣")
    assert isolate_ltr(once) == once
    assert once.count(LRI) == once.count(PDI) == 2


def test_arabic_alone_is_untouched_and_left_to_right_readers_get_the_text_as_is() -> None:
    assert isolate_ltr("انتهت اللعبة.") == "انتهت اللعبة."
    assert for_direction(False, "It is Bob's turn: 10♥") == "It is Bob's turn: 10♥"
    assert for_direction(True, "10♥") == f"{LRI}10♥{PDI}"
