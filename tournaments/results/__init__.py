"""Results: the results version, standings (pure), their snapshots, club leaderboards,
league tables and season standings."""
