// The table page: one WebSocket per seat (or a watcher's), rendered from each `state`
// message. Everything game-specific lives in ./games/<game>.js (see docs/web.md); this
// file draws what every game shares: seats, hand, trick, scores, history, actions.

import { initI18n, t, onLanguageChange } from "./i18n.js";
import { cardEl, backEl, cardName, deckStyle, saveDeckStyle, isCard } from "./cards.js";
import { h, clear, panel } from "./dom.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const hashParams = new URLSearchParams(location.hash.replace(/^#/, ""));
const token = hashParams.get("token");

const app = {
  ws: null,
  msg: null, // the latest `state` message
  module: null,
  moduleName: null,
  style: null,
  attempts: 0,
  closedForGood: false,
  retryTimer: null,
  pingTimer: null,
  choiceCard: null, // Escoba-style: the hand card whose options are shown
  confirm: null, // {action, until}: an offence the user must click twice
  openMenus: new Set(), // keys of the <details> menus the user opened
  draft: {}, // text typed in boxes, kept across re-renders
  namePrompted: false,
};

// ---- connection ---------------------------------------------------------------------

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${q}`;
}

function setConn(state) {
  const el = $("conn");
  el.dataset.state = state;
  el.textContent = t("conn." + state);
}

function connect() {
  clearTimeout(app.retryTimer);
  setConn("connecting");
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch (err) {
    scheduleReconnect();
    return;
  }
  app.ws = ws;
  ws.addEventListener("open", () => {
    setConn("online");
    clearInterval(app.pingTimer);
    app.pingTimer = setInterval(() => send({ type: "ping" }), 25000);
  });
  ws.addEventListener("message", (ev) => {
    let data;
    try {
      data = JSON.parse(ev.data);
    } catch (_) {
      return;
    }
    if (data.type === "state") onState(data);
    else if (data.type === "error") onError(data);
  });
  ws.addEventListener("close", (ev) => {
    clearInterval(app.pingTimer);
    if (app.ws !== ws) return;
    app.ws = null;
    if (ev.code === 4403) {
      app.closedForGood = true;
      setConn("offline");
      showMessage(t("error.bad_token"), "error", true);
      return;
    }
    if (ev.code === 4404) {
      app.closedForGood = true;
      setConn("offline");
      showMessage(t("error.no_table"), "error", true);
      return;
    }
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  if (app.closedForGood) return;
  setConn("offline");
  const delay = Math.min(15000, 500 * 2 ** app.attempts) * (0.8 + Math.random() * 0.4);
  app.attempts += 1;
  app.retryTimer = setTimeout(connect, delay);
}

function send(obj) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify(obj));
    return true;
  }
  return false;
}

/** Send one action made against the latest version. */
function act(action) {
  if (!app.msg) return;
  hideMessage();
  app.choiceCard = null;
  app.confirm = null;
  if (!send({ type: "act", version: app.msg.version, action })) {
    showMessage(t("error.offline"), "error");
  }
}

function onState(msg) {
  app.attempts = 0;
  const previous = app.msg;
  app.msg = msg;
  if (!previous) rememberSeat(msg.table.game);
  if (!previous || previous.version !== msg.version) {
    app.choiceCard = null;
    app.confirm = null;
  }
  ensureModule(msg.table.game).then(render);
}

function onError(data) {
  const head = t("error." + data.code, null, t("error.generic"));
  const text = data.message ? `${head} ${data.message}` : head;
  showMessage(text, "error");
}

// ---- messages -----------------------------------------------------------------------

let messageTimer = null;

function showMessage(text, kind = "info", sticky = false) {
  const el = $("message");
  el.textContent = text;
  el.dataset.kind = kind;
  el.dataset.sticky = sticky ? "true" : "false";
  el.hidden = false;
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(hideMessage, 12000);
}

function hideMessage() {
  const el = $("message");
  if (el.dataset.sticky === "true") return;
  el.hidden = true;
  el.textContent = "";
}

// ---- the game module ----------------------------------------------------------------

const DEFAULT_MODULE = { deckStyle: "spanish" };

async function ensureModule(name) {
  if (app.moduleName === name && app.module) return;
  try {
    app.module = (await import(`./games/${name}.js`)).default;
  } catch (err) {
    console.error(err);
    app.module = DEFAULT_MODULE;
  }
  app.moduleName = name;
  app.style = deckStyle(name, app.module.deckStyle || "spanish");
  $("deck-style").value = app.style;
}

// ---- the context handed to game modules ---------------------------------------------

function makeCtx() {
  const msg = app.msg;
  const obs = msg.observation;
  const table = msg.table;
  const players = table.players;
  const sides = Array.isArray(obs.scores) && obs.scores.length ? obs.scores.length : players;
  const seat = msg.seat;
  const ctx = {
    msg,
    obs,
    table,
    seat,
    players,
    game: table.game,
    version: msg.version,
    legal: obs.legal_actions || [],
    sides,
    teamGame: sides < players,
    style: app.style,
    t,
    h,
    panel,
    cardName,
    isCard,
    sideOf: (s) => s % sides,
    card: (code, opts = {}) => cardEl(code, { style: app.style, ...opts }),
    back: (opts = {}) => backEl(opts),
    act,
    showMessage,
    draft: app.draft,
    openMenus: app.openMenus,
    rerender: () => render(),
  };
  ctx.seatName = (s) => seatName(table, s);
  ctx.sideName = (side) => sideName(ctx, side);
  ctx.actionLabel = (a) => actionLabel(ctx, a);
  return ctx;
}

function seatInfo(table, s) {
  return (table.seats || []).find((x) => x.seat === s) || { seat: s, kind: "human" };
}

function seatName(table, s) {
  if (s === null || s === undefined) return "?";
  const info = seatInfo(table, s);
  if (info.kind === "bot") return t("seat.bot_name", { n: s + 1, level: t("bot." + info.level, null, info.level) });
  if (info.name) return info.name;
  return t("seat.n", { n: s + 1 });
}

function sideName(ctx, side) {
  if (!ctx.teamGame) return seatName(ctx.table, side);
  return t("team." + side, null, t("team.n", { n: side + 1 }));
}

/** The label of an action: the game module's, else the dictionary's. */
function actionLabel(ctx, action) {
  const mod = app.module || DEFAULT_MODULE;
  if (mod.actionLabel) {
    const label = mod.actionLabel(action, ctx);
    if (label) return label;
  }
  if (isCard(action)) return t("act.play_card", { card: cardName(action) });
  const space = action.indexOf(" ");
  if (space < 0) return t("act." + action, null, action.replace(/_/g, " "));
  const word = action.slice(0, space);
  const arg = action.slice(space + 1);
  if (word === "consult") return t("consult." + arg, null, arg);
  if (word === "signal") return t("signal." + ctx.game + "." + arg, null, isCard(arg) ? cardName(arg) : arg);
  return t("act." + word, { arg }, action);
}

// ---- rendering ----------------------------------------------------------------------

function render() {
  if (!app.msg) return;
  const ctx = makeCtx();
  const mod = app.module || DEFAULT_MODULE;
  document.body.dataset.game = ctx.game;
  renderHeader(ctx);
  renderNameForm(ctx);
  renderStatus(ctx, mod);
  renderSeats(ctx, mod);
  renderCentre(ctx, mod);
  renderTrick(ctx, mod);
  renderHand(ctx, mod);
  renderChoices(ctx, mod);
  renderActions(ctx, mod);
  renderExtra(ctx, mod);
  renderScores(ctx, mod);
  renderPanels(ctx, mod);
  renderLast(ctx, mod);
  renderHistory(ctx, mod);
}

function renderHeader(ctx) {
  const title = ctx.table.title || t("game." + ctx.game);
  $("title").textContent = title;
  document.title = `${title} · mazo`;
  const who =
    ctx.seat === null || ctx.seat === undefined
      ? t("table.watching")
      : t("table.you_are", { n: ctx.seat + 1, name: seatName(ctx.table, ctx.seat) });
  clear(
    $("subtitle"),
    h("span", { class: "game-name" }, t("game." + ctx.game)),
    " · ",
    t("table.players", { n: ctx.players }),
    " · ",
    h("span", { id: "who" }, who),
    ctx.table.watchers ? ` · ${t("table.watchers", { n: ctx.table.watchers })}` : null,
  );
}

function renderNameForm(ctx) {
  const form = $("name-form");
  const mine = ctx.seat !== null && ctx.seat !== undefined ? seatInfo(ctx.table, ctx.seat) : null;
  const needs = mine && mine.kind === "human" && !mine.name;
  form.hidden = !needs;
  if (needs && !app.namePrompted) {
    app.namePrompted = true;
    const input = $("name-input");
    try {
      input.value = localStorage.getItem("mazo.name") || "";
    } catch (_) {
      input.value = "";
    }
    input.focus();
  }
}

function submitName(ev) {
  ev.preventDefault();
  const name = $("name-input").value.trim();
  if (!name || name.length > 40) {
    showMessage(t("name.invalid"), "error");
    return;
  }
  try {
    localStorage.setItem("mazo.name", name);
  } catch (_) {
    // not remembered
  }
  send({ type: "name", name });
}

function renderStatus(ctx, mod) {
  const el = $("status");
  const obs = ctx.obs;
  el.dataset.toAct = obs.to_act === null || obs.to_act === undefined ? "" : String(obs.to_act);
  el.dataset.matchOver = obs.match_over ? "true" : "false";
  el.dataset.phase = obs.phase || "";
  el.dataset.version = String(ctx.version);
  el.dataset.seat = ctx.seat === null || ctx.seat === undefined ? "" : String(ctx.seat);
  const parts = [];
  let mine = false;
  if (obs.match_over) {
    let result;
    if (obs.winner === null || obs.winner === undefined) result = t("status.draw");
    else if (ctx.seat !== null && ctx.seat !== undefined && ctx.sideOf(ctx.seat) === obs.winner)
      result = t("status.you_win", { side: ctx.sideName(obs.winner) });
    else result = t("status.winner", { side: ctx.sideName(obs.winner) });
    parts.push(h("strong", null, t("status.match_over")), " ", result);
  } else {
    if (obs.phase) parts.push(h("span", { class: "phase" }, t("phase." + obs.phase, null, obs.phase)), " · ");
    if (ctx.seat !== null && ctx.seat !== undefined && obs.to_act === ctx.seat) {
      mine = true;
      const hint = mod.turnHint ? mod.turnHint(ctx) : null;
      parts.push(h("strong", { class: "your-turn" }, t("status.your_turn")), hint ? ` · ${hint}` : "");
    } else {
      const extra = mod.statusNote ? mod.statusNote(ctx) : null;
      if (extra) parts.push(h("strong", { class: "your-turn" }, extra), " · ");
      if (obs.to_act !== null && obs.to_act !== undefined) parts.push(t("status.waiting", { name: seatName(ctx.table, obs.to_act) }));
    }
  }
  el.classList.toggle("mine", mine);
  clear(el, ...parts);
}

function seatPosition(k, n) {
  // k = places after the viewer, counterclockwise: the next seat sits at the viewer's right
  const phi = (2 * Math.PI * k) / n;
  return { x: 50 + 41 * Math.sin(phi), y: 50 + 38 * Math.cos(phi) };
}

function renderSeats(ctx, mod) {
  const box = $("seats");
  box.replaceChildren();
  const n = ctx.players;
  $("felt").classList.toggle("many", n >= 6);
  const me = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat;
  const obs = ctx.obs;
  for (let s = 0; s < n; s++) {
    const k = (s - me + n) % n;
    const pos = seatPosition(k, n);
    const info = seatInfo(ctx.table, s);
    const classes = ["seat"];
    if (ctx.teamGame) classes.push("team-" + ctx.sideOf(s));
    if (obs.to_act === s) classes.push("to-act");
    if (s === ctx.seat) classes.push("me");
    if (info.kind === "human" && !info.connected) classes.push("away");
    const badges = [];
    if (obs.dealer === s) badges.push(h("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")));
    if (info.kind === "bot") badges.push(h("span", { class: "badge bot", title: t("seat.bot") }, t("bot." + info.level, null, info.level)));
    else if (!info.connected && info.name) badges.push(h("span", { class: "badge away" }, t("seat.away")));
    if (mod.seatBadges) for (const b of mod.seatBadges(s, ctx) || []) badges.push(h("span", { class: "badge" }, b));
    const cards = h("div", { class: "seat-cards" });
    const shown = mod.seatCards ? mod.seatCards(s, ctx) : null;
    if (s !== ctx.seat) {
      if (shown && shown.length) {
        for (const c of shown) cards.append(ctx.card(c, { small: true, extraClass: "known" }));
      } else {
        const count = (obs.hand_sizes || [])[s] || 0;
        for (let i = 0; i < count; i++) cards.append(backEl({ tiny: true }));
      }
    }
    const el = h(
      "div",
      {
        class: classes.join(" "),
        dataset: { seat: String(s) },
        style: { left: pos.x + "%", top: pos.y + "%" },
        "aria-label": seatName(ctx.table, s),
      },
      h(
        "div",
        { class: "seat-name", title: seatName(ctx.table, s) },
        ctx.teamGame ? h("span", { class: "team-dot", title: ctx.sideName(ctx.sideOf(s)) }) : null,
        info.kind === "bot" ? t("seat.bot_short", { n: s + 1 }) : seatName(ctx.table, s),
      ),
      h("div", { class: "seat-badges" }, badges),
      cards,
    );
    box.append(el);
  }
}

function renderCentre(ctx, mod) {
  const box = $("centre-info");
  box.replaceChildren();
  if (mod.centre) for (const node of mod.centre(ctx) || []) if (node) box.append(node);
}

/** What the trick area shows: the module's choice, else obs.trick, else the trick the
 * last action completed (from the message's events: the last trick of a deal is no
 * longer in the next deal's observation). */
function trickView(ctx, mod) {
  if (mod.trick) {
    const v = mod.trick(ctx);
    if (v) return v;
  }
  const current = ctx.obs.trick || [];
  if (!current.length) {
    const done = (ctx.msg.events || []).filter((e) => e.type === "trick" && Array.isArray(e.cards)).pop();
    if (done && typeof done.leader === "number") {
      return {
        cards: done.cards.map((card, i) => {
          const seat = (done.leader + i) % ctx.players;
          return { seat, card, winner: seat === done.winner };
        }),
        done: true,
        caption: t("trick.last_won_plain", { name: seatName(ctx.table, done.winner) }),
      };
    }
  }
  return { cards: current, caption: null, done: false };
}

function renderTrick(ctx, mod) {
  const box = $("trick");
  const view = trickView(ctx, mod);
  box.replaceChildren();
  box.classList.toggle("done", !!view.done);
  box.dataset.count = String(view.cards.length);
  for (const item of view.cards) {
    const code = typeof item === "string" ? item : item.card;
    const seat = typeof item === "string" ? null : item.seat;
    const fig = h("figure", { class: "played" + (item.winner ? " winner" : "") });
    fig.append(ctx.card(code, { extraClass: "on-table" }));
    if (seat !== null && seat !== undefined) fig.append(h("figcaption", null, seatName(ctx.table, seat)));
    box.append(fig);
  }
  if (!view.cards.length) box.append(h("p", { class: "empty" }, view.emptyText || t("trick.empty")));
  const cap = $("trick-caption");
  cap.textContent = view.caption || "";
}

function legalForCard(ctx, code) {
  const mod = app.module || DEFAULT_MODULE;
  if (mod.cardActions) return mod.cardActions(code, ctx);
  return ctx.legal.filter((a) => a === code || a.startsWith(code + "+"));
}

function renderHand(ctx, mod) {
  const box = $("hand");
  box.replaceChildren();
  const hand = ctx.obs.hand || [];
  const watching = ctx.seat === null || ctx.seat === undefined;
  $("hand-title").textContent = watching ? t("hand.watching") : t("hand.title");
  const offences = new Set(ctx.obs.offences || []);
  for (const code of hand) {
    const options = legalForCard(ctx, code);
    const legal = options.length > 0;
    const el = ctx.card(code, {
      button: true,
      legal,
      extraClass: (offences.has(code) ? "offence" : "") + (app.choiceCard === code ? " chosen" : ""),
      label: legal ? t("hand.play", { card: cardName(code) }) : t("hand.not_playable", { card: cardName(code) }),
    });
    el.addEventListener("click", () => onHandCard(code));
    box.append(el);
  }
}

function onHandCard(code) {
  const ctx = makeCtx();
  const mod = app.module || DEFAULT_MODULE;
  const options = legalForCard(ctx, code);
  if (!options.length) {
    let why = mod.whyIllegal ? mod.whyIllegal(code, ctx) : null;
    if (!why) why = genericWhy(ctx);
    showMessage(why, "warn");
    return;
  }
  if (options.length === 1) {
    tryAct(ctx, options[0]);
    return;
  }
  app.choiceCard = app.choiceCard === code ? null : code;
  render();
  const first = document.querySelector("#choices button");
  if (first) first.focus();
}

function genericWhy(ctx) {
  if (ctx.seat === null || ctx.seat === undefined) return t("why.watching");
  if (ctx.obs.match_over) return t("why.match_over");
  const cards = ctx.legal.filter((a) => isCard(a) || /^[^ ]+\+/.test(a));
  if (ctx.obs.to_act !== ctx.seat && !cards.length) return t("why.not_your_turn", { name: seatName(ctx.table, ctx.obs.to_act) });
  const list = ctx.legal.map((a) => (isCard(a) ? a : ctx.actionLabel(a))).join(", ");
  return t("why.not_legal", { legal: list || t("why.nothing") });
}

/** Act, asking for a second click first when the game lists the action as an offence. */
function tryAct(ctx, action) {
  const offences = ctx.obs.offences || [];
  if (offences.includes(action)) {
    const now = Date.now();
    if (!app.confirm || app.confirm.action !== action || app.confirm.until < now) {
      app.confirm = { action, until: now + 8000 };
      showMessage(t("why.offence_confirm", { action: isCard(action) ? cardName(action) : ctx.actionLabel(action) }), "warn");
      return;
    }
  }
  act(action);
}

function renderChoices(ctx, mod) {
  const box = $("choices");
  box.replaceChildren();
  const code = app.choiceCard;
  const options = code ? legalForCard(ctx, code) : [];
  if (!code || options.length < 2) {
    box.hidden = true;
    app.choiceCard = null;
    return;
  }
  box.hidden = false;
  box.append(h("p", { class: "choices-title" }, t("choices.title", { card: cardName(code) })));
  for (const action of options) {
    const btn = h("button", { type: "button", class: "choice", dataset: { action } });
    if (mod.choiceContent) btn.append(...mod.choiceContent(action, ctx));
    else btn.append(ctx.actionLabel(action));
    const marks = mod.choiceHighlights ? mod.choiceHighlights(action, ctx) : [];
    const on = () => {
      clearHighlights();
      highlight(marks, true);
    };
    const off = () => clearHighlights();
    btn.addEventListener("mouseenter", on);
    btn.addEventListener("focus", on);
    btn.addEventListener("mouseleave", off);
    btn.addEventListener("blur", off);
    btn.addEventListener("click", () => tryAct(makeCtx(), action));
    box.append(btn);
  }
  box.append(h("button", { type: "button", class: "choice cancel", onclick: () => { app.choiceCard = null; render(); } }, t("choices.cancel")));
}

function clearHighlights() {
  for (const el of document.querySelectorAll("#trick .card.highlight")) el.classList.remove("highlight");
}

function highlight(codes, on) {
  for (const code of codes) {
    for (const el of document.querySelectorAll(`#trick [data-card="${code}"]`)) el.classList.toggle("highlight", on);
  }
}

