"""Server and player settings, standings, history, privacy and reports of a computer's play:
calls through to the store, no table and no table lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from bot import hand_reports, history, i18n, privacy
from bot.i18n import N_
from bot.player_stats import PlayerStats
from bot.player_stats import gather as gather_stats
from bot.ratings import LadderPage, month_of
from bot.sessions.errors import UserError, paused, refused, reports_refused
from bot.sessions.options import known_defaults, parse_option
from bot.sessions.state import LADDER_PAGE, MAX_TABLE_CHANNELS, SessionState
from bot.sessions.table import LiveTable
from bot.store import GuildSettings, LeaderboardRow, TurnPing
from games.base import Game, OptionError
from games.registry import all_games
from games.reports import Play

AUTO_LANGUAGE = "auto"


def parse_language(value: str) -> str | None:
    """A language code as a person typed or chose it (``auto``: None); an unknown one refused."""
    code = value.strip().lower()
    if code == AUTO_LANGUAGE:
        return None
    if not i18n.is_language(code):
        known = ", ".join([*i18n.LANGUAGES, AUTO_LANGUAGE])
        raise UserError(
            f"There is no language {code[:20]!r} here. Choose one of: {known}.",
            code="unknown_language",
            params={"value": code[:20], "known": known},
        )
    return code


def may_organise(settings: GuildSettings, *, manager: bool, roles: Iterable[int]) -> bool:
    """Who may run a tournament: a server manager, or a member of the role the server named."""
    return manager or (settings.tournament_role is not None and settings.tournament_role in roles)


class SettingsPart(SessionState):
    """Server and player settings, standings, history and privacy: calls through to the store, no
    table and no table lock.
    """

    async def open_table_count(self) -> int:
        with paused():
            return await self.store.count_open_tables()

    async def leaderboard(self, guild_id: int, game: str | None = None) -> list[LeaderboardRow]:
        with paused():
            return await self.store.leaderboard(guild_id, game)

    async def ladder(
        self,
        guild_id: int,
        game: str,
        *,
        month: bool = False,
        computers: bool = False,
        page: int = 0,
    ) -> LadderPage:
        """A page of the rated leaderboard (``month``: by the rating gained this month)."""
        with paused():
            return await self.store.ladder(
                guild_id,
                game,
                month=month_of(self.clock.now()) if month else None,
                computers=computers,
                offset=max(page, 0) * LADDER_PAGE,
                limit=LADDER_PAGE,
            )

    async def player_stats(self, guild_id: int, user_id: int, game: str | None) -> PlayerStats:
        with paused():
            return await gather_stats(self.store, guild_id, user_id, game)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        with paused():
            return await self.store.guild_settings(guild_id, self.settings.turn_seconds)

    async def change_guild_settings(
        self,
        guild_id: int,
        turn_seconds: int | None = None,
        use_threads: bool | None = None,
        *,
        computers: bool | None = None,
        rated: bool | None = None,
        trick_lines: bool | None = None,
        language: str | None = None,
        tournament_role: int | None = None,
        clear_tournament_role: bool = False,
    ) -> GuildSettings:
        """Change a server's settings (None: unchanged); a turn timer outside 10..3600 seconds
        and an unknown language are refused. They apply to tables opened from now on (the
        language: to answers from now on; the tournament role: at once)."""
        if turn_seconds is not None and not 10 <= turn_seconds <= 3600:
            raise UserError(N_("The turn timer is 10 to 3600 seconds."))
        if tournament_role is not None and clear_tournament_role:
            raise UserError(N_("Name a tournament role or clear it, not both."))
        current = await self.guild_settings(guild_id)
        if language is not None:
            current = replace(current, language=parse_language(language))
        if tournament_role is not None or clear_tournament_role:
            current = replace(current, tournament_role=tournament_role)
        given: dict[str, Any] = {
            "turn_seconds": turn_seconds,
            "use_threads": use_threads,
            "computers": computers,
            "rated": rated,
            "trick_lines": trick_lines,
        }
        return await self._save_settings(
            replace(current, **{k: v for k, v in given.items() if v is not None})
        )

    async def user_language(self, user_id: int) -> str | None:
        with paused():
            return await self.store.user_language(user_id)

    async def set_user_language(self, user_id: int, language: str) -> str | None:
        """A person's own language in every server (``auto``: none of their own); returns it."""
        chosen = parse_language(language)
        with paused():
            await self.store.set_user_language(user_id, chosen)
        return chosen

    async def reader_language(self, guild_id: int | None, user_id: int, client: str | None) -> str:
        """The language of an ephemeral answer: the person's own, else the server's, else their
        Discord client's where we have it, else English."""
        own = await self.user_language(user_id)
        server = None if guild_id is None else (await self.guild_settings(guild_id)).language
        return i18n.choose(own, server, client)

    async def server_language(self, guild_id: int) -> str:
        """The language of a server's public messages (a table, its posts): the server's own."""
        lang = i18n.choose(None, (await self.guild_settings(guild_id)).language, None)
        self.server_languages[guild_id] = lang
        return lang

    async def table_language(self, guild_id: int) -> str:
        """The language a table's message is drawn in: the server's, read once and then kept
        (a table is redrawn on every move; a change of setting updates it), English while the
        database cannot say."""
        known = self.server_languages.get(guild_id)
        if known is not None:
            return known
        try:
            return await self.server_language(guild_id)
        except UserError:
            return i18n.ENGLISH

    def known_language(self, guild_id: int) -> str:
        """The server's language as last read (English before it was): for the texts built where
        nothing may wait (a move's results, queued as the move is made)."""
        return self.server_languages.get(guild_id, i18n.ENGLISH)

    async def _save_settings(self, changed: GuildSettings) -> GuildSettings:
        with paused():
            await self.store.save_guild_settings(changed)
        lang = i18n.choose(None, changed.language, None)
        if self.server_languages.get(changed.guild_id, lang) != lang:
            self.server_languages[changed.guild_id] = lang
            for table in list(self.tables.values()):  # their messages now speak the new one
                if table.row.guild_id == changed.guild_id:
                    self._notify(table, ())
        self.server_languages[changed.guild_id] = lang
        return changed

    async def set_game_default(
        self, guild_id: int, game: str, option: str, value: str
    ) -> GuildSettings:
        """Make ``option=value`` the server's default for ``game``: checked by the game's own
        option rules, refused (nothing kept) when it is not valid for that game."""
        game_class = self._game_class(game)
        name, parsed = parse_option(option, value)
        current = await self.guild_settings(guild_id)
        chosen = {**known_defaults(game_class, current), name: parsed}
        try:
            game_class.validate_options(chosen)
        except OptionError as error:
            raise UserError(
                f"That is not a valid {game_class.title} option: {error}.",
                code="bad_default",
                params={"game": game_class.title, "reason": error},
            ) from None
        defaults = {**current.defaults, game: dict(sorted(chosen.items()))}
        return await self._save_settings(replace(current, defaults=defaults))

    async def reset_game_defaults(
        self, guild_id: int, game: str, option: str | None = None
    ) -> GuildSettings:
        """Back to the game's own defaults: one option, or all of the game's (``None``)."""
        game_class = self._game_class(game)
        current = await self.guild_settings(guild_id)
        chosen: dict[str, Any] = {}  # no option named: none of the game's defaults stays
        if option is not None:
            chosen = dict(current.defaults.get(game, {}))
            if option not in chosen:
                raise UserError(
                    f"{option} has no server default for {game_class.title}.",
                    code="no_default",
                    params={"option": option, "game": game_class.title},
                )
            del chosen[option]
        defaults = {name: opts for name, opts in current.defaults.items() if name != game}
        if chosen:
            defaults[game] = chosen
        return await self._save_settings(replace(current, defaults=defaults))

    async def set_table_channels(
        self,
        guild_id: int,
        *,
        add: int | None = None,
        remove: int | None = None,
        clear: bool = False,
    ) -> GuildSettings:
        """Change the list of channels that may host tables (empty: any channel)."""
        current = await self.guild_settings(guild_id)
        channels = [] if clear else list(current.channels)
        if remove is not None:
            if remove not in channels:
                raise UserError(
                    f"<#{remove}> is not in the list of table channels.",
                    code="not_a_table_channel",
                    params={"channel": f"<#{remove}>"},
                )
            channels.remove(remove)
        if add is not None and add not in channels:
            if len(channels) >= MAX_TABLE_CHANNELS:
                raise UserError(
                    f"At most {MAX_TABLE_CHANNELS} channels can host tables.",
                    code="too_many_channels",
                    params={"n": MAX_TABLE_CHANNELS},
                )
            channels.append(add)
        return await self._save_settings(replace(current, channels=tuple(channels)))

    @staticmethod
    def _game_class(game: str) -> type[Game]:
        games = all_games()
        if game not in games:
            known = ", ".join(sorted(games))
            raise UserError(
                f"There is no game called {game!r}. Try one of: {known}.",
                code="unknown_game",
                params={"game": repr(game), "games": known},
            )
        return games[game]

    async def turn_ping_wanted(self, guild_id: int, user_id: int) -> bool:
        with paused():
            return await self.store.turn_ping_wanted(guild_id, user_id)

    async def set_turn_ping_wanted(self, guild_id: int, user_id: int, wanted: bool) -> None:
        with paused():
            await self.store.set_turn_ping_wanted(guild_id, user_id, wanted)

    async def turn_pings(self, table_id: int) -> list[TurnPing]:
        with paused():
            return await self.store.turn_pings(table_id)

    async def save_turn_ping(self, ping: TurnPing) -> None:
        with paused():
            await self.store.save_turn_ping(ping)

    async def forget_turn_ping(self, table_id: int, user_id: int) -> None:
        with paused():
            await self.store.delete_turn_ping(table_id, user_id)

    async def mark_announced(self, table: LiveTable, moves: int) -> None:
        """The table's message shows it at ``moves`` and its results through there are posted."""
        await self.store.set_announced(table.id, moves, f"{table.row.status}:{moves}")

    # bot/privacy.py's; these wrap them for the cogs, which never touch the store) ------------
    async def history_page(
        self,
        guild_id: int,
        page: int,
        user_id: int | None = None,
        game: str | None = None,
        viewer: history.Viewer | None = None,
    ) -> history.HistoryPage:
        with paused(), refused():
            return await history.history_page(
                self.store, guild_id, page, user_id=user_id, game=game, viewer=viewer
            )

    async def export(
        self, guild_id: int, table_id: int, viewer: history.Viewer | None = None
    ) -> history.Export:
        """A game's transcript; a refusal (another server's table, a game still being played,
        one the viewer may not see) is a :class:`UserError`."""
        with paused(), refused():
            return await history.export(self.store, guild_id, table_id, viewer)

    async def hand_for_report(
        self, guild_id: int, table_id: int, upto: int, user_id: int
    ) -> hand_reports.HandForReport:
        """The hand scored after ``upto`` moves, for ``user_id`` to report a computer's card
        in it; a refusal (the game gone, a user who held no seat) is a :class:`UserError`."""
        with paused(), reports_refused():
            return await hand_reports.hand_for_report(self.store, guild_id, table_id, upto, user_id)

    async def hand_reported(
        self, hand: hand_reports.HandForReport, trick: int, user_id: int
    ) -> bool:
        """Whether ``user_id`` reported this trick of the hand already."""
        play = hand.tricks()[trick][0]
        with paused():
            return await self.store.hand_reported(hand.table_id, play.hand, trick, user_id)

    async def report_play(
        self, hand: hand_reports.HandForReport, before: int, user_id: int
    ) -> Play:
        """Keep ``user_id``'s report of the computer's card played after ``before`` moves."""
        with paused(), reports_refused():
            return await hand_reports.report_play(self.store, hand, before, user_id)

    async def forget(self, user_id: int) -> privacy.Forgotten:
        """Forget a person everywhere but at open tables, whose games go on as they are."""
        with paused():
            return await privacy.forget_user(self.store, user_id)
