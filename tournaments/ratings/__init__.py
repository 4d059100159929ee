"""Club ratings: the rating algorithm (pure), its services and API."""
