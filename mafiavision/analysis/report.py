"""``report.html``: one self-contained page a club can read (no scripts, fonts or external files).

The page holds a summary (hits, misses and their reasons, how far apart the shooters fired,
checks and answers), a warning for vision-only or truncated analyses, an activity timeline of
every seat, and per hunt the finger-bend signal of each member with the number windows shaded and
the shots marked, the verdict with its confidence and the frames it rests on (JPEG thumbnails).
Plots are matplotlib figures (Agg canvas, no pyplot state) rendered to PNGs inlined as base64.
"""

from __future__ import annotations

import base64
import html
import io
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from mafiavision.analysis.events import CheckRecord, Events, HuntRecord, OrdersRecord
from mafiavision.analysis.timeline import POSE_CODE, SeatSeries


def thumb_key(t: float) -> str:
    """Thumbnails are looked up by frame time rounded to the millisecond."""
    return f"{t:.3f}"


_CSS = """
body{font-family:sans-serif;margin:1.5em;max-width:1100px;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;
text-align:left}.warn{background:#fff3cd;border:1px solid #e0b000;padding:.6em;margin:.5em 0}
.card{border:1px solid #bbb;border-radius:6px;padding:.8em;margin:1em 0}
.hit{color:#0a6e0a;font-weight:bold}.miss{color:#b00000;font-weight:bold}
.uncertain{color:#a06000;font-weight:bold}.frames img{margin:2px;border:1px solid #999}
img.plot{max-width:100%}
"""


