"""Clients of the HTTP API: the bot client and a player's seat key."""
