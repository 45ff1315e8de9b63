"""Running many games: matches between bots (local processes or Ray), statistics, ratings and the ladder."""
