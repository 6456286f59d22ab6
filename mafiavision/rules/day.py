"""The day flow: speeches and nominations, votes, shoot-out, 'all leave?', last words, and the
end of the day (days without a vote elimination, the extra round)."""

from __future__ import annotations

from dataclasses import replace

from mafiavision.rules import night, steps, voting
from mafiavision.rules.actions import AllLeaveVote, LastWord, Speech, Vote
from mafiavision.rules.errors import NotAllowed, NotYourTurn, WrongPhase
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.seats import check_seat, lose_life, remove
from mafiavision.rules.state import Cause, GameState, Outcome, Phase, RoundKind, Termination


def speaking_order(alive: tuple[int, ...], first: int) -> tuple[int, ...]:
    """Living seats round the table, starting at ``first`` (which must be alive)."""
    start = alive.index(first)
    return alive[start:] + alive[:start]


def first_speaker(alive: tuple[int, ...], previous: int | None) -> int:
    """The first speaker of a day: seat 1 on the first day (or the first living seat), then the
    next living seat after the previous day's first speaker (RULES.md §1; seeds 000, 002, 003:
    'starts with the player after the one who spoke first in the previous round')."""
    if previous is None:
        return alive[0]
    return next((s for s in alive if s > previous), alive[0])


def start_day(rules: RuleSet, s: GameState) -> GameState:
    alive = s.alive()
    number = (0 if rules.greeting_day else 1) if s.day is None else s.day + 1
    first = first_speaker(alive, s.first_speaker)
    return replace(
        s,
        phase=Phase.SPEECHES,
        day=number,
        round=RoundKind.GREETING if number == 0 else RoundKind.DISCUSSION,
        first_speaker=first,
        speakers=speaking_order(alive, first),
        candidates=(),
        ballot=(),
        votes=(),
        revote=False,
        tied=(),
        eliminated_today=False,
        extra_round=False,
    )


def speech(rules: RuleSet, s: GameState, a: Speech) -> GameState:
    if s.phase != Phase.SPEECHES:
        raise steps.wrong(s, rules, a)
    check_seat(s, a.seat, "speech")
    if a.seat != s.speakers[0]:
        raise NotYourTurn(f"seat {s.speakers[0]} speaks now, not seat {a.seat}")
    if a.nominee is not None:
        if s.round != RoundKind.DISCUSSION:
            raise NotAllowed(f"no nominations in a {s.round} round")
        check_seat(s, a.nominee, "nomination")
        if a.nominee in s.candidates:
            raise NotAllowed(f"seat {a.nominee} is already nominated")
        s = replace(s, candidates=(*s.candidates, a.nominee))
    s = replace(s, speakers=s.speakers[1:])
    return s if s.speakers else end_round(rules, s)


def start_vote(s: GameState, ballot: tuple[int, ...], revote: bool) -> GameState:
    return replace(s, phase=Phase.VOTING, ballot=ballot, votes=(), revote=revote)


def end_round(rules: RuleSet, s: GameState) -> GameState:
    if s.round == RoundKind.GREETING:
        return end_day(rules, s)
    if s.round == RoundKind.DEFENCE:
        order = tuple(reversed(s.tied)) if rules.revote_order == "reverse" else s.tied
        return start_vote(s, order, revote=True)
    if not s.candidates:
        return end_day(rules, s)
    if len(s.candidates) == 1:
        first_day = s.day == 1 and not s.extra_round
        rule = rules.single_candidate_first_day if first_day else rules.single_candidate_later
        if rule == "no_vote":
            return end_day(rules, s)
        if rule == "leaves":
            return eliminate(rules, s, list(s.candidates))
    return start_vote(s, s.candidates, revote=False)


def vote(rules: RuleSet, s: GameState, a: Vote) -> GameState:
    if s.phase != Phase.VOTING:
        raise WrongPhase(f"a vote outside a vote: expected {steps.describe(rules, s)}")
    if a.candidate != s.ballot[0]:
        raise NotYourTurn(f"the vote now is for seat {s.ballot[0]}, not seat {a.candidate}")
    voted = frozenset().union(*(v for _, v in s.votes))
    for voter in sorted(a.voters):
        check_seat(s, voter, "vote")
        if voter in voted:
            raise NotAllowed(f"seat {voter} has already voted in this vote")
    s = replace(s, votes=(*s.votes, (a.candidate, a.voters)), ballot=s.ballot[1:])
    return s if s.ballot else tally(rules, s)


