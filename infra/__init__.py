"""Adapters and deployment: the event-sourced game service, stores, settings, runners."""
