"""A pair's sign-up in SQL: one member invites, the other accepts, and both enter at once.

An invitation lives in the database (a restart keeps it) until it is accepted, declined or
replaced (one open invitation per inviter), or until either person enters the tournament.
"""

from __future__ import annotations

from bot.i18n import N_
from bot.store.interface import TournamentRefused
from bot.store.sql import SqlStore
from bot.store.tournaments import add_entrant, open_for_signup, refuse_entered
from bot.tournaments.spec import Entrant


class TournamentInvitesSql(SqlStore):
    """The pair sign-up part of both stores."""

    async def invite_partner(
        self, tournament_id: int, inviter: int, invitee: int, *, now: float
    ) -> None:
        """Invite ``invitee`` to enter as ``inviter``'s partner (replacing the inviter's earlier
        invitation); refused for a tournament of individuals, after sign-up, for oneself, or
        when either is entered already."""
        async with self.writing() as db:
            tournament = await open_for_signup(db, self.dialect, tournament_id, now)
            if tournament.spec.members != 2:
                raise TournamentRefused(N_("This tournament is entered alone."))
            if inviter == invitee:
                raise TournamentRefused(N_("Invite somebody else as your partner."))
            await refuse_entered(db, self.dialect, tournament_id, [inviter, invitee])
            await db.execute(
                "INSERT INTO tournament_invites (tournament_id, inviter, invitee, created_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, inviter) DO UPDATE SET"
                " invitee = excluded.invitee, created_at = excluded.created_at",
                (tournament_id, inviter, invitee, now),
            )

    async def accept_invite(
        self,
        tournament_id: int,
        inviter: int,
        invitee: int,
        *,
        name: str,
        rating: float,
        now: float,
    ) -> Entrant:
        """Enter the pair (inviter first); every invitation from or to either goes."""
        async with self.writing() as db:
            await open_for_signup(db, self.dialect, tournament_id, now)
            if not await db.fetch_value(
                "SELECT 1 FROM tournament_invites WHERE tournament_id = $1 AND inviter = $2"
                " AND invitee = $3",
                (tournament_id, inviter, invitee),
            ):
                raise TournamentRefused(N_("That invitation is no longer open."))
            entrant = await add_entrant(
                db, self.dialect, tournament_id, [inviter, invitee], name, rating, now
            )
        return entrant

    async def decline_invite(self, tournament_id: int, inviter: int, invitee: int) -> bool:
        """Drop an invitation (declined by the invitee or taken back by the inviter); False if
        it was not open."""
        async with self.writing() as db:
            dropped = await db.execute(
                "DELETE FROM tournament_invites WHERE tournament_id = $1 AND inviter = $2"
                " AND invitee = $3",
                (tournament_id, inviter, invitee),
            )
        return dropped > 0

    async def invites_to(self, tournament_id: int, invitee: int) -> list[int]:
        """Who has invited ``invitee`` and is waiting for an answer, earliest first."""
        rows = await self._all(
            "SELECT inviter FROM tournament_invites WHERE tournament_id = $1 AND invitee = $2"
            " ORDER BY created_at, inviter",
            (tournament_id, invitee),
        )
        return [int(row[0]) for row in rows]
