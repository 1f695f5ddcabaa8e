"""The ``alexandria`` command line."""
