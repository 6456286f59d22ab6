"""The analysis and the game: a live record of the recording, the disputes with it, and the
game record of what the analysis found.

A live record (``--record``) is replayed action by action (undos applied). Its hunts and checks
are matched to the analysis's — by the evidence's video time when the record has one, else in
order — and every difference becomes a :class:`~mafiavision.analysis.events.Disagreement`. The
analysis's own record is then the live record with each matched hunt and check replaced by what
the analysis found (as the camera's evidence); should a replaced result make a later action of
the live record illegal, the record stops there and says so.

Without a live record but with the deal (``--deal``, the moderator's sheet), the record is
built from the deal and what the recording shows, in time order (:func:`record_from_deal`).
Without either, no record is written: a game record must begin with the deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mafiavision.analysis.deal import GameDeal
from mafiavision.analysis.events import (
    CheckRecord,
    Disagreement,
    HuntRecord,
    OrdersRecord,
    RecordInfo,
)
from mafiavision.analysis.finder import CheckSpan

if TYPE_CHECKING:
    from mafiavision.rules import RuleSet

#: Seconds around a hunt or check within which a record's evidence time matches it.
MATCH_PAD = 5.0


@dataclass(frozen=True)
class LiveEntry:
    action: object  # mafiavision.rules.Action
    evidence: object | None  # mafiavision.rules.record.Evidence


def load_ruleset(name: str):
    from mafiavision.rules import load_rules

    return load_rules(name)


def read_live(path: Path) -> tuple[object, list[LiveEntry]]:
    """The record's header and its actions after applying the undos."""
    from mafiavision.rules.record import RecordVisitor, read_record

    class Collect(RecordVisitor):
        def __init__(self) -> None:
            self.header = None
            self.entries: list[LiveEntry] = []

        def begin_record(self, header) -> None:
            self.header = header

        def visit_action(self, entry) -> None:
            self.entries.append(LiveEntry(entry.action, entry.evidence))

        def visit_undo(self, entry) -> None:
            if self.entries:
                self.entries.pop()

        def result(self):
            return self.header, self.entries

    return read_record(path, Collect())


def _time(entry: LiveEntry) -> float | None:
    return getattr(entry.evidence, "video_time", None) if entry.evidence is not None else None


def _match(entries: list[LiveEntry], spans: list[tuple[float, float]]) -> dict[int, int]:
    """Live entry index → span index: by evidence time, then the rest in order."""
    matched: dict[int, int] = {}
    used: set[int] = set()
    for i, entry in enumerate(entries):
        t = _time(entry)
        if t is None:
            continue
        for j, (a, b) in enumerate(spans):
            if j not in used and a - MATCH_PAD <= t <= b + MATCH_PAD:
                matched[i] = j
                used.add(j)
                break
    free = [j for j in range(len(spans)) if j not in used]
    for i, entry in enumerate(entries):
        if i not in matched and _time(entry) is None and free:
            matched[i] = free.pop(0)
    return matched


def called_seats(header, entries: list[LiveEntry], spans: list[tuple[float, float]]
                 ) -> dict[int, list[int]]:
    """Per hunt span (index into ``spans``), the seats the moderator called at the live record's
    matching hunt: the living ones only when the rule set does not call the dead
    (``calls_dead_seats``). Spans without a matching hunt are left out."""
    from mafiavision.rules import Game, Hunt, IllegalAction

    game = Game(header.rules)
    live_hunts: list[LiveEntry] = []
    called: list[list[int]] = []
    for entry in entries:
        if isinstance(entry.action, Hunt):
            live_hunts.append(entry)
            called.append(list(game.called_seats()))
        try:
            game.push(entry.action)
        except IllegalAction:
            break
    return {j: called[i] for i, j in _match(live_hunts, spans).items()}


def _hunt_text(shots: dict[int, tuple[str, int | None]]) -> str:
    targets = {t for kind, t in shots.values() if kind == "shot"}
    if len(targets) == 1 and all(kind == "shot" for kind, _ in shots.values()):
        head = f"hit on seat {targets.pop()}"
    else:
        head = "miss"
    detail = ", ".join(
        f"seat {seat}: {kind}" + (f" {t}" if t is not None else "")
        for seat, (kind, t) in sorted(shots.items())
    )
    return f"{head} ({detail})"


def _analysis_shots(hunt: HuntRecord) -> dict[int, tuple[str, int | None]]:
    return {m.seat: (m.kind, m.target) for m in hunt.verdict.members}


