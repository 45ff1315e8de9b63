"""Numbers on a play: the advisor (every candidate's expected points), reviews of a deal and 残局 puzzles."""
