// The table page: one WebSocket per seat (or a watcher's), rendered from each `state`
// message. Everything game-specific lives in ./games/<game>.js (see docs/web.md); this
// file draws what every game shares: seats, hand, trick, scores, history, actions.

import { initI18n, t, onLanguageChange } from "./i18n.js";
import { cardEl, backEl, cardName, deckStyle, saveDeckStyle, isCard } from "./cards.js";
import { h, clear, panel } from "./dom.js";
import { Pacer, dwellOf, dealEnd, captureOf, gatherTrick, slideIn, GATHER_MS, WATCH_RESULT_MS } from "./flow.js";
import { initSoundToggle, playSound } from "./sound.js";
import { renderHint, receiveHint, hintFailed } from "./hint.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const hashParams = new URLSearchParams(location.hash.replace(/^#/, ""));
const token = hashParams.get("token");
// /replay/<id>: the replay viewer (js/replay.js) draws stored steps; no socket, no acting
const REPLAY = /^\/replay\//.test(location.pathname);

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
  // the flow of play (js/flow.js): app.msg is the message on screen, app.latest the newest
  // received; acting always uses the newest
  latest: null,
  latestAt: 0, // performance.now() when app.latest arrived (turn clocks count from it)
  conn: "connecting",
  result: null, // the deal result box: {version, event, history, showAt, closeAt}
  summaryHidden: false, // the match summary folded away to look at the table
  lastTrick: false, // the "Last trick" button is pressed
  rematchAsked: false,
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
  const was = app.conn;
  app.conn = state;
  if (app.msg && was !== state) render();
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
    else if (data.type === "seats") onSeats(data);
    else if (data.type === "error") {
      hintFailed();
      onError(data);
    } else if (data.type === "hint") {
      receiveHint(data);
      render();
    }
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
    // Final too: an abandoned table the server closed (4410), one it could not restore
    // (4503). A connection limit (4429) is worth retrying, with the usual back-off.
    const final = { 4410: "error.table_closed", 4503: "error.table_unavailable" }[ev.code];
    if (final) {
      app.closedForGood = true;
      setConn("offline");
      showMessage(t(final), "error", true);
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
  if (pacer.behind()) {
    // the screen is behind (a trick dwelling): show the newest state; an action the screen
    // offered acts only if it is still legal there (talk and custom orders are never listed)
    const listed = (app.msg.observation.legal_actions || []).includes(action);
    pacer.flush();
    if (listed && !(app.latest.observation.legal_actions || []).includes(action)) return;
  }
  hideMessage();
  app.choiceCard = null;
  app.confirm = null;
  const latest = app.latest || app.msg;
  if (!send({ type: "act", version: latest.version, action })) {
    showMessage(t("error.offline"), "error");
  }
}

function onState(msg) {
  app.attempts = 0;
  if (!app.latest) rememberSeat(msg.table.game);
  app.latest = msg;
  app.latestAt = performance.now();
  followRematch(msg);
  if (!app.moduleName) {
    // the first message: load the game's module, then draw (what came meanwhile queues)
    pacer.queue.push(msg);
    if (pacer.queue.length === 1) ensureModule(msg.table.game).then(() => pacer.pump());
    return;
  }
  pacer.push(msg);
}

/** A `seats` message: names, connections and watchers changed, nothing else. It belongs
 * to the newest state received (the end of the display queue) when their versions match;
 * otherwise this page missed something: ask for the whole state again. */
function onSeats(msg) {
  const latest = app.latest;
  if (!latest) return; // the first state is on its way and will show them
  if (msg.version !== latest.version || !Array.isArray(msg.seats)) {
    send({ type: "sync" });
    return;
  }
  latest.table = { ...latest.table, seats: msg.seats, watchers: msg.watchers };
  // the seats and the header read app.latest.table (makeCtx): redraw now, unless the
  // queue is still drawing older states (the newest one shows this when its turn comes)
  if (app.msg && !pacer.behind()) render();
}

/** Draw one `state` message now (no queue, no dwell): the pacer calls it, replay mode too. */
function displayState(msg) {
  const previous = app.msg;
  const fresh = !previous || previous.version !== msg.version;
  app.msg = msg;
  if (fresh) {
    app.choiceCard = null;
    app.confirm = null;
    app.lastTrick = false;
  }
  if (!app.module || app.moduleName !== msg.table.game) {
    return ensureModule(msg.table.game).then(() => displayState(msg));
  }
  const prevTrick = fresh ? trickCodes() : null;
  render();
  if (fresh) afterDraw(previous, msg, prevTrick);
  return Promise.resolve();
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
  const table = app.latest && app.latest.table.id === msg.table.id ? app.latest.table : msg.table;
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
  const rulesLink = $("rules-link"); // the game's rules page, in a new tab
  rulesLink.href = `/rules/${encodeURIComponent(ctx.game)}`;
  rulesLink.hidden = false;
  renderHeader(ctx);
  renderNameForm(ctx);
  renderStatus(ctx, mod);
  renderSeats(ctx, mod);
  renderCentre(ctx, mod);
  renderTrick(ctx, mod);
  renderHand(ctx, mod);
  renderChoices(ctx, mod);
  renderActions(ctx, mod);
  renderHint(ctx, send);
  renderExtra(ctx, mod);
  renderScores(ctx, mod);
  renderPanels(ctx, mod);
  renderLast(ctx, mod);
  renderHistory(ctx, mod);
  renderFlow(ctx, mod);
}

