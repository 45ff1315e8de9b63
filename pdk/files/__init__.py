"""Reading files within bounds (a hostile file is one error, never a parser's traceback) and
the one atomic write.
"""
