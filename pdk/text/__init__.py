"""Words for players: the message catalogue (``catalog``, over the tables in ``messages``).
It sits below the engine, which raises reason codes and says nothing itself; what is
built from the engine's facts in words (a profile's rules explained, a hint's reason)
lives above it, in ``pdk.view.rules_in_words``."""
