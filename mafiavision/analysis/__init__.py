"""Offline analysis of recorded games, reports, batch."""
