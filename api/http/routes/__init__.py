"""The routers, one module each, mounted by ``api.http.app.create_app``."""
