"""The game service: the aggregate, the application, bots at the server's seats, analysis, simulation."""
