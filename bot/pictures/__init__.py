"""Pictures of a table drawn with Pillow: pure (views in, PNG bytes out; no Discord, no asyncio).

Drawn only from what a seat or the public may see (a :class:`games.views.TableView`) and the
seats' public names, so a picture can never show more than its viewer's view. See
:mod:`bot.pictures.table`.
"""

from bot.pictures.table import Picture, Seating, draw_table, picture_key

__all__ = ["Picture", "Seating", "draw_table", "picture_key"]
