"""The analytics read model (DuckDB) and its reports."""
