"""The moderator's commands as the screen sends them (pydantic: the HTTP boundary)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Seat = Annotated[int, Field(ge=1, le=12)]
Seats = Annotated[list[Seat], Field(max_length=12)]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Confirm(_Command):
    """Accept the open card's proposal as it stands (refused while it has open questions)."""

    kind: Literal["confirm"]
    card: str


class MemberObservation(_Command):
    """What one member did: a shot on ``target``, or no shot, between numbers, more than one
    shot, hand not seen (the rules engine's observations)."""

    seat: Seat
    kind: Literal["shot", "no_shot", "between", "multiple", "not_seen"]
    target: Seat | None = None


class CorrectHunt(_Command):
    """The moderator's own observations of a hunt, one per living member."""

    kind: Literal["correct_hunt"]
    card: str
    shots: Annotated[list[MemberObservation], Field(min_length=1, max_length=12)]


class AnswerCheck(_Command):
    """The seat the leader showed and the moderator's nod (true) or shake (false); both null
    when the leader showed no number."""

    kind: Literal["answer_check"]
    card: str
    target: Seat | None
    answer: bool | None


class CorrectOrders(_Command):
    kind: Literal["correct_orders"]
    card: str
    orders: Annotated[list[Seat], Field(max_length=5)]


class AnswerHand(_Command):
    kind: Literal["answer_hand"]
    card: str
    raised: bool


class Restart(_Command):
    """Throw away what the current night step recorded and start recording it again."""

    kind: Literal["restart"]


class Finish(_Command):
    """End the current night step's recording now and ask for the verdict."""

    kind: Literal["finish"]


class Tap(_Command):
    """Tap-the-numbers mode: the moderator taps as each number is said."""

    kind: Literal["tap"]


class Undo(_Command):
    kind: Literal["undo"]


class Deal(_Command):
    """The cards as drawn: ``roles[i]`` is the role of seat ``i + 1``."""

    kind: Literal["deal"]
    roles: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]],
                     Field(min_length=1, max_length=12)]


class Speech(_Command):
    kind: Literal["speech"]
    seat: Seat
    nominee: Seat | None = None


class LastWord(_Command):
    kind: Literal["last_word"]
    seat: Seat


class Vote(_Command):
    """The seats that raised a hand for ``candidate``."""

    kind: Literal["vote"]
    candidate: Seat
    voters: Seats


class AllLeave(_Command):
    """The "all leave?" vote."""

    kind: Literal["all_leave"]
    yes: Seats
    no: Seats


Command = Annotated[
    Confirm | CorrectHunt | AnswerCheck | CorrectOrders | AnswerHand | Restart | Finish | Tap
    | Undo | Deal | Speech | LastWord | Vote | AllLeave,
    Field(discriminator="kind"),
]
COMMAND: TypeAdapter[Command] = TypeAdapter(Command)
