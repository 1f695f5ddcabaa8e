"""The thin edges: the HTTP API and the command line."""
