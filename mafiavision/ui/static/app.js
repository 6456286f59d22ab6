"use strict";
// The moderator's screen: renders the view pushed on /ws and sends commands to /api/command.
const $ = (id) => document.getElementById(id);
const TILE = 96;  // evidence strips are rows of TILE x TILE frames
const KINDS = [["no_shot", "no shot"], ["between", "between numbers"],
               ["multiple", "two shots"], ["not_seen", "hand not seen"]];
let view = null;
let shownCard = null;
let shownEntry = null;

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
    const result = await api("/api/command", cmd);
    render(await api("/api/state"));
    return result;
  } catch (e) {
    $("error").textContent = e.message;
    return null;
  }
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function options(select, pairs) {
  select.replaceChildren(...pairs.map(([value, label]) => el("option", {value}, label)));
}

function checks(box, seats, name) {
  box.replaceChildren(...seats.map((s) => {
    const label = el("label");
    label.append(el("input", {type: "checkbox", value: String(s), name}), ` ${s}`);
    return label;
  }));
}

function ticked(box) {
  return [...box.querySelectorAll("input:checked")].map((i) => Number(i.value));
}

function memberRow(f, called) {
  const row = el("div", {class: "member", "data-seat": String(f.seat)});
  row.append(el("strong", {}, `Seat ${f.seat}`), el("span", {class: "reason"}, f.reason));
  const sel = el("select", {"data-seat": String(f.seat), class: "observation"});
  options(sel, [...called.map((s) => [`shot:${s}`, `shot on ${s}`]), ...KINDS]);
  sel.value = f.observation === "shot" ? `shot:${f.target}` : f.observation;
  row.append(sel);
  for (const s of f.shots) {
    row.append(el("span", {}, `at ${s.t.toFixed(2)} s (frame ${s.frame}, ` +
                              `${Math.round(100 * s.confidence)} %)`));
  }
  if (f.evidence) {
    row.append(el("img", {class: "strip", src: `/api/evidence/${shownCard}/${f.seat}.jpg`,
                          alt: `seat ${f.seat} around the shot`}));
  }
  return row;
}

function timeline(card) {
  const w = card.windows || [];
  const box = $("card-windows");
  box.replaceChildren();
  if (!w.length) return;
  const t0 = w[0].start, t1 = w[w.length - 1].end, span = Math.max(t1 - t0, 0.1);
  const line = el("div", {class: "timeline"});
  for (const x of w) {
    const d = el("div", {class: "w", title: `${x.start.toFixed(2)}–${x.end.toFixed(2)} s`},
                 String(x.seat));
    d.style.left = `${(100 * (x.start - t0)) / span}%`;
    line.append(d);
  }
  for (const f of card.findings || []) {
    for (const s of f.shots) {
      const d = el("div", {class: "s", title: `seat ${f.seat} at ${s.t.toFixed(2)} s`});
      d.style.left = `${(100 * (s.t - t0)) / span}%`;
      line.append(d);
    }
  }
  box.append(line);
}

function renderCard(card) {
  $("card").hidden = !card;
  if (!card) { shownCard = null; return; }
  $("card").dataset.kind = card.kind;
  $("confirm").disabled = card.questions.length > 0;
  if (shownCard === card.id) return;  // keep the moderator's edits while the card is open
  shownCard = card.id;
  $("card").dataset.id = card.id;
  $("card-title").textContent = card.title;
  $("card-summary").textContent = card.summary;
  $("card-questions").replaceChildren(...card.questions.map((q) => el("li", {}, q)));
  for (const k of ["hunt", "check", "orders", "hand"]) $(`${k}-actions`).hidden = card.kind !== k;
  $("card-members").replaceChildren();
  $("card-windows").replaceChildren();
  $("replay-view").hidden = true;
  const seatChoices = card.choices.map((s) => [String(s), `seat ${s}`]);
  if (card.kind === "hunt") {
    timeline(card);
    $("card-members").append(...card.findings.map((f) => memberRow(f, card.choices)));
    options($("hit-seat"), seatChoices);
    if (card.hit) $("hit-seat").value = String(card.hit);
  } else if (card.kind === "check") {
    options($("check-seat"), seatChoices);
    if (card.target) $("check-seat").value = String(card.target);
  } else if (card.kind === "orders") {
    $("orders-input").value = card.orders.join(",");
  }
}

function renderEntry(v) {
  const kind = v.step.kind;
  const forms = {deal: "deal-form", speech: "speech-form", vote: "vote-form",
                 all_leave_vote: "leave-form", last_word: "word-form"};
  $("entry").hidden = !(kind in forms);
  const key = `${kind}:${v.step.label}`;
  if (!(kind in forms) || key === shownEntry) return;
  shownEntry = key;
  $("entry-title").textContent = v.step.label;
  for (const [k, id] of Object.entries(forms)) $(id).hidden = k !== kind;
  const alive = v.seats.filter((s) => s.alive).map((s) => s.seat);
  if (kind === "deal") {
    $("deal-seats").replaceChildren(...v.seats.map((s) => {
      const label = el("label", {}, `Seat ${s.seat} `);
      const sel = el("select", {"data-seat": String(s.seat)});
      options(sel, v.roles.map((r) => [r, r]));
      label.append(sel);
      return label;
    }));
  } else if (kind === "speech") {
    options($("nominee"), [["", "nobody"], ...alive.map((s) => [String(s), `seat ${s}`])]);
  } else if (kind === "vote") {
    checks($("voters"), alive, "voter");
  } else if (kind === "all_leave_vote") {
    checks($("leave-yes"), alive, "yes");
    checks($("leave-no"), alive, "no");
  }
}

