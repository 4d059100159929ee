"""A member's data across the platform: what the club holds of a player (the export), the
privacy requests (erasure, objection) and the retention of old records. Above every
sub-package whose rows they read or change (events, deals, leagues, ratings, pairs)."""
