"""The command-line program: thin Typer commands over the library."""
