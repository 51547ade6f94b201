// Filters for the table of tool calls; without JavaScript the whole table shows.
(function () {
  "use strict";
  var table = document.getElementById("calls");
  var box = document.getElementById("filters");
  if (!table || !box) { return; }
  var keys = ["step", "tool", "variant", "outcome"];
  var selects = {};
  keys.forEach(function (k) {
    var values = {};
    table.querySelectorAll("tbody tr").forEach(function (tr) { values[tr.dataset[k]] = true; });
    var label = document.createElement("label");
    label.textContent = k + " ";
    var sel = document.createElement("select");
    sel.id = "filter-" + k;
    var all = document.createElement("option");
    all.value = ""; all.textContent = "all";
    sel.appendChild(all);
    Object.keys(values).sort().forEach(function (v) {
      var o = document.createElement("option");
      o.value = v; o.textContent = v;
      sel.appendChild(o);
    });
    sel.addEventListener("change", apply);
    label.appendChild(sel);
    box.appendChild(label);
    selects[k] = sel;
  });
  var count = document.createElement("span");
  count.id = "filter-count";
  count.setAttribute("aria-live", "polite");
  box.appendChild(count);
  function apply() {
    var shown = 0;
    table.querySelectorAll("tbody tr").forEach(function (tr) {
      var ok = keys.every(function (k) { return !selects[k].value || tr.dataset[k] === selects[k].value; });
      tr.hidden = !ok;
      if (ok) { shown++; }
    });
    count.textContent = shown + " of " + table.tBodies[0].rows.length + " calls shown";
  }
  apply();
})();
