"""The analysis and the game: a live record of the recording, the disputes with it, and the
game record of what the analysis found.

A live record (``--record``) is replayed action by action (undos applied). Its hunts and checks
are matched to the analysis's — by the evidence's video time when the record has one, else in
order — and every difference becomes a :class:`~mafiavision.analysis.events.Disagreement`. The
analysis's own record is the live record with each matched hunt and check replaced by what the
analysis found (as the camera's evidence); should a replaced result make a later action of the
live record illegal, the record stops there and says so. Without a live record the roles are
unknown and no record is written (a game record must begin with the deal).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mafiavision.analysis.events import CheckRecord, Disagreement, HuntRecord

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


def write_record(path: Path, source: Path, header, entries: list[LiveEntry],
                 hunts: list[HuntRecord], checks: list[CheckRecord]
                 ) -> tuple[list[CheckRecord], list[str]]:
    """Write the analysis's game record; returns the checks with the true answers and roles
    (known from the deal) and the warnings."""
    from mafiavision.rules import Check, Game, Hunt, IllegalAction, MemberShot, ShotKind
    from mafiavision.rules.record import Evidence, RecordWriter

    warnings: list[str] = []
    hunt_pairs = _match([e for e in entries if isinstance(e.action, Hunt)],
                        [(h.start, h.end) for h in hunts])
    check_pairs = _match([e for e in entries if isinstance(e.action, Check)],
                         [(c.start, c.end) for c in checks])
    answered = list(checks)
    writer = RecordWriter.create(path, header.rules, header.nicknames)
    game = Game(header.rules, journal=writer)
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
                    evidence = Evidence(source=str(source), video_time=hunt.start,
                                        video_end=hunt.end, confidence=hunt.verdict.confidence)
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
                    evidence = Evidence(source=str(source), video_time=check.start,
                                        video_end=check.end, confidence=check.confidence)
            game.push(action, evidence)
    except IllegalAction as exc:
        warnings.append(f"record.jsonl stops at {action.kind}: with the analysed night the live "
                        f"record's next action is illegal ({exc})")
    finally:
        writer.close()
    return answered, warnings
