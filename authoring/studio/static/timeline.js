// Draws the mission on an SVG timeline: phases as bands, events by lane and zone, the derived
// cues of the compiled timeline and every spoken cue's heard span (overlaps in red). Events
// are dragged with the pointer (mouse, pen or finger) and snap to 5 s, or 1 s with Shift.
// The mission fits the width at zoom 1 (``view.zoom`` multiplies it); markers closer than
// their width are stacked in rows of their lane, so that none hides another.
import { clock, parseClock } from "./api.js";

const NS = "http://www.w3.org/2000/svg";
const LEFT = 84;          // room for the lane labels
const MARK_W = 34;        // an event marker: wide enough for a finger
const ROW_H = 36;          // one row of event markers
const ROW_GAP = 4;
const LANE_GAP = 6;
const LABELS = { phases: "phases", threats: "threats", other: "data · comms", derived: "warnings",
  heard: "heard (voice)" };
const HEARD_ROWS = 3;
const HEARD_H = 14;
const ZONE_COLOURS = { red: "#e0474c", white: "#e8e8e8", blue: "#3d8bfd", internal: "#b07ce8" };
const OTHER = {
  incoming_data: { colour: "#4cc38a", label: "ID" }, data_transfer: { colour: "#2bb6c4", label: "DT" },
  comms_down: { colour: "#f0b429", label: "CD" }, announcement: { colour: "#c9a0dc", label: "✎" },
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function kindOf(event) {
  return Object.keys(OTHER).concat(["threat"]).find((k) => event && k in event) || null;
}

function worstByEvent(problems) {
  const rank = { error: 3, warning: 2, info: 1 };
  const worst = new Map();
  for (const p of problems) {
    if (p.event === null || p.event === undefined) continue;
    if ((rank[p.severity] || 0) > (rank[worst.get(p.event)] || 0)) worst.set(p.event, p.severity);
  }
  return worst;
}

/** Rows for markers of one lane: each goes into the first row where it overlaps nothing. */
export function stackRows(xs, width) {
  const ends = [];
  return xs.map((left) => {
    let row = ends.findIndex((end) => end + 2 <= left);
    if (row < 0) { row = ends.length; ends.push(-Infinity); }
    ends[row] = left + width;
    return row;
  });
}

function laneLayout(rowsOf) {
  // lanes top to bottom; the event lanes grow by one row per stacked row
  const lanes = { axis: { y: 0, h: 20 } };
  let y = 22;
  for (const [name, h] of [["phases", 24], ["threats", null], ["other", null], ["derived", 18],
    ["heard", null]]) {
    const rows = rowsOf[name] || 1;
    const height = h !== null ? h : name === "heard"
      ? HEARD_ROWS * (HEARD_H + 2) : rows * ROW_H + (rows - 1) * ROW_GAP;
    lanes[name] = { y, h: height, label: LABELS[name], rows };
    y += height + LANE_GAP;
  }
  lanes.bottom = y;
  return lanes;
}

export function drawTimeline(svg, view) {
  const { data, timeline, problems, selected, onSelect, onMove, onAddAt, snap } = view;
  svg.replaceChildren();
  if (!data) return;
  const phases = (Array.isArray(data.phases) ? data.phases : []).map(parseClock).filter((p) => p !== null);
  const events = Array.isArray(data.events) ? data.events : [];
  const endS = Math.max(60, ...phases, ...(timeline ? [timeline.end_ms / 1000] : []),
    ...events.map((e) => parseClock(e && e.at) || 0)) + 15;
  const avail = Math.max(200, (svg.parentElement.clientWidth || 1000) - LEFT - 40);
  const px = (avail / endS) * Math.max(1, Number(view.zoom) || 1);  // zoom 1: the whole mission
  const x = (s) => LEFT + s * px;
  // each event's lane and row, stacked where markers would overlap
  const placed = events.map((event, index) => {
    const at = parseClock(event && event.at);
    const kind = kindOf(event);
    return at === null || !kind ? null : { index, at, kind, lane: kind === "threat" ? "threats" : "other" };
  });
  const rowsOf = {};
  for (const lane of ["threats", "other"]) {
    const mine = placed.filter((p) => p && p.lane === lane).sort((a, b) => a.at - b.at || a.index - b.index);
    stackRows(mine.map((p) => x(p.at) - MARK_W / 2), MARK_W).forEach((row, n) => { mine[n].row = row; });
    rowsOf[lane] = Math.max(1, ...mine.map((p) => p.row + 1));
  }
  const LANES = laneLayout(rowsOf);
  const width = x(endS) + 30;  // room for the last minute's label
  const labelEvery = [60, 120, 300, 600].find((step) => step * px >= 36) || 600;
  const height = LANES.bottom;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.dataset.pxPerSecond = px;
  svg.dataset.rows = JSON.stringify(rowsOf);

  const defs = el("defs", {}, svg);
  const hatch = el("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 3, height: 6, fill: "#f0b429" }, hatch);

  // lane labels and the minute grid
  for (const lane of Object.values(LANES)) {
    if (lane.label) el("text", { x: 6, y: lane.y + lane.h / 2 + 4, class: "lane-label" }, svg).textContent = lane.label;
  }
  for (let s = 0; s <= endS; s += 30) {
    el("line", { x1: x(s), x2: x(s), y1: 14, y2: height, class: "tick", "stroke-opacity": s % 60 ? 0.35 : 0.8 }, svg);
    // a label every minute where they fit (a fitted mission on a phone: every 2 or 5 minutes)
    if (s % labelEvery === 0) el("text", { x: x(s) + 2, y: 12, class: "tick-label" }, svg).textContent = clock(s);
  }

  // phases as bands; a phase end with a problem is outlined
  const phaseProblems = new Set(problems.map((p) => /^\$\.phases\[(\d+)\]/.exec(p.path || ""))
    .filter(Boolean).map((m) => Number(m[1])));
  let start = 0;
  phases.forEach((end, n) => {
    el("rect", { x: x(start), y: LANES.phases.y, width: Math.max(0, x(end) - x(start)), height: LANES.phases.h,
      class: `phase${n % 2 ? " odd" : ""}${phaseProblems.has(n) ? " has-problem" : ""}`,
      "data-phase": n + 1 }, svg);
    const mark = el("rect", { x: x(end) - 2, y: LANES.phases.y - 4, width: 4, height: LANES.phases.h + 8,
      class: `phase-end${phaseProblems.has(n) ? " has-problem" : ""}`, "data-phase": n + 1 }, svg);
    el("title", {}, mark).textContent = `phase ${n + 1} ends at ${clock(end)}`;
    el("text", { x: x(start) + 6, y: LANES.phases.y + 16 }, svg).textContent =
      `Phase ${n + 1} · ends ${clock(end)}`;
    start = end;
  });

  // derived cues (warnings, countdowns, phase ends) and the heard spans of speech
  if (timeline) {
    for (const cue of timeline.cues) {
      if (cue.event === null && cue.kind !== "chirp") {
        const r = el("rect", { x: x(cue.start_ms / 1000), y: LANES.derived.y,
          width: Math.max(2, (cue.end_ms - cue.start_ms) / 1000 * px), height: LANES.derived.h,
          class: "derived", "data-kind": cue.kind, rx: 2 }, svg);
        el("title", {}, r).textContent = `${cue.time} ${cue.kind}: ${cue.text}`;
      }
    }
    const rows = Array(HEARD_ROWS).fill(-1);
    for (const cue of timeline.cues.filter((c) => c.speech)) {
      let row = rows.findIndex((end) => end <= cue.start_ms);
      if (row < 0) row = HEARD_ROWS - 1;
      rows[row] = Math.max(rows[row], cue.end_ms);
      const r = el("rect", { x: x(cue.start_ms / 1000), y: LANES.heard.y + row * (HEARD_H + 2),
        width: Math.max(2, (cue.end_ms - cue.start_ms) / 1000 * px), height: HEARD_H, rx: 2,
        class: `cue${cue.event !== null ? " event-cue" : ""}${cue.overlap ? " overlap" : ""}`,
        "data-event": cue.event ?? "", "data-cue": cue.index }, svg);
      el("title", {}, r).textContent =
        `${cue.time} ${cue.kind}, heard ${((cue.end_ms - cue.start_ms) / 1000).toFixed(1)} s` +
        `${cue.overlap ? " — overlaps the cue before" : ""}: ${cue.text}`;
    }
  }

  // events
  const worst = worstByEvent(problems);
  events.forEach((event, index) => {
    const place = placed[index];
    if (!place) return;
    const { at, kind } = place;
    const body = event[kind] || {};
    const lane = { y: LANES[place.lane].y + place.row * (ROW_H + ROW_GAP), h: ROW_H };
    if (kind === "comms_down" && Number(body.seconds) > 0) {
      el("rect", { x: x(at), y: lane.y + lane.h - 8, width: body.seconds * px, height: 8,
        class: "comms-span" }, svg);
    }
    const classes = ["ev", kind];
    if (body.serious) classes.push("serious");
    if (body.unconfirmed) classes.push("unconfirmed");
    if (index === selected) classes.push("selected");
    if (worst.has(index)) classes.push(`has-${worst.get(index)}`);
    const g = el("g", { class: classes.join(" "), "data-index": index, "data-kind": kind,
      "data-at": event.at, "data-zone": body.zone || "", "data-row": place.row, transform: `translate(${x(at)},${lane.y})`,
      tabindex: 0, role: "button" }, svg);
    const colour = kind === "threat" ? ZONE_COLOURS[body.zone] || "#888" : OTHER[kind].colour;
    el("rect", { x: -MARK_W / 2, y: 0, width: MARK_W, height: lane.h, rx: 5, fill: colour }, g);
    const label = kind === "threat" ? `T+${body.turn ?? "?"}` : OTHER[kind].label;
    el("text", { x: 0, y: lane.h / 2 + 4, "text-anchor": "middle", class: "label" }, g).textContent = label;
    if (worst.has(index)) el("circle", { cx: MARK_W / 2 - 2, cy: 2, r: 6, class: "badge" }, g);
    const what = kind === "threat"
      ? `${body.serious ? "serious " : ""}${body.unconfirmed ? "unconfirmed " : ""}threat T+${body.turn} ${body.zone}`
      : kind.replace("_", " ");
    el("title", {}, g).textContent = `${event.at} ${what}`;
    dragging(svg, g, { index, at, px, endS, snap, onSelect, onMove });
  });

  // double-click (or double-tap) on an empty lane adds a threat there
  svg.ondblclick = (e) => {
    if (e.target.closest(".ev")) return;
    const box = svg.getBoundingClientRect();
    const seconds = (e.clientX - box.left - LEFT) / px;
    if (seconds >= 0) onAddAt(snap(seconds, e.shiftKey));
  };
  const head = el("line", { x1: -10, x2: -10, y1: 14, y2: height, class: "playhead" }, svg);
  svg.playheadAt = (ms) => {
    const hx = x(ms / 1000);
    head.setAttribute("x1", hx); head.setAttribute("x2", hx);
  };
}

function dragging(svg, g, { index, at, px, endS, snap, onSelect, onMove }) {
  let startX = null, moved = false, target = at;
  const y = g.transform.baseVal.consolidate().matrix.f;
  // a finger on a marker drags it instead of scrolling the timeline
  g.addEventListener("touchstart", (e) => e.preventDefault(), { passive: false });
  g.addEventListener("pointerdown", (e) => {
    startX = e.clientX; moved = false; target = at;
    g.setPointerCapture(e.pointerId);
    e.preventDefault();  // no text selection, no scrolling: but then no focus either, so
    g.focus({ preventScroll: true });  // the arrow keys move what was clicked (studio.md)
  });
  g.addEventListener("pointermove", (e) => {
    if (startX === null) return;
    const dx = e.clientX - startX;
    if (!moved && Math.abs(dx) < 4) return;
    moved = true;
    g.classList.add("dragging");
    target = Math.min(Math.max(0, snap(at + dx / px, e.shiftKey)), endS);
    g.setAttribute("transform", `translate(${LEFT + target * px},${y})`);
    g.querySelector("title").textContent = clock(target);
    g.dataset.dragAt = clock(target);
  });
  const end = () => {
    if (startX === null) return;
    startX = null;
    g.classList.remove("dragging");
    if (moved && target !== at) onMove(index, target);
    else onSelect(index);
  };
  g.addEventListener("pointerup", end);
  g.addEventListener("pointercancel", () => { startX = null; g.classList.remove("dragging"); });
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onSelect(index); }
    else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      const step = (e.shiftKey ? 1 : 5) * (e.key === "ArrowLeft" ? -1 : 1);
      onMove(index, Math.max(0, at + step));
    }
  });
}
