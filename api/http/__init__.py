"""The HTTP edge: the app, its routers, dependencies, errors and limits."""
