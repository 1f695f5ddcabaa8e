"""``python -m tests.infra.launch ARGS``: the ``alexandria`` CLI with the kernel's fixture game
registered, so that server processes started by the tests can play ``sealed_guess``."""

import tests.conftest  # noqa: F401 - registers sealed_guess
from api.cli.main import main

if __name__ == "__main__":
    main()
