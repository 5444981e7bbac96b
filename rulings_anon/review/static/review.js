// Keyboard and selection for the review pages: the server decides, this script only asks it.
"use strict";

const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
const article = () => document.getElementById("text");
let focused = -1;

function message(text) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.hidden = !text;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()},
    body: JSON.stringify(body),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: "the server sent no answer"}; }
  if (!response.ok) {
    message((response.status === 409 ? "Conflict: " : "Refused: ") + (data.error || response.status));
    return null;
  }
  message("");
  return data;
}

function marks() { return Array.from(document.querySelectorAll("#text mark.sp")); }

function focusMark(index, scroll = true) {
  const all = marks();
  if (!all.length) { focused = -1; return; }
  focused = Math.max(0, Math.min(index, all.length - 1));
  all.forEach((m, i) => m.classList.toggle("focus", i === focused));
  const mark = all[focused];
  if (scroll) mark.scrollIntoView({block: "center"});
  const info = document.getElementById("focus-info");
  if (info) info.textContent = `${focused + 1}/${all.length}: «${mark.textContent}» ${mark.title}`;
  const type = document.getElementById("span-type");
  if (type && mark.dataset.type) type.value = mark.dataset.type;
  sessionStorage.setItem("focus:" + article().dataset.ruling, mark.dataset.id);
}

function current() { return marks()[focused] || null; }

// A state answered by the server: marks updated in place, or the page reloaded when spans
// appeared, vanished or moved.
function apply(state) {
  if (!state) return;
  const el = article();
  el.dataset.version = state.version;
  const byId = new Map(state.spans.map(s => [String(s.id), s]));
  const all = marks();
  const same = all.every(m => byId.has(m.dataset.id) && String(byId.get(m.dataset.id).start) === m.dataset.o &&
                   String(byId.get(m.dataset.id).end) === m.dataset.end);
  const visibleIds = new Set(all.map(m => m.dataset.id));
  const hidden = state.spans.filter(s => !visibleIds.has(String(s.id)) && s.state !== "rejected");
  if (!same || hidden.length) { location.reload(); return; }
  for (const m of all) {
    const s = byId.get(m.dataset.id);
    m.classList.remove("st-open", "st-accepted", "st-rejected");
    m.classList.add("st-" + s.state);
    m.dataset.v = s.version;
    m.dataset.type = s.type || "";
    m.title = m.title.replace(/ · (open|accepted|rejected)$/, " · " + s.state);
  }
  const c = state.counts;
  document.getElementById("counts").textContent = `${c.open} open · ${c.accepted} accepted · ${c.rejected} rejected`;
  document.getElementById("done-state").textContent = state.done ? "done" : "to review";
  focusMark(focused, false);
}

// Offsets of the ruling (code points) of a point of the selection.
function offsetOf(node, offset) {
  let chunk = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
  if (node.nodeType !== Node.TEXT_NODE) {
    if (chunk === article()) {
      const child = chunk.childNodes[offset];
      return child ? Number(child.dataset.o) : null;
    }
    offset = offset ? chunk.textContent.length : 0;
  }
  if (!chunk || chunk.dataset.o === undefined) return null;
  return Number(chunk.dataset.o) + Array.from(chunk.textContent.slice(0, offset)).length;
}

function selection() {
  const sel = window.getSelection();
  if (!sel.rangeCount || sel.isCollapsed) { message("Select the text first."); return null; }
  const range = sel.getRangeAt(0);
  if (!article().contains(range.startContainer) || !article().contains(range.endContainer)) {
    message("Select text of the ruling."); return null;
  }
  const start = offsetOf(range.startContainer, range.startOffset);
  const end = offsetOf(range.endContainer, range.endOffset);
  if (start === null || end === null) { message("Select text of the ruling."); return null; }
  return {start, end};
}

const base = () => ({ruling: article().dataset.ruling, version: Number(article().dataset.version)});

async function act(action) {
  const mark = current();
  const span = mark ? {span: Number(mark.dataset.id), version: Number(mark.dataset.v)} : null;
  const need = () => { if (!span) message("No span chosen: j / k or a click chooses one."); return span; };
  if (action === "accept" || action === "reject" || action === "accept-all" || action === "reject-all") {
    if (!need()) return;
    const [decision, all] = action.split("-");
    apply(await post("/api/decide", {ruling: base().ruling, ...span, decision, all: !!all}));
    if (!all && decision) focusNextOpen();
  } else if (action === "add") {
    const sel = selection();
    if (!sel) return;
    const state = await post("/api/add", {...base(), ...sel, type: document.getElementById("new-type").value});
    if (state) { window.getSelection().removeAllRanges(); location.reload(); }
  } else if (action === "extent") {
    const sel = selection();
    if (!sel || !need()) return;
    if (await post("/api/edit", {ruling: base().ruling, ...span, ...sel})) location.reload();
  } else if (action === "type") {
    if (!need()) return;
    apply(await post("/api/edit", {ruling: base().ruling, ...span, type: document.getElementById("span-type").value}));
  } else if (action === "undo") {
    if (await post("/api/undo", base())) location.reload();
  } else if (action === "done") {
    apply(await post("/api/done", {...base(), done: true}));
  }
}

function focusNextOpen() {
  const all = marks();
  for (let i = focused + 1; i < all.length; i++) {
    if (all[i].classList.contains("st-open")) { focusMark(i); return; }
  }
}

const KEYS = {j: () => focusMark(focused + 1), k: () => focusMark(focused - 1), a: () => act("accept"),
              r: () => act("reject"), A: () => act("accept-all"), R: () => act("reject-all"), n: () => act("add"),
              e: () => act("extent"), u: () => act("undo"), d: () => act("done")};

function setUpRuling() {
  document.addEventListener("keydown", event => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const handler = KEYS[event.key];
    if (handler) { event.preventDefault(); handler(); }
  });
  document.querySelectorAll("#tools button[data-action]").forEach(
    b => b.addEventListener("click", () => act(b.dataset.action)));
  // a choice made, the keys work again
  document.getElementById("span-type").addEventListener("change", event => { event.target.blur(); act("type"); });
  document.getElementById("new-type").addEventListener("change", event => event.target.blur());
  article().addEventListener("click", event => {
    const mark = event.target.closest("mark.sp");
    if (mark && window.getSelection().isCollapsed) focusMark(marks().indexOf(mark), false);
  });
  const remembered = sessionStorage.getItem("focus:" + article().dataset.ruling);
  const index = marks().findIndex(m => m.dataset.id === remembered);
  if (index >= 0) focusMark(index);
  document.body.dataset.ready = "1";
}

function setUpExport() {
  document.getElementById("export").addEventListener("click", async () => {
    const result = await post("/api/export", {operator: document.getElementById("operator").value});
    if (result) document.getElementById("export-result").textContent = JSON.stringify(result, null, 2);
  });
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", () => {
  if (article()) setUpRuling();
  else if (document.getElementById("export")) setUpExport();
  else document.body.dataset.ready = "1";
});
