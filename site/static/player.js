/* Space Alert soundtrack player: clock, phase countdown, captions, cue list, threat flashes.
   No framework and no network: it reads the JSON in #player-data and drives the <audio>.

   Two views of the cue list. The crew view (the default) shows only what has been announced
   so far: a crew at the table must not read which threats come where. The author view lists
   every announcement. The choice is remembered per browser (localStorage). In the crew view
   no future announcement text is in the page: the JSON is removed from the document once
   read, and list items are created only when their cue has started. */
(function () {
  "use strict";

  var dataEl = document.getElementById("player-data");
  var audio = document.getElementById("track");
  var player = document.getElementById("player");
  if (!dataEl || !audio || !player) { return; }

  var data = JSON.parse(dataEl.textContent);
  // The data holds every announcement: keep it out of the document (crew view, see above).
  dataEl.parentNode.removeChild(dataEl);
  var VIEW_KEY = "spacealert.player.view";
  var phases = data.phases_ms;
  var el = function (id) { return document.getElementById(id); };
  var clock = el("clock"), phaseEl = el("phase"), countdown = el("countdown");
  var phaseNote = el("phase-note");
  var caption = el("caption"), list = el("cues"), seek = el("seek"), timeEl = el("time");
  var playBtn = el("play"), flash = el("flash"), voiceSel = el("voice");
  var viewBtn = el("view"), fullBtn = el("fullscreen"), listHead = el("cues-heading");

  var track = data.tracks[0];
  var cues = track.cues;
  var listed = [];
  var items = [];
  var lastMs = 0;
  var current = -2;
  var dragging = false;
  var durationMs = track.duration_ms;
  var view = readView();
  var spans = captionSpans(cues);
  var wakeLock = null;

  function readView() {
    try { return window.localStorage.getItem(VIEW_KEY) === "author" ? "author" : "crew"; }
    catch (e) { return "crew"; } // storage blocked: the safe default
  }

  function storeView(value) {
    try { window.localStorage.setItem(VIEW_KEY, value); } catch (e) { /* not remembered */ }
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + pad(s % 60);
  }
  function fmtUp(ms) { return fmt(Math.ceil(Math.max(0, ms) / 1000) * 1000); }

  function phaseAt(ms) {
    for (var i = 0; i < phases.length; i += 1) {
      if (ms < phases[i]) { return i + 1; }
    }
    return phases.length + 1;
  }

  // How many listed cues the current view shows at ``ms``: all of them, or those started.
  function shownCount(ms) {
    if (view === "author") { return listed.length; }
    var n = 0;
    while (n < listed.length && listed[n].s <= ms) { n += 1; }
    return n;
  }

  function makeItem(c) {
    var li = document.createElement("li");
    li.className = "cue kind-" + c.k + (c.z ? " zone-" + c.z : "");
    li.dataset.start = c.s;
    li.dataset.end = c.e;
    var b = document.createElement("button");
    b.type = "button";
    b.className = "cue-time";
    b.textContent = fmt(c.s);
    b.setAttribute("aria-label", "Jump to " + fmt(c.s));
    var span = document.createElement("span");
    span.className = "cue-text";
    span.textContent = c.w || c.t;  // w: with the numbers of the countdown that follows
    li.appendChild(b);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(span);
    return li;
  }

  // Adds the cues announced since the last call (or removes those after a seek back), so
  // the list grows under the crew's eyes without being redrawn.
  function syncList(ms) {
    if (!list) { return; }
    var want = shownCount(ms);
    if (want === items.length) { return; }
    while (items.length < want) {
      var li = makeItem(listed[items.length]);
      list.appendChild(li);
      items.push(li);
    }
    while (items.length > want) { list.removeChild(items.pop()); }
    current = -2;
  }

  function rebuildList(ms) {
    listed = cues.filter(function (c) { return c.l; });
    items = [];
    if (!list) { return; }
    while (list.firstChild) { list.removeChild(list.firstChild); }
    syncList(ms);
    current = -2;
  }

  function keepVisible(item) {
    if (!list || !item) { return; }
    // The item's top inside the list's scrolled content, from the rendered boxes: offsetTop
    // depends on the offsetParent (.cues is positioned, so it is already list-relative).
    var top = item.getBoundingClientRect().top - list.getBoundingClientRect().top -
      list.clientTop + list.scrollTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }

  function highlight(ms) {
    var found = -1;
    for (var i = 0; i < listed.length; i += 1) {
      if (listed[i].s <= ms) { found = i; } else { break; }
    }
    if (found === current) { return; }
    current = found;
    items.forEach(function (li, n) {
      li.classList.toggle("current", n === found);
      li.classList.toggle("next", n === found + 1);
      if (n === found) { li.setAttribute("aria-current", "true"); } else { li.removeAttribute("aria-current"); }
    });
    player.dataset.current = found >= 0 ? String(listed[found].s) : "";
    player.dataset.next = found + 1 < listed.length ? String(listed[found + 1].s) : "";
    keepVisible(items[found + 1] || items[found]);
  }

  // The captions as spans of time. A countdown (a lead such as "First phase ends in" or "Data
  // transfer in", then five … one, each word a short cue a second apart) is one growing caption
  // held across the gaps between the words, so it can be read; every other spoken cue is shown
  // while it is heard.
  function captionSpans(all) {
    var spoken = all.filter(function (c) { return c.t; });
    var out = [];
    var run = null; // the countdown heard so far
    spoken.forEach(function (c, n) {
      var next = spoken[n + 1];
      var countFollows = next && next.k === "count" && next.s - c.e <= 2500;
      if (c.k === "count") { run = (run === null ? "" : run + " ") + c.t; }
      else { run = countFollows ? c.t : null; } // whatever cue leads into the count
      var text = run === null ? c.t : run;
      var end = c.e;
      if (run !== null) {
        if (countFollows) { end = next.s; }
        else { end = c.e + 1000; run = null; } // the last word stays a moment
      }
      out.push({ s: c.s, e: end, t: text });
    });
    return out;
  }

  function showCaption(ms) {
    var text = "";
    for (var i = 0; i < spans.length; i += 1) {
      if (spans[i].s > ms) { break; }
      if (ms < spans[i].e) { text = spans[i].t; }
    }
    if (caption.textContent !== text) { caption.textContent = text; }
  }

  function flashFor(c) {
    flash.className = "flash";
    void flash.offsetWidth; // restart the animation
    flash.className = "flash on zone-" + (c.z || "internal");
    player.dataset.flash = (c.z || "internal") + "@" + c.s;
  }

  function crossThreats(from, to) {
    // Flash only while playing forward; a seek is a jump, not a threat arriving.
    if (to <= from || to - from > 1500) { return; }
    cues.forEach(function (c) {
      if (c.k === "threat" && c.s > from && c.s <= to) { flashFor(c); }
    });
  }

  function update(ms) {
    clock.textContent = "T+" + fmt(ms);
    var p = phaseAt(ms);
    // after the last phase there is no phase left to count down to
    countdown.hidden = phaseNote.hidden = p > phases.length;
    if (p > phases.length) {
      phaseEl.textContent = "Operation ended";
    } else {
      phaseEl.textContent = "Phase " + p;
      countdown.textContent = fmtUp(phases[p - 1] - ms);
    }
    countdown.classList.toggle("urgent", p <= phases.length && phases[p - 1] - ms <= 20000);
    showCaption(ms);
    syncList(ms);
    highlight(ms);
    if (!dragging) { seek.value = String(Math.round(ms)); }
    timeEl.textContent = fmt(ms) + " / " + fmt(durationMs);
    player.dataset.ms = String(Math.round(ms));
  }

  function now() { return audio.currentTime * 1000; }

  function tick() {
    var ms = now();
    if (!audio.paused) { crossThreats(lastMs, ms); }
    lastMs = ms;
    update(ms);
    if (!audio.paused) { window.requestAnimationFrame(tick); }
  }

  function jump(ms) {
    var limit = isFinite(audio.duration) ? audio.duration * 1000 : durationMs;
    ms = Math.max(0, Math.min(ms, limit));
    audio.currentTime = ms / 1000;
    lastMs = ms;
    update(ms);
  }

  function toggle() {
    if (audio.paused) {
      var started = audio.play();
      if (started && started.catch) { started.catch(function () { /* blocked autoplay */ }); }
    } else {
      audio.pause();
    }
  }

  function stepCue(direction) {
    var ms = now();
    var target = null;
    if (direction > 0) {
      for (var i = 0; i < listed.length; i += 1) {
        if (listed[i].s > ms + 50) { target = listed[i].s; break; }
      }
    } else {
      for (var j = listed.length - 1; j >= 0; j -= 1) {
        if (listed[j].s < ms - 1500) { target = listed[j].s; break; }
      }
      if (target === null) { target = 0; }
    }
    if (target !== null) { jump(target); }
  }

  // The WebVTT file as a text track, for assistive tools; browsers refuse it from file://
  // pages (each file is its own origin), where the captions above still work from the JSON.
  function addCaptionTrack() {
    if (window.location.protocol === "file:") { return; }
    var tr = document.createElement("track");
    tr.kind = "captions";
    tr.src = track.vtt;
    tr.srclang = track.lang;
    tr.label = track.name;
    tr.default = true;
    audio.appendChild(tr);
  }

  function setTrack(n) {
    var at = now();
    var wasPlaying = !audio.paused;
    track = data.tracks[n];
    cues = track.cues;
    spans = captionSpans(cues);
    durationMs = track.duration_ms;
    seek.max = String(durationMs);
    while (audio.firstChild) { audio.removeChild(audio.firstChild); }
    track.sources.forEach(function (s) {
      var source = document.createElement("source");
      source.src = s.src;
      source.type = s.type;
      audio.appendChild(source);
    });
    addCaptionTrack();
    caption.lang = track.lang;
    if (list) { list.lang = track.lang; }
    audio.load();
    audio.addEventListener("loadedmetadata", function restore() {
      audio.removeEventListener("loadedmetadata", restore);
      jump(at);
      if (wasPlaying) { toggle(); }
    });
    rebuildList(at);
    update(at);
  }

  // Progressive enhancement: without this script the native controls remain.
  audio.controls = false;
  addCaptionTrack();
  el("controls").hidden = false;
  rebuildList(0);

  function showView() {
    var author = view === "author";
    player.dataset.view = view;
    if (viewBtn) {
      viewBtn.hidden = false;
      viewBtn.setAttribute("aria-pressed", author ? "true" : "false");
      viewBtn.textContent = author ? "Hide what is still to come" : "Show every announcement";
      viewBtn.title = author ? "Crew view: only what has been announced so far"
        : "Author view: the whole list, including what is still to come";
    }
    if (listHead) { listHead.textContent = author ? "All announcements" : "Announced so far"; }
  }

  function setView(value) {
    view = value;
    storeView(value);
    showView();
    rebuildList(now());
    update(now());
  }

  // Keep the screen on while the soundtrack plays (a phone at the table would sleep
  // mid-mission). Screen Wake Lock where the browser has it; the lock is dropped by the
  // browser when the tab is hidden, so it is asked for again when the tab comes back.
  function holdAwake() {
    if (!navigator.wakeLock || !navigator.wakeLock.request) {
      player.dataset.awake = "unsupported";
      return;
    }
    if (wakeLock) { return; }
    navigator.wakeLock.request("screen").then(function (lock) {
      if (audio.paused) { lock.release(); return; }
      wakeLock = lock;
      player.dataset.awake = "held";
      lock.addEventListener("release", function () {
        if (wakeLock === lock) { wakeLock = null; player.dataset.awake = "released"; }
      });
    }).catch(function () { player.dataset.awake = "refused"; });
  }

  function letSleep() {
    if (!wakeLock) { return; }
    var lock = wakeLock;
    wakeLock = null;
    player.dataset.awake = "released";
    lock.release().catch(function () { /* already released */ });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !audio.paused) { holdAwake(); }
  });

  function fullscreenElement() {
    return document.fullscreenElement || document.webkitFullscreenElement || null;
  }

  function toggleFullscreen() {
    if (fullscreenElement()) {
      (document.exitFullscreen || document.webkitExitFullscreen).call(document);
      return;
    }
    var request = player.requestFullscreen || player.webkitRequestFullscreen;
    var result = request.call(player);
    if (result && result.catch) { result.catch(function () { /* refused by the browser */ }); }
  }

  var canFullscreen = !!((player.requestFullscreen || player.webkitRequestFullscreen) &&
    (document.fullscreenEnabled || document.webkitFullscreenEnabled));
  if (fullBtn) {
    fullBtn.hidden = !canFullscreen;
    fullBtn.addEventListener("click", toggleFullscreen);
    document.addEventListener("fullscreenchange", function () {
      var on = !!fullscreenElement();
      fullBtn.setAttribute("aria-pressed", on ? "true" : "false");
      fullBtn.setAttribute("aria-label", on ? "Leave full screen" : "Full screen");
    });
  }
  if (viewBtn) {
    viewBtn.addEventListener("click", function () {
      if (view === "author") { setView("crew"); return; }
      // one tap must not spoil the mission for the crew at the table: ask first
      if (window.confirm("Show every announcement, including the threats still to come? " +
                         "This spoils the mission for the crew.")) { setView("author"); }
    });
  }
  showView();

  playBtn.addEventListener("click", toggle);
  el("back").addEventListener("click", function () { jump(now() - 10000); });
  el("forward").addEventListener("click", function () { jump(now() + 10000); });
  seek.addEventListener("input", function () { dragging = true; jump(Number(seek.value)); });
  seek.addEventListener("change", function () { dragging = false; jump(Number(seek.value)); });
  if (list) {
    list.addEventListener("click", function (event) {
      var li = event.target.closest ? event.target.closest("li") : null;
      if (li && event.target.closest("button")) { jump(Number(li.dataset.start)); }
    });
  }
  if (voiceSel) {
    voiceSel.addEventListener("change", function () { setTrack(Number(voiceSel.value)); });
  }

  audio.addEventListener("play", function () {
    playBtn.textContent = "❚❚";
    playBtn.setAttribute("aria-label", "Pause");
    player.classList.add("playing");
    holdAwake();
    lastMs = now();
    window.requestAnimationFrame(tick);
  });
  audio.addEventListener("pause", function () {
    playBtn.textContent = "▶";
    playBtn.setAttribute("aria-label", "Play");
    player.classList.remove("playing");
    letSleep();
    update(now());
  });
  audio.addEventListener("seeked", function () { lastMs = now(); update(lastMs); });
  audio.addEventListener("timeupdate", function () { if (audio.paused) { update(now()); } });
  audio.addEventListener("loadedmetadata", function () {
    if (isFinite(audio.duration)) {
      durationMs = Math.round(audio.duration * 1000);
      seek.max = String(durationMs);
      update(now());
    }
    player.dataset.ready = "yes";
  });
  if (audio.readyState >= 1) { player.dataset.ready = "yes"; }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = event.target && event.target.tagName;
    var native = tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
    var key = event.key;
    if ((key === " " || key === "Enter") && (tag === "BUTTON" || native || tag === "A")) { return; }
    if (native && (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End")) { return; }
    var handled = true;
    if (key === " " || key === "k" || key === "K") { toggle(); }
    else if (key === "ArrowLeft") { jump(now() - 5000); }
    else if (key === "ArrowRight") { jump(now() + 5000); }
    else if (key === "j" || key === "J") { jump(now() - 10000); }
    else if (key === "l" || key === "L") { jump(now() + 10000); }
    else if (key === "n" || key === "N") { stepCue(1); }
    else if (key === "p" || key === "P") { stepCue(-1); }
    else if (key === "Home") { jump(0); }
    else if ((key === "f" || key === "F") && canFullscreen) { toggleFullscreen(); }
    else { handled = false; }
    if (handled) { event.preventDefault(); }
  });

  update(0);

  // "#play" (from `spacealert play`): start at once. A browser that refuses to play sound
  // before a click leaves the page waiting, with the play button marked.
  if (window.location.hash === "#play") {
    var started = audio.play();
    if (started && started.catch) {
      started.catch(function () { playBtn.classList.add("waiting"); });
    }
  }
}());
