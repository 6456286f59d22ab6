"""Rules engine: rule sets as data, state, actions, undo, game record.

Imports no vision, audio or web code. The public names::

    from mafiavision.rules import Game, load_rules, Deal, Hunt, MemberShot, ShotKind, ...
"""

from mafiavision.rules.actions import (
    ACTION_TYPES,
    Action,
    AllLeaveVote,
    Annul,
    Check,
    Deal,
    Disqualify,
    Hunt,
    LastWord,
    LeaderShown,
    Meet,
    MemberShot,
    ShotKind,
    Speech,
    Vote,
)
from mafiavision.rules.engine import Game, Step
from mafiavision.rules.errors import (
    GameOver,
    IllegalAction,
    NotAllowed,
    NotYourTurn,
    PlayerOut,
    WrongPhase,
)
from mafiavision.rules.hunt import resolve_hunt
from mafiavision.rules.rulesets import BUILTIN_NAMES, RulesError, RuleSet, load_rules
from mafiavision.rules.state import (
    Cause,
    GameState,
    HuntVerdict,
    MissReason,
    Outcome,
    Phase,
    Termination,
)

__all__ = [
    "ACTION_TYPES",
    "BUILTIN_NAMES",
    "Action",
    "AllLeaveVote",
    "Annul",
    "Cause",
    "Check",
    "Deal",
    "Disqualify",
    "Game",
    "GameOver",
    "GameState",
    "Hunt",
    "HuntVerdict",
    "IllegalAction",
    "LastWord",
    "LeaderShown",
    "Meet",
    "MemberShot",
    "MissReason",
    "NotAllowed",
    "NotYourTurn",
    "Outcome",
    "Phase",
    "PlayerOut",
    "RuleSet",
    "RulesError",
    "ShotKind",
    "Speech",
    "Step",
    "Termination",
    "Vote",
    "WrongPhase",
    "load_rules",
    "resolve_hunt",
]
