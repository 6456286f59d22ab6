"""The live session: follows the game's script, records each night step, asks the moderator.

It is the controller of the confirmation screen (:class:`mafiavision.ui.app.Controller`):

* at every step of the game (:func:`mafiavision.night.script.current_step`) it tells the tracker
  which seats matter (``set_active``) and, for a night step, opens a
  :class:`~mafiavision.night.capture.Capture`;
* a background poll closes the capture when the step is over — a hunt when the count of numbers
  is over (the last window closed), a check when a number was read, the Don's orders when both
  passes were read, a raised hand after ``HAND_SECONDS`` — and turns it into a card with the
  arbiter (:mod:`mafiavision.night.arbiter`);
* the moderator's confirmation or correction becomes a rules action, pushed to the game and
  appended (flushed) to the record **before** the command is answered; undo pops it and appends
  an undo line;
* a source that drops out shows a warning; the step stays open and nothing recorded is lost.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from mafiavision import rules as r
from mafiavision.night import arbiter
from mafiavision.night.capture import COUNT_FRAMES, STRIP_FRAMES, STRIP_SPAN, Capture
from mafiavision.night.cards import Card
from mafiavision.night.listener import windows_from_taps
from mafiavision.night.script import Step, current_step
from mafiavision.ui import commands as cmd

#: Steps in which a leader shows numbers on his fingers.
NUMBER_STEPS = frozenset({"meet", "check"})
#: Seconds a raised-hand step records before its card appears.
HAND_SECONDS = 3.0
#: Seconds a check waits after its first number before the card appears (a second number
#: shown at once, e.g. 1 then 2 for seat 12, joins it).
CHECK_SETTLE = 0.5
ORDERS_SETTLE = 3.0  # seconds without a new number before orders whose passes differ
#: Seconds between two polls of an open capture.
POLL_SECONDS = 0.1
#: Entries of the screen's log.
LOG_LINES = 30


class LiveSession:
    def __init__(
        self,
        game: Any,
        *,
        pipeline: Any | None = None,
        listener: Any | None = None,
        config: arbiter.Config | None = None,
        source_name: str | None = None,
        clock: Callable[[], float | None] | None = None,
    ) -> None:
        self.source_name = source_name
        self._clock = clock
        self.game = game
        self.rules = game.rules
        self.pipeline = pipeline
        self.listener = listener
        self.config = config or arbiter.Config()
        self._lock = threading.RLock()
        self._version = 0
        self._step: Step = current_step(game)
        self._step_key: int | None = None
        self._capture: Capture | None = None
        self._card: Card | None = None
        self._cards = 0
        self._ready_at: float | None = None
        #: the orders step: (numbers read, whether their passes agree), read once per number
        self._passes_agree: tuple[int, bool] = (0, False)
        self._log: list[str] = []
        self._stop = threading.Event()
        self._poller = threading.Thread(target=self._poll_loop, name="session-poll", daemon=True)
        self._warnings: tuple[str, ...] = ()
        self._live: dict[int, str] = {}  # each seat's state on the screen (raised, shot)
        #: Wall-clock latency (s) from the last number window's close to its card, per hunt.
        self.card_latency: list[float] = []

    # -- life cycle ------------------------------------------------------------------------
    def start(self) -> None:
        if self.pipeline is not None:
            self.pipeline.start()
        if self.listener is not None:
            self.listener.start()
        with self._lock:
            self._enter_step()
        self._poller.start()

    def stop(self) -> None:
        self._stop.set()
        if self._poller.is_alive():
            self._poller.join(timeout=2)
        if self.pipeline is not None:
            self.pipeline.stop()
        if self.listener is not None:
            self.listener.stop()

    @property
    def version(self) -> int:
        return self._version

    def _changed(self) -> None:
        self._version += 1

    # -- the clock ----------------------------------------------------------------------------
    def now(self) -> float | None:
        """The current time on the input's clock (the latest frame, advanced by wall time)."""
        if self.pipeline is not None:
            return self.pipeline.clock()
        if self._clock is not None:
            return self._clock()
        if self.listener is not None:
            return self.listener.t
        return None

    # -- steps and captures ---------------------------------------------------------------------
    def _enter_step(self) -> None:
        step = current_step(self.game)
        key = len(self.game.actions)
        if key == self._step_key:
            return
        self._step, self._step_key, self._card = step, key, None
        if self.pipeline is not None:
            self.pipeline.set_active(step.seats, two_hands=step.kind in NUMBER_STEPS)
        self._open_capture()
        if step.kind == "meet" and not step.orders:
            self._card = self._new_card(arbiter.OrdersReading(step.leader or 0, (), (), 1.0, ()))
        self._changed()

    def _open_capture(self) -> None:
        if self._capture is not None:
            self._capture.close()
        self._capture = None
        self._ready_at = None
        self._passes_agree = (0, False)
        step = self._step
        if not step.camera:
            if self.pipeline is not None:
                self.pipeline.attach(None)
            return
        self._capture = Capture(seats=step.seats, started=self.now(),
                                reads_numbers=step.kind in NUMBER_STEPS)
        if self.pipeline is not None:
            self.pipeline.attach(self._capture)

    def _poll_loop(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            with self._lock:
                warnings = self._collect_warnings()
                live = self.pipeline.seat_states() if self.pipeline is not None else {}
                if warnings != self._warnings or live != self._live:
                    self._warnings, self._live = warnings, live
                    self._changed()
                if self._capture is not None and self._card is None and self._step_over():
                    self._finish()

    def _collect_warnings(self) -> tuple[str, ...]:
        out = []
        if self.pipeline is not None:
            status = self.pipeline.status
            if status.warning:
                out.append(status.warning)
            total = status.frames + status.dropped
            if total >= 50 and status.dropped > 0.3 * total:
                out.append(f"the machine is too slow: {status.dropped / total:.0%} of the "
                           "frames were skipped to stay live")
            if status.lag > 1.0:
                out.append(f"the machine is too slow: the video is {status.lag:.0f} s behind "
                           "real time")
        if self.listener is not None:
            if self.listener.warning:
                out.append(self.listener.warning)
            elif self._step.kind == "hunt" and self.listener.stalled():
                out.append("microphone: no sound — tap the numbers instead")
        return tuple(out)

    def _step_over(self) -> bool:
        capture, step = self._capture, self._step
        assert capture is not None
        if step.kind == "hunt":
            if self.listener is None or capture.taps:
                return len(capture.taps) >= len(step.called) and self._taps_closed()
            since = capture.started if capture.started is not None else 0.0
            count = self.listener.count(since, step.called)
            if count is None or not count.complete:
                return False
            self._ready_at = count.closed_at
            return self._frames_reached(count.closed_at)
        now = self.now()
        if now is None or capture.started is None:
            return False
        if step.kind == "leader_shown":
            return now - capture.started >= HAND_SECONDS
        if step.kind == "check":
            # The first number shown (however sure: a weak one becomes the card's question).
            return bool(capture.numbers) and now - capture.numbers[0].end >= CHECK_SETTLE
        if step.kind == "meet":
            # Both passes read alike, or as many numbers as two passes and a pause after them.
            from mafiavision.vision.orders import read_orders

            shown = capture.numbers
            if len(shown) < 2 * step.orders:
                return False
            if self._passes_agree[0] != len(shown):  # read again only when a number came in
                self._passes_agree = (len(shown), read_orders(shown, step.orders).agree)
            return self._passes_agree[1] or now - shown[-1].end >= ORDERS_SETTLE
        return False

    def _frames_reached(self, t: float | None) -> bool:
        """Whether the camera's frames up to ``t`` + the pipeline's ``shot_settle`` were
        processed (the audio may run ahead of a busy pipeline, and a shot released just before
        ``t`` is reported ``shot_settle`` later: judging before those frames are in would miss
        their shots)."""
        if self.pipeline is None or t is None or self.pipeline.status.ended:
            return True
        return (self.pipeline.status.t or float("-inf")) >= t + self.pipeline.shot_settle

    def _taps_closed(self) -> bool:
        capture = self._capture
        assert capture is not None
        taps = capture.taps
        now = self.now()
        if now is None or not taps:
            return False
        steps = [b - a for a, b in itertools.pairwise(taps)] or [1.0]
        closed = taps[-1] + sorted(steps)[len(steps) // 2]
        return now >= closed and self._frames_reached(closed)

    def _finish(self) -> None:
        """Close the capture and make the card for the step."""
        capture, step = self._capture, self._step
        if capture is None:
            raise ValueError("nothing is being recorded now")
        if self.pipeline is not None:
            self.pipeline.flush_numbers()
        capture.close()
        state = self.game.state
        if step.kind == "hunt":
            callout, ends = self._callout(capture, step)
            windows = callout.windows if callout else []
            span = (windows[0].start, windows[-1].end) if windows else (None, None)
            verdict = arbiter.judge_hunt(arbiter.HuntInput(
                group=step.team or "", members=step.seats, shots=capture.shots,
                windows=windows, between_gap=callout.between_gap if callout else 0.0,
                seen=capture.seen(*span), out=self.game.state.removed_seats(), word_ends=ends,
                frame_times=capture.frame_times,
                frame_numbers=capture.frame_indices,
            ), self.config)
            self._card = self._new_card(verdict, choices=step.called,
                                        evidence=frozenset(s for s in step.seats
                                                           if capture.crops.get(s)))
            if self._ready_at is not None and self.listener is not None:
                # From the count's end to this card, on the audio's clock.
                self.card_latency.append((self.listener.t or 0.0) - self._ready_at)
        elif step.kind == "check":
            from mafiavision.vision.numbers import read_number

            assert step.leader is not None
            valid = [s for s in state.alive() if s != step.leader]
            mine = sorted((n for n in capture.numbers if n.seat == step.leader),
                          key=lambda n: n.start)
            reading = arbiter.read_check(step.leader, step.looking_for, mine, valid,
                                         self.config, joined=read_number(mine))
            self._card = self._new_card(reading, choices=tuple(valid))
        elif step.kind == "meet":
            from mafiavision.vision.orders import read_orders

            assert step.leader is not None
            valid = [s for s in state.alive() if s != step.leader]
            mine = sorted((n for n in capture.numbers if n.seat == step.leader),
                          key=lambda n: n.start)
            reading = arbiter.read_orders(step.leader, read_orders(mine, step.orders), valid,
                                          step.orders, self.config)
            self._card = self._new_card(reading, choices=tuple(valid))
        elif step.kind == "leader_shown":
            assert step.leader is not None
            seen = capture.seen().get(step.leader, 0.0)
            self._card = self._new_card(arbiter.read_raised_hand(step.leader, seen, self.config))
        self._changed()

    def _callout(self, capture: Capture, step: Step) -> tuple[Any, dict[int, float]]:
        """The number windows of the hunt (from the taps, else from the speech) and the ends of
        the number words where known."""
        since = capture.started if capture.started is not None else 0.0
        if capture.taps:
            heard = self.listener.segments_since(since) if self.listener is not None else []
            return windows_from_taps(capture.taps, step.called, heard)
        if self.listener is None:
            return None, {}
        count = self.listener.count(since, step.called)
        return (count.callout, count.word_ends) if count else (None, {})

    def _new_card(self, reading: Any, choices: tuple[int, ...] = (),
                  evidence: frozenset[int] = frozenset()) -> Card:
        self._cards += 1
        title = self._step.label
        return Card(f"c{self._cards}", reading, title, choices, evidence)

    # -- commands ----------------------------------------------------------------------------
    def apply(self, command: Any) -> dict[str, Any]:
        with self._lock:
            handler: Callable[[Any], Any] = getattr(self, f"_on_{command.kind}")
            result = handler(command)
            self._changed()
            return {"ok": True, **(result or {})}

    def _card_for(self, card_id: str, kind: str) -> Card:
        if self._card is None or self._card.id != card_id:
            raise LookupError(f"card {card_id!r} is not the open card")
        if self._card.kind != kind:
            raise ValueError(f"card {card_id!r} is a {self._card.kind} card, not a {kind} card")
        return self._card

    def _push(self, action: Any, evidence: dict[str, Any] | None = None) -> dict[str, Any]:
        """Push to the game — its journal appends the record line and syncs it before the
        push returns — then move to the next step."""
        self.game.push(action, evidence)
        self._log.append(self._describe(action))
        del self._log[:-LOG_LINES]
        self._enter_step()
        return {"action": action.kind}

    def _describe(self, action: Any) -> str:
        fields = {k: v for k, v in vars(action).items()}
        text = ", ".join(f"{k}={_plain(v)}" for k, v in fields.items())
        return f"{action.kind}: {text}"

    def _evidence(self, confidence: float | None = None) -> dict[str, Any] | None:
        """Where in the input the step's evidence is, for the record."""
        capture = self._capture
        if capture is None or not capture.frame_times:
            return None
        return {"source": self.source_name, "video_time": max(0.0, capture.frame_times[0]),
                "video_end": max(0.0, capture.frame_times[-1]), "confidence": confidence}

    def _on_confirm(self, c: cmd.Confirm) -> dict[str, Any]:
        if self._card is None or self._card.id != c.card:
            raise LookupError(f"card {c.card!r} is not the open card")
        card = self._card
        if card.questions:
            raise ValueError("this card has open questions: correct it instead of confirming")
        reading = card.reading
        if isinstance(reading, arbiter.HuntVerdict):
            return self._push_hunt(reading.shots, reading.confidence)
        if isinstance(reading, arbiter.CheckReading):
            assert reading.target is not None
            answer = self.game.check_answer(reading.leader, reading.target)
            return self._push(r.Check(seat=reading.leader, target=reading.target, answer=answer),
                              self._evidence(reading.confidence))
        if isinstance(reading, arbiter.OrdersReading):
            orders = (reading.orders or ())[:self._step.orders]  # a shown extra one is noted
            return self._push(r.Meet(team=self._step.team or "", orders=orders),
                              self._evidence(reading.confidence))
        return self._push(r.LeaderShown(seat=reading.seat), self._evidence())

    def _push_hunt(self, shots: tuple[r.MemberShot, ...],
                   confidence: float | None = None) -> dict[str, Any]:
        return self._push(r.Hunt(team=self._step.team or "", shots=shots),
                          self._evidence(confidence))

    def _on_correct_hunt(self, c: cmd.CorrectHunt) -> dict[str, Any]:
        card = self._card_for(c.card, "hunt")
        seats = set(card.reading.members)
        given = {m.seat for m in c.shots}
        if given != seats:
            raise ValueError(f"give one observation for each member: seats "
                             f"{', '.join(map(str, sorted(seats)))}")
        return self._push_hunt(tuple(
            r.MemberShot(seat=m.seat, kind=r.ShotKind(m.kind), target=m.target)
            for m in c.shots))

    def _on_answer_check(self, c: cmd.AnswerCheck) -> dict[str, Any]:
        card = self._card_for(c.card, "check")
        if (c.target is None) != (c.answer is None):
            raise ValueError("give both the seat shown and the answer, or neither "
                             "(no number shown)")
        return self._push(r.Check(seat=card.reading.leader, target=c.target, answer=c.answer),
                          self._evidence())

    def _on_correct_orders(self, c: cmd.CorrectOrders) -> dict[str, Any]:
        self._card_for(c.card, "orders")
        return self._push(r.Meet(team=self._step.team or "", orders=tuple(c.orders)),
                          self._evidence())

    def _on_answer_hand(self, c: cmd.AnswerHand) -> dict[str, Any]:
        card = self._card_for(c.card, "hand")
        evidence = (self._evidence() or {}) | {"details": {"raised": c.raised}}
        return self._push(r.LeaderShown(seat=card.reading.seat), evidence)

    def _on_restart(self, c: cmd.Restart) -> None:
        if not self._step.camera:
            raise ValueError(f"nothing to record in this step ({self._step.label})")
        self._card = None
        self._open_capture()

    def _on_finish(self, c: cmd.Finish) -> None:
        if self._card is not None:
            raise ValueError("the card is already shown")
        self._finish()

    def _on_tap(self, c: cmd.Tap) -> dict[str, Any]:
        if self._step.kind != "hunt" or self._capture is None:
            raise ValueError("taps count only during a hunt")
        t = self.now()
        if t is None:
            raise ValueError("no clock yet: the camera has not delivered a frame")
        self._capture.tap(t)
        return {"taps": len(self._capture.taps)}

    def _on_undo(self, c: cmd.Undo) -> dict[str, Any]:
        if not self.game.actions:
            raise ValueError("nothing to undo")
        action = self.game.pop()
        self._log.append(f"undo {action.kind}")
        self._step_key = None
        self._enter_step()
        return {"undone": action.kind}

    def _on_deal(self, c: cmd.Deal) -> dict[str, Any]:
        return self._push(r.Deal(roles=tuple(c.roles)))

    def _on_speech(self, c: cmd.Speech) -> dict[str, Any]:
        return self._push(r.Speech(seat=c.seat, nominee=c.nominee))

    def _on_last_word(self, c: cmd.LastWord) -> dict[str, Any]:
        return self._push(r.LastWord(seat=c.seat))

    def _on_vote(self, c: cmd.Vote) -> dict[str, Any]:
        return self._push(r.Vote(candidate=c.candidate, voters=frozenset(c.voters)))

    def _on_all_leave(self, c: cmd.AllLeave) -> dict[str, Any]:
        return self._push(r.AllLeaveVote(yes=frozenset(c.yes), no=frozenset(c.no)))

    # -- the view ------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        with self._lock:
            state = self.game.state
            step = self._step
            live = self.pipeline.seat_states() if self.pipeline is not None else {}
            alive = set(state.alive())
            seats = [
                {"seat": s, "role": state.roles[s - 1] if state.roles else "",
                 "team": state.teams[s - 1] if state.teams else "", "alive": s in alive,
                 "active": s in step.seats, "now": live.get(s, "")}
                for s in range(1, state.seats + 1)
            ]
            outcome = state.outcome
            status = self.pipeline.status if self.pipeline is not None else None
            return {
                "title": f"{self.rules.title} — {step.label}",
                "phase": state.phase.value,
                "night": state.night,
                "day": state.day,
                "step": {"kind": step.kind, "label": step.label, "seats": list(step.seats),
                         "recording": self._capture is not None and self._card is None,
                         "taps": len(self._capture.taps) if self._capture else 0,
                         "called": list(step.called), "leader": step.leader},
                "seats": seats,
                # the most common card first: the deal form preselects it for every seat
                "roles": sorted(self.rules.role_titles(),
                                key=lambda role: -self.rules.role_counts()[role]),
                "misses": {t.name: state.misses_of(t.name) for t in self.rules.bandit_teams()},
                "checks": [f"seat {c.seat} → {c.target}: {'yes' if c.answer else 'no'}"
                           if c.target is not None else f"seat {c.seat}: no number shown"
                           for c in state.checks],
                "speaking_order": list(state.speakers),
                "candidates": list(state.candidates),
                "tied": list(state.tied),
                "card": self._card.to_json() if self._card else None,
                "warnings": list(self._warnings),
                "outcome": (f"{outcome.winner or 'nobody'} wins ({outcome.termination.value})"
                            if outcome else None),
                "log": list(self._log),
                "can_undo": bool(self.game.actions),
                "source": ({"fps": round(status.fps, 1), "t": status.t,
                            "dropped": status.dropped} if status else None),
            }

    def frame_jpeg(self) -> bytes | None:
        return self.pipeline.overlay_jpeg() if self.pipeline is not None else None

    def evidence_jpeg(self, card_id: str, seat: int) -> bytes | None:
        with self._lock:
            card = self._card
            capture = self._capture
        if card is None or card.id != card_id or capture is None:
            return None
        if not isinstance(card.reading, arbiter.HuntVerdict):
            return None
        finding = next((f for f in card.reading.findings if f.seat == seat), None)
        if finding is None:
            return None
        # Around each shot; without a shot, over the whole count (did he squeeze?).
        spans = [(s.t - STRIP_SPAN, s.t + STRIP_SPAN, STRIP_FRAMES) for s in finding.shots]
        windows = card.reading.windows
        if not spans and windows:
            spans = [(windows[0].start, windows[-1].end, COUNT_FRAMES)]
        tiles = [capture.strip(seat, a, b, n) for a, b, n in spans]
        strips = [np.concatenate(t, axis=1) for t in tiles if t]
        if not strips:
            return None
        width = max(s.shape[1] for s in strips)
        image = np.concatenate(
            [np.pad(s, ((0, 0), (0, width - s.shape[1]), (0, 0))) for s in strips], axis=0)
        ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
        return data.tobytes() if ok else None


def _plain(value: Any) -> str:
    if isinstance(value, (tuple, list, frozenset, set)):
        return "[" + ", ".join(_plain(v) for v in (sorted(value) if isinstance(
            value, (frozenset, set)) else value)) + "]"
    if hasattr(value, "kind") and hasattr(value, "seat"):
        target = f" {value.target}" if getattr(value, "target", None) else ""
        return f"{value.seat}:{value.kind}{target}"
    return str(value)
