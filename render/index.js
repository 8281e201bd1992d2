/* hexhop archive index: sort the table by a column, filter it by words.
   No network; works on the rows that are in the page. Its words are the
   page's labels (JSON in #hexhop-labels), in the page's language. */
(function () {
  "use strict";
  var table = document.getElementById("games");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filter = document.getElementById("filter");
  var shown = document.getElementById("shown");
  var order = { column: -1, up: true };
  var labels = JSON.parse(document.getElementById("hexhop-labels").textContent);

  // what a cell sorts by: its data-sort (numbers, dates) or its text
  function key(row, column) {
    var cell = row.cells[column];
    var value = cell.getAttribute("data-sort");
    return value !== null ? value : cell.textContent.toLowerCase();
  }

  function compare(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function sortBy(column) {
    order.up = order.column === column ? !order.up : true;
    order.column = column;
    var numeric = table.tHead.rows[0].cells[column].hasAttribute("data-numeric");
    var sorted = rows.slice().sort(function (a, b) {
      var x = key(a, column), y = key(b, column);
      var result = numeric ? Number(x) - Number(y) : compare(x, y);
      return (order.up ? result : -result) || rows.indexOf(a) - rows.indexOf(b);
    });
    sorted.forEach(function (row) { body.appendChild(row); });
    var heads = table.tHead.rows[0].cells;
    for (var i = 0; i < heads.length; i++) {
      heads[i].setAttribute("aria-sort", i === column ? (order.up ? "ascending" : "descending") : "none");
    }
  }

  function applyFilter() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var match = words.every(function (word) { return text.indexOf(word) >= 0; });
      row.hidden = !match;
      if (match) { count++; }
    });
    shown.textContent = words.length
      ? String(labels.shown).replace("{shown}", String(count)).replace("{total}", String(rows.length))
      : "";
  }

  Array.prototype.forEach.call(table.tHead.querySelectorAll("button[data-column]"), function (button) {
    button.addEventListener("click", function () {
      sortBy(Number(button.getAttribute("data-column")));
    });
  });
  filter.addEventListener("input", applyFilter);
  filter.hidden = false;
  applyFilter();
})();