def png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _jpeg(data: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")


def _fmt_t(t: float) -> str:
    minutes, seconds = divmod(t, 60.0)
    return f"{int(minutes)}:{seconds:05.2f}"


def activity_plot(series: Mapping[int, SeatSeries], events: Events) -> str:
    """Every seat on one axis: when a hand was seen, in the gun pose or showing a count, with the
    hunts and checks shaded."""
    seats = sorted(series)
    fig = Figure(figsize=(11, 0.35 * len(seats) + 1.2))
    ax = fig.subplots()
    colours = {"gun": "#c0392b", "count": "#2874a6"}
    for row, seat in enumerate(seats):
        s = series[seat]
        if s.t.size:
            ax.scatter(s.t[s.seen], np.full(int(s.seen.sum()), row), s=3, c="#999999")
            for pose, colour in colours.items():
                mask = s.pose == POSE_CODE[pose]
                ax.scatter(s.t[mask], np.full(int(mask.sum()), row), s=4, c=colour, label=pose)
    for hunt in events.hunts:
        ax.axvspan(hunt.start, hunt.end, color="#f5b7b1", alpha=0.4)
    for check in events.checks:
        ax.axvspan(check.start, check.end, color="#aed6f1", alpha=0.4)
    ax.set_yticks(range(len(seats)), [f"seat {s}" for s in seats])
    ax.set_xlim(0, max(events.source.decoded_until, 1.0))
    ax.set_xlabel("time in the recording (s)")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    if unique:
        ax.legend(unique.values(), unique.keys(), loc="upper right", fontsize=8)
    return png(fig)


def hunt_plot(hunt: HuntRecord, series: Mapping[int, SeatSeries]) -> str:
    """Each member's bend signal over the hunt, the number windows shaded, the shots marked."""
    start, end = hunt.start - 1.0, hunt.end + 1.0
    members = hunt.members or sorted({shot.seat for shot in hunt.shots})
    fig = Figure(figsize=(11, 1.8 * len(members) + 0.6))
    axes = fig.subplots(len(members), 1, sharex=True, squeeze=False)
    for ax, seat in zip(axes[:, 0], members, strict=True):
        part = series[seat].between(start, end) if seat in series else None
        if part is not None and part.t.size:
            ax.plot(part.t, part.bend, lw=1.2, color="#333333")
        for i, window in enumerate(hunt.windows):
            ax.axvspan(window.start, window.end, color="#d6eaf8" if i % 2 else "#aed6f1", alpha=0.8)
            ax.text((window.start + window.end) / 2, 1.0, str(window.seat), ha="center",
                    va="top", transform=ax.get_xaxis_transform(), fontsize=8)
        for shot in hunt.shots:
            if shot.seat == seat:
                ax.axvline(shot.t, color="#c0392b", lw=2)
        ax.set_ylabel(f"seat {seat}\nbend (°)")
        ax.set_xlim(start, end)
    axes[-1, 0].set_xlabel("time in the recording (s)")
    return png(fig)


def _verdict_line(hunt: HuntRecord) -> str:
    v = hunt.verdict
    if v.outcome == "hit":
        head = f'<span class="hit">HIT on seat {v.target}</span>'
    else:
        head = '<span class="miss">MISS</span>'
    if v.needs_moderator:
        head += ' <span class="uncertain">(uncertain: the moderator decides)</span>'
    spread = f", shooters {v.spread_ms:.0f} ms apart" if v.spread_ms is not None else ""
    return f"{head} — confidence {v.confidence:.2f}{spread}"


def _frames(times: list[float], thumbnails: Mapping[str, bytes]) -> str:
    imgs = [
        f'<img src="{_jpeg(thumbnails[thumb_key(t)])}" title="{_fmt_t(t)}" '
        f'alt="frame at {t:.2f} s">'
        for t in times
        if thumb_key(t) in thumbnails
    ]
    return f'<div class="frames">{"".join(imgs)}</div>' if imgs else ""


def _hunt_card(hunt: HuntRecord, series: Mapping[int, SeatSeries],
               thumbnails: Mapping[str, bytes]) -> str:
    rows = "".join(
        f"<tr><td>{m.seat}</td><td>{html.escape(m.reason)}</td><td>{m.confidence:.2f}</td>"
        f"<td>{m.seen:.0%}</td><td>{', '.join(f'{t:.2f}' for t in m.shot_times)}</td></tr>"
        for m in hunt.verdict.members
    )
    reasons = "".join(f"<li>{html.escape(r)}</li>" for r in hunt.verdict.questions)
    return (
        f'<div class="card verdict" id="hunt-{hunt.index}">'
        f"<h3>Hunt {hunt.index}: {_fmt_t(hunt.start)}–{_fmt_t(hunt.end)} "
        f"(seats {', '.join(map(str, hunt.members))}; {hunt.origin})</h3>"
        f"<p>{_verdict_line(hunt)}</p>"
        + (f"<ul>{reasons}</ul>" if reasons else "")
        + "<table><tr><th>seat</th><th>observation</th><th>confidence</th><th>hand seen</th>"
        "<th>shot times (s)</th>"
        f"</tr>{rows}</table>"
        f'<img class="plot" src="{hunt_plot(hunt, series)}" alt="bend signal of hunt {hunt.index}">'
        + _frames(hunt.verdict.evidence_times, thumbnails)
        + "</div>"
    )


def _check_card(check: CheckRecord, thumbnails: Mapping[str, bytes]) -> str:
    value = str(check.value) if check.value is not None else "unreadable"
    answer = {True: "yes (nod)", False: "no (shake)", None: "unknown (roles not given)"}
    doubts = "".join(f"<li>{html.escape(d)}</li>" for d in check.doubts)
    return (
        f'<div class="card check" id="check-{check.index}">'
        f"<h3>Check {check.index}: seat {check.seat} shows {value} at {_fmt_t(check.start)} "
        f"({check.origin})</h3><p>{html.escape(check.question)} — confidence "
        f"{check.confidence:.2f}; answer: {answer[check.answer]}</p>"
        + (f"<ul>{doubts}</ul>" if doubts else "")
        + _frames(check.evidence_times, thumbnails) + "</div>"
    )


def _orders_card(orders: OrdersRecord, thumbnails: Mapping[str, bytes]) -> str:
    shown = ", ".join(map(str, orders.orders)) if orders.orders is not None else "unreadable"
    passes = " / ".join(", ".join(map(str, p)) for p in orders.passes if p) or "nothing"
    doubts = "".join(f"<li>{html.escape(d)}</li>" for d in orders.doubts)
    return (
        f'<div class="card orders" id="orders-{orders.index}">'
        f"<h3>Orders {orders.index}: seat {orders.seat} orders {shown} at "
        f"{_fmt_t(orders.start)} ({orders.origin})</h3><p>passes: {passes} — confidence "
        f"{orders.confidence:.2f}</p>"
        + (f"<ul>{doubts}</ul>" if doubts else "")
        + _frames(orders.evidence_times, thumbnails) + "</div>"
    )


def _summary(events: Events) -> str:
    hunts = events.hunts
    hits = [h for h in hunts if h.verdict.outcome == "hit"]
    misses = [h for h in hunts if h.verdict.outcome == "miss"]
    unsure = [h for h in hunts if h.verdict.needs_moderator]
    reasons = Counter(r for h in misses for r in h.verdict.miss_reasons())
    spreads = [h.verdict.spread_ms for h in hunts if h.verdict.spread_ms is not None]
    rows = [
        ("hunts", str(len(hunts))),
        ("hits", ", ".join(f"seat {h.verdict.target}" for h in hits) or "none"),
        ("misses", str(len(misses))),
        ("miss reasons", ", ".join(f"{k}: {n}" for k, n in sorted(reasons.items())) or "—"),
        ("uncertain (moderator decides)", str(len(unsure))),
        ("shooters apart (ms)",
         ", ".join(f"{s:.0f}" for s in spreads) if spreads else "—"),
        ("checks", ", ".join(
            f"seat {c.seat} → {c.value if c.value is not None else '?'}"
            + {True: " (yes)", False: " (no)", None: ""}[c.answer]
            for c in events.checks) or "none"),
        ("orders", ", ".join(
            f"seat {o.seat} → " + (", ".join(map(str, o.orders)) if o.orders else "?")
            for o in events.orders) or "none"),
        ("shots found", str(len(events.shots))),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    return f'<table class="summary">{body}</table>'


def _warnings(events: Events) -> str:
    lines = []
    if events.vision_only:
        lines.append(
            "No usable audio track: this is a VISION-ONLY analysis. Number windows could not be "
            "timed, so shots are listed without the seat they were aimed at and every hunt is "
            "left to the moderator."
        )
    src = events.source
    if src.stopped_early:
        lines.append(
            f"The recording stopped decoding at {_fmt_t(src.decoded_until)} of "
            f"{_fmt_t(src.duration)} ({src.stop_reason or 'truncated'}): only that part was "
            "analysed."
        )
    lines.extend(events.warnings)
    return "".join(f'<div class="warn">{html.escape(line)}</div>' for line in lines)


def _disagreements(events: Events) -> str:
    if events.disagreements is None:
        return ""
    if not events.disagreements:
        return "<h2>Comparison with the live record</h2><p>No disagreement.</p>"
    rows = "".join(
        f"<tr><td>{_fmt_t(d.t)}</td><td>{d.kind}</td><td>{html.escape(d.analysis)}</td>"
        f"<td>{html.escape(d.record)}</td></tr>"
        for d in events.disagreements
    )
    return (
        "<h2>Comparison with the live record</h2><table class='disagreements'><tr><th>time</th>"
        f"<th>what</th><th>analysis</th><th>live record</th></tr>{rows}</table>"
    )


def _record(events: Events, folder: str) -> str:
    r = events.record
    if r is None:
        return ("<h2>Game record</h2><p class='record'>Not written: the recording does not show "
                "the deal. Run the analysis again with <code>--deal DEAL.yaml</code> (the "
                "moderator's sheet: each role with its seats) or <code>--record LIVE.jsonl"
                "</code>.</p>")
    return (
        f"<h2>Game record</h2><p class='record'><code>{html.escape(r.path)}</code>: "
        f"{r.actions} actions, the deal from {html.escape(r.deal)}; {r.observed} of them seen "
        "in the recording (their evidence gives the time), the others assumed between them "
        f"(the days are not analysed). It ends before: {html.escape(r.next)}. Replay it with "
        f"<code>mafiavision replay {html.escape(folder)}/{html.escape(r.path)}</code>.</p>"
    )


def render(events: Events, series: Mapping[int, SeatSeries],
           thumbnails: Mapping[str, bytes], folder: str = ".") -> str:
    """The whole page as a string (``folder``: where it and the record are written)."""
    title = f"MafiaVision analysis — {Path(events.source.path).name}"
    src = events.source
    parts = [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}"
        f"</title><style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>",
        f"<p>{src.width}×{src.height}, {src.fps:.1f} fps, {_fmt_t(src.duration)}; rules "
        f"<b>{html.escape(events.rules)}</b>; mafiavision {html.escape(events.tool_version)}</p>",
        _warnings(events),
        "<h2>Summary</h2>",
        _summary(events),
        _disagreements(events),
        _record(events, folder),
        "<h2>Seats over time</h2>",
        f'<img class="plot" src="{activity_plot(series, events)}" alt="seat activity">',
        "<h2>Hunts</h2>",
        "".join(_hunt_card(h, series, thumbnails) for h in events.hunts) or "<p>No hunt.</p>",
        "<h2>Checks</h2>",
        "".join(_check_card(c, thumbnails) for c in events.checks) or "<p>No check.</p>",
        *(["<h2>Orders (night zero)</h2>", "".join(_orders_card(o, thumbnails)
                                                    for o in events.orders)]
          if events.orders else []),
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(path: Path, events: Events, series: Mapping[int, SeatSeries],
                 thumbnails: Mapping[str, bytes]) -> Path:
    path.write_text(render(events, series, thumbnails, str(path.parent)), encoding="utf-8")
    return path
