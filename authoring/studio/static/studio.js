// spacealert studio: the page. It draws what the server answers and sends edits back; every
// check, the timeline, cue lengths and audio come from the toolkit (authoring/studio/server.py).
import { api, clock, parseClock } from "./api.js";
import { drawTimeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const state = {
  file: null, token: null, text: "", savedText: "", data: null, timeline: null,
  problems: [], valid: false, selected: null, undo: [], redo: [], checking: 0, audioOrigin: 0,
  voice: null, zoom: 1,
};
const SNAP = 5, FINE = 1;
const ZOOM_STEP = 1.5, MAX_ZOOM = 8;  // zoom 1 fits the whole mission to the width

function setStatus(text, kind = "") {
  const el = $("status");
  el.textContent = text;
  el.className = kind;
}

function dirty() { return state.text !== state.savedText; }

function showDirty() {
  const n = state.problems.filter((p) => p.severity === "error").length;
  const saved = dirty() ? "unsaved changes" : "saved";
  setStatus(`${state.file || ""} · ${saved}${n ? ` · ${n} error${n > 1 ? "s" : ""}` : ""}`,
    dirty() ? "dirty" : "");
  document.body.dataset.dirty = dirty() ? "yes" : "no";
  $("undo").disabled = !state.undo.length;
  $("redo").disabled = !state.redo.length;
}

// --- answers of the server -----------------------------------------------------------------

function applyAnalysis(answer) {
  state.problems = answer.problems;
  state.valid = answer.valid;
  if (answer.data) state.data = answer.data;
  if (answer.timeline) state.timeline = answer.timeline; // an invalid text keeps the last good one
  renderAll();
}

let checkSerial = 0;
async function check() {
  const serial = ++checkSerial;
  state.checking++;
  document.body.dataset.checking = "yes";
  try {
    const answer = await api("POST", "/api/check", { text: state.text, file: state.file, voice: state.voice });
    if (serial === checkSerial) applyAnalysis(answer);
  } catch (error) {
    setStatus(error.message, "error");
  } finally {
    if (--state.checking === 0) document.body.dataset.checking = "no";
  }
}

let debounce = null;
function checkSoon() {
  clearTimeout(debounce);
  debounce = setTimeout(check, 350);
}

// --- text changes with undo ----------------------------------------------------------------

function setText(text, { push = true } = {}) {
  if (text === state.text) return;
  if (push) { state.undo.push(state.text); state.redo = []; }
  state.text = text;
  if (document.activeElement !== $("yaml")) $("yaml").value = text;
  showDirty();
}

async function edit(op) {
  checkSerial++; // a check still under way answers for the text before this edit
  try {
    const answer = await api("POST", "/api/edit",
      { text: state.text, edit: op, file: state.file, voice: state.voice });
    setText(answer.text);
    if (op.op === "delete") state.selected = null;
    else if (answer.index !== null && answer.index !== undefined) state.selected = answer.index;
    applyAnalysis(answer);
  } catch (error) {
    setStatus(error.message, "error");
  }
}

function undo() {
  if (!state.undo.length) return;
  state.redo.push(state.text);
  setText(state.undo.pop(), { push: false });
  $("yaml").value = state.text;
  check();
}

function redo() {
  if (!state.redo.length) return;
  state.undo.push(state.text);
  setText(state.redo.pop(), { push: false });
  $("yaml").value = state.text;
  check();
}

// --- files -----------------------------------------------------------------------------------

async function openFile(name) {
  // nominal cue lengths first (instant), the voice's measured ones right after: the first
  // measurement of a mission synthesizes its clips, which takes seconds with a cold cache
  const answer = await api("GET", `/api/mission?file=${encodeURIComponent(name)}&lengths=nominal`);
  state.file = name; state.token = answer.token;
  state.text = state.savedText = answer.text;
  state.undo = []; state.redo = []; state.selected = null; state.timeline = null;
  $("yaml").value = answer.text;
  $("file").value = name;
  history.replaceState(null, "", `#file=${encodeURIComponent(name)}`);
  $("conflict").hidden = true;
  applyAnalysis(answer);
  showDirty();
  if (answer.valid) {
    setStatus(`${name} · measuring the voice's clip lengths…`);
    await check();
  }
}

async function save({ force = false } = {}) {
  if (!state.file) return;
  try {
    const answer = await api("PUT", "/api/mission",
      { file: state.file, text: state.text, token: state.token });
    state.token = answer.token;
    state.savedText = state.text;
    $("conflict").hidden = true;
    showDirty();
  } catch (error) {
    if (error.status === 409) showConflict(error.body.token);
    else setStatus(error.message, "error");
  }
}

function showConflict(diskToken) {
  state.diskToken = diskToken;
  $("conflict-text").textContent = `${state.file} was changed on disk by another program.`;
  $("conflict").hidden = false;
}

async function watchDisk() {
  if (!state.file) return;
  try {
    const answer = await api("GET", `/api/status?file=${encodeURIComponent(state.file)}`);
    if (answer.token && answer.token !== state.token) {
      if (dirty()) showConflict(answer.token);
      else await openFile(state.file); // nothing to lose: show what is on disk
    }
  } catch (error) { /* the next poll tries again */ }
}

async function listFiles(selected) {
  const answer = await api("GET", "/api/files");
  const select = $("file");
  select.replaceChildren(...answer.files.map((f) => new Option(f, f)));
  if (selected) select.value = selected;
  return answer.files;
}

// --- drawing ---------------------------------------------------------------------------------

function renderTimeline() {
  // keyboard users keep their place: the redrawn marker of the selection takes the focus back
  const focused = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("g.ev") : null;
  drawTimeline($("timeline"), {
    data: state.data, timeline: state.timeline, problems: state.problems,
    selected: state.selected, onSelect: select, onMove: move, onAddAt: addAt, zoom: state.zoom,
    snap: (seconds, fine) => Math.round(seconds / (fine ? FINE : SNAP)) * (fine ? FINE : SNAP),
  });
  if (focused && state.selected !== null) {
    const marker = document.querySelector(`g.ev[data-index="${state.selected}"]`);
    if (marker) marker.focus({ preventScroll: true });
  }
  $("zoom-level").textContent = state.zoom === 1 ? "whole mission" : `×${state.zoom.toFixed(1)}`;
  $("zoom-out").disabled = state.zoom <= 1;
  $("zoom-in").disabled = state.zoom >= MAX_ZOOM;
}

function zoomTo(level) {
  // zooming keeps the moment in the middle of the view where it was
  const scroller = $("scroller");
  const middle = (scroller.scrollLeft + scroller.clientWidth / 2) / Math.max(1, scroller.scrollWidth);
  state.zoom = Math.min(MAX_ZOOM, Math.max(1, level));
  renderTimeline();
  scroller.scrollLeft = middle * scroller.scrollWidth - scroller.clientWidth / 2;
}

function renderAll() {
  renderTimeline();
  renderProblems();
  renderCues();
  renderForm();
  renderMeta();
  showDirty();
}

function renderCues() {
  const cues = state.timeline ? state.timeline.cues.filter((c) => c.speech || c.kind === "static") : [];
  const rows = cues.map((c) => {
    const tr = document.createElement("tr");
    if (c.overlap) tr.className = "overlap";
    if (c.event !== null && c.event === state.selected) tr.classList.add("mine");
    tr.dataset.cue = c.index;
    const cells = [c.time.replace(/\.000$/, ""), `${((c.end_ms - c.start_ms) / 1000).toFixed(1)} s`,
      c.text || c.kind.replace("_", " ")];
    for (const [n, text] of cells.entries()) {
      const td = document.createElement("td");
      if (n < 2) td.className = "t";
      td.textContent = text;
      tr.appendChild(td);
    }
    const td = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button"; button.textContent = "▶"; button.title = "Play this cue";
    button.addEventListener("click", () => play({ cue: c.index }, c.start_ms, `cue at ${cells[0]}`));
    td.appendChild(button);
    tr.appendChild(td);
    return tr;
  });
  $("cues").replaceChildren(...rows);
  const t = state.timeline;
  $("lengths-note").textContent = !t ? "" : t.lengths === "voice"
    ? `(voice ${t.voice}: real clip lengths)` : `(nominal lengths${t.note ? `: ${t.note}` : ""})`;
}

function renderProblems() {
  const list = $("problems");
  const items = state.problems.map((p) => {
    const li = document.createElement("li");
    li.className = p.severity;
    li.dataset.code = p.code;
    if (p.event !== null) li.dataset.event = p.event;
    const sev = document.createElement("span"); sev.className = "sev"; sev.textContent = p.severity;
    const link = document.createElement("a");
    link.href = p.doc; link.textContent = p.code; link.className = "code";
    link.addEventListener("click", (e) => { e.preventDefault(); e.stopPropagation(); explain(p); });
    const msg = document.createElement("span"); msg.textContent = p.message;
    const where = document.createElement("div"); where.className = "where";
    where.textContent = `line ${p.line}:${p.col}${p.event !== null ? ` · event ${p.event + 1}` : ""}` +
      (p.hint ? ` · ${p.hint}` : "");
    li.append(sev, link, msg, where);
    li.addEventListener("click", () => { if (p.event !== null) select(p.event); });
    return li;
  });
  if (!items.length) {
    const li = document.createElement("li"); li.className = "none";
    li.textContent = state.valid ? "No problems: validate and lint agree." : "";
    items.push(li);
  }
  list.replaceChildren(...items);
  $("problem-count").textContent = `(${state.problems.length})`;
}

async function explain(problem) {
  if (/^https?:/.test(problem.doc)) { window.open(problem.doc, "_blank", "noopener"); return; }
  const rule = await api("GET", problem.doc);
  $("rule-title").textContent = `${rule.code} ${rule.name}`;
  $("rule-doc").textContent = rule.doc;
  $("rule-dialog").showModal();
}

function eventAt(index) {
  const events = state.data && Array.isArray(state.data.events) ? state.data.events : [];
  return events[index] || null;
}

function kindOf(event) {
  return ["threat", "incoming_data", "data_transfer", "comms_down", "announcement"]
    .find((k) => event && k in event) || "threat";
}

function renderForm() {
  const form = $("event-form");
  const event = state.selected === null ? null : eventAt(state.selected);
  $("event-none").hidden = !!event;
  $("event-fields").hidden = !event;
  if (!event) return;
  const kind = kindOf(event);
  const body = event[kind] || {};
  form.dataset.kind = kind;
  form.elements.at.value = event.at;
  form.elements.kind.value = kind;
  form.elements.turn.value = body.turn ?? 1;
  form.elements.zone.value = body.zone ?? "red";
  form.elements.serious.checked = !!body.serious;
  form.elements.unconfirmed.checked = !!body.unconfirmed;
  form.elements.card.value = body.card ?? "";
  form.elements.seconds.value = body.seconds ?? 10;
  form.elements.text.value = body.text ?? "";
}

function formFields() {
  const f = $("event-form").elements;
  const kind = f.kind.value;
  let body = {};
  if (kind === "threat") {
    body = { turn: Number(f.turn.value), zone: f.zone.value };
    if (f.serious.checked) body.serious = true;
    if (f.unconfirmed.checked) body.unconfirmed = true;
    if (f.card.value.trim()) body.card = f.card.value.trim();
  } else if (kind === "comms_down") body = { seconds: Number(f.seconds.value) };
  else if (kind === "announcement") body = { text: f.text.value };
  return { at: f.at.value.trim(), [kind]: body };
}

function renderMeta() {
  const d = state.data;
  if (!d) return;
  const f = $("meta-form").elements;
  if ($("meta-form").contains(document.activeElement)) return; // the user is typing
  f.title.value = d.title ?? ""; f.id.value = d.id ?? ""; f.author.value = d.author ?? "";
  f.profile.value = d.profile ?? "base"; f.players.value = String(d.players ?? 5);
  f.phases.value = Array.isArray(d.phases) ? d.phases.join(", ") : "";
  f.common.value = d.decks?.common ?? "mixed"; f.serious.value = d.decks?.serious ?? "mixed";
  f.expansion.checked = d.decks?.expansion === true;
  const t = d.trajectories && typeof d.trajectories === "object" ? d.trajectories : null;
  f.pin.checked = !!t;
  for (const zone of ["red", "white", "blue", "internal"]) f[`t_${zone}`].value = (t && t[zone]) || "T1";
}

// --- actions ---------------------------------------------------------------------------------

function select(index) {
  state.selected = index;
  renderAll();
}

function move(index, seconds) {
  edit({ op: "move", index, at: clock(seconds) });
}

function addAt(seconds) {
  edit({ op: "add", fields: { at: clock(seconds), threat: { turn: 1, zone: "red" } } });
}

function selectedSeconds() {
  const event = state.selected === null ? null : eventAt(state.selected);
  return event ? parseClock(event.at) ?? 60 : 60;
}

async function play(body, origin, label) {
  const audio = $("audio");
  $("playing").innerHTML = '<span class="spinner"></span> rendering…';
  try {
    const blob = await api("POST", "/api/render",
      { text: state.text, voice: state.voice, ...body }, { blob: true });
    if (audio.src) URL.revokeObjectURL(audio.src);
    state.audioOrigin = origin;
    audio.src = URL.createObjectURL(blob);
    audio.hidden = false;  // no empty "0:00 / 0:00" bar before anything has been played
    audio.dataset.label = label;
    $("playing").textContent = label;
    await audio.play();
  } catch (error) {
    $("playing").textContent = error.message;
  }
}

function cueStart(index) {
  const cues = state.timeline ? state.timeline.cues.filter((c) => c.event === index) : [];
  return cues.length ? cues[0].start_ms : selectedSeconds() * 1000;
}

function playCue() {
  if (state.selected === null) return;
  play({ event: state.selected }, cueStart(state.selected), `event ${state.selected + 1}`);
}

function playFrom() {
  const ms = state.selected === null ? 0 : cueStart(state.selected);
  play({ from_ms: ms, seconds: 60 }, ms, `from ${clock(Math.floor(ms / 1000))}`);
}

let ratingJob = null;

async function rate() {
  // a rating plays hundreds of games (10-45 s): the page shows how far it is and can stop it
  const out = $("rating");
  const job = Math.random().toString(36).slice(2, 12) + Date.now().toString(36);
  ratingJob = job;
  out.replaceChildren();
  $("rating-progress").textContent = "simulating the crew…";
  $("rating-run").hidden = false;
  $("rate").disabled = true;
  const poll = setInterval(async () => {
    try {
      const p = await api("GET", `/api/rate/progress?job=${job}`);
      if (p.running && p.total) {
        $("rating-progress").textContent =
          `simulating the crew: ${Math.round(100 * p.done / p.total)} % (${p.done} of ${p.total} games)`;
      }
    } catch (error) { /* the answer will say what went wrong */ }
  }, 400);
  try {
    const answer = await api("POST", "/api/rate", { text: state.text, job });
    const r = answer.rating;
    if (r) showRating(out, r);
    else out.textContent = answer.note;
    const simulated = answer.problems.filter((p) => !state.problems.some(
      (q) => q.code === p.code && q.message === p.message));
    state.problems = state.problems.concat(simulated);
    renderProblems();
  } catch (error) {
    out.textContent = error.message;
  } finally {
    clearInterval(poll);
    ratingJob = null;
    $("rating-run").hidden = true;
    $("rate").disabled = false;
  }
}

function showRating(out, r) {
  // words for the table first ("a careful crew survived 38 of 100 games"), the model's
  // figures behind a toggle
  const words = document.createElement("p");
  words.className = "rating-words";
  words.textContent = `${r.in_words} ${r.play}: ${r.compared}.`;
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "How this was measured";
  const detail = document.createElement("p");
  detail.textContent = `Difficulty ${r.difficulty} ± ${r.margin} of 100 (95 %; official ` +
    `missions 1–8: ${r.official_low}–${r.official_high}), survival ` +
    `${Math.round(r.survival * 100)} % (${Math.round(r.survival_interval[0] * 100)}–` +
    `${Math.round(r.survival_interval[1] * 100)} %) over ${r.games} games; crew model: ${r.crew}.`;
  more.append(summary, detail);
  out.replaceChildren(words, more);
}

function cancelRating() {
  if (ratingJob) api("POST", "/api/rate/cancel", { job: ratingJob }).catch(() => {});
  $("rating-progress").textContent = "cancelling…";
}

async function testRun() {
  // the tab is opened at once (a pop-up blocker allows it during the click) and sent on later
  const tab = window.open("", "_blank");
  setStatus("rendering the whole soundtrack for a test run…");
  try {
    const answer = await api("POST", "/api/testrun", { text: state.text, voice: state.voice });
    if (tab) tab.location.href = answer.url;
    else location.assign(answer.url);
    showDirty();
  } catch (error) {
    if (tab) tab.close();
    setStatus(error.message, "error");
  }
}

async function newMission(form) {
  const f = form.elements;
  const body = { file: f.file.value.trim() };
  if (f.how.value === "generate") {
    body.generate = { profile: f.profile.value, players: Number(f.players.value), seed: Number(f.seed.value) };
  } else {
    body.profile = f.profile.value; body.players = Number(f.players.value);
  }
  try {
    const answer = await api("POST", "/api/new", body);
    await listFiles(answer.file);
    await openFile(answer.file);
  } catch (error) {
    setStatus(error.message, "error");
  }
}

// --- wiring ----------------------------------------------------------------------------------

function wire() {
  $("save").addEventListener("click", () => save());
  $("zoom-in").addEventListener("click", () => zoomTo(state.zoom * ZOOM_STEP));
  $("zoom-out").addEventListener("click", () => zoomTo(state.zoom / ZOOM_STEP));
  $("zoom-fit").addEventListener("click", () => zoomTo(1));
  window.addEventListener("resize", () => { if (state.data) renderTimeline(); });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("rate").addEventListener("click", rate);
  $("rate-cancel").addEventListener("click", cancelRating);
  $("testrun").addEventListener("click", testRun);
  $("add").addEventListener("click", () => addAt(Math.min(selectedSeconds() + 30, 59 * 60)));
  $("delete").addEventListener("click", () => {
    if (state.selected !== null) edit({ op: "delete", index: state.selected });
  });
  $("play-cue").addEventListener("click", playCue);
  $("play-from").addEventListener("click", playFrom);
  $("file").addEventListener("change", (e) => {
    if (dirty() && !confirm("Discard the unsaved changes?")) { e.target.value = state.file; return; }
    openFile(e.target.value);
  });
  $("event-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (state.selected !== null) edit({ op: "set", index: state.selected, fields: formFields() });
  });
  $("event-form").elements.kind.addEventListener("change", (e) => {
    $("event-form").dataset.kind = e.target.value;
  });
  $("meta-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target.elements;
    edit({ op: "meta", fields: {
      title: f.title.value, id: f.id.value, author: f.author.value || null,
      profile: f.profile.value, players: Number(f.players.value),
      phases: f.phases.value.split(",").map((s) => s.trim()).filter(Boolean),
      decks: { common: f.common.value, serious: f.serious.value,
        ...(f.expansion.checked ? { expansion: true } : {}) },
      trajectories: f.pin.checked ? Object.fromEntries(["red", "white", "blue", "internal"]
        .map((zone) => [zone, f[`t_${zone}`].value])) : null,
    } });
  });
  let lastTyped = 0;
  $("yaml").addEventListener("input", (e) => {
    // a burst of typing is one undo step
    const now = Date.now();
    setText(e.target.value, { push: now - lastTyped > 1000 });
    lastTyped = now;
    checkSoon();
  });
  $("reload").addEventListener("click", () => openFile(state.file));
  $("overwrite").addEventListener("click", () => { state.token = state.diskToken; save(); });
  $("new").addEventListener("click", () => $("new-dialog").showModal());
  $("new-dialog").addEventListener("close", () => {
    if ($("new-dialog").returnValue === "ok") newMission($("new-form"));
  });
  const audio = $("audio");
  audio.addEventListener("timeupdate", () => {
    const svg = $("timeline");
    if (svg.playheadAt) svg.playheadAt(state.audioOrigin + audio.currentTime * 1000);
  });
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName);
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === "s") { e.preventDefault(); save(); return; }
    if (typing) return;
    if (mod && e.key.toLowerCase() === "z" && !e.shiftKey) { e.preventDefault(); undo(); }
    else if (mod && (e.key.toLowerCase() === "y" || (e.key.toLowerCase() === "z" && e.shiftKey))) {
      e.preventDefault(); redo();
    } else if ((e.key === "Delete" || e.key === "Backspace") && state.selected !== null) {
      e.preventDefault(); edit({ op: "delete", index: state.selected });
    } else if (e.key === "Escape") select(null);
  });
  window.addEventListener("beforeunload", (e) => { if (dirty()) e.preventDefault(); });
  setInterval(watchDisk, 2000);
}

async function start() {
  wire();
  const session = await api("GET", "/api/session");
  document.title = `spacealert studio · ${session.folder}`;
  state.voice = session.voice.id;
  $("voice").replaceChildren(...session.voices.map((v) => new Option(v, v)));
  $("voice").value = state.voice;
  $("voice").addEventListener("change", (e) => { state.voice = e.target.value; check(); });
  const files = await listFiles();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("file") || session.first || files[0];
  if (wanted) await openFile(wanted);
  else setStatus("No mission in this folder: New… creates one.");
  document.body.dataset.ready = "yes";
}

start().catch((error) => setStatus(error.message, "error"));
