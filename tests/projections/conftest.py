"""The API tests' fixtures (a service on a fresh SQLite file, a test client) serve here too."""

from tests.api.conftest import client, service

__all__ = ["client", "service"]
