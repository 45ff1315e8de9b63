"""Words for players: the message catalogue (``catalog``, over the tables in ``messages``)
and the plain-language rule explanations (``explain``). The engine raises reason codes;
only this package holds prose."""
