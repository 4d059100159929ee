"""Clubs, their players and organisers, and onboarding (a club and its first organiser)."""
