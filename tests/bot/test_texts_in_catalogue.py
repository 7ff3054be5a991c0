"""No user-facing text is built outside the catalogue in cogs/ and bot/sessions/.

An AST scan: a string literal (or an f-string's words) that reaches a person, given as a
message's content, a refusal, an embed's title, field or footer, a button's or a menu's label,
placeholder or description, must be a catalogue text (inside ``_``, ``N_``, ``ngettext`` or
``pgettext``). So must a module's sentence constant. Words are what is looked for: markup, emoji,
numbers, custom ids and separators (``" · "``) are not texts to translate.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("cogs", "bot/sessions")
TRANSLATORS = frozenset({"_", "N_", "ngettext", "pgettext"})
# Calls whose texts reach people: name → the positional argument that is the text (None: none).
CALLS: dict[str, int | None] = {
    "send": 0,
    "send_message": 0,
    "reply": 0,
    "edit": None,
    "edit_message": None,
    "edit_original_response": None,
    "answer": 1,
    "UserError": 0,
    "Embed": None,
    "Button": None,
    "Select": None,
    "SelectOption": None,
    "add_field": None,
    "set_field_at": None,
    "set_footer": None,
    "set_author": None,
}
TEXT_KEYWORDS = frozenset(
    {"content", "label", "placeholder", "description", "title", "name", "value", "text"}
)
WORD = re.compile(r"[^\W\d_]{2,}")  # two letters or more: a word, not "A" or "#"
MARKUP = re.compile(r"<[@#:]?[!&a-z_:]*\{?[^>]*>|https?://\S+")  # mentions, timestamps, links

# Modules whose texts are still English only, each with why. Shrinks as texts are translated.
STILL_ENGLISH: dict[str, str] = {}


def words_in(node: ast.AST) -> Iterator[str]:
    """The literal words an expression puts in a text, outside any translator's call."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = MARKUP.sub("", node.value)
        yield from WORD.findall(text)
    elif isinstance(node, ast.JoinedStr):
        for part in node.values:
            yield from words_in(part)
    elif isinstance(node, ast.FormattedValue):
        yield from words_in(node.value)
    elif isinstance(node, ast.BinOp):
        yield from words_in(node.left)
        yield from words_in(node.right)
    elif isinstance(node, ast.IfExp):
        yield from words_in(node.body)
        yield from words_in(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from words_in(value)


def coded(call: ast.Call) -> bool:
    """A refusal with a code that has its own translated template."""
    from cogs.refusals import TEMPLATES

    def known(node: ast.expr) -> bool:
        if isinstance(node, ast.IfExp):  # one code or another
            return known(node.body) and known(node.orelse)
        return isinstance(node, ast.Constant) and node.value in TEMPLATES

    return any(kw.arg == "code" and known(kw.value) for kw in call.keywords)


def call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def texts_outside(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, words) of each text given to a person without the catalogue."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node) in CALLS:
            name = call_name(node)
            if name == "UserError" and coded(node):
                continue  # answered through its code's template (cogs/refusals.py)
            index = CALLS[name]
            shown = TEXT_KEYWORDS - {"value"} if name == "SelectOption" else TEXT_KEYWORDS
            given = [kw.value for kw in node.keywords if kw.arg in shown]
            if index is not None and len(node.args) > index:
                given.append(node.args[index])
            for value in given:
                words = list(words_in(value))
                if words:
                    yield value.lineno, " ".join(words)
    for statement in tree.body:  # a module's sentences: constants read out to people
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant):
            text = statement.value.value
            names = [t.id for t in statement.targets if isinstance(t, ast.Name)]
            sentence = isinstance(text, str) and len(WORD.findall(MARKUP.sub("", text))) >= 3
            if sentence and any(n.isupper() for n in names) and " " in text:
                yield statement.lineno, text


def scanned() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))


def test_user_facing_texts_are_catalogue_texts() -> None:
    found = []
    for path in scanned():
        name = path.relative_to(ROOT).as_posix()
        if name in STILL_ENGLISH:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}:{line}: {words}" for line, words in texts_outside(tree)]
    assert found == [], "wrap these in _() or N_() and run `make messages`:\n" + "\n".join(found)


def test_the_scan_finds_a_text_built_outside_the_catalogue() -> None:
    source = """
async def go(interaction, lang, n):
    await answer(interaction, f"Table #{n} is open")
    await answer(interaction, _(lang, "Table #{n} is open", n=n))
    button = Button(label="Start over", custom_id=f"ct:x:{n}")
    embed = Embed(title="🃏 " + _(lang, "Options"), description=f"`{n}` · <t:{n}:R>")
    raise UserError(N_("That is not a move."))
GONE = "This table was closed for good."
"""
    found = list(texts_outside(ast.parse(source)))
    assert sorted(line for line, _ in found) == [3, 5, 8], found


def test_every_module_left_in_english_exists() -> None:
    assert {p.relative_to(ROOT).as_posix() for p in scanned()} >= set(STILL_ENGLISH)
