"""A lease of the read-model store: the right of one process at a time to follow the log for
something (a read model, the bot seats, the tournament clocks).

The store decides who holds it (``ReadModelStore.acquire_lease``: take or renew for a while,
refused while another owner holds it, handed on at once when its holder was killed, see
``owner_gone``); a ``Lease`` remembers until when its owner surely holds it, so that it asks the
store again only once half of the lease has run out: a store round trip saved on most steps.
"""

from __future__ import annotations

import time

from infra.readside.readmodels import ReadModelStore


class Lease:
    def __init__(self, store: ReadModelStore, name: str, owner: str, seconds: float) -> None:
        self.store = store
        self.name = name  # the lease's name in the store
        self.owner = owner
        self.seconds = seconds
        self._until = 0.0  # (monotonic) until when this owner surely holds the lease

    def hold(self) -> bool:
        """Take or renew the lease (renewed once half of it has run out); False while another
        owner holds it."""
        if time.monotonic() < self._until:
            return True
        taken_at = time.monotonic()
        if not self.store.acquire_lease(self.name, self.owner, self.seconds):
            self._until = 0.0
            return False
        self._until = taken_at + self.seconds / 2
        return True

    def doubt(self) -> None:
        """Ask the store again next time (after a lost connection the lease may have run out)."""
        self._until = 0.0

    def release(self) -> None:
        self._until = 0.0
        self.store.release_lease(self.name, self.owner)
