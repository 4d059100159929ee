"""Tournaments as events: registrations, rounds, tables, seats, matches, table devices
and match confirmations."""