function render(v) {
  view = v;
  $("title").textContent = v.title;
  $("phase").textContent = `${v.phase}, night ${v.night}, day ${v.day ?? "–"}`;
  $("undo").disabled = !v.can_undo;
  $("warnings").replaceChildren(...v.warnings.map((w) => el("div", {}, w)));
  $("outcome").hidden = !v.outcome;
  if (v.outcome) $("outcome").textContent = v.outcome;
  const chips = $("seat-chips");
  const body = $("seats").querySelector("tbody");
  chips.replaceChildren();
  body.replaceChildren();
  for (const s of v.seats) {
    const cls = ["chip", s.alive ? "" : "dead", s.active ? "active" : "", s.now];
    chips.append(el("span", {class: cls.filter(Boolean).join(" "), "data-seat": String(s.seat)},
                    `${s.seat}${s.now ? " · " + s.now : ""}`));
    const tr = el("tr");
    tr.append(el("td", {}, String(s.seat)), el("td", {}, s.role),
              el("td", {}, s.alive ? "yes" : "no"), el("td", {}, s.now));
    body.append(tr);
  }
  $("step-label").textContent = v.step.label;
  const camera = v.step.seats.length > 0 &&
    ["meet", "leader_shown", "hunt", "check"].includes(v.step.kind);
  $("finish").hidden = !v.step.recording;
  $("restart").hidden = !camera;
  $("tap").hidden = !(v.step.recording && v.step.kind === "hunt");
  $("taps").textContent = v.step.taps ? `${v.step.taps} taps` : "";
  $("speaking").textContent = v.speaking_order.join(", ");
  $("candidates").textContent = v.candidates.join(", ") || "none";
  $("misses").textContent = Object.entries(v.misses).map(([g, n]) => `${g}: ${n}`).join(", ");
  $("checks").textContent = v.checks.join("; ");
  $("log").replaceChildren(...v.log.slice().reverse().map((l) => el("li", {}, l)));
  renderCard(v.card);
  renderEntry(v);
}

function observations() {
  return [...$("card-members").querySelectorAll("select.observation")].map((sel) => {
    const seat = Number(sel.dataset.seat);
    if (sel.value.startsWith("shot:")) {
      return {seat, kind: "shot", target: Number(sel.value.slice(5))};
    }
    return {seat, kind: sel.value};
  });
}

function replay() {
  // Play each shooter's strip frame by frame, one row after another.
  const imgs = [...$("card-members").querySelectorAll("img.strip")];
  const canvas = $("replay-view");
  if (!imgs.length) return;
  canvas.hidden = false;
  canvas.width = TILE * 3;
  canvas.height = TILE * 3;
  const ctx = canvas.getContext("2d");
  const frames = imgs.flatMap((img) => {
    const n = Math.max(1, Math.round(img.naturalWidth / TILE));
    return Array.from({length: n}, (_, i) => [img, i]);
  });
  let k = 0;
  const timer = setInterval(() => {
    if (k >= frames.length) { clearInterval(timer); return; }
    const [img, i] = frames[k++];
    ctx.drawImage(img, i * TILE, 0, TILE, TILE, 0, 0, canvas.width, canvas.height);
  }, 150);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onmessage = (m) => render(JSON.parse(m.data));
  ws.onclose = () => setTimeout(connect, 1000);
}

function startFrames() {
  const img = $("frame");
  let busy = false;
  setInterval(() => {
    if (busy || document.hidden) return;
    busy = true;
    const next = new Image();
    next.onload = () => { img.src = next.src; img.hidden = false; busy = false; };
    next.onerror = () => { busy = false; };
    next.src = `/api/frame.jpg?t=${Date.now()}`;
  }, 150);
}

function wire() {
  const card = () => $("card").dataset.id;
  $("undo").onclick = () => send({kind: "undo"});
  $("finish").onclick = () => send({kind: "finish"});
  $("restart").onclick = () => send({kind: "restart"});
  $("tap").onclick = () => send({kind: "tap"});
  $("confirm").onclick = () => send({kind: "confirm", card: card()});
  $("hit").onclick = () => {
    const target = Number($("hit-seat").value);
    send({kind: "correct_hunt", card: card(),
          shots: observations().map((o) => ({seat: o.seat, kind: "shot", target}))});
  };
  $("correct").onclick = () => send({kind: "correct_hunt", card: card(), shots: observations()});
  $("replay").onclick = replay;
  const answer = (yes) => send({kind: "answer_check", card: card(),
                                target: Number($("check-seat").value), answer: yes});
  $("answer-yes").onclick = () => answer(true);
  $("answer-no").onclick = () => answer(false);
  $("answer-none").onclick = () => send(
    {kind: "answer_check", card: card(), target: null, answer: null});
  $("orders").onclick = () => send({kind: "correct_orders", card: card(),
    orders: $("orders-input").value.split(/[ ,]+/).filter(Boolean).map(Number)});
  $("hand-yes").onclick = () => send({kind: "answer_hand", card: card(), raised: true});
  $("hand-no").onclick = () => send({kind: "answer_hand", card: card(), raised: false});
  $("deal").onclick = () => send({kind: "deal",
    roles: [...$("deal-seats").querySelectorAll("select")].map((s) => s.value)});
  $("speech").onclick = () => {
    const n = $("nominee").value;
    send({kind: "speech", seat: view.step.leader, nominee: n ? Number(n) : null});
  };
  $("vote").onclick = () => send({kind: "vote", candidate: view.step.leader,
                                  voters: ticked($("voters"))});
  $("leave").onclick = () => send({kind: "all_leave", yes: ticked($("leave-yes")),
                                   no: ticked($("leave-no"))});
  $("last-word").onclick = () => send({kind: "last_word", seat: view.step.leader});
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