def compare(entries: list[LiveEntry], hunts: list[HuntRecord], checks: list[CheckRecord]
            ) -> list[Disagreement]:
    """Every hunt and check on which the live record and the analysis differ."""
    from mafiavision.rules import Check, Hunt

    out: list[Disagreement] = []
    live_hunts = [e for e in entries if isinstance(e.action, Hunt)]
    pairs = _match(live_hunts, [(h.start, h.end) for h in hunts])
    for i, entry in enumerate(live_hunts):
        live = {s.seat: (str(s.kind), s.target) for s in entry.action.shots}
        t = _time(entry)
        if i not in pairs:
            out.append(Disagreement(kind="hunt", t=t or 0.0, analysis="no hunt found",
                                    record=f"{entry.action.team}: {_hunt_text(live)}"))
            continue
        hunt = hunts[pairs[i]]
        found = _analysis_shots(hunt)
        if found != live:
            out.append(Disagreement(kind="hunt", t=hunt.start, analysis=_hunt_text(found),
                                    record=f"{entry.action.team}: {_hunt_text(live)}"))
    for j, hunt in enumerate(hunts):
        if j not in pairs.values():
            out.append(Disagreement(kind="hunt", t=hunt.start,
                                    analysis=_hunt_text(_analysis_shots(hunt)),
                                    record="no hunt recorded"))
    live_checks = [e for e in entries if isinstance(e.action, Check)]
    pairs = _match(live_checks, [(c.start, c.end) for c in checks])
    for i, entry in enumerate(live_checks):
        a = entry.action
        record = f"seat {a.seat} showed {a.target if a.target is not None else 'nothing'}"
        if i not in pairs:
            out.append(Disagreement(kind="check", t=_time(entry) or 0.0,
                                    analysis="no check found", record=record))
            continue
        check = checks[pairs[i]]
        if (check.seat, check.value) != (a.seat, a.target):
            shown = check.value if check.value is not None else "nothing readable"
            out.append(Disagreement(kind="check", t=check.start,
                                    analysis=f"seat {check.seat} showed {shown}", record=record))
    for j, check in enumerate(checks):
        if j not in pairs.values():
            out.append(Disagreement(kind="check", t=check.start,
                                    analysis=f"seat {check.seat} showed {check.value}",
                                    record="no check recorded"))
    return sorted(out, key=lambda d: d.t)


def _write(path: Path, rules: RuleSet, nicknames: dict[int, str],
           plan: list[tuple[object, object]], deal: str) -> RecordInfo:
    """Write ``plan`` (action, evidence) through the engine's recorder — each line appended and
    fsynced — into a new file beside ``path``, then put it in place, so a re-run (or a resumed
    batch) replaces the record of an earlier analysis instead of failing on it. Returns what was
    written (``deal``: where the deal came from)."""
    from mafiavision.rules import Game
    from mafiavision.rules.record import RecordWriter

    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    writer = RecordWriter.create(tmp, rules, nicknames)
    try:
        game = Game(rules, journal=writer)
        for action, evidence in plan:
            game.push(action, evidence)
    finally:
        writer.close()
    tmp.replace(path)
    return RecordInfo(path=path.name, deal=deal, actions=len(plan),
                      observed=sum(getattr(e, "video_time", None) is not None for _, e in plan),
                      next=game.next_step().text)


def _seen(source: Path, start: float, end: float, confidence: float, **details: object):
    from mafiavision.rules.record import Evidence

    return Evidence(source=str(source), video_time=max(0.0, start), video_end=max(0.0, end),
                    confidence=confidence, details={k: v for k, v in details.items() if v})


def write_record(path: Path, source: Path, header, entries: list[LiveEntry],
                 hunts: list[HuntRecord], checks: list[CheckRecord]
                 ) -> tuple[list[CheckRecord], list[str], RecordInfo]:
    """Write the analysis's game record from a live record; returns the checks with the true
    answers and roles (known from the deal), the warnings and what was written."""
    from mafiavision.rules import Check, Game, Hunt, IllegalAction, MemberShot, ShotKind

    warnings: list[str] = []
    hunt_pairs = _match([e for e in entries if isinstance(e.action, Hunt)],
                        [(h.start, h.end) for h in hunts])
    check_pairs = _match([e for e in entries if isinstance(e.action, Check)],
                         [(c.start, c.end) for c in checks])
    answered = list(checks)
    game = Game(header.rules)
    plan: list[tuple[object, object]] = []
    n_hunt = n_check = 0
    try:
        for entry in entries:
            action, evidence = entry.action, entry.evidence
            if isinstance(action, Hunt):
                j = hunt_pairs.get(n_hunt)
                n_hunt += 1
                if j is not None:
                    hunt = hunts[j]
                    found = _analysis_shots(hunt)
                    action = Hunt(team=action.team, shots=tuple(
                        MemberShot(seat=s.seat, kind=ShotKind(found[s.seat][0]),
                                   target=found[s.seat][1]) if s.seat in found else s
                        for s in action.shots))
                    evidence = _seen(source, hunt.start, hunt.end, hunt.verdict.confidence,
                                     questions=hunt.verdict.questions)
            elif isinstance(action, Check):
                j = check_pairs.get(n_check)
                n_check += 1
                if j is not None and checks[j].seat == action.seat:
                    check = checks[j]
                    answer = (game.check_answer(check.seat, check.value)
                              if check.value is not None else None)
                    role = game.state.roles[check.seat - 1]
                    answered[j] = check.model_copy(update={"answer": answer, "role": role})
                    action = Check(seat=check.seat, target=check.value, answer=answer)
                    evidence = _seen(source, check.start, check.end, check.confidence,
                                     doubts=check.doubts)
            game.push(action)
            plan.append((action, evidence))
    except IllegalAction as exc:
        warnings.append(f"record.jsonl stops at {action.kind}: with the analysed night the live "
                        f"record's next action is illegal ({exc})")
    return answered, warnings, _write(path, header.rules, header.nicknames, plan,
                                      "the live record")