function renderActions(ctx, mod) {
  const box = $("actions");
  box.replaceChildren();
  const rest = ctx.legal.filter((a) => !isCard(a) && !/^[^ ]+\+/.test(a));
  if (!rest.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const groups = mod.groupActions ? mod.groupActions(rest, ctx) : [{ key: "main", actions: rest }];
  for (const group of groups) {
    if (!group.actions.length) continue;
    const buttons = group.actions.map((action) => {
      const full = ctx.actionLabel(action);
      const label = group.label ? group.label(action) : full;
      const b = h("button", { type: "button", class: "action" + (group.menu ? " small" : ""), dataset: { action }, title: full, "aria-label": full }, label);
      if (group.className) b.classList.add(group.className);
      b.addEventListener("click", () => tryAct(makeCtx(), action));
      return b;
    });
    if (group.menu) {
      const det = h("details", { class: "menu", dataset: { menu: group.key } });
      if (app.openMenus.has(group.key)) det.open = true;
      det.addEventListener("toggle", () => {
        if (det.open) app.openMenus.add(group.key);
        else app.openMenus.delete(group.key);
      });
      det.append(h("summary", null, group.title || t("actions.more")));
      if (group.sections) {
        for (const sec of group.sections) {
          const secButtons = buttons.filter((b) => sec.actions.includes(b.dataset.action));
          if (!secButtons.length) continue;
          det.append(h("div", { class: "menu-section" }, h("h3", null, sec.title), h("div", { class: "menu-buttons" }, secButtons)));
        }
      } else {
        det.append(h("div", { class: "menu-buttons" }, buttons));
      }
      box.append(det);
    } else {
      box.append(h("div", { class: "action-group", dataset: { group: group.key } }, group.title ? h("span", { class: "group-title" }, group.title) : null, buttons));
    }
  }
}

function renderExtra(ctx, mod) {
  const box = $("talk");
  const active = document.activeElement;
  const keepFocus = active && box.contains(active) ? active.id : null;
  const node = mod.extra ? mod.extra(ctx) : null;
  if (node && box.firstChild === node) {
    box.hidden = false;
    return; // the same form: keep what is being typed, and the caret
  }
  box.replaceChildren();
  box.hidden = !node;
  if (node) box.append(node);
  if (keepFocus) {
    const el = document.getElementById(keepFocus);
    if (el) el.focus();
  }
}

function renderScores(ctx, mod) {
  const box = $("scores");
  const obs = ctx.obs;
  const cols = mod.scoreColumns ? mod.scoreColumns(ctx) : [{ label: t("scores.points"), values: obs.scores }];
  const head = h("tr", null, h("th", { scope: "col" }, ctx.teamGame ? t("scores.team") : t("scores.player")), cols.map((c) => h("th", { scope: "col", title: c.title || null }, c.label)));
  const rows = [];
  for (let side = 0; side < ctx.sides; side++) {
    const members = [];
    if (ctx.teamGame) for (let s = side; s < ctx.players; s += ctx.sides) members.push(seatName(ctx.table, s));
    const mine = ctx.seat !== null && ctx.seat !== undefined && ctx.sideOf(ctx.seat) === side;
    rows.push(
      h(
        "tr",
        { class: (ctx.teamGame ? "team-" + side : "") + (mine ? " mine" : "") + (obs.winner === side && obs.match_over ? " winner" : ""), dataset: { side: String(side) } },
        h("th", { scope: "row" }, ctx.teamGame ? h("span", { class: "team-dot" }) : null, ctx.sideName(side), members.length ? h("small", null, ` (${members.join(", ")})`) : null),
        cols.map((c) => h("td", null, c.values && c.values[side] !== undefined ? String(c.values[side]) : "")),
      ),
    );
  }
  const note = mod.scoreNote ? mod.scoreNote(ctx) : null;
  clear(box, h("h2", null, t("scores.title")), h("div", { class: "scroll" }, h("table", { class: "scores" }, h("thead", null, head), h("tbody", null, rows))), note ? h("p", { class: "note" }, note) : null);
}

function renderPanels(ctx, mod) {
  const box = $("panels");
  const active = document.activeElement;
  const keepFocus = active && box.contains(active) ? active.id : null;
  box.replaceChildren();
  if (mod.panels) for (const node of mod.panels(ctx) || []) if (node) box.append(node);
  if (keepFocus) {
    const el = document.getElementById(keepFocus);
    if (el) el.focus();
  }
}

function renderLast(ctx, mod) {
  const box = $("last");
  const last = ctx.msg.last;
  if (!last) {
    box.textContent = t("last.none");
    return;
  }
  if (last.action === null || last.action === undefined) {
    // team talk: its words reach only its audience, through the observation's messages
    box.textContent = t("last.talk", { name: seatName(ctx.table, last.seat) });
    return;
  }
  let text = mod.describeLast ? mod.describeLast(last, ctx) : null;
  if (!text) {
    const who = last.seat === null || last.seat === undefined ? t("last.someone") : seatName(ctx.table, last.seat);
    if (isCard(last.action)) text = t("last.played", { name: who, card: cardName(last.action) });
    else text = t("last.did", { name: who, action: ctx.actionLabel(String(last.action)) });
  }
  const end = (ctx.msg.events || []).find((e) => e.type === "hand_end" && Array.isArray(e.points));
  if (end) {
    const pts = end.points.map((p, side) => `${ctx.sideName(side)} ${p > 0 ? "+" : ""}${p}`).join(" · ");
    text += " " + t("last.deal_over", { points: pts });
  }
  box.textContent = text;
}

function renderHistory(ctx) {
  const box = $("history");
  const hist = ctx.msg.history || [];
  if (!hist.length) {
    clear(box, h("p", { class: "empty" }, t("history.empty")));
    return;
  }
  const sides = [];
  for (let side = 0; side < ctx.sides; side++) sides.push(ctx.sideName(side));
  const head = h("tr", null, h("th", { scope: "col" }, t("history.deal")), sides.map((n) => h("th", { scope: "col" }, n)));
  const rows = hist
    .slice()
    .reverse()
    .map((row) =>
      h(
        "tr",
        null,
        h("td", null, String(row.deal)),
        sides.map((_, side) => {
          const p = (row.points || [])[side];
          const s = (row.scores || [])[side];
          return h("td", null, h("span", { class: "pts" }, p > 0 ? `+${p}` : String(p ?? "")), " ", h("span", { class: "running" }, `(${s ?? ""})`));
        }),
      ),
    );
  clear(box, h("table", { class: "history" }, h("caption", null, t("history.caption")), h("thead", null, head), h("tbody", null, rows)));
}

// ---- start --------------------------------------------------------------------------

function rememberSeat(game) {
  if (!token) return;
  try {
    const all = JSON.parse(localStorage.getItem("mazo.seats") || "{}");
    all[tableId] = { url: location.pathname + location.hash, game, time: Date.now() };
    localStorage.setItem("mazo.seats", JSON.stringify(all));
  } catch (_) {
    // not remembered
  }
}

async function main() {
  await initI18n($("lang"));
  const styleSel = $("deck-style");
  const fillStyles = () => {
    const v = styleSel.value || app.style || "spanish";
    clear(styleSel, h("option", { value: "spanish" }, t("deck.spanish")), h("option", { value: "italian" }, t("deck.italian")));
    styleSel.value = v;
  };
  fillStyles();
  styleSel.addEventListener("change", () => {
    app.style = styleSel.value;
    if (app.moduleName) saveDeckStyle(app.moduleName, app.style);
    render();
  });
  onLanguageChange(() => {
    fillStyles();
    setConn($("conn").dataset.state || "connecting");
    render();
  });
  $("name-form").addEventListener("submit", submitName);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && app.choiceCard) {
      app.choiceCard = null;
      render();
    }
  });
  if (!tableId) {
    showMessage(t("error.no_table"), "error", true);
    return;
  }
  connect();
}

main();
