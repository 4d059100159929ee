"""Leagues: divisions, league teams, match days and their confirmations."""
