// hexhop serve: the editor. The server knows the rules: every click
// follows the groups of legal actions it sends ("clicks"), and every
// action, take-back, comment and tag goes to /api/editor/… and comes back
// as the new record text, board and findings. Nothing here decides what
// is legal.
(function () {
  "use strict";

  var $ = function (id) { return document.getElementById(id); };
  var words = JSON.parse($("editor-words").textContent);
  var state = JSON.parse($("editor-state").textContent);
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";
  var selected = null; // dice: {cell}; Hüpfer: {path: [points], step}
  var broken = false; // the typed text cannot be edited until it reads again
  var typing = null;
  var asked = 0; // the number of the last request for typed text

  // -- talking to the server ------------------------------------------------

  function post(name, payload) {
    return fetch("/api/editor/" + name, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(payload)
    }).then(function (response) {
      return response.json().then(
        function (data) { return { status: response.status, data: data }; },
        function () { return { status: response.status, data: { error: words.failed } }; }
      );
    }, function () {
      return { status: 0, data: { error: words.failed } };
    });
  }

  function base(extra) {
    var payload = { text: state.text, cursor: state.cursor, game: state.game };
    Object.keys(extra || {}).forEach(function (key) { payload[key] = extra[key]; });
    return payload;
  }

  function act(name, extra) {
    // the text box is the user's: an edit goes on from what it holds, once
    // the server has read it (never from an older text over a newer one)
    if (name !== "new" && $("record").value !== state.text) {
      if (typing) { clearTimeout(typing); typing = null; }
      typed();
      return Promise.resolve(null);
    }
    if (broken && name !== "new") {
      say(words.broken, true);
      return Promise.resolve(null);
    }
    say("");
    return post(name, base(extra)).then(function (answer) {
      if (answer.status >= 400 || !answer.data.ok) {
        tell(answer.data);
        return null;
      }
      take(answer.data, true);
      return answer.data;
    });
  }

  function take(data, setText) {
    state = data;
    broken = false;
    selected = null;
    if (setText) { $("record").value = data.text; }
    render();
  }

  function tell(data) {
    var text = data.error || words.failed;
    if (data.detail) { text += " " + data.detail; }
    say(text, true);
    if (data.findings) { showFindings(data.findings); }
  }

  function say(text, problem) {
    var box = $("message");
    box.textContent = text;
    box.classList.toggle("problem", !!problem && !!text);
  }

  // -- drawing --------------------------------------------------------------

  function render() {
    var svg = new DOMParser().parseFromString(state.svg, "image/svg+xml").documentElement;
    var board = $("board");
    board.replaceChildren(document.importNode(svg, true));
    board.classList.toggle("inactive", broken);
    $("status").textContent = state.status;
    renderMoves();
    showFindings(state.findings);
    $("comment").value = state.comment;
    renderTags();
    renderButtons();
    renderLinks();
    $("new").elements.game.value = state.game;
    var boards = $("new").elements.Board;
    if (Array.prototype.some.call(boards.options, function (o) { return o.value === state.tags.Board; })) {
      boards.value = state.tags.Board;
    }
    clearChoices();
    mark();
    hint();
  }

  function hint() {
    var text = "";
    if (broken) { text = words.broken; }
    else if (state.winner) { text = words.over; }
    else if (state.cube.answers.length) { text = words.answer; }
    else if (selected && state.family === "huepfer") { text = words.nextHop; }
    else { text = state.family === "dice" ? words.pickDie : words.pickPiece; }
    if (state.branch && !broken) { text = words.branch + " " + text; }
    $("hint").textContent = text;
  }

  function renderButtons() {
    var cube = state.cube;
    $("offer").hidden = !cube.offer;
    if (cube.offer) { $("offer").dataset.action = cube.offer; }
    $("take").hidden = cube.answers.indexOf("take") < 0;
    $("drop").hidden = cube.answers.indexOf("drop") < 0;
    $("finish").hidden = true;
    $("start").disabled = !state.cursor.length;
    $("back").disabled = !state.previous;
    $("forward").disabled = !state.next;
    $("takeback").disabled = !state.cursor.length;
    $("variation").disabled = !state.cursor.length;
  }

  // the archive's searches for what the board shows: plain links the
  // server made (the opening up to the cursor, the position at it)
  function renderLinks() {
    link($("find-opening"), broken ? null : state.find.opening);
    link($("find-position"), broken ? null : state.find.position);
  }

  function link(anchor, href) {
    if (href) {
      anchor.href = href;
      anchor.removeAttribute("aria-disabled");
    } else {
      anchor.removeAttribute("href");
      anchor.setAttribute("aria-disabled", "true");
    }
  }

  function renderMoves() {
    var box = $("moves");
    var nodes = [];
    var here = JSON.stringify(state.cursor);
    state.moves.forEach(function (token) {
      if (token.kind === "move") {
        if (token.number) {
          var number = document.createElement("span");
          number.className = "number";
          number.textContent = token.number;
          nodes.push(number);
        }
        var button = document.createElement("button");
        button.type = "button";
        button.className = "move";
        button.textContent = token.text;
        button.dataset.address = JSON.stringify(token.address);
        if (button.dataset.address === here) { button.classList.add("current"); }
        nodes.push(button);
      } else if (token.kind === "comment") {
        var note = document.createElement("span");
        note.className = "note";
        note.textContent = token.text;
        nodes.push(note);
      } else {
        var paren = document.createElement("span");
        paren.className = "paren";
        paren.textContent = token.kind === "open" ? "(" : ")";
        nodes.push(paren);
      }
    });
    box.replaceChildren.apply(box, nodes);
  }

  function showFindings(findings) {
    var list = $("findings");
    var items = findings.map(function (finding) {
      var item = document.createElement("li");
      item.className = finding.severity;
      var where = document.createElement("button");
      where.type = "button";
      where.className = "where";
      where.textContent = finding.line ? finding.line + ":" + finding.column : "–";
      where.dataset.line = finding.line || "";
      where.dataset.column = finding.column || "";
      item.appendChild(where);
      item.appendChild(document.createTextNode(" " + finding.code + " " + finding.message));
      return item;
    });
    list.replaceChildren.apply(list, items);
  }

  function renderTags() {
    var form = $("tags");
    var family = state.family;
    form.querySelectorAll("label[data-family]").forEach(function (label) {
      var kind = label.dataset.family;
      label.hidden = kind !== "all" && kind !== family;
    });
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name) { return; }
      var value = state.tags[field.name];
      field.value = value === undefined ? (field.name === "Result" ? "*" : "") : value;
    });
  }

  // -- the board's targets ----------------------------------------------------

  function elementsOf(key) {
    var board = $("board");
    var attribute = state.family === "dice" ? "data-cell" : "data-point";
    return board.querySelectorAll("[" + attribute + '="' + key + '"]');
  }

  function tint(keys, cls) {
    keys.forEach(function (key) {
      elementsOf(key).forEach(function (node) { node.classList.add(cls); });
    });
  }

  function untint(cls) {
    $("board").querySelectorAll("." + cls).forEach(function (node) { node.classList.remove(cls); });
  }

  function mark() {
    ["target", "source", "birth", "path", "movable"].forEach(untint);
    if (broken) { return; }
    tint(Object.keys(groups()), "movable");
    if (!selected) { return; }
    if (state.family === "dice") {
      tint([selected.cell], "source");
      tint(Object.keys(state.clicks.dice[selected.cell].targets), "target");
    } else {
      tint(selected.path, "path");
      tint(Object.keys(selected.step.hops), "target");
      tint(Object.keys(selected.step.births), "birth");
    }
  }

  function groups() {
    return (state.family === "dice" ? state.clicks.dice : state.clicks.pieces) || {};
  }

  function keyOf(event) {
    var node = event.target.closest(state.family === "dice" ? "[data-cell]" : "[data-point]");
    if (!node) { return null; }
    return node.getAttribute(state.family === "dice" ? "data-cell" : "data-point");
  }

  function hover(key) {
    if (selected || broken) { return; }
    untint("target");
    untint("source");
    var group = key && groups()[key];
    if (!group) { return; }
    tint([key], "source");
    tint(Object.keys(state.family === "dice" ? group.targets : group.hops), "target");
  }

  function clickAt(key) {
    if (broken || !key) { return; }
    if (state.family === "dice") { clickDice(key); } else { clickHop(key); }
  }

  function clickDice(cell) {
    var dice = state.clicks.dice;
    if (selected && dice[selected.cell].targets[cell]) {
      var actions = dice[selected.cell].targets[cell];
      if (actions.length === 1) { play(actions[0]); return; }
      choose(words.which, actions.map(function (action) {
        return { label: /=6$/.test(action) ? words.promote : words.keep, action: action };
      }));
      return;
    }
    if (dice[cell] && !(selected && selected.cell === cell)) {
      selected = { cell: cell };
      mark();
      var rolls = dice[cell].rolls;
      var faces = Object.keys(rolls).sort();
      if (faces.length) {
        choose(words.roll, faces.map(function (face) {
          return { label: face, action: rolls[face], face: face };
        }));
      } else {
        clearChoices();
      }
      return;
    }
    unselect();
  }

  function clickHop(point) {
    var pieces = state.clicks.pieces;
    if (selected) {
      var step = selected.step;
      if (step.births[point]) { play(step.births[point]); return; }
      if (step.hops[point]) {
        selected.path.push(point);
        selected.step = step.hops[point];
        var next = selected.step;
        var goesOn = Object.keys(next.hops).length || Object.keys(next.births).length;
        if (next.finish && !goesOn) { play(next.finish); return; }
        showStep();
        return;
      }
      if (selected.path.length > 1 || selected.path[0] === point || !pieces[point]) {
        unselect();
        return;
      }
    }
    if (pieces[point]) {
      selected = { path: [point], step: pieces[point] };
      showStep();
    }
  }

  function showStep() {
    mark();
    hint();
    var finish = $("finish");
    finish.hidden = !selected.step.finish;
    if (selected.step.finish) { finish.dataset.action = selected.step.finish; }
  }

  function unselect() {
    selected = null;
    clearChoices();
    $("finish").hidden = true;
    mark();
    hint();
  }

  function choose(title, options) {
    var box = $("choices");
    var label = document.createElement("span");
    label.className = "label";
    label.textContent = title;
    var buttons = options.map(function (option) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary choice" + (option.face ? " face face-" + option.face : "");
      button.textContent = option.label;
      button.dataset.action = option.action;
      return button;
    });
    box.replaceChildren.apply(box, [label].concat(buttons));
    box.hidden = false;
  }

  function clearChoices() {
    var box = $("choices");
    box.replaceChildren();
    box.hidden = true;
  }

  function play(action) {
    return act("play", { action: action, branch: !!state.branch });
  }

  function go(address) {
    if (!address) { return; }
    act("state", { cursor: address, branch: false });
  }

  // -- typing -----------------------------------------------------------------

  function typed() {
    typing = null;
    var text = $("record").value;
    var number = ++asked;
    post("state", { text: text, cursor: [], at: "end", game: state.game }).then(function (answer) {
      if (number !== asked) { return; } // a later text was typed meanwhile
      if (answer.status >= 400) { tell(answer.data); return; }
      if (!answer.data.ok) {
        broken = true;
        state.text = text;
        showFindings(answer.data.findings);
        $("board").classList.add("inactive");
        renderLinks();
        selected = null;
        mark();
        hint();
        return;
      }
      say("");
      take(answer.data, false);
    });
  }

  function showPlace(line, column) {
    var area = $("record");
    var lines = area.value.split("\n");
    var offset = 0;
    for (var i = 0; i < line - 1 && i < lines.length; i++) { offset += lines[i].length + 1; }
    offset += Math.max(0, column - 1);
    area.focus();
    area.setSelectionRange(offset, Math.min(area.value.length, offset + 1));
  }

  // -- wiring ---------------------------------------------------------------------

  var board = $("board");
  board.addEventListener("mouseover", function (event) { hover(keyOf(event)); });
  board.addEventListener("mouseleave", function () { hover(null); });
  board.addEventListener("click", function (event) { clickAt(keyOf(event)); });

  $("choices").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-action]");
    if (button) { play(button.dataset.action); }
  });
  $("finish").addEventListener("click", function () { play($("finish").dataset.action); });
  $("offer").addEventListener("click", function () { play($("offer").dataset.action); });
  $("take").addEventListener("click", function () { play("take"); });
  $("drop").addEventListener("click", function () { play("drop"); });
  $("start").addEventListener("click", function () { go([]); });
  $("back").addEventListener("click", function () { go(state.previous); });
  $("forward").addEventListener("click", function () { go(state.next); });
  $("takeback").addEventListener("click", function () { act("takeback"); });
  $("variation").addEventListener("click", function () { act("variation"); });
  $("moves").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-address]");
    if (button) { go(JSON.parse(button.dataset.address)); }
  });
  $("findings").addEventListener("click", function (event) {
    var button = event.target.closest("button.where");
    if (button && button.dataset.line) {
      showPlace(Number(button.dataset.line), Number(button.dataset.column));
    }
  });
  $("comment-form").addEventListener("submit", function (event) {
    event.preventDefault();
    act("comment", { comment: $("comment").value });
  });
  $("tags").addEventListener("submit", function (event) {
    event.preventDefault();
    var tags = {};
    Array.prototype.forEach.call(event.target.elements, function (field) {
      if (field.name && field.name !== "Board" && !field.closest("label").hidden) {
        tags[field.name] = field.value;
      }
    });
    act("tags", { tags: tags });
  });
  $("new").addEventListener("submit", function (event) {
    event.preventDefault();
    var form = event.target;
    var game = form.elements.game.value;
    var family = form.elements.game.selectedOptions[0].dataset.family;
    var tags = family === "huepfer" ? { Board: form.elements.Board.value }
      : { First: form.elements.First.value };
    post("new", { game: game, tags: tags }).then(function (answer) {
      if (answer.status >= 400) { tell(answer.data); return; }
      say("");
      take(answer.data, true);
    });
  });
  var save = $("save");
  if (save) {
    save.addEventListener("submit", function (event) {
      event.preventDefault();
      var form = event.target;
      var out = $("saved");
      out.textContent = "";
      post("save", {
        text: $("record").value,
        game: state.game,
        folder: Number(form.elements.folder.value),
        name: form.elements.name.value
      }).then(function (answer) {
        out.classList.toggle("problem", answer.status >= 400);
        out.textContent = answer.data.message || answer.data.error || words.failed;
        if (answer.data.detail && answer.status >= 400) { out.textContent += " " + answer.data.detail; }
        if (answer.data.findings) { showFindings(answer.data.findings); }
        if (answer.data.game) {
          var link = document.createElement("a");
          link.href = "/games/" + answer.data.game;
          link.textContent = words.open;
          out.appendChild(document.createTextNode(" "));
          out.appendChild(link);
        }
      });
    });
  }
  $("record").addEventListener("input", function () {
    if (typing) { clearTimeout(typing); }
    typing = setTimeout(typed, 350);
  });

  document.addEventListener("keydown", function (event) {
    var typingHere = event.target.closest("input, textarea, select");
    if (typingHere || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "ArrowLeft" && state.previous) { go(state.previous); }
    else if (event.key === "ArrowRight" && state.next) { go(state.next); }
    else if (event.key === "Escape" && selected) { unselect(); }
    else { return; }
    event.preventDefault();
  });

  $("record").value = state.text;
  render();
})();
