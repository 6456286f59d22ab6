"""The verdict cards the screen shows: one per arbiter result, as JSON-ready dictionaries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mafiavision.night.arbiter import CheckReading, HuntVerdict, OrdersReading, RaisedHandReading

Reading = HuntVerdict | CheckReading | OrdersReading | RaisedHandReading


@dataclass(frozen=True)
class Card:
    id: str
    reading: Reading
    title: str
    choices: tuple[int, ...]
    evidence_seats: frozenset[int]

    @property
    def kind(self) -> str:
        return {HuntVerdict: "hunt", CheckReading: "check", OrdersReading: "orders",
                RaisedHandReading: "hand"}[type(self.reading)]

    @property
    def questions(self) -> tuple[str, ...]:
        r = self.reading
        return r.questions if isinstance(r, HuntVerdict) else r.doubts

    def to_json(self) -> dict[str, Any]:
        r = self.reading
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "title": self.title,
            "questions": list(self.questions), "choices": list(self.choices),
        }
        if isinstance(r, HuntVerdict):
            out |= {
                "summary": r.summary, "hit": r.hit, "confidence": round(r.confidence, 3),
                "between_gap": r.between_gap,
                "findings": [
                    {"seat": f.seat, "observation": f.observation.value, "target": f.target,
                     "reason": f.reason, "confidence": round(f.confidence, 3),
                     "seen": round(f.seen, 3), "evidence": f.seat in self.evidence_seats,
                     "shots": [{"t": s.t, "frame": s.frame, "duration": s.duration,
                                "depth": s.depth, "confidence": s.confidence,
                                "window_seat": s.window_seat} for s in f.shots]}
                    for f in r.findings
                ],
                "windows": [{"seat": w.seat, "start": w.start, "end": w.end, "onset": w.onset,
                             "confidence": w.confidence} for w in r.windows],
            }
        elif isinstance(r, CheckReading):
            out |= {"summary": r.question, "leader": r.leader, "target": r.target,
                    "numbers": list(r.numbers), "confidence": round(r.confidence, 3)}
        elif isinstance(r, OrdersReading):
            shown = ", ".join(map(str, r.orders)) if r.orders else "unreadable"
            out |= {"summary": f"orders for nights 1–3: {shown}", "leader": r.leader,
                    "orders": list(r.orders or ()), "passes": [list(p) for p in r.passes],
                    "confidence": round(r.confidence, 3)}
        else:
            out |= {"summary": f"seat {r.seat} {'raised' if r.raised else 'did not raise'} "
                               "a hand", "seat": r.seat, "raised": r.raised, "seen": r.seen}
        return out
