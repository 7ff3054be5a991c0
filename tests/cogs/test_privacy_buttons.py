"""The forget question's buttons (cogs/privacy.py): they carry the asker, and nobody else's
click reaches the session manager. Only the asker sees the ephemeral question, so through the
fake Discord no one else can click it; a stand-in interaction checks the refusal itself."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from cogs.privacy import NOT_YOURS, ForgetButton, question_view


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        self.sent.append((text, ephemeral))


class Sessions:
    def __init__(self) -> None:
        self.forgotten: list[int] = []

    async def forget(self, user_id: int) -> Any:
        self.forgotten.append(user_id)
        raise AssertionError("a stranger's click must not forget anyone")


async def test_a_strangers_click_is_refused_and_forgets_nobody() -> None:
    sessions = Sessions()
    interaction: Any = SimpleNamespace(
        user=SimpleNamespace(id=2),
        extras={},
        response=Response(),
        client=SimpleNamespace(sessions=sessions),
    )
    await ForgetButton(1, True).callback(interaction)
    assert interaction.response.sent == [(NOT_YOURS, True)]
    assert sessions.forgotten == []


def test_the_buttons_carry_the_asker() -> None:
    confirm, keep = question_view(123456789012345678).children
    assert isinstance(confirm, ForgetButton) and isinstance(keep, ForgetButton)
    assert confirm.custom_id == "ct:pf:123456789012345678:yes" and confirm.confirm
    assert keep.custom_id == "ct:pf:123456789012345678:no" and not keep.confirm
    template = ForgetButton.__discord_ui_compiled_template__
    assert isinstance(template, re.Pattern)
    assert template.fullmatch(confirm.custom_id) and template.fullmatch(keep.custom_id)
    assert not template.fullmatch("ct:pf:1:maybe") and not template.fullmatch("ct:pf:x:yes")
