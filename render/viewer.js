/* hexhop game viewer: steps through the frames of the page's data, which
   is gzipped JSON in base64 (unpacked by the browser's DecompressionStream).
   Each frame lists the parts of its picture; the board, each die or piece
   and each highlight are drawn once in the data and shared.
   No network, no eval; every record text goes in through textContent.
   The script holds no words of its own: they are the page's labels (JSON in
   #hexhop-labels), in the page's language, with {name} for what is filled in. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var labels = JSON.parse($("hexhop-labels").textContent);

  // the label ``name`` with its {fields} filled in from ``values``
  function say(name, values) {
    var text = labels[name] === undefined ? name : String(labels[name]);
    return text.replace(/\{(\w+)\}/g, function (field, key) {
      return values && values[key] !== undefined ? String(values[key]) : field;
    });
  }

  function unpack(done) {
    var text = $("hexhop-data").textContent.trim();
    var raw = atob(text), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(stream).text().then(function (json) { done(JSON.parse(json)); });
  }

  unpack(start);

  function start(data) {
  var frames = data.frames, lines = data.lines;
  // a piece is its text, or a start tag and the number of its content
  var pieces = data.pieces.map(function (piece) {
    return typeof piece === "string" ? piece : piece[0] + data.bodies[piece[1]];
  });

  // parts are written against other parts (see changes() in html.py): a
  // frame's upright ones against the frame before it, its flipped ones
  // against the mirror image of its upright ones
  function apply(codes, before) {
    var parts = [], i = 0;
    codes.forEach(function (code) {
      if (code >= 0) { parts.push(code); return; }
      var count = Math.floor(-code / 2);
      if (-code % 2 === 1) { i += count; return; }
      for (var k = 0; k < count; k++) { parts.push(before[i++]); }
    });
    return parts;
  }
  var before = [];
  frames.forEach(function (frame) {
    frame.s = before = apply(frame.s, before);
    var mirrored = frame.s.map(function (part) { return data.mirror[part]; });
    frame.v = frame.v ? apply(frame.v, mirrored) : mirrored;
  });
  // what the data leaves out: a frame's place in its line, empty lists, the
  // label that is the move number and text of the frame's entry
  lines.forEach(function (line, id) {
    line.f.forEach(function (frame, index) {
      if (frames[frame].l === id) { frames[frame].i = index; }
    });
  });
  frames.forEach(function (frame) {
    frame.c = frame.c || [];
    frame.n = frame.n || [];
    frame.a = frame.a || [];
  });
  function moveNumber(ply) {
    return String(Math.floor((ply - 1) / 2) + 1) + (ply % 2 ? "." : "...");
  }
  (function label(line) {
    line.e.forEach(function (entry) {
      var frame = entry.f === undefined ? null : frames[entry.f];
      if (frame && !entry.s && frame.t === undefined) {
        frame.t = moveNumber(frame.p) + " " + entry.t;
      }
      (entry.v || []).forEach(label);
    });
  })(data.moves);
  var board = $("board"), slider = $("slider"), where = $("where");
  var caption = $("caption"), notesBox = $("frame-notes"), moves = $("moves");
  var playButton = $("play"), flipButton = $("flip"), mainButton = $("mainline");
  var state = { frame: 0, flipped: !!data.flipped, timer: null };

  function draw(frame) {
    var parts = state.flipped ? frame.v : frame.s, out = [data.head];
    for (var i = 0; i < parts.length; i++) { out.push(pieces[parts[i]]); }
    out.push("</svg>");
    board.innerHTML = out.join("");
    var svg = board.firstElementChild;
    svg.setAttribute("data-ply", String(frame.p));
    svg.setAttribute("data-position", frame.x);
  }

  // the move list, built from data.moves; every record text goes in as text
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function worst(notes) {
    var found = (notes || []).map(function (n) { return data.notes[n].s; });
    return found.indexOf("error") >= 0 ? "error" : found.length ? "warning" : "";
  }

  function entryElement(entry) {
    var severity = worst(entry.o), state = entry.s || "played", body;
    var cls = "move" + (state === "played" ? "" : " " + state) + (severity ? " has-" + severity : "");
    if (state === "played") {
      body = element("button", cls, entry.t);
      body.setAttribute("data-frame", String(entry.f));
    } else {
      body = element("span", cls, entry.t);
      body.title = say(state);
    }
    (entry.g || []).forEach(function (glyph) { body.appendChild(element("span", "glyph", glyph)); });
    if (!entry.n && state === "played") { return body; }
    var ply = element("span", "ply");
    if (entry.n) { ply.appendChild(element("span", "num", entry.n)); }
    ply.appendChild(body);
    return ply;
  }

  function noteInline(number) {
    var note = data.notes[number], box = element("span", "note-inline " + note.s);
    box.appendChild(element("code", "", note.c));
    box.appendChild(document.createTextNode(" " + note.m));
    return box;
  }

  function fillLine(line, box) {
    function add(node) { box.appendChild(node); box.appendChild(document.createTextNode(" ")); }
    function comment(text) { add(element("span", "comment", text)); }
    (line.c || []).forEach(comment);
    line.e.forEach(function (entry) {
      add(entryElement(entry));
      (entry.c || []).forEach(comment);
      (entry.o || []).forEach(function (n) { add(noteInline(n)); });
      (entry.v || []).forEach(function (variation) {
        var group = element("div", "variation" + (variation.i < 0 ? " unplayable" : ""));
        group.setAttribute("data-line", String(variation.i));
        group.setAttribute("role", "group");
        group.setAttribute("aria-label", say("variation"));
        fillLine(variation, group);
        box.appendChild(group);
      });
    });
  }

  fillLine(data.moves, moves);

  function lineOf(id) { return lines[frames[id].l]; }

  function neighbour(id, delta) {
    var frame = frames[id], line = lines[frame.l];
    var next = line.f[frame.i + delta];
    return next === undefined ? null : next;
  }

  function mainFrame(id) {
    while (frames[id].l !== 0) { id = lineOf(id).b; }
    return id;
  }

  function noteElement(number, prefix) {
    var note = data.notes[number], item = document.createElement("p");
    item.className = "note " + note.s;
    var code = document.createElement("code");
    code.textContent = note.c;
    item.appendChild(document.createTextNode(prefix));
    item.appendChild(code);
    item.appendChild(document.createTextNode(" " + note.m));
    return item;
  }

  function showNotes(frame) {
    notesBox.textContent = "";
    frame.c.forEach(function (text) {
      var p = document.createElement("p");
      p.className = "comment";
      p.textContent = text;
      notesBox.appendChild(p);
    });
    frame.n.forEach(function (n) { notesBox.appendChild(noteElement(n, "")); });
    frame.a.forEach(function (n) {
      var note = data.notes[n];
      notesBox.appendChild(noteElement(n, say("ahead", { action: note.x || say("nextAction") })));
    });
  }

  function markMove(id) {
    var old = moves.querySelectorAll(".current, .current-line");
    for (var i = 0; i < old.length; i++) {
      old[i].classList.remove("current", "current-line");
      old[i].removeAttribute("aria-current");
    }
    var frame = frames[id];
    if (frame.l !== 0) {
      var group = moves.querySelector('.variation[data-line="' + frame.l + '"]');
      if (group) { group.classList.add("current-line"); }
    }
    var button = moves.querySelector('button.move[data-frame="' + id + '"]');
    if (button) {
      button.classList.add("current");
      button.setAttribute("aria-current", "step");
      scrollIntoList(button);
    }
  }

  function scrollIntoList(element) {
    var box = moves.getBoundingClientRect(), rect = element.getBoundingClientRect();
    if (moves.scrollHeight <= moves.clientHeight + 1) { return; }
    if (rect.top < box.top) {
      moves.scrollTop -= box.top - rect.top + 8;
    } else if (rect.bottom > box.bottom) {
      moves.scrollTop += rect.bottom - box.bottom + 8;
    }
  }

  function show(id) {
    var frame = frames[id], line = lines[frame.l];
    state.frame = id;
    $("copied").textContent = "";
    draw(frame);
    var variation = frame.l !== 0;
    caption.textContent = (frame.p === 0 && !variation && frame.i === 0)
      ? say("start")
      : say(variation ? "plyVariation" : "ply", { ply: frame.p, label: frame.t });
    slider.max = String(line.f.length - 1);
    slider.value = String(frame.i);
    where.textContent = frame.i + " / " + (line.f.length - 1);
    mainButton.hidden = !variation;
    $("first").disabled = id === 0;
    $("prev").disabled = neighbour(id, -1) === null;
    $("next").disabled = neighbour(id, 1) === null;
    $("last").disabled = neighbour(id, 1) === null;
    showNotes(frame);
    markMove(id);
  }

  function go(id) {
    if (id !== null && id !== undefined && frames[id]) { show(id); }
  }

  function step(delta) {
    var next = neighbour(state.frame, delta);
    if (next !== null) { show(next); return true; }
    return false;
  }

  function toEnd() {
    var line = lineOf(state.frame);
    show(line.f[line.f.length - 1]);
  }

  function stopPlay() {
    if (state.timer !== null) { clearInterval(state.timer); }
    state.timer = null;
    playButton.setAttribute("aria-pressed", "false");
    playButton.classList.remove("playing");
  }

  function startPlay() {
    if (neighbour(state.frame, 1) === null) { show(lineOf(state.frame).f[0]); }
    playButton.setAttribute("aria-pressed", "true");
    playButton.classList.add("playing");
    state.timer = setInterval(function () {
      if (!step(1) || neighbour(state.frame, 1) === null) { stopPlay(); }
    }, Number($("speed").value) || 1000);
  }

  function togglePlay() {
    if (state.timer === null) { startPlay(); } else { stopPlay(); }
  }

  function flip() {
    state.flipped = !state.flipped;
    flipButton.setAttribute("aria-pressed", String(state.flipped));
    show(state.frame);
  }

  function user(action) {
    return function () { stopPlay(); action(); };
  }

  $("first").addEventListener("click", user(function () { show(0); }));
  $("prev").addEventListener("click", user(function () { step(-1); }));
  $("next").addEventListener("click", user(function () { step(1); }));
  $("last").addEventListener("click", user(toEnd));
  playButton.addEventListener("click", togglePlay);
  flipButton.addEventListener("click", flip);
  mainButton.addEventListener("click", user(function () { show(mainFrame(state.frame)); }));
  $("speed").addEventListener("change", function () {
    if (state.timer !== null) { stopPlay(); startPlay(); }
  });
  slider.addEventListener("input", user(function () {
    go(lineOf(state.frame).f[Number(slider.value)]);
  }));

  $("download").addEventListener("click", function () {
    var blob = new Blob([data.record.text], { type: "text/plain;charset=utf-8" });
    var link = document.createElement("a");
    link.setAttribute("href", URL.createObjectURL(blob));
    link.download = data.record.name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.getAttribute("href")); }, 10000);
  });

  // without a clipboard (an old browser, a refusal) the text is shown to be copied by hand
  function copyByHand(text) {
    var area = document.createElement("textarea"), copied = false;
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    area.remove();
    return copied;
  }

  $("copy").addEventListener("click", function () {
    var text = frames[state.frame].x, told = $("copied");
    function tell(copied) { told.textContent = say(copied ? "copied" : "position", { text: text }); }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { tell(true); },
        function () { tell(copyByHand(text)); });
    } else {
      tell(copyByHand(text));
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("button[data-frame]") : null;
    if (!target) { return; }
    stopPlay();
    go(Number(target.getAttribute("data-frame")));
    // a button outside the viewer (a note's "show the line" on a game page of
    // hexhop serve): bring the board into sight; the arrows then step the line
    if (!target.closest(".viewer")) {
      board.scrollIntoView({ block: "nearest" });
      target.blur();
    }
  });

  var keys = {
    ArrowLeft: function () { step(-1); },
    ArrowRight: function () { step(1); },
    Home: function () { show(0); },
    End: toEnd,
    Escape: function () { show(mainFrame(state.frame)); }
  };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = event.target && event.target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA") { return; }
    if (event.target && event.target.tagName === "SUMMARY" && event.key === " ") { return; }
    var action = keys[event.key];
    if (action) {
      event.preventDefault();
      stopPlay();
      action();
    } else if ((event.key === "p" || event.key === "P" ||
                (event.key === " " && tag !== "BUTTON"))) {
      event.preventDefault();
      togglePlay();
    } else if (event.key === "f" || event.key === "F") {
      event.preventDefault();
      flip();
    }
  });

  function startFrame() {
    var match = /^#(?:ply-?)?(\d+)$/.exec(window.location.hash || "");
    var main = lines[0].f;
    return match ? main[Math.min(Number(match[1]), main.length - 1)] : 0;
  }

  show(startFrame());
  document.documentElement.setAttribute("data-ready", "");
  }
})();
