/* hexhop serve: set up a position for the archive's search by clicking
   (and keep the link to the editor, for an opening, on the game chosen).
   The server reads the Position text, puts the chosen piece on the cell
   clicked and draws the board (/api/position/setup); this script only
   sends the clicks and shows what comes back. Record text never passes
   through here. */
(function () {
  "use strict";
  var box = document.getElementById("setup");
  if (!box) { return; }
  var form = box.closest("form");
  var text = form.querySelector("textarea[name=position]");
  var gameField = form.querySelector("select[name=game]");
  var boardField = form.querySelector("select[name=board]");
  var enter = document.getElementById("enter-opening");
  var palette = document.getElementById("setup-palette");
  var turnField = document.getElementById("setup-turn");
  var board = document.getElementById("setup-board");
  var problem = document.getElementById("setup-problem");
  var state = { piece: "", busy: false };

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (content !== undefined) { node.textContent = content; }
    return node;
  }

  function ask(extra) {
    if (state.busy) { return; }
    state.busy = true;
    var params = new URLSearchParams();
    params.set("game", gameField.value || "Hexalit");
    params.set("board", boardField.value);
    params.set("position", text.value);
    Object.keys(extra || {}).forEach(function (key) { params.set(key, extra[key]); });
    fetch("/api/position/setup?" + params.toString(), { credentials: "same-origin" })
      .then(function (answer) { return answer.json(); })
      .then(show)
      .catch(function () { problem.textContent = box.getAttribute("data-failed"); })
      .then(function () { state.busy = false; });
  }

  function show(data) {
    if (data.error) { problem.textContent = data.error; return; }
    if (!gameField.value) { gameField.value = data.game; }
    if (data.board && boardField.value !== data.board) { boardField.value = data.board; }
    text.value = data.position;
    problem.textContent = data.problem || "";
    if (data.style && !document.querySelector("link[data-board-style='" + data.style + "']")) {
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = "/boards/" + data.style + ".css";
      link.setAttribute("data-board-style", data.style);
      document.head.appendChild(link);
    }
    board.innerHTML = data.svg;  // drawn by the server from a position, no record text
    palette.textContent = "";
    var pieces = [{ id: "", label: box.getAttribute("data-erase") }].concat(data.pieces);
    if (!pieces.some(function (p) { return p.id === state.piece; })) { state.piece = data.pieces[0].id; }
    pieces.forEach(function (piece) {
      var button = element("button", "piece", piece.label);
      button.type = "button";
      button.setAttribute("data-piece", piece.id);
      button.setAttribute("aria-pressed", piece.id === state.piece ? "true" : "false");
      palette.appendChild(button);
    });
    turnField.textContent = "";
    data.sides.forEach(function (side) {
      var option = element("option", "", side.label);
      option.value = side.id;
      option.selected = side.id === data.turn;
      turnField.appendChild(option);
    });
  }

  palette.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-piece]");
    if (!button) { return; }
    state.piece = button.getAttribute("data-piece");
    palette.querySelectorAll("button").forEach(function (other) {
      other.setAttribute("aria-pressed", other === button ? "true" : "false");
    });
  });

  // the cell under the pointer: a triangle of Hexalit and Trigeo
  // (class "cell … A4"), else the nearest point of Hüpfer (class "point a1")
  function cellAt(event) {
    var found = document.elementsFromPoint(event.clientX, event.clientY);
    for (var i = 0; i < found.length; i++) {
      var named = found[i].getAttribute && (found[i].getAttribute("data-cell") ||
        found[i].getAttribute("data-point"));
      if (named) { return named; }
      var classes = found[i].classList;
      if (classes && classes.contains("cell")) { return classes[classes.length - 1]; }
    }
    var best = null, distance = Infinity;
    board.querySelectorAll(".point").forEach(function (point) {
      var r = point.getBoundingClientRect();
      var dx = r.left + r.width / 2 - event.clientX, dy = r.top + r.height / 2 - event.clientY;
      var d = dx * dx + dy * dy;
      if (d < distance) { distance = d; best = point.classList[point.classList.length - 1]; }
    });
    return best;
  }

  board.addEventListener("click", function (event) {
    var cell = cellAt(event);
    if (cell) { ask({ cell: cell, piece: state.piece }); }
  });
  turnField.addEventListener("change", function () { ask({ turn: turnField.value }); });
  document.getElementById("setup-clear").addEventListener("click", function () {
    text.value = "";
    ask({});
  });
  document.getElementById("setup-start").addEventListener("click", function () {
    ask({ start: "1" });
  });
  box.addEventListener("toggle", function () { if (box.open) { ask({}); } });
  // "Enter the opening on a board": a new game of the game and board chosen
  function editorLink() {
    var params = new URLSearchParams();
    if (gameField.value) { params.set("game", gameField.value); }
    if (boardField.value) { params.set("board", boardField.value); }
    var query = params.toString();
    enter.href = "/editor" + (query ? "?" + query : "");
  }

  [gameField, boardField].forEach(function (field) {
    field.addEventListener("change", function () {
      editorLink();
      if (box.open) { ask({}); }
    });
  });
  if (box.open) { ask({}); }
})();
