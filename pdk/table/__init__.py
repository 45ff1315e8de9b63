"""One seat's game for every face: the session, the table service that runs its commands, the
archive of finished deals and the player's history.
"""
