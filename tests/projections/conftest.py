"""The API tests' fixtures (a service on a fresh SQLite file, a test client) serve here too."""

from tests.api.conftest import client, service, settings

__all__ = ["client", "service", "settings"]
