"""Errors of the rules engine: every illegal action raises a subclass of ``ValueError``."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow in the current state (the message says why)."""


class WrongPhase(IllegalAction):
    """The action does not belong to the current phase or step (e.g. a vote outside a vote)."""


class PlayerOut(IllegalAction):
    """A dead or removed player acts, is nominated, voted or checked."""


class NotYourTurn(IllegalAction):
    """A living player acts out of turn (another speaker, another leader, another candidate)."""


class NotAllowed(IllegalAction):
    """The action breaks a rule of the rule set (second check in a night, a non-bandit shooting,
    a second nomination, a wrong moderator answer, a wrong deal...)."""


class GameOver(IllegalAction):
    """The game has ended: no more actions."""
