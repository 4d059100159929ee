"""The draw: seating a round (pure algorithms) and the service that stores it."""
