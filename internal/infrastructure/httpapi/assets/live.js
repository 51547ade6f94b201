// The live page of one run: its events (GET /api/executions/{id}/events) as they come, each
// value put in the page as text (textContent), never as markup.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) { return; }
  var id = root.dataset.run, token = root.dataset.token;
  var url = "/api/executions/" + encodeURIComponent(id) + "/events" + (token ? "?token=" + encodeURIComponent(token) : "");
  var statusEl = document.getElementById("status"), steps = document.getElementById("steps");
  var calls = document.getElementById("calls-body"), timeline = document.getElementById("timeline");
  var es = new EventSource(url);

  function data(ev) { try { return JSON.parse(ev.data); } catch (e) { return {}; } }
  function text(v) { return v === undefined || v === null ? "" : String(v); }
  function cell(tr, v) { var td = document.createElement("td"); td.textContent = text(v); tr.appendChild(td); }
  function key(d) { return (d.within ? d.within + " › " : "") + text(d.step_name); }
  function step(d, create) {
    var k = key(d), items = steps.children;
    for (var i = items.length - 1; i >= 0; i--) {
      var state = items[i].dataset.state;
      if (items[i].dataset.key === k && (!create || (state !== "completed" && state !== "failed"))) { return items[i]; }
    }
    var li = document.createElement("li");
    li.dataset.key = k;
    var name = document.createElement("span"); name.className = "name"; name.textContent = k;
    var st = document.createElement("span"); st.className = "state";
    var out = document.createElement("pre"); out.hidden = true;
    li.appendChild(name); li.appendChild(document.createTextNode(" ")); li.appendChild(st); li.appendChild(out);
    steps.appendChild(li);
    return li;
  }
  function setState(li, state, cls) {
    li.dataset.state = state;
    var st = li.querySelector(".state"); st.textContent = state; st.className = "state st-" + cls;
  }
  es.addEventListener("step.started", function (ev) { setState(step(data(ev), true), "running", "running"); });
  // An output event with partial set is one line as the step wrote it; without, the step's
  // whole output, which replaces the lines shown so far.
  es.addEventListener("output", function (ev) {
    var d = data(ev), pre = step(d, !!d.partial).querySelector("pre");
    pre.hidden = false;
    if (d.partial) { pre.textContent += text(d.output) + "\n"; } else { pre.textContent = text(d.output); }
  });
  es.addEventListener("step.completed", function (ev) { setState(step(data(ev), false), "completed", "completed"); });
  es.addEventListener("step.failed", function (ev) {
    var d = data(ev), li = step(d, false);
    setState(li, "failed", "failed");
    if (d.error) { var pre = li.querySelector("pre"); pre.hidden = false; pre.textContent = text(d.error); }
  });
  es.addEventListener("tool.call", function (ev) {
    var d = data(ev), tr = document.createElement("tr");
    tr.className = "call " + text(d.outcome);
    tr.dataset.call = text(d.call_id);
    cell(tr, d.started_at ? new Date(d.started_at).toLocaleTimeString() : "");
    cell(tr, d.step_name + (d.iteration !== undefined ? "[" + d.iteration + "]" : ""));
    cell(tr, d.tool); cell(tr, d.variant); cell(tr, d.decision); cell(tr, d.outcome);
    cell(tr, d.duration_ms !== undefined ? Number(d.duration_ms).toFixed(1) : ""); cell(tr, d.error);
    calls.appendChild(tr);
    var mark = document.createElement("span");
    mark.className = "mark v-" + text(d.variant) + " " + text(d.outcome);
    mark.title = text(d.tool) + " · " + text(d.variant) + " · " + text(d.outcome);
    mark.textContent = d.outcome === "refused" ? "✕" : "";
    timeline.appendChild(mark);
  });
  function end(ev) {
    var d = data(ev);
    statusEl.textContent = text(d.status);
    statusEl.className = "st-" + text(d.status);
    root.dataset.ended = "true";
    es.close();
  }
  // Calls held for approval (mcp_proxy.intent.ask): polled while the run goes on, each with
  // Approve and Deny buttons that answer through the API as the page (by: "page").
  var held = document.getElementById("approvals");
  function api(path, opts) {
    opts = opts || {};
    opts.headers = { "Content-Type": "application/json" };
    if (token) { opts.headers.Authorization = "Bearer " + token; }
    return fetch("/api/executions/" + encodeURIComponent(id) + "/approvals" + path, opts);
  }
  function decide(aid, decision, li) {
    li.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    api("/" + encodeURIComponent(aid), { method: "POST", body: JSON.stringify({ decision: decision, by: "page" }) })
      .then(function (r) { li.dataset.decided = r.ok ? decision : "conflict"; poll(); })
      .catch(function () { li.dataset.decided = "error"; });
  }
  function button(label, aid, decision, li) {
    var b = document.createElement("button");
    b.type = "button"; b.className = decision; b.textContent = label;
    b.addEventListener("click", function () { decide(aid, decision, li); });
    return b;
  }
  function showHeld(list) {
    var seen = {};
    list.forEach(function (a) {
      var aid = text(a.id); seen[aid] = true;
      if (held.querySelector('li[data-approval="' + aid.replace(/[^0-9a-f]/g, "") + '"]')) { return; }
      var li = document.createElement("li");
      li.dataset.approval = aid;
      var what = document.createElement("span");
      what.textContent = text(a.step) + ": " + text(a.variant) + " call " + text(a.tool) + " " + text(a.summary) + " ";
      li.appendChild(what);
      li.appendChild(button("Approve", aid, "approve", li));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(button("Deny", aid, "deny", li));
      held.appendChild(li);
    });
    Array.prototype.slice.call(held.children).forEach(function (li) {
      if (!seen[li.dataset.approval]) { held.removeChild(li); }
    });
  }
  function poll() {
    api("", {}).then(function (r) { return r.ok ? r.json() : { body: { approvals: [] } }; })
      .then(function (j) { showHeld((j.body && j.body.approvals) || []); })
      .catch(function () {});
  }
  poll();
  var poller = setInterval(function () { if (root.dataset.ended === "true") { clearInterval(poller); showHeld([]); } else { poll(); } }, 1000);
  es.addEventListener("workflow.completed", end);
  es.addEventListener("workflow.failed", end);
}());