class _Unreachable(Exception):
    """The game cannot reach an observed action without a hunt the analysis did not find."""


@dataclass(frozen=True)
class _Observed:
    """Something the recording shows, as the game action it becomes at its step."""

    t: float
    what: str  # for warnings: "hunt 1 (12.3 s)"
    kind: str  # the step it belongs to: its action kind and its team or acting seat
    team: str | None
    seat: int | None
    make: Callable[[object, object], object]  # (game, step) -> the action
    evidence: object

    def at(self, step) -> bool:
        return (step.action == self.kind and (self.team is None or step.team == self.team)
                and (self.seat is None or step.seats == (self.seat,)))


def answer_checks(rules: RuleSet, deal: GameDeal, checks: list[CheckRecord]
                  ) -> tuple[list[CheckRecord], list[str]]:
    """(checks, warnings): the checks with each leader's role and the moderator's true answer,
    from the deal. A number found at a seat whose card is not a checking leader is not a check
    (a civilian's open hand moving while the Sheriff checks reads as 5): it becomes a warning
    with its time, for the moderator to look at, and the checks are numbered again. Checks given
    by hand (``--checks``) stay, with their role and no answer."""
    roles = deal.roles
    out: list[CheckRecord] = []
    warnings: list[str] = []
    for c in checks:
        role = roles[c.seat - 1] if c.seat <= len(roles) else None
        leader = role is not None and rules.checks(role)
        if not leader and c.origin == "found":
            shown = "an unreadable number" if c.value is None else str(c.value)
            warnings.append(f"seat {c.seat} ({role} by the deal) showed {shown} at "
                            f"{c.start:.1f}–{c.end:.1f} s, outside the hunts: not a check (only "
                            "a leader who checks does)")
            continue
        answer = None
        if leader and c.value is not None and 1 <= c.value <= len(roles):
            answer = rules.finds(role, roles[c.value - 1])
        out.append(c.model_copy(update={"index": len(out) + 1, "role": role, "answer": answer}))
    return out, warnings


