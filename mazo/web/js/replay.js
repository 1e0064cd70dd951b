// The replay viewer: /replay/<id> is the table page without a socket. It fetches one deal
// of a finished match as one seat saw it (GET /api/tables/<id>/replay?seat=K&deal=D: the
// very `state` messages that seat was sent) and hands the current step to table.js's
// displayState. Forward / back / first / last (also ← → Home End), a deal picker, a
// seat picker (each seat, or the spectators), the counter "deal 2 · move 14/57". Nothing
// can be played: the steps' legal actions are dropped before drawing.

import { t, onLanguageChange } from "./i18n.js";
import { h, clear } from "./dom.js";

const $ = (id) => document.getElementById(id);

const view = {
  host: null, // {tableId, displayState, showMessage}
  summary: null, // the table summary (the replay answer's)
  deals: [], // [{deal, first, last}]
  deal: 1,
  seat: null, // a seat number, or null: the spectators
  steps: [],
  index: 0,
  cache: new Map(), // "seat:deal" -> answer
  loading: false,
};

async function getJson(url) {
  const res = await fetch(url);
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

function seatKey(seat) {
  return seat === null || seat === undefined ? "" : String(seat);
}

async function fetchDeal(seat, deal) {
  const key = `${seatKey(seat)}:${deal}`;
  if (view.cache.has(key)) return view.cache.get(key);
  const id = encodeURIComponent(view.host.tableId);
  const data = await getJson(`/api/tables/${id}/replay?seat=${seatKey(seat)}&deal=${deal}`);
  view.cache.set(key, data);
  return data;
}

/** Load (seat, deal) and show its step `index` (clamped; -1: the last, -2: the one
 * before); false when the server refused (the reason is shown). */
async function load(seat, deal, index, quiet = false) {
  view.loading = true;
  renderBar();
  let ok = true;
  try {
    const data = await fetchDeal(seat, deal);
    view.summary = data.table;
    view.deals = data.deals;
    view.deal = data.deal;
    view.seat = data.seat;
    view.steps = data.steps;
    const last = view.steps.length - 1;
    view.index = Math.max(0, Math.min(last, index < 0 ? last + 1 + index : index));
  } catch (err) {
    ok = false;
    if (!quiet) view.host.showMessage(t("replay.failed", { error: err.message }), "error", true);
  } finally {
    view.loading = false;
  }
  show();
  return ok;
}

/** A step as the page draws it: nothing to click (no legal actions), and no pacing (the
 * viewer steps at the reader's pace: no trick dwell, no deal result waiting for a click). */
function drawable(step) {
  const obs = { ...step.observation, legal_actions: [] };
  if (obs.offences) obs.offences = [];
  const table = { ...step.table, settings: { ...(step.table.settings || {}), dwell: 0, hints: false } };
  return { ...step, observation: obs, table };
}

function show() {
  renderBar();
  const step = view.steps[view.index];
  if (!step) return;
  const bar = $("replay-bar");
  bar.dataset.deal = String(view.deal);
  bar.dataset.move = String(view.index);
  bar.dataset.moves = String(view.steps.length - 1);
  bar.dataset.version = String(step.version);
  bar.dataset.seat = seatKey(view.seat);
  const params = new URLSearchParams();
  if (view.seat !== null) params.set("seat", String(view.seat));
  params.set("deal", String(view.deal));
  params.set("move", String(view.index));
  history.replaceState(null, "", `${location.pathname}?${params}`);
  view.host.displayState(drawable(step));
}

function go(index) {
  if (view.loading || !view.steps.length) return;
  const last = view.steps.length - 1;
  if (index > last) {
    // past a deal's end: the next deal (its first step is this deal's last, shown already)
    if (view.deal < view.deals.length) load(view.seat, view.deal + 1, 1);
    return;
  }
  if (index < 0) {
    if (view.deal > 1) load(view.seat, view.deal - 1, -2);
    return;
  }
  view.index = index;
  show();
}

/** A game's own word where it has one (`replay.deal_n.escoba`: "Hand 2"), as table.js's
 * gameText does. */
function gt(key, params) {
  const game = view.summary && view.summary.game;
  return t(`${key}.${game}`, params, t(key, params));
}

function seatLabel(s) {
  const info = (view.summary.seats || []).find((x) => x.seat === s) || { kind: "human" };
  if (info.kind === "bot") return t("seat.bot_name", { n: s + 1, level: t("bot." + info.level, null, info.level) });
  return info.name ? `${t("seat.n", { n: s + 1 })} · ${info.name}` : t("seat.n", { n: s + 1 });
}

function button(id, symbol, key, onclick, disabled) {
  return h("button", { type: "button", id, class: "small replay-step", title: t(key), "aria-label": t(key), disabled, onclick }, symbol);
}

function renderBar() {
  let bar = $("replay-bar");
  if (!bar) {
    bar = h("nav", { id: "replay-bar", class: "replay-bar", "aria-label": t("replay.title") });
    const anchor = document.querySelector(".play-area");
    anchor.insertBefore(bar, anchor.firstChild);
  }
  if (!view.summary) {
    const note = view.loading ? t("replay.loading") : "";
    clear(bar, h("strong", { class: "replay-title" }, t("replay.title")), " ", h("span", { id: "replay-counter", class: "replay-counter" }, note), tableLink());
    return;
  }
  const last = view.steps.length - 1;
  const atStart = view.index <= 0 && view.deal <= 1;
  const atEnd = view.index >= last && view.deal >= view.deals.length;
  const dealSel = h("select", { id: "replay-deal", "aria-label": gt("replay.deal") });
  for (const d of view.deals) dealSel.append(h("option", { value: String(d.deal) }, gt("replay.deal_n", { n: d.deal })));
  dealSel.value = String(view.deal);
  dealSel.addEventListener("change", () => load(view.seat, Number(dealSel.value), 0));
  const seatSel = h("select", { id: "replay-seat", "aria-label": t("replay.seat") });
  for (let s = 0; s < view.summary.players; s++) seatSel.append(h("option", { value: String(s) }, seatLabel(s)));
  seatSel.append(h("option", { value: "" }, t("replay.spectator")));
  seatSel.value = seatKey(view.seat);
  seatSel.addEventListener("change", () => load(seatSel.value === "" ? null : Number(seatSel.value), view.deal, view.index));
  clear(
    bar,
    h("strong", { class: "replay-title" }, t("replay.title")),
    h(
      "span",
      { class: "replay-buttons", title: t("replay.keys") },
      button("replay-first", "|◀", "replay.first", () => go(0), atStart || view.index === 0),
      button("replay-back", "◀", "replay.back", () => go(view.index - 1), atStart),
      button("replay-forward", "▶", "replay.forward", () => go(view.index + 1), atEnd),
      button("replay-last", "▶|", "replay.last", () => go(last), view.index >= last),
    ),
    h("span", { id: "replay-counter", class: "replay-counter", "aria-live": "polite" }, gt("replay.counter", { deal: view.deal, move: view.index, moves: last })),
    h("label", { class: "picker" }, h("span", null, gt("replay.deal")), dealSel),
    h("label", { class: "picker" }, h("span", null, t("replay.seat")), seatSel),
    tableLink(),
  );
}

function tableLink() {
  const href = `/table/${encodeURIComponent(view.host.tableId)}`;
  return h("a", { class: "replay-table-link", id: "replay-table", href }, t("replay.open_table"));
}

function onKey(ev) {
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const moves = {
    ArrowRight: () => go(view.index + 1),
    ArrowLeft: () => go(view.index - 1),
    Home: () => go(0),
    End: () => go(view.steps.length - 1),
  };
  const f = moves[ev.key];
  if (!f) return;
  ev.preventDefault();
  f();
}

/** host: {tableId, displayState(msg), showMessage(text, kind, sticky)} */
export async function startReplay(host) {
  view.host = host;
  document.body.classList.add("replay-mode");
  renderBar();
  document.addEventListener("keydown", onKey);
  onLanguageChange(() => renderBar());
  const q = new URLSearchParams(location.search);
  let seat = null;
  if (q.has("seat") && q.get("seat") !== "") seat = Number(q.get("seat"));
  else {
    // no seat asked for: the first person's view (hands are what a replay is for)
    try {
      const table = await getJson(`/api/tables/${encodeURIComponent(host.tableId)}`);
      const person = (table.seats || []).find((s) => s.kind === "human");
      seat = person ? person.seat : 0;
    } catch (_) {
      seat = null;
    }
  }
  const deal = Number(q.get("deal")) || 1;
  const move = q.has("move") ? Number(q.get("move")) || 0 : 0;
  seat = Number.isInteger(seat) ? seat : null;
  // a link to a deal or seat the match does not have: its first deal, from the same seat
  // or else the spectators' view (the server says what was wrong only if that fails too)
  if (await load(seat, deal, move, true)) return;
  if (await load(seat, 1, 0, true)) return;
  await load(null, 1, 0);
}
