"""Synthetic night clips with exact ground truth: hand renderer, table scenes, voice, encoding."""
