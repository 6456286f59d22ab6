"""MafiaVision: camera and microphone assistant for the night of a Mafia game."""

__version__ = "0.1.0"
