"""The fake Discord checks command localizations as Discord does: known client languages,
names by the name rule, unique per command, descriptions of 1-100 characters."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import limits


def command(**extra: Any) -> dict[str, Any]:
    return {
        "type": 1,
        "name": "rules",
        "description": "How a game is played here.",
        "options": [
            {"type": 3, "name": "game", "description": "Which game", **extra.pop("option", {})},
            {"type": 3, "name": "level", "description": "How well", "required": False},
        ],
        **extra,
    }


def codes(payload: dict[str, Any]) -> set[str]:
    return {code for _, code, _ in limits.check_commands([payload], guild=True).items}


def test_good_localizations_pass() -> None:
    good = command(
        name_localizations={"fi": "säännöt", "no": "regler"},
        description_localizations={"fi": "Miten peliä pelataan täällä."},
        option={"name_localizations": {"fi": "peli", "no": "spill"}},
    )
    assert codes(good) == set()


def test_bad_localizations_are_refused() -> None:
    assert "APPLICATION_COMMAND_INVALID_NAME" in codes(
        command(name_localizations={"fi": "Säännöt"})
    )
    assert "APPLICATION_COMMAND_INVALID_NAME" in codes(
        command(option={"name_localizations": {"no": "hvilket spill"}})
    )
    assert "BASE_TYPE_CHOICES" in codes(command(name_localizations={"ar": "قواعد"}))
    assert "BASE_TYPE_MAX_LENGTH" in codes(command(description_localizations={"fi": "x" * 101}))
    assert "BASE_TYPE_MIN_LENGTH" in codes(command(description_localizations={"no": ""}))
    clash = command(option={"name_localizations": {"fi": "taso"}})
    clash["options"][1]["name_localizations"] = {"fi": "taso"}
    assert "APPLICATION_COMMANDS_DUPLICATE_NAME" in codes(clash)
