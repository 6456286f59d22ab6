"""Rules engine: rule sets as data, state, actions, undo, game record.

Imports no vision, audio or web code.
"""
