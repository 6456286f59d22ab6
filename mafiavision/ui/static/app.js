"use strict";
// The moderator's screen: renders the view pushed on /ws, sends commands to /api/command.
const $ = (id) => document.getElementById(id);
let view = null;
let frameTimer = null;

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const r = await fetch(path, {credentials: "same-origin", ...opts});
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.detail || `HTTP ${r.status}`);
  return data;
}

async function send(cmd) {
  $("error").textContent = "";
  try {
    await api("/api/command", cmd);
  } catch (e) {
    $("error").textContent = e.message;
  }
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function fillSeats(select, seats, withMiss) {
  const keep = select.value;
  select.replaceChildren();
  if (withMiss) select.append(el("option", {value: ""}, "miss"));
  for (const s of seats) select.append(el("option", {value: String(s)}, `seat ${s}`));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function fillChecks(box, seats, name) {
  const ticked = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  box.replaceChildren();
  for (const s of seats) {
    const label = el("label");
    const input = el("input", {type: "checkbox", value: String(s), name});
    input.checked = ticked.has(String(s));
    label.append(input, ` ${s}`);
    box.append(label);
  }
}

function ticked(box) {
  return [...box.querySelectorAll("input:checked")].map((i) => Number(i.value));
}

function renderCard(card) {
  $("card").hidden = !card;
  if (!card) return;
  $("card").dataset.id = card.id;
  $("card").dataset.kind = card.kind;
  $("card-title").textContent = card.title;
  $("card-summary").textContent = card.summary;
  $("card-questions").replaceChildren(...card.questions.map((q) => el("li", {}, q)));
  $("confirm").disabled = card.questions.length > 0;
  fillSeats($("correct-seat"), card.choices, card.kind === "hunt");
  if (card.kind === "check" && card.target) $("correct-seat").value = String(card.target);
  $("check-answer").hidden = card.kind !== "check";
  const ev = $("card-evidence");
  ev.replaceChildren();
  for (const f of card.findings || []) {
    const row = el("div", {class: "strip", "data-seat": String(f.seat)});
    row.append(el("span", {}, `seat ${f.seat}: ${f.reason}`));
    if (f.evidence) {
      row.append(el("img", {src: `/api/evidence/${card.id}/${f.seat}.jpg`,
                            alt: `seat ${f.seat} around the shot`}));
    }
    ev.append(row);
  }
  const tl = $("card-windows");
  tl.replaceChildren();
  const w = card.windows || [];
  if (w.length) {
    const t0 = w[0].start, t1 = w[w.length - 1].end, span = Math.max(t1 - t0, 0.1);
    const line = el("div", {class: "timeline"});
    for (const x of w) {
      const d = el("div", {class: "w"}, String(x.seat));
      d.style.left = `${(100 * (x.start - t0)) / span}%`;
      line.append(d);
    }
    for (const f of card.findings || []) {
      for (const s of f.shots || []) {
        const d = el("div", {class: "s", title: `seat ${f.seat} at ${s.t.toFixed(2)} s`});
        d.style.left = `${(100 * (s.t - t0)) / span}%`;
        line.append(d);
      }
    }
    tl.append(line);
  }
}

function render(v) {
  view = v;
  $("title").textContent = v.title;
  $("phase").textContent = v.phase;
  $("undo").disabled = !v.can_undo;
  $("warnings").replaceChildren(...v.warnings.map((w) => el("div", {}, w)));
  $("outcome").hidden = !v.outcome;
  if (v.outcome) $("outcome").textContent = v.outcome;
  const chips = $("seat-chips");
  chips.replaceChildren();
  const body = $("seats").querySelector("tbody");
  body.replaceChildren();
  for (const s of v.seats) {
    const cls = ["chip", s.alive ? "" : "dead", s.active ? "active" : "", s.now || ""];
    chips.append(el("span", {class: cls.join(" ").trim(), "data-seat": String(s.seat)},
                    `${s.seat}${s.now ? " · " + s.now : ""}`));
    const tr = el("tr");
    tr.append(el("td", {}, String(s.seat)), el("td", {}, s.role || ""),
              el("td", {}, s.alive ? "yes" : "no"), el("td", {}, s.now || ""));
    body.append(tr);
  }
  $("step-label").textContent = v.step.label;
  $("start").hidden = !v.step.can_start;
  $("finish").hidden = !v.step.capturing;
  $("tap").hidden = !v.step.capturing;
  $("taps").textContent = v.step.taps ? `${v.step.taps} taps` : "";
  $("misses").textContent = Object.entries(v.misses).map(([g, n]) => `${g}: ${n}`).join(", ");
  $("checks").textContent = v.checks.join("; ");
  $("log").replaceChildren(...v.log.slice().reverse().map((l) => el("li", {}, l)));
  renderCard(v.card);
  $("day").hidden = !v.day_open;
  if (v.day_open) {
    const alive = v.seats.filter((s) => s.alive).map((s) => s.seat);
    $("speaking").textContent = v.speaking_order.join(", ");
    $("candidates").textContent = v.candidates.join(", ") || "none";
    fillSeats($("nom-by"), alive, false);
    fillSeats($("nom-target"), alive, false);
    fillSeats($("vote-candidate"), v.candidates, false);
    fillChecks($("voters"), alive, "voter");
    fillChecks($("lift-voters"), alive, "lift");
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onmessage = (m) => render(JSON.parse(m.data));
  ws.onclose = () => setTimeout(connect, 1000);
}

function startFrames() {
  if (frameTimer) return;
  frameTimer = setInterval(() => {
    const img = $("frame");
    if (img.dataset.loading) return;
    img.dataset.loading = "1";
    const next = new Image();
    next.onload = () => { img.src = next.src; delete img.dataset.loading; };
    next.onerror = () => { delete img.dataset.loading; };
    next.src = `/api/frame.jpg?t=${Date.now()}`;
  }, 150);
}

function cardId() { return $("card").dataset.id; }

function wire() {
  $("undo").onclick = () => send({kind: "undo"});
  $("start").onclick = () => send({kind: "start"});
  $("finish").onclick = () => send({kind: "finish"});
  $("tap").onclick = () => send({kind: "tap"});
  $("confirm").onclick = () => send({kind: "confirm", card: cardId()});
  $("correct").onclick = () => {
    const v = $("correct-seat").value;
    const kind = $("card").dataset.kind;
    if (kind === "hunt") send({kind: "correct_hunt", card: cardId(), hit: v ? Number(v) : null});
    else if (kind === "check") $("error").textContent = "answer with Yes or No";
    else if (kind === "orders") send({kind: "correct_orders", card: cardId(), orders: [Number(v)]});
    else if (kind === "hand") send({kind: "answer_hand", card: cardId(), raised: true});
  };
  $("answer-yes").onclick = () => send(
    {kind: "answer_check", card: cardId(), target: Number($("correct-seat").value), answer: true});
  $("answer-no").onclick = () => send(
    {kind: "answer_check", card: cardId(), target: Number($("correct-seat").value), answer: false});
  $("replay").onclick = () => {
    // Replay the evidence: reload every strip from the start.
    for (const img of $("card-evidence").querySelectorAll("img")) {
      img.src = img.src.split("?")[0] + `?replay=${Date.now()}`;
    }
  };
  $("nominate").onclick = () => send(
    {kind: "nominate", by: Number($("nom-by").value), target: Number($("nom-target").value)});
  $("end-speeches").onclick = () => send({kind: "end_speeches"});
  $("vote").onclick = () => send(
    {kind: "vote", candidate: Number($("vote-candidate").value), voters: ticked($("voters"))});
  $("lift").onclick = () => send({kind: "lift_all", yes: ticked($("lift-voters"))});
  $("pair-form").onsubmit = async (e) => {
    e.preventDefault();
    $("pair-error").textContent = "";
    try {
      await api("/api/pair", {code: $("pair-code").value});
      boot();
    } catch (err) {
      $("pair-error").textContent = err.message;
    }
  };
}

async function boot() {
  const hello = await api("/api/hello");
  $("pairing").hidden = hello.authenticated;
  $("app").hidden = !hello.authenticated;
  if (!hello.authenticated) return;
  render(await api("/api/state"));
  connect();
  startFrames();
}

wire();
boot();
