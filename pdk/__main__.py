"""``python -m pdk`` runs the command-line program."""

from pdk.cli.app import main

main()