def _observed(rules: RuleSet, deal: GameDeal, source: Path, hunts: list[HuntRecord],
              checks: list[CheckRecord], orders: list[OrdersRecord], leaders: list[CheckSpan],
              warnings: list[str]) -> list[_Observed]:
    """What the analysis found, as game actions by the deal's roles, in the recording's order;
    what the deal rules out (a check by a civilian, ...) is left out with a warning."""
    from mafiavision.rules import Check, Hunt, LeaderShown, Meet, MemberShot, ShotKind

    def role(seat: int) -> str:
        return deal.roles[seat - 1]

    def leaves(what: str, why: str) -> None:
        warnings.append(f"{what} is not in the game record: {why}")

    out: list[_Observed] = []
    for o in orders:
        team = rules.team_of(role(o.seat))
        meet = next((z for z in rules.night_zero if z.kind == "meet" and z.team == team.name),
                    None)
        what = f"the orders of seat {o.seat} ({o.start:.1f} s)"
        if meet is None:
            leaves(what, f"seat {o.seat} is a {role(o.seat)} by the deal")
            continue
        action = Meet(team=team.name, orders=tuple(o.orders or ())[:meet.orders])
        out.append(_Observed(o.start, what, "meet", team.name, None,
                             lambda g, st, action=action: action,
                             _seen(source, o.start, o.end, o.confidence,
                                   passes=o.passes if o.doubts else None)))
    for leader in leaders:
        team = rules.team_of(role(leader.seat))
        what = f"seat {leader.seat} showing himself ({leader.start:.1f} s)"
        if role(leader.seat) != team.leader:
            leaves(what, f"seat {leader.seat} is a {role(leader.seat)} by the deal")
            continue
        action = LeaderShown(seat=leader.seat)
        out.append(_Observed(leader.start, what, "leader_shown", team.name, None,
                             lambda g, st, action=action: action,
                             _seen(source, leader.start, leader.end, leader.confidence)))
    for h in hunts:
        what = f"hunt {h.index} ({h.start:.1f} s)"
        teams = Counter(rules.team_of(role(m)).name for m in h.members
                        if rules.team_of(role(m)).bandit)
        if not teams:
            leaves(what, f"no hunter (seats {', '.join(map(str, h.members))}) is a bandit by "
                   "the deal")
            continue
        team = teams.most_common(1)[0][0]

        def hunt(g, st, h=h, team=team, what=what) -> Hunt:
            """One observation per hunter the game expects: the analysis's, else not seen."""
            found = {m.seat: m for m in h.verdict.members}
            for s in st.seats:
                if s not in found:
                    warnings.append(f"{what}: seat {s} ({role(s)} by the deal) was not seen "
                                    "hunting: recorded as 'not_seen'")
            for s in sorted(set(found) - set(st.seats)):
                warnings.append(f"{what}: seat {s} ({role(s)} by the deal) held the gun: not "
                                f"a hunter of {team} tonight, left out of the hunt")
            return Hunt(team=team, shots=tuple(
                MemberShot(seat=s, kind=ShotKind(found[s].kind), target=found[s].target)
                if s in found else MemberShot(seat=s, kind=ShotKind.NOT_SEEN)
                for s in st.seats))

        out.append(_Observed(h.start, what, "hunt", team, None, hunt,
                             _seen(source, h.start, h.end, h.verdict.confidence,
                                   questions=h.verdict.questions)))
    for c in checks:
        what = f"check {c.index} ({c.start:.1f} s)"
        if not rules.checks(role(c.seat)):
            leaves(what, f"seat {c.seat} is a {role(c.seat)} by the deal, not a leader who "
                   "checks")
            continue

        def check(g, st, c=c) -> Check:
            """The number shown and the moderator's true answer (an unknown seat is refused)."""
            if c.value is None:
                return Check(seat=c.seat, target=None, answer=None)
            valid = 1 <= c.value <= len(deal.roles)
            return Check(seat=c.seat, target=c.value,
                         answer=valid and g.check_answer(c.seat, c.value))

        out.append(_Observed(c.start, what, "check", None, c.seat, check,
                             _seen(source, c.start, c.end, c.confidence, doubts=c.doubts)))
    return sorted(out, key=lambda o: o.t)


def record_from_deal(path: Path, source: Path, rules: RuleSet, deal: GameDeal,
                     hunts: list[HuntRecord], checks: list[CheckRecord],
                     orders: list[OrdersRecord], leaders: list[CheckSpan]
                     ) -> tuple[list[str], RecordInfo]:
    """Write the game record of the deal and what the analysis found, in the recording's order.

    Between two things the recording shows, the steps the analysis does not see — night zero's
    meetings and leaders, a check not found, the day's speeches, votes and last words — are the
    engine's quiet actions (``rules.script.quiet_action``: nobody nominated, nobody voted out),
    their evidence ``{"details": {"assumed": true}}``. A hunt is never assumed (a miss changes
    the game): an observed action that only comes after a hunt the analysis did not find is left
    out, with a warning. The record ends with the last observed action. Returns the warnings and
    what was written."""
    from mafiavision.rules import Deal, Game, Hunt, IllegalAction
    from mafiavision.rules.record import Evidence
    from mafiavision.rules.script import quiet_action

    warnings: list[str] = []
    assumed = Evidence(details={"assumed": True})
    game = Game(rules)
    game.push(Deal(roles=deal.roles))
    evidence: list[object] = [Evidence(details={"deal": deal.origin})]
    for item in _observed(rules, deal, source, hunts, checks, orders, leaders, warnings):
        depth = len(game.actions)
        try:
            step = game.next_step()
            while not item.at(step):
                if step.action in (None, Hunt.kind):
                    raise _Unreachable(f"before it comes '{step.text}', not found in the "
                                       "recording")
                game.push(quiet_action(game))
                evidence.append(assumed)
                step = game.next_step()
            game.push(item.make(game, step))
            evidence.append(item.evidence)
        except (IllegalAction, _Unreachable, ValueError) as exc:
            while len(game.actions) > depth:
                game.pop()
            del evidence[depth:]
            warnings.append(f"{item.what} is not in the game record: {exc}")
    last = max(i for i, e in enumerate(evidence) if e is not assumed)
    plan = list(zip(game.actions[:last + 1], evidence[:last + 1], strict=True))
    return warnings, _write(path, rules, deal.nicknames, plan, deal.origin)