function renderHeader(ctx) {
  const title = ctx.table.title || t("game." + ctx.game);
  $("title").textContent = title;
  document.title = `${title} · mazo`;
  const watching = ctx.seat === null || ctx.seat === undefined;
  const mineInfo = watching ? null : seatInfo(ctx.table, ctx.seat);
  const who = REPLAY
    ? watching ? t("replay.as_spectators") : t("replay.as_seat", { name: seatName(ctx.table, ctx.seat) })
    : watching
    ? t("table.watching")
    : mineInfo && mineInfo.name
      ? t("table.you_are_named", { n: ctx.seat + 1, name: mineInfo.name })
      : t("table.you_are_seat", { n: ctx.seat + 1 });
  // spectators other than this page: "2 spectators", or "with 1 other spectator"
  const others = (ctx.table.watchers || 0) - (watching ? 1 : 0);
  let crowd = null;
  if (others > 0) {
    const one = others === 1;
    if (watching) crowd = one ? t("table.watching_with_one") : t("table.watching_with", { n: others });
    else crowd = one ? t("table.spectator_one") : t("table.spectators", { n: others });
  }
  clear(
    $("subtitle"),
    h("span", { class: "game-name" }, t("game." + ctx.game)),
    " · ",
    t("table.players", { n: ctx.players }),
    " · ",
    h("span", { id: "who" }, who),
    crowd ? h("span", { id: "crowd" }, ` · ${crowd}`) : null,
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
  el.dataset.latest = String(app.latest ? app.latest.version : ctx.version);
  const parts = [];
  let mine = false;
  const autoplay = !!(ctx.seat !== null && ctx.seat !== undefined && seatInfo(ctx.table, ctx.seat).autoplay);
  el.classList.toggle("offline", app.conn === "offline" && !!app.latest);
  if (app.conn === "offline" && app.latest) {
    // never claim it is your turn while nothing can be sent
    parts.push(h("strong", { class: "offline-note" }, t("status.offline")), " ", t("status.offline_more"));
  } else if (!obs.match_over && pauseNote(ctx)) {
    parts.push(...pauseNote(ctx)); // a deal ended: the table waits for the people's Continue
  } else if (obs.match_over) {
    let result;
    if (obs.winner === null || obs.winner === undefined) result = t("status.draw");
    else if (ctx.seat !== null && ctx.seat !== undefined && ctx.sideOf(ctx.seat) === obs.winner)
      result = t("status.you_win", { side: ctx.sideName(obs.winner) });
    else result = t("status.winner", { side: ctx.sideName(obs.winner) });
    parts.push(h("strong", null, t("status.match_over")), " ", result);
  } else {
    if (obs.phase) parts.push(h("span", { class: "phase" }, t("phase." + obs.phase, null, obs.phase)), " · ");
    if (autoplay && obs.to_act === ctx.seat) {
      parts.push(h("strong", { class: "autoplay-note" }, t("status.autoplay_turn")));
    } else if (ctx.seat !== null && ctx.seat !== undefined && obs.to_act === ctx.seat) {
      mine = true;
      const hint = mod.turnHint ? mod.turnHint(ctx) : null;
      parts.push(h("strong", { class: "your-turn" }, t("status.your_turn")), hint ? ` · ${hint}` : "");
    } else {
      const extra = mod.statusNote ? mod.statusNote(ctx) : null;
      if (extra) parts.push(h("strong", { class: "your-turn" }, extra), " · ");
      if (obs.to_act !== null && obs.to_act !== undefined) parts.push(t("status.waiting", { name: seatName(ctx.table, obs.to_act) }));
    }
    const clock = turnClock(obs.to_act, "status-clock");
    if (clock) parts.push(" · ", clock);
  }
  el.classList.toggle("mine", mine);
  clear(el, ...parts);
}

/** Where seat k (places after the viewer; the next seat sits at the viewer's right, as at a
 * real table) goes: evenly spaced along a w x h rectangle with rounded corners (radius r),
 * walking from the middle of its bottom edge to the right, up, across the top and down the
 * left. {x, y} from its top left corner, and the edge of the felt it sits by. */
function seatPosition(k, n, w, h, r = 0) {
  r = Math.max(0, Math.min(r, w / 2, h / 2));
  const q = (Math.PI * r) / 2; // a corner's length
  const side = (t, a, b) => (t < q / 2 ? a : b);
  const arc = (cx, cy, dx, dy, ex, ey) => (t) => {
    const a = r ? t / r : 0;
    return [cx + r * (dx * Math.cos(a) + ex * Math.sin(a)), cy + r * (dy * Math.cos(a) + ey * Math.sin(a))];
  };
  const legs = [
    [w / 2 - r, (t) => [w / 2 + t, h], () => "bottom"],
    [q, arc(w - r, h - r, 0, 1, 1, 0), (t) => side(t, "bottom", "right")],
    [h - 2 * r, (t) => [w, h - r - t], () => "right"],
    [q, arc(w - r, r, 1, 0, 0, -1), (t) => side(t, "right", "top")],
    [w - 2 * r, (t) => [w - r - t, 0], () => "top"],
    [q, arc(r, r, 0, -1, -1, 0), (t) => side(t, "top", "left")],
    [h - 2 * r, (t) => [0, r + t], () => "left"],
    [q, arc(r, h - r, -1, 0, 0, 1), (t) => side(t, "left", "bottom")],
    [w / 2 - r, (t) => [r + t, h], () => "bottom"],
  ];
  let d = ((2 * (w + h) - (8 - 2 * Math.PI) * r) * k) / n;
  for (const [len, at, edge] of legs) {
    if (d <= len + 0.01) {
      const t = Math.max(0, Math.min(d, len));
      const [x, y] = at(t);
      return { x, y, edge: edge(t) };
    }
    d -= len;
  }
  return { x: w / 2, y: h, edge: "bottom" };
}

/** Lay the felt out: the seats round its edge (sized by CSS, placed here), the centre (trick,
 * trump, labels) in the room they leave, its cards shrunk (--fit) until they fit in it. */
function layoutFelt() {
  const felt = $("felt");
  const centre = felt && felt.querySelector(".centre");
  if (!centre) return;
  const seats = [...felt.querySelectorAll("#seats .seat")];
  const W = felt.clientWidth;
  const H = felt.clientHeight;
  if (!seats.length || !W || !H) return;
  const pad = 6;
  let sw = 0;
  let sh = 0;
  for (const el of seats) {
    sw = Math.max(sw, el.offsetWidth);
    sh = Math.max(sh, el.offsetHeight);
  }
  const room = { top: pad, right: pad, bottom: pad, left: pad };
  for (const el of seats) {
    const w = Math.max(0, W - 2 * pad - sw);
    const h = Math.max(0, H - 2 * pad - sh);
    const p = seatPosition(Number(el.dataset.k), seats.length, w, h, Math.min(w, h) * 0.16);
    const x = pad + sw / 2 + p.x;
    const y = pad + sh / 2 + p.y;
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
    const half = { w: el.offsetWidth / 2, h: el.offsetHeight / 2 };
    if (p.edge === "top") room.top = Math.max(room.top, y + half.h + pad);
    else if (p.edge === "bottom") room.bottom = Math.max(room.bottom, H - y + half.h + pad);
    else if (p.edge === "left") room.left = Math.max(room.left, x + half.w + pad);
    else room.right = Math.max(room.right, W - x + half.w + pad);
  }
  for (const side of ["top", "right", "bottom", "left"]) centre.style[side] = `${room[side]}px`;
  // the largest --fit (up to the CSS's --fit-max) at which nothing overflows the centre
  const fits = (f) => {
    centre.style.setProperty("--fit", f.toFixed(3));
    return centre.scrollHeight <= centre.clientHeight + 1 && centre.scrollWidth <= centre.clientWidth + 1;
  };
  let hi = parseFloat(getComputedStyle(centre).getPropertyValue("--fit-max")) || 1;
  if (fits(hi)) return;
  let lo = 0.4;
  for (let i = 0; i < 7; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  fits(lo);
}

// again whenever the felt changes size: the window, or the buttons and hand drawn after it
// (on phones the felt takes the height they leave)
if (window.ResizeObserver && $("felt")) new ResizeObserver(() => layoutFelt()).observe($("felt"));

/** A seat's name where room is short (the trick's captions, the seat boxes): bots without
 * their level, which the seat shows as a badge. */
function seatShortName(table, s) {
  const info = seatInfo(table, s);
  return info.kind === "bot" ? t("seat.bot_short", { n: s + 1 }) : seatName(table, s);
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
    badges.push(...flowBadges(s, ctx, info));
    if (mod.seatBadges) for (const b of mod.seatBadges(s, ctx) || []) badges.push(h("span", { class: "badge" }, b));
    const cards = h("div", { class: "seat-cards" });
    const shown = mod.seatCards ? mod.seatCards(s, ctx) : null;
    if (s !== ctx.seat && shown && shown.length) classes.push("shows-cards");
    if (s !== ctx.seat) {
      if (shown && shown.length) {
        for (const c of shown) cards.append(ctx.card(c, { small: true, extraClass: "known" }));
      } else {
        const count = (obs.hand_sizes || [])[s] || 0;
        for (let i = 0; i < count; i++) cards.append(backEl({ tiny: true }));
        if (count) cards.append(h("span", { class: "seat-count", title: t("seat.cards", { n: count }) }, `×${count}`));
      }
    }
    const el = h(
      "div",
      {
        class: classes.join(" "),
        dataset: { seat: String(s), k: String(k) },
        "aria-label": seatName(ctx.table, s),
      },
      h(
        "div",
        { class: "seat-name", title: seatName(ctx.table, s) },
        ctx.teamGame ? h("span", { class: "team-dot", title: ctx.sideName(ctx.sideOf(s)) }) : null,
        seatShortName(ctx.table, s),
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
  if (app.lastTrick) {
    const shown = lastTrickView(ctx, mod);
    if (shown) return shown;
  }
  if (app.capture && app.capture.version === ctx.version) return captureView(ctx); // a capture, for a moment
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
    if (seat !== null && seat !== undefined) fig.append(h("figcaption", { title: seatName(ctx.table, seat) }, seatShortName(ctx.table, seat)));
    box.append(fig);
  }
  if (!view.cards.length) box.append(h("p", { class: "empty" }, view.emptyText || t("trick.empty")));
  const cap = $("trick-caption");
  cap.textContent = view.caption || "";
  layoutFelt();
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
  box.style.setProperty("--n", String(hand.length)); // the CSS overlaps the cards to fit
  for (const code of hand) {
    const options = legalForCard(ctx, code);
    const legal = options.length > 0;
    const el = ctx.card(code, {
      button: !REPLAY,
      legal,
      extraClass: (offences.has(code) ? "offence" : "") + (app.choiceCard === code ? " chosen" : ""),
      label: legal ? t("hand.play", { card: cardName(code) }) : t("hand.not_playable", { card: cardName(code) }),
    });
    el.addEventListener("click", () => onHandCard(code));
    box.append(el);
  }
  if (ctx.obs.match_over) box.append(matchEndStrip(ctx)); // the result and the way on
}

function onHandCard(code) {
  if (REPLAY) return;
  if (pacer.behind()) {
    // a click while the screen is behind draws the newest state first; the card is
    // played only if it was playable on screen and still is
    const before = legalForCard(makeCtx(), code).length > 0;
    pacer.flush();
    if (!before) return;
  }
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
  const list = ctx.legal.map((a) => (isCard(a) ? cardName(a) : ctx.actionLabel(a))).join(", ");
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
    if (ctx.teamGame) for (let s = side; s < ctx.players; s += ctx.sides) members.push(seatShortName(ctx.table, s));
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
    text += " " + gameText(ctx, "last.deal_over", { points: pts });
  }
  box.textContent = text;
}

/** A text some game names its own way (Escoba's unit is the hand): `key.<game>`, else `key`. */
function gameText(ctx, key, params) {
  return t(`${key}.${ctx.game}`, params, t(key, params));
}

function renderHistory(ctx) {
  const box = $("history");
  const heading = box.parentElement && box.parentElement.querySelector("h2");
  if (heading) heading.textContent = gameText(ctx, "history.title");
  const hist = ctx.msg.history || [];
  if (!hist.length) {
    clear(box, h("p", { class: "empty" }, gameText(ctx, "history.empty")));
    return;
  }
  const sides = [];
  for (let side = 0; side < ctx.sides; side++) sides.push(ctx.sideName(side));
  const head = h("tr", null, h("th", { scope: "col" }, gameText(ctx, "history.deal")), sides.map((n) => h("th", { scope: "col" }, n)));
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
  clear(box, h("table", { class: "history" }, h("caption", null, gameText(ctx, "history.caption")), h("thead", null, head), h("tbody", null, rows)));
}

// ---- the flow of play: pacing, overlays, timers (see js/flow.js) ---------------------

const pacer = new Pacer({
  shown: () => app.msg,
  draw: (msg) => displayState(msg),
  mine: (msg) => !!(msg.last && msg.seat !== null && msg.seat !== undefined && msg.last.seat === msg.seat),
  gather: (seat) => gatherTrick($("trick"), seatEl(seat)),
});

function seatEl(seat) {
  if (app.msg && seat === app.msg.seat) {
    const own = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
    return own || $("hand");
  }
  return document.querySelector(`#seats .seat[data-seat="${seat}"]`);
}

function trickCodes() {
  return new Set([...document.querySelectorAll("#trick [data-card]")].map((el) => el.dataset.card));
}

function isSeated(msg) {
  return !!msg && msg.seat !== null && msg.seat !== undefined;
}

/** Slides, sounds and the overlays a newly drawn version brings. */
let initSoundLabels = () => {};

function afterDraw(previous, msg, prevTrick) {
  const obs = msg.observation;
  const events = msg.events || [];
  const live = !!previous;
  const me = msg.seat;
  showCapture(msg, live);
  if (live) {
    const plays = events.filter((e) => e.type === "play" && e.card && !prevTrick.has(e.card));
    if (plays.length) slideIn($("trick"), plays.map((e) => ({ card: e.card, seat: e.seat })), seatEl);
    if (events.some((e) => e.type === "play")) playSound("play");
    const before = previous.observation;
    if (isSeated(msg) && obs.to_act === me && !obs.match_over && (before.to_act !== me || before.phase !== obs.phase)) playSound("turn");
  }
  const dwell = dwellOf(msg);
  const hold = live && trickWinnerOf(msg) ? dwell * 1000 : 0;
  if (app.result && app.result.version !== msg.version && !isSeated(msg)) app.result = null; // watchers: the table moved on
  const end = dealEnd(msg);
  if (end && !obs.match_over && dwell > 0) {
    const waiting = (msg.table.ready && msg.table.ready.waiting) || [];
    if (live || (isSeated(msg) && waiting.includes(me))) {
      const at = performance.now() + hold;
      app.result = { version: msg.version, event: end, history: msg.history || [], showAt: at, closeAt: isSeated(msg) ? null : at + WATCH_RESULT_MS };
      later(hold);
      if (!isSeated(msg)) later(hold + WATCH_RESULT_MS + 50);
    }
  }
  if (obs.match_over && (!previous || !previous.observation.match_over)) {
    app.result = null;
    app.summaryHidden = false;
    app.summaryAt = performance.now() + hold;
    later(hold);
  }
}

/** Escoba: a play that takes cards shows the card and what it took for the dwell (they are
 * already gone from the next table), then they are gathered toward the taker. */
function showCapture(msg, live) {
  const cap = captureOf(msg);
  const dwell = dwellOf(msg);
  if (!cap || !live || dwell <= 0 || (msg.events || []).some((e) => e.type === "trick")) return;
  const shown = { version: msg.version, ...cap };
  app.capture = shown;
  renderTrick(makeCtx(), app.module || DEFAULT_MODULE);
  setTimeout(() => {
    if (app.capture !== shown || !app.msg || app.msg.version !== shown.version) return;
    gatherTrick($("trick"), seatEl(shown.seat));
    setTimeout(() => {
      if (app.capture !== shown) return;
      app.capture = null;
      if (app.msg && app.msg.version === shown.version) render();
    }, GATHER_MS);
  }, dwell * 1000);
}

function captureView(ctx) {
  const cap = app.capture;
  const name = seatName(ctx.table, cap.seat);
  return {
    cards: [{ seat: cap.seat, card: cap.card, winner: true }, ...cap.captured.map((card) => ({ seat: null, card, winner: true }))],
    done: true,
    caption: cap.escoba ? t("capture.escoba", { name }) : t("capture.took", { name, n: cap.captured.length }),
  };
}

function trickWinnerOf(msg) {
  return (msg.events || []).some((e) => e.type === "trick" && typeof e.winner === "number");
}

/** Redraw the overlay after `ms` (without touching the trick: it may be moving). */
function later(ms) {
  setTimeout(() => {
    if (app.msg) renderOverlay(makeCtx());
  }, Math.max(0, ms) + 10);
}

/** A rematch was made: a seated page follows it with its own token. */
function followRematch(msg) {
  const next = msg.table && msg.table.next;
  if (!next || !token || !isSeated(msg) || app.leaving) return;
  app.leaving = true;
  location.assign(`/table/${encodeURIComponent(next)}#token=${encodeURIComponent(token)}`);
}

function renderFlow(ctx, mod) {
  document.body.classList.toggle("is-offline", app.conn === "offline" && !!app.latest);
  $("hand").classList.toggle("match-over", !!ctx.obs.match_over);
  renderOverlay(ctx);
  renderBackBar(ctx);
  renderLastTrickButton(ctx, mod);
}

function takeoverLevel(table) {
  const level = (table.settings && table.settings.takeover) || "normal";
  return t("bot." + level, null, level);
}

/** Extra badges of a seat: played by the takeover bot, and its turn clock. */
function flowBadges(s, ctx, info) {
  const out = [];
  if (info.autoplay) {
    const text = t("seat.autoplay", { level: takeoverLevel(ctx.table) });
    out.push(h("span", { class: "badge autoplay", title: text, dataset: { autoplay: "true" } }, text));
  }
  const clock = turnClock(s, "badge clock");
  if (clock) out.push(clock);
  return out;
}

/** The countdown of `seat`'s turn timer (from the newest summary's `turn`), or null. */
function turnClock(seat, cls) {
  const turn = app.latest && app.latest.table && app.latest.table.turn;
  if (!turn || turn.seat !== seat || seat === null || seat === undefined) return null;
  const el = h("span", { class: "turn-clock " + cls, dataset: { deadline: String(app.latestAt + turn.remaining * 1000), limit: String(turn.limit || 0), seat: String(seat) }, title: t("timer.title", { n: turn.limit }) });
  tickClock(el);
  return el;
}

function tickClock(el) {
  const ms = Math.max(0, Number(el.dataset.deadline) - performance.now());
  const left = Math.ceil(ms / 1000);
  const limit = Number(el.dataset.limit) || 0;
  // a little pie (CSS) shows the share of the time left, the text the seconds
  el.style.setProperty("--left", String(limit ? Math.min(1, ms / 1000 / limit) : 1));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("low", left <= 10);
}

/** The status while the table waits after a deal for its people, else null. */
function pauseNote(ctx) {
  const ready = ctx.table.ready;
  if (!ready || !Array.isArray(ready.waiting)) return null;
  const head = h("strong", null, t("pause.deal_over"));
  if (isSeated(ctx.msg) && ready.waiting.includes(ctx.seat)) return [head, " · ", t("pause.your_click")];
  if (!ready.waiting.length) return [head, " · ", t("pause.next_soon")];
  return [head, " · ", t("pause.waiting_for", { names: ready.waiting.map((s) => seatName(ctx.table, s)).join(", ") })];
}

function renderBackBar(ctx) {
  const bar = $("back-bar");
  const info = isSeated(ctx.msg) ? seatInfo(ctx.table, ctx.seat) : null;
  if (!info || !info.autoplay || ctx.obs.match_over) {
    bar.hidden = true;
    bar.replaceChildren();
    return;
  }
  bar.hidden = false;
  clear(
    bar,
    h("span", null, t("autoplay.note", { level: takeoverLevel(ctx.table) })),
    h("button", { type: "button", class: "primary", id: "im-back", onclick: () => send({ type: "back" }) }, t("autoplay.back")),
  );
}

// ---- the last trick --------------------------------------------------------------------

/** The completed tricks of the deal on screen: the module's, else obs.tricks, else the
 * trick events of obs.deal_log since the last deal began. */
function completedTricks(ctx, mod) {
  if (mod.completedTricks) return mod.completedTricks(ctx) || [];
  const obs = ctx.obs;
  const ok = (x) => x && Array.isArray(x.cards) && typeof x.leader === "number";
  if (Array.isArray(obs.tricks)) return obs.tricks.filter(ok);
  const out = [];
  for (const e of obs.deal_log || []) {
    if (e.type === "deal") out.length = 0;
    else if (e.type === "trick" && ok(e)) out.push(e);
  }
  return out;
}

/** The previous completed trick: the last one, or the one before when the felt shows it. */
function lastTrickPick(ctx, mod) {
  const list = completedTricks(ctx, mod);
  const saved = app.lastTrick;
  app.lastTrick = false;
  let current;
  try {
    current = trickView(ctx, mod);
  } finally {
    app.lastTrick = saved;
  }
  const idx = current.done ? list.length - 2 : list.length - 1;
  return idx >= 0 ? list[idx] : null;
}

function lastTrickView(ctx, mod) {
  const last = lastTrickPick(ctx, mod);
  if (!last) return null;
  return {
    cards: last.cards.map((card, i) => {
      const seat = (last.leader + i) % ctx.players;
      return { seat, card, winner: seat === last.winner };
    }),
    done: true,
    recalled: true,
    caption: t("trick.last_won_plain", { name: seatName(ctx.table, last.winner) }),
  };
}

function renderLastTrickButton(ctx, mod) {
  const btn = $("last-trick");
  const has = !ctx.obs.match_over && !!lastTrickPick(ctx, mod);
  btn.hidden = !has;
  if (!has) app.lastTrick = false;
  btn.setAttribute("aria-pressed", app.lastTrick ? "true" : "false");
  btn.textContent = app.lastTrick ? t("trick.back_to_table") : t("trick.last_button");
  $("trick").classList.toggle("recalled", app.lastTrick && has);
}

// ---- overlays: the deal result and the match summary -------------------------------------

function renderOverlay(ctx) {
  const box = $("felt-overlay");
  const nowMs = performance.now();
  const obs = ctx.obs;
  let node = null;
  if (obs.match_over) {
    if (!app.summaryHidden && nowMs >= (app.summaryAt || 0)) node = summaryBox(ctx);
  } else if (app.result && nowMs >= app.result.showAt && (app.result.closeAt === null || nowMs < app.result.closeAt)) {
    node = resultBox(ctx, app.result);
  }
  box.hidden = !node;
  box.classList.toggle("summary", !!node && obs.match_over);
  if (!node) {
    box.replaceChildren();
    return;
  }
  const keep = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
  const first = !box.firstChild || box.firstChild.dataset.kind !== node.dataset.kind;
  box.replaceChildren(node);
  const focus = (keep && document.getElementById(keep)) || (first ? node.querySelector("button.primary") : null);
  if (focus) focus.focus({ preventScroll: true });
}

function pointsText(p) {
  return p > 0 ? `+${p}` : String(p ?? 0);
}

function sideRows(ctx, points, scores, cls) {
  const rows = [];
  for (let side = 0; side < ctx.sides; side++) {
    const mine = isSeated(ctx.msg) && ctx.sideOf(ctx.seat) === side;
    rows.push(
      h(
        "tr",
        { class: (ctx.teamGame ? "team-" + side : "") + (mine ? " mine" : "") + (cls ? " " + cls : "") },
        h("th", { scope: "row" }, ctx.teamGame ? h("span", { class: "team-dot" }) : null, ctx.sideName(side)),
        h("td", { class: "pts" }, pointsText((points || [])[side])),
        h("td", null, String((scores || [])[side] ?? "")),
      ),
    );
  }
  return rows;
}

function resultBox(ctx, result) {
  const mod = app.module || DEFAULT_MODULE;
  const ev = result.event;
  const row = result.history.length ? result.history[result.history.length - 1] : null;
  const deal = row ? row.deal : result.history.length;
  const scores = row ? row.scores : (ev.detail && ev.detail.scores) || ctx.obs.scores;
  const head = h("tr", null, h("th", { scope: "col" }, ctx.teamGame ? t("scores.team") : t("scores.player")), h("th", { scope: "col" }, gameText(ctx, "result.this_deal")), h("th", { scope: "col" }, t("result.score")));
  const details = mod.dealResult ? mod.dealResult(ev, ctx) : dealDetails(ev, ctx);
  const detail = ev.detail || {};
  const side = typeof detail.winner === "number" ? detail.winner : typeof detail.team === "number" ? detail.team : null;
  const headline = side !== null && side < ctx.sides ? gameText(ctx, "result.won_by", { side: ctx.sideName(side) }) : null;
  const seated = isSeated(ctx.msg);
  const go = seated
    ? h("button", { type: "button", class: "primary", id: "continue", onclick: onContinue }, t("result.continue"))
    : h("button", { type: "button", id: "continue", onclick: () => { app.result = null; renderOverlay(makeCtx()); } }, t("result.close"));
  return h(
    "div",
    { class: "overlay-box deal-result", id: "deal-result", role: "dialog", "aria-labelledby": "deal-result-title", dataset: { kind: "result", version: String(result.version) } },
    h("h2", { id: "deal-result-title" }, gameText(ctx, "result.title", { n: deal })),
    headline ? h("p", { class: "summary-result" }, headline) : null,
    h("table", { class: "scores result" }, h("thead", null, head), h("tbody", null, sideRows(ctx, ev.points, scores))),
    details && details.length ? h("div", { class: "result-details" }, details) : null,
    h("p", { class: "note" }, seated ? gameText(ctx, "result.note_seated") : gameText(ctx, "result.note_watching")),
    h("div", { class: "overlay-buttons" }, go),
  );
}

/** The deal's details from the game's own dictionary keys, for games without a dealResult
 * hook: why the deal ended (`<game>.reason.<reason>`: Envite, Trionfetti), a chico won, and
 * a breakdown of per-side numbers (`<game>.bd.<key>`: Escoba's escobas, cards, coins...). */
/** Why a deal ended, in the game's words (`<game>.reason.<reason>`), or "". */
function reasonText(d, ctx) {
  if (typeof d.reason !== "string") return "";
  const g = ctx.game;
  const award = d.award === "chico" ? t(g + ".level.chico", null, "chico") : d.award;
  const team = typeof d.team === "number" ? ctx.sideName(d.team) : "";
  return t(`${g}.reason.${d.reason}`, { team, award, n: d.award }, "");
}

function dealDetails(ev, ctx) {
  const d = ev.detail || {};
  const g = ctx.game;
  const out = [];
  const why = reasonText(d, ctx);
  if (why) out.push(h("p", null, why));
  if (typeof d.chico === "number") {
    const chico = t(g + ".chico_won", { team: ctx.sideName(d.chico) }, "");
    if (chico) out.push(h("p", null, h("strong", null, chico)));
  }
  const rows = [];
  for (const [key, values] of Object.entries(d)) {
    if (key === "scores" || !Array.isArray(values) || values.length !== ctx.sides || !values.every((v) => typeof v === "number")) continue;
    const label = t(`${g}.bd.${key}`, null, "");
    if (!label || (key !== "total" && !values.some((v) => v))) continue;
    rows.push(h("tr", { class: key === "total" ? "total" : null }, h("th", { scope: "row" }, label), values.map((v) => h("td", null, String(v)))));
  }
  if (rows.length) {
    const head = h("tr", null, h("th", null, ""), Array.from({ length: ctx.sides }, (_, side) => h("th", { scope: "col" }, ctx.sideName(side))));
    out.push(h("table", { class: "scores breakdown" }, h("thead", null, head), h("tbody", null, rows)));
  }
  return out;
}

function onContinue() {
  app.result = null;
  send({ type: "ready" });
  renderOverlay(makeCtx());
}

function resultLine(ctx) {
  const obs = ctx.obs;
  if (obs.winner === null || obs.winner === undefined) return t("status.draw");
  if (isSeated(ctx.msg) && ctx.sideOf(ctx.seat) === obs.winner) return t("status.you_win", { side: ctx.sideName(obs.winner) });
  return t("status.winner", { side: ctx.sideName(obs.winner) });
}

function summaryBox(ctx) {
  const hist = ctx.msg.history || [];
  const sides = [];
  for (let side = 0; side < ctx.sides; side++) sides.push(side);
  const last = hist.length ? hist[hist.length - 1] : null;
  const head = h("tr", null, h("th", { scope: "col" }, gameText(ctx, "history.deal")), sides.map((side) => h("th", { scope: "col", class: ctx.teamGame ? "team-" + side : null }, ctx.teamGame ? h("span", { class: "team-dot" }) : null, ctx.sideName(side))));
  const rows = hist.map((row) =>
    h(
      "tr",
      { class: row === last ? "decider" : null },
      h("th", { scope: "row" }, String(row.deal)),
      sides.map((side) => h("td", null, h("span", { class: "pts" }, pointsText((row.points || [])[side])), " ", h("span", { class: "running" }, `(${(row.scores || [])[side] ?? ""})`))),
    ),
  );
  // the final score; and the games (chicos, Trionfetti's games) when the match counts them,
  // labelled as the score table labels them
  const mod = app.module || DEFAULT_MODULE;
  const cols = mod.scoreColumns ? mod.scoreColumns(ctx) : [];
  const labelOf = (values, fallback) => (cols.find((c) => c.values === values) || {}).label || fallback;
  const totalRow = (label, values, cls) => h("tr", { class: cls }, h("th", { scope: "row" }, label), sides.map((side) => h("td", { class: ctx.obs.winner === side ? "winner" : null }, String((values || [])[side] ?? ""))));
  const finals = ctx.obs.scores || (last ? last.scores : []);
  const total = [totalRow(labelOf(ctx.obs.scores, t("summary.total")), finals, "total")];
  const games = ctx.obs.games;
  if (Array.isArray(games) && games.some((g) => g)) total.push(totalRow(labelOf(games, t("summary.games")), games, "total games"));
  // what decided it: the last deal, in the game's words when it has them
  const why = last && last.detail ? reasonText(last.detail, ctx) : "";
  const decided = last
    ? gameText(ctx, "summary.decided", { n: last.deal, points: why || sides.map((side) => `${ctx.sideName(side)} ${pointsText((last.points || [])[side])}`).join(" · ") })
    : null;
  const next = ctx.table.next;
  const seated = isSeated(ctx.msg);
  const buttons = [];
  if (next && !seated) buttons.push(h("a", { class: "button primary", id: "next-match", href: `/table/${encodeURIComponent(next)}` }, t("summary.watch_next")));
  else if (next) buttons.push(h("span", { class: "note" }, t("summary.moving")));
  else if (seated) {
    buttons.push(
      h("button", { type: "button", class: "primary", id: "play-again", disabled: app.rematchAsked, onclick: onRematch }, app.rematchAsked ? t("summary.asked") : t("summary.play_again")),
    );
  }
  buttons.push(h("a", { class: "button", id: "to-lobby", href: "/" }, t("summary.lobby")));
  // a seated page's replay opens on its own seat
  const view = seated ? `?seat=${ctx.seat}` : "";
  buttons.push(h("a", { class: "button", id: "replay-link", href: `/replay/${encodeURIComponent(ctx.table.id)}${view}` }, t("summary.replay")));
  buttons.push(h("button", { type: "button", class: "subtle", id: "summary-hide", onclick: () => { app.summaryHidden = true; render(); } }, t("summary.hide")));
  return h(
    "div",
    { class: "overlay-box match-summary", id: "match-summary", role: "dialog", "aria-labelledby": "summary-title", dataset: { kind: "summary" } },
    h("h2", { id: "summary-title" }, t("summary.title")),
    h("p", { class: "summary-result" }, resultLine(ctx)),
    h("div", { class: "scroll" }, h("table", { class: "history summary-table" }, h("caption", null, gameText(ctx, "history.caption")), h("thead", null, head), h("tbody", null, rows, total))),
    decided ? h("p", { class: "note decided" }, decided) : null,
    h("div", { class: "overlay-buttons" }, buttons),
  );
}

function onRematch() {
  if (send({ type: "rematch" })) {
    app.rematchAsked = true;
    render();
  } else showMessage(t("error.offline"), "error");
}

/** The hand area once the match is over: the result and the way on, never an empty box. */
function matchEndStrip(ctx) {
  return h(
    "div",
    { class: "match-end", id: "match-end" },
    h("strong", null, t("status.match_over")),
    " ",
    resultLine(ctx),
    h(
      "span",
      { class: "match-end-buttons" },
      h("button", { type: "button", class: "small", id: "summary-show", onclick: () => { app.summaryHidden = false; app.summaryAt = 0; render(); } }, t("summary.show")),
      isSeated(ctx.msg) && !ctx.table.next
        ? h("button", { type: "button", class: "small primary", disabled: app.rematchAsked, onclick: onRematch }, app.rematchAsked ? t("summary.asked") : t("summary.play_again"))
        : null,
      !isSeated(ctx.msg) && ctx.table.next
        ? h("a", { class: "button small primary", href: `/table/${encodeURIComponent(ctx.table.next)}` }, t("summary.watch_next"))
        : null,
      h("a", { class: "button small", href: "/" }, t("summary.lobby")),
    ),
  );
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
  // phones: the deck and language pickers fold behind a menu button in the top bar
  const barMenu = $("bar-menu");
  if (barMenu)
    barMenu.addEventListener("click", () => {
      const open = barMenu.getAttribute("aria-expanded") !== "true";
      barMenu.setAttribute("aria-expanded", String(open));
      barMenu.closest(".topbar").classList.toggle("settings-open", open);
    });
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
    initSoundLabels();
    setConn($("conn").dataset.state || "connecting");
    render();
  });
  $("name-form").addEventListener("submit", submitName);
  initSoundLabels = initSoundToggle($("sound"), t);
  $("felt").addEventListener("click", (ev) => {
    if (ev.target.closest("#felt-overlay")) return;
    // a click on the felt skips the wait: the dwell, the gathering, a deal result's delay
    pacer.skip();
    if (app.result && app.result.showAt > performance.now()) {
      app.result.showAt = 0;
      if (app.result.closeAt !== null) app.result.closeAt = performance.now() + WATCH_RESULT_MS;
      renderOverlay(makeCtx());
    }
    if (app.summaryAt > performance.now()) {
      app.summaryAt = 0;
      renderOverlay(makeCtx());
    }
  });
  $("last-trick").addEventListener("click", () => {
    app.lastTrick = !app.lastTrick;
    render();
  });
  setInterval(() => {
    for (const el of document.querySelectorAll(".turn-clock")) tickClock(el);
  }, 250);
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
  if (REPLAY) {
    setConn("replay");
    const { startReplay } = await import("./replay.js");
    startReplay({ tableId, displayState, showMessage });
    return;
  }
  connect();
}

main();
