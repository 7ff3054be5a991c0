"""Tournaments, the pure core: who enters, how a round is paired and seated, how results count.

No Discord, no asyncio, no I/O: the values here are frozen dataclasses and the functions are
deterministic (every random choice comes from the tournament's seed), so the Discord side and
the store can rebuild any round from what is stored.

- :mod:`bot.tournaments.spec`: the tournament's settings and its entrants, with the refusals.
- :mod:`bot.tournaments.tables`: a round's tables, who sits where, and each table's result.
- :mod:`bot.tournaments.swiss`: Swiss pairing (matching by networkx, never by hand).
- :mod:`bot.tournaments.knockout`: the seeded bracket and advancing winners.
- :mod:`bot.tournaments.duplicate`: duplicate deals and each entrant's duplicate score.
- :mod:`bot.tournaments.standings`: match points, Buchholz, the duplicate score, as a table.
"""
