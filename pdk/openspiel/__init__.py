"""跑得快 as an OpenSpiel game (``pip install 'pdk[openspiel]'``).

Importing ``pdk.openspiel`` registers the Python game ``python_pdk`` with pyspiel:

    import pyspiel
    import pdk.openspiel  # registers python_pdk
    game = pyspiel.load_game("python_pdk", {"variant": "classic16"})

``pdk.openspiel.game`` documents the game (chance, actions, observations, returns).
"""

from pdk.openspiel.game import GAME_TYPE, PdkGame, PdkObserver, PdkState, state_from_deal

__all__ = ["GAME_TYPE", "PdkGame", "PdkObserver", "PdkState", "state_from_deal"]
