"""Where the server keeps tables: the store contract, one module per backend (files, SQLite,
PostgreSQL), presence and change feeds.
"""
