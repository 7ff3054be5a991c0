"""The card-table bot: start-up, settings, the store and the session manager."""

__version__ = "0.1.0"
