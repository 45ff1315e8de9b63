"""pdk — 跑得快 (Pao De Kuai): rules engine, AI players, and terminal game."""

__version__ = "0.1.0"