def tally(rules: RuleSet, s: GameState) -> GameState:
    alive = s.alive()
    leaders = voting.most_voted(voting.count_votes(s.votes, alive, rules.abstention))
    if not leaders:
        return end_day(rules, s)
    if len(leaders) == 1:
        return eliminate(rules, s, list(leaders))
    if s.revote:
        s = replace(s, tied=leaders)
        if voting.all_leave_allowed(rules, len(leaders), len(alive)):
            return replace(s, phase=Phase.ALL_LEAVE_VOTE)
        return end_day(rules, s)
    if rules.tie_at_four == "all_stay" and len(alive) == 4:
        return end_day(rules, s)
    start = s.first_speaker if s.first_speaker in alive else alive[0]
    assert start is not None
    order = speaking_order(alive, start)
    return replace(
        s,
        phase=Phase.SPEECHES,
        round=RoundKind.DEFENCE,
        tied=leaders,
        speakers=tuple(seat for seat in order if seat in leaders),
    )


def all_leave_vote(rules: RuleSet, s: GameState, a: AllLeaveVote) -> GameState:
    if s.phase != Phase.ALL_LEAVE_VOTE:
        raise WrongPhase(f"no 'all leave?' vote now: expected {steps.describe(rules, s)}")
    both = a.yes & a.no
    if both:
        raise NotAllowed(f"seat {min(both)} voted both yes and no")
    for voter in sorted(a.yes | a.no):
        check_seat(s, voter, "all-leave vote")
    if voting.all_leave_passes(rules, len(a.yes), len(a.no), len(s.alive())):
        return eliminate(rules, s, list(s.tied))
    return end_day(rules, s)


def eliminate(rules: RuleSet, s: GameState, seats: list[int]) -> GameState:
    leaving = []
    for seat in seats:
        if rules.lives_against_vote and s.lives[seat - 1] > 1:
            s, _ = lose_life(s, seat)
        else:
            leaving.append(seat)
    if not leaving:
        return end_day(rules, s)
    s = remove(s, leaving, Cause.VOTED)
    return replace(
        s,
        eliminated_today=True,
        phase=Phase.LAST_WORDS,
        last_words=tuple(leaving),
        then="end_day",
    )


def end_day(rules: RuleSet, s: GameState) -> GameState:
    rule = rules.no_elimination
    if s.day == 0 or rule is None:
        return night.start_night(rules, s)
    if s.eliminated_today:
        return night.start_night(rules, replace(s, dry_days=0 if rule.consecutive else s.dry_days))
    if s.extra_round:
        return replace(s, outcome=Outcome(Termination.NO_ELIMINATION_DAYS, rule.winner))
    if s.dry_days + 1 < rule.days:
        return night.start_night(rules, replace(s, dry_days=s.dry_days + 1))
    if not rule.extra_round:
        s = replace(s, dry_days=s.dry_days + 1)
        return replace(s, outcome=Outcome(Termination.NO_ELIMINATION_DAYS, rule.winner))
    alive = s.alive()
    first = s.first_speaker if s.first_speaker in alive else alive[0]
    assert first is not None
    return replace(
        s,
        phase=Phase.SPEECHES,
        round=RoundKind.DISCUSSION,
        extra_round=True,
        speakers=speaking_order(alive, first),
        candidates=(),
        ballot=(),
        votes=(),
        revote=False,
        tied=(),
    )


def last_word(rules: RuleSet, s: GameState, a: LastWord) -> GameState:
    if s.phase != Phase.LAST_WORDS:
        raise steps.wrong(s, rules, a)
    if a.seat != s.last_words[0]:
        raise NotYourTurn(f"seat {s.last_words[0]} has the last word now, not seat {a.seat}")
    s = replace(s, last_words=s.last_words[1:])
    if s.last_words:
        return s
    return start_day(rules, s) if s.then == "start_day" else end_day(rules, s)
