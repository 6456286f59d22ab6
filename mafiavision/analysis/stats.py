"""Statistics across analysed games: one ``summary.csv`` row per game and ``stats.html``
(shots, misses by reason, how far apart the shooters fired, check results per seat and role)."""

from __future__ import annotations

import csv
import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from mafiavision.analysis.events import Events
from mafiavision.analysis.report import png

Status = str  # "done" | "skipped" (already analysed) | "failed"


@dataclass(frozen=True)
class GameRow:
    """One line of ``summary.csv``."""

    game: str
    status: Status
    error: str = ""
    duration_s: float = 0.0
    decoded_until_s: float = 0.0
    vision_only: bool = False
    hunts: int = 0
    hits: int = 0
    misses: int = 0
    for_moderator: int = 0
    checks: int = 0
    shots: int = 0
    median_spread_ms: float | None = None
    record_actions: int = 0  # actions in the game record (0: none, the deal unknown)

    @classmethod
    def from_events(cls, game: str, status: Status, events: Events) -> GameRow:
        spreads = [h.verdict.spread_ms for h in events.hunts if h.verdict.spread_ms is not None]
        return cls(
            game=game,
            status=status,
            duration_s=round(events.source.duration, 3),
            decoded_until_s=round(events.source.decoded_until, 3),
            vision_only=events.vision_only,
            hunts=len(events.hunts),
            hits=sum(h.verdict.outcome == "hit" for h in events.hunts),
            misses=sum(h.verdict.outcome == "miss" for h in events.hunts),
            for_moderator=sum(h.verdict.needs_moderator for h in events.hunts),
            checks=len(events.checks),
            shots=len(events.shots),
            median_spread_ms=round(float(np.median(spreads)), 1) if spreads else None,
            record_actions=events.record.actions if events.record is not None else 0,
        )


def write_summary(path: Path, rows: Sequence[GameRow]) -> Path:
    names = [f.name for f in fields(GameRow)]
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=names)
        writer.writeheader()
        for row in sorted(rows, key=lambda r: r.game):
            writer.writerow(asdict(row))
    return path


def _bar(counts: Counter[str], title: str, xlabel: str) -> str:
    fig = Figure(figsize=(7, 2.8))
    ax = fig.subplots()
    labels = sorted(counts)
    ax.bar(labels, [counts[k] for k in labels], color="#5d6d7e")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    return png(fig)


def _hist(values: Sequence[float], title: str, xlabel: str) -> str:
    fig = Figure(figsize=(7, 2.8))
    ax = fig.subplots()
    ax.hist(values, bins=min(20, max(3, len(values))), color="#5d6d7e")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    return png(fig)


def render_stats(games: dict[str, Events], rows: Sequence[GameRow]) -> str:
    """The statistics page over the games that were analysed (failed ones are listed)."""
    shots = sum(len(e.shots) for e in games.values())
    reasons: Counter[str] = Counter(
        r for e in games.values() for h in e.hunts for r in h.verdict.miss_reasons()
    )
    spreads = [
        h.verdict.spread_ms for e in games.values() for h in e.hunts
        if h.verdict.spread_ms is not None
    ]
    per_leader: dict[tuple[str, str], list[bool | None]] = {}
    for e in games.values():
        for c in e.checks:
            per_leader.setdefault((str(c.seat), c.role or "unknown"), []).append(c.answer)
    failed = [r for r in rows if r.status == "failed"]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>MafiaVision archive "
        "statistics</title><style>body{font-family:sans-serif;margin:1.5em;max-width:1000px}"
        "td,th{border:1px solid #ccc;padding:.2em .5em}table{border-collapse:collapse}</style>"
        "</head><body><h1>MafiaVision archive statistics</h1>",
        f"<p>{len(games)} games analysed, {len(failed)} failed; {shots} shots, "
        f"{sum(len(e.hunts) for e in games.values())} hunts, "
        f"{sum(len(e.checks) for e in games.values())} checks.</p>",
        "<h2>Misses by reason</h2>",
        f"<img src='{_bar(reasons, 'misses by reason', 'reason')}' alt='misses by reason'>"
        if reasons else "<p>No miss.</p>",
        "<h2>Synchronisation of the shooters</h2>",
        (f"<p>median {np.median(spreads):.0f} ms, 90th percentile "
         f"{np.percentile(spreads, 90):.0f} ms over {len(spreads)} hunts</p>"
         f"<img src='{_hist(spreads, 'first to last shot', 'ms')}' alt='synchronisation'>")
        if spreads else "<p>No hunt with two shooters.</p>",
        "<h2>Checks per leader seat and role</h2><table><tr><th>seat</th><th>role</th>"
        "<th>checks</th><th>found (yes)</th><th>answer known</th></tr>",
        "".join(
            f"<tr><td>{seat}</td><td>{html.escape(role)}</td><td>{len(ans)}</td>"
            f"<td>{sum(a is True for a in ans)}</td><td>{sum(a is not None for a in ans)}</td>"
            "</tr>"
            for (seat, role), ans in sorted(per_leader.items())
        ),
        "</table>",
    ]
    if failed:
        parts.append("<h2>Failed recordings</h2><table><tr><th>game</th><th>error</th></tr>")
        parts.extend(
            f"<tr><td>{html.escape(r.game)}</td><td>{html.escape(r.error)}</td></tr>"
            for r in failed
        )
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)
