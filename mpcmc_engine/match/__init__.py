"""Playing matches between two UCI engines: statistics, openings, one game, the PGN file and the scheduler."""
