"""Discord's documented limits on what a bot may send, answered as Discord answers them.

Each check adds to a :class:`FormErrors`; a non-empty one becomes a 400 with code 50035
("Invalid Form Body") and the nested ``errors`` object discord.py flattens into its message.
"""

from __future__ import annotations

import re
from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_CHOICES = 25
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
# The client languages Discord accepts as keys of name_localizations/description_localizations.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
ALLOWED_MESSAGE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12)


class FormErrors:
    def __init__(self) -> None:
        self.items: list[tuple[tuple[str | int, ...], str, str]] = []

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        self.items.append((path, code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def body(self) -> dict[str, Any]:
        errors: dict[str, Any] = {}
        for path, code, message in self.items:
            node = errors
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return {"message": "Invalid Form Body", "code": 50035, "errors": errors}

    def summary(self) -> str:
        return "; ".join(".".join(map(str, p)) + ": " + m for p, _, m in self.items)


def _max_len(
    errors: FormErrors, path: tuple[str | int, ...], value: Any, limit: int, minimum: int = 0
) -> None:
    if value is None:
        return
    text = str(value)
    if len(text) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    elif len(text) < minimum:
        errors.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length.")


def check_embeds(errors: FormErrors, embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > MAX_EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        p: tuple[str | int, ...] = ("embeds", i)
        for key, limit in (("title", 256), ("description", 4096)):
            _max_len(errors, (*p, key), embed.get(key), limit)
            total += len(str(embed.get(key) or ""))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.add((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            name, value = fld.get("name"), fld.get("value")
            if not name or not value:
                errors.add((*p, "fields", j), "BASE_TYPE_REQUIRED", "This field is required")
            _max_len(errors, (*p, "fields", j, "name"), name, 256)
            _max_len(errors, (*p, "fields", j, "value"), value, 1024)
            total += len(str(name or "")) + len(str(value or ""))
        footer = (embed.get("footer") or {}).get("text")
        _max_len(errors, (*p, "footer", "text"), footer, 2048)
        author = (embed.get("author") or {}).get("name")
        _max_len(errors, (*p, "author", "name"), author, 256)
        total += len(str(footer or "")) + len(str(author or ""))
    if total > MAX_EMBED_TOTAL:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


def _check_button(
    errors: FormErrors, p: tuple[str | int, ...], comp: dict[str, Any], ids: set[str]
) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add((*p, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")
    if style == 5:
        if not comp.get("url"):
            errors.add((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if comp.get("custom_id"):
            errors.add(
                (*p, "custom_id"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A link button cannot have a custom_id",
            )
    elif style != 6:
        _check_custom_id(errors, p, comp, ids)
    if not comp.get("label") and not comp.get("emoji") and style != 6:
        errors.add((*p, "label"), "BASE_TYPE_REQUIRED", "This field is required")
    _max_len(errors, (*p, "label"), comp.get("label"), MAX_BUTTON_LABEL)


def _check_custom_id(
    errors: FormErrors, p: tuple[str | int, ...], comp: dict[str, Any], ids: set[str]
) -> None:
    custom_id = comp.get("custom_id")
    if not custom_id:
        errors.add((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    _max_len(errors, (*p, "custom_id"), custom_id, MAX_CUSTOM_ID, 1)
    if custom_id in ids:
        errors.add(
            (*p, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    ids.add(custom_id)


def _check_select(
    errors: FormErrors, p: tuple[str | int, ...], comp: dict[str, Any], ids: set[str]
) -> None:
    _check_custom_id(errors, p, comp, ids)
    _max_len(errors, (*p, "placeholder"), comp.get("placeholder"), 150)
    options = comp.get("options") or []
    if comp.get("type") == 3:
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            errors.add(
                (*p, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
        values: set[str] = set()
        for k, opt in enumerate(options):
            _max_len(errors, (*p, "options", k, "label"), opt.get("label"), 100, 1)
            _max_len(errors, (*p, "options", k, "value"), opt.get("value"), 100, 1)
            _max_len(errors, (*p, "options", k, "description"), opt.get("description"), 100)
            if opt.get("value") in values:
                errors.add(
                    (*p, "options", k, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values cannot be duplicated",
                )
            values.add(opt.get("value"))
    min_v, max_v = comp.get("min_values", 1), comp.get("max_values", 1)
    if not 0 <= min_v <= 25:
        errors.add((*p, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 0.")
    if not 1 <= max_v <= 25:
        errors.add((*p, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 1.")
    if comp.get("type") == 3 and options and max_v > len(options):
        errors.add(
            (*p, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values must be less than or equal to the number of options",
        )


def check_components(errors: FormErrors, components: list[dict[str, Any]], flags: int = 0) -> None:
    if flags & (1 << 15):
        errors.add(("flags",), "UNSUPPORTED", "The fake does not model Components V2 messages")
        return
    if len(components) > MAX_ROWS:
        errors.add(
            ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length."
        )
    ids: set[str] = set()
    for i, row in enumerate(components):
        p: tuple[str | int, ...] = ("components", i)
        if row.get("type") != 1:
            errors.add(
                (*p, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        children = row.get("components") or []
        if not children:
            errors.add(
                (*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        kinds = {c.get("type") for c in children}
        if 2 in kinds and len(kinds) > 1:
            errors.add(
                (*p, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        if kinds & {3, 5, 6, 7, 8} and len(children) > 1:
            errors.add(
                (*p, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        if len(children) > MAX_BUTTONS_PER_ROW:
            errors.add(
                (*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        for j, comp in enumerate(children):
            cp = (*p, "components", j)
            kind = comp.get("type")
            if kind == 2:
                _check_button(errors, cp, comp, ids)
            elif kind in (3, 5, 6, 7, 8):
                _check_select(errors, cp, comp, ids)
            else:
                errors.add(
                    (*cp, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {kind} is not allowed in a message row",
                )


def check_message(
    body: dict[str, Any],
    *,
    creating: bool,
    allow_ephemeral: bool,
    has_files: bool = False,
) -> FormErrors:
    """Validate a message create/edit body the way Discord's API does."""
    errors = FormErrors()
    content = body.get("content")
    if content is not None:
        _max_len(errors, ("content",), content, MAX_CONTENT)
    embeds = body.get("embeds")
    if embeds is not None:
        check_embeds(errors, embeds)
    flags = int(body.get("flags") or 0)
    allowed = ALLOWED_MESSAGE_FLAGS | ((1 << 15) if creating else 0)
    if not allow_ephemeral:
        allowed &= ~(1 << 6)
    if flags & ~allowed and flags & ~(1 << 15):
        errors.add(("flags",), "MESSAGE_FLAGS_INVALID", f"Invalid message flags {flags}")
    components = body.get("components")
    if components is not None:
        check_components(errors, components, flags)
    if creating and not (content or embeds or components or has_files or body.get("sticker_ids")):
        errors.add(("content",), "EMPTY", "Cannot send an empty message")
    return errors


def check_modal(data: dict[str, Any]) -> FormErrors:
    errors = FormErrors()
    _check_custom_id(errors, ("data",), data, set())
    _max_len(errors, ("data", "title"), data.get("title"), 45, 1)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        errors.add(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    ids: set[str] = set()
    for i, row in enumerate(rows):
        p: tuple[str | int, ...] = ("data", "components", i)
        inner = row.get("components") or ([row["component"]] if "component" in row else [])
        if row.get("type") == 18:
            _max_len(errors, (*p, "label"), row.get("label"), 45, 1)
        for j, comp in enumerate(inner):
            cp = (*p, "components", j)
            if comp.get("type") == 4:
                _check_custom_id(errors, cp, comp, ids)
                _max_len(errors, (*cp, "label"), comp.get("label"), 45)
                _max_len(errors, (*cp, "value"), comp.get("value"), 4000)
                _max_len(errors, (*cp, "placeholder"), comp.get("placeholder"), 100)
            elif comp.get("type") in (3, 5, 6, 7, 8):
                _check_select(errors, cp, comp, ids)
    return errors


def check_commands(commands: list[dict[str, Any]], guild: bool) -> FormErrors:
    """Validate a bulk overwrite of application commands."""
    errors = FormErrors()
    if len(commands) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        kind = int(cmd.get("type", 1))
        name = str(cmd.get("name", ""))
        if kind == 1 and (not COMMAND_NAME.match(name) or name != name.lower()):
            errors.add((i, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        if (kind, name) in seen:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {name}",
            )
        seen.add((kind, name))
        if kind == 1:
            _max_len(errors, (i, "description"), cmd.get("description"), 100, 1)
        _check_localizations(errors, (i,), cmd, names=kind == 1)
        _check_options(errors, (i, "options"), cmd.get("options") or [], depth=0)
    return errors


def _check_localizations(
    errors: FormErrors, p: tuple[str | int, ...], item: dict[str, Any], *, names: bool
) -> None:
    """``name_localizations`` and ``description_localizations`` as Discord checks them: keys
    are Discord's client languages; a localized name obeys the name rule (``names``: a command
    or option name, lowercase, no spaces) or is a choice's 1-100 characters; a localized
    description has 1-100 characters."""
    for field in ("name_localizations", "description_localizations"):
        given = item.get(field)
        if given is None:
            continue
        if not isinstance(given, dict):
            errors.add((*p, field), "DICT_TYPE_CONVERT", "Only dictionaries may be used")
            continue
        for locale, text in given.items():
            where = (*p, field, locale)
            if locale not in DISCORD_LOCALES:
                errors.add(where, "BASE_TYPE_CHOICES", "Value must be a Discord locale")
            elif field == "name_localizations" and names:
                if not COMMAND_NAME.match(str(text)) or str(text) != str(text).lower():
                    errors.add(where, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            else:
                _max_len(errors, where, text, 100, 1)


def _check_localized_names_unique(
    errors: FormErrors, p: tuple[str | int, ...], options: list[dict[str, Any]]
) -> None:
    """Two options of one command may not share a name in any language."""
    seen: dict[tuple[str, str], int] = {}
    for k, opt in enumerate(options):
        for locale, text in (opt.get("name_localizations") or {}).items():
            if (locale, text) in seen:
                errors.add(
                    (*p, k, "name_localizations", locale),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {text}",
                )
            seen[(locale, text)] = k


def _check_options(
    errors: FormErrors, p: tuple[str | int, ...], options: list[dict[str, Any]], depth: int
) -> None:
    if len(options) > 25:
        errors.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    _check_localized_names_unique(errors, p, options)
    required_done = False
    for k, opt in enumerate(options):
        op = (*p, k)
        name = str(opt.get("name", ""))
        if not COMMAND_NAME.match(name) or name != name.lower():
            errors.add((*op, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        _max_len(errors, (*op, "description"), opt.get("description"), 100, 1)
        _check_localizations(errors, op, opt, names=True)
        kind = opt.get("type")
        if kind in (1, 2):
            if depth >= (1 if kind == 2 else 2):
                errors.add(
                    (*op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Invalid nesting"
                )
            _check_options(errors, (*op, "options"), opt.get("options") or [], depth + 1)
            continue
        if opt.get("required"):
            if required_done:
                errors.add(
                    (*op, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            required_done = True
        choices = opt.get("choices") or []
        for c, choice in enumerate(choices):
            _check_localizations(errors, (*op, "choices", c), choice, names=False)
        if len(choices) > MAX_CHOICES:
            errors.add((*op, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        if choices and opt.get("autocomplete"):
            errors.add(
                (*op, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set with choices",
            )


# --- application emojis (GET/POST /applications/{id}/emojis) ---------------------------------
MAX_APP_EMOJIS = 2000
MAX_EMOJI_IMAGE_BYTES = 256 * 1024
EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
EMOJI_IMAGE = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(?P<data>[A-Za-z0-9+/=]+)$")


def check_app_emoji(body: Any, taken: set[str]) -> tuple[FormErrors, bytes]:
    """An application emoji as Discord checks it: a name of 2-32 letters, digits or
    underscores, not taken by another of the application's emojis, and a PNG/JPEG/GIF/WebP
    data URI of at most 256 KiB. Returns the errors and the decoded image."""
    import base64
    import binascii

    errors = FormErrors()
    if not isinstance(body, dict):
        errors.add(("name",), "BASE_TYPE_REQUIRED", "This field is required")
        return errors, b""
    name = body.get("name")
    if not isinstance(name, str) or not EMOJI_NAME.match(name):
        errors.add(("name",), "BASE_TYPE_BAD_NAME", "Invalid emoji name.")
    elif name in taken:
        errors.add(
            ("name",),
            "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
            "An application emoji with that name already exists.",
        )
    match = EMOJI_IMAGE.match(str(body.get("image") or ""))
    image = b""
    if match is None:
        errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
    else:
        try:
            image = base64.b64decode(match["data"], validate=True)
        except binascii.Error:
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
        if len(image) > MAX_EMOJI_IMAGE_BYTES:
            errors.add(("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    return errors, image
