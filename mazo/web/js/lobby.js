// The lobby: create a table (game, players, options, seats, public, title), hand out
// the seat links, list open public tables and claim a free seat.

import { initI18n, t, has, onLanguageChange } from "./i18n.js";
import { h, clear } from "./dom.js";
import { startFinished } from "./finished.js";
import { isCard, cardName } from "./cards.js";

const $ = (id) => document.getElementById(id);

const lobby = {
  games: [],
  bots: [],
  created: null,
  tables: [],
  pages: 1, // pages of open tables shown (the server sends 50 a page)
  more: 0, // open tables past the pages shown
  claiming: null, // "tableId/seat" while a claim form is open
};

async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function gameInfo() {
  return lobby.games.find((g) => g.name === $("game").value) || lobby.games[0];
}

function isTeamGame(info, n) {
  const teams = info && info.teams ? info.teams[String(n)] : false;
  return !!teams;
}

function botLabel(level) {
  return t("bot." + level, null, level);
}

function valueLabel(v) {
  if (v === true) return t("val.true");
  if (v === false) return t("val.false");
  if (v === null) return t("val.null");
  if (typeof v === "number") return String(v);
  if (isCard(v)) return cardName(v);
  return t("val." + v, null, String(v).replace(/_/g, " "));
}

// ---- the form -----------------------------------------------------------------------

function fillGames() {
  const sel = $("game");
  const current = sel.value;
  clear(sel, lobby.games.map((g) => h("option", { value: g.name }, t("game." + g.name, null, g.name))));
  if (current) sel.value = current;
  setRulesLinks();
}

/** The "Rules" link beside the game select follows it; the list links every game's page. */
function setRulesLinks() {
  $("game-rules").href = `/rules/${encodeURIComponent($("game").value)}`;
  clear($("rules-list"), lobby.games.map((g) => h("li", null, h("a", { href: `/rules/${encodeURIComponent(g.name)}`, dataset: { game: g.name } }, t("game." + g.name, null, g.name)))));
}

function fillPlayers(keep) {
  const info = gameInfo();
  const sel = $("players");
  const prev = keep ? Number(sel.value) : null;
  clear(sel, info.players.map((n) => h("option", { value: String(n) }, t("lobby.n_players", { n }))));
  sel.value = String(prev && info.players.includes(prev) ? prev : info.default_players);
}

function currentSeats() {
  return [...document.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".seat-kind").value,
    name: row.querySelector(".seat-name").value,
  }));
}

function fillSeats() {
  const info = gameInfo();
  const n = Number($("players").value);
  const before = currentSeats();
  const box = $("seat-rows");
  box.replaceChildren();
  const team = isTeamGame(info, n);
  for (let i = 0; i < n; i++) {
    const prev = before[i];
    const kind = h("select", { class: "seat-kind", "aria-label": t("lobby.seat_kind", { n: i + 1 }) });
    kind.append(h("option", { value: "human" }, t("lobby.human")));
    for (const level of lobby.bots) kind.append(h("option", { value: level }, t("lobby.bot_level", { level: botLabel(level) })));
    kind.value = prev ? prev.kind : i === 0 ? "human" : lobby.bots.includes("normal") ? "normal" : lobby.bots[0];
    const name = h("input", { class: "seat-name", maxlength: "40", placeholder: t("lobby.name_optional"), "aria-label": t("lobby.seat_name", { n: i + 1 }) });
    name.value = prev ? prev.name : "";
    if (!prev && i === 0) {
      try {
        name.value = localStorage.getItem("mazo.name") || "";
      } catch (_) {
        // no storage
      }
    }
    const sync = () => {
      name.hidden = kind.value !== "human";
    };
    kind.addEventListener("change", sync);
    sync();
    const label = h(
      "span",
      { class: "seat-label" },
      t("seat.n", { n: i + 1 }),
      team ? h("small", null, ` · ${t("team." + (i % 2))}`) : null,
    );
    box.append(h("div", { class: "seat-row" + (team ? " team-" + (i % 2) : ""), dataset: { seat: String(i) } }, label, kind, name));
  }
}

function fillOptions(keep) {
  const info = gameInfo();
  const box = $("options");
  const before = {};
  if (keep) for (const el of box.querySelectorAll(".option")) before[el.dataset.name] = el.value;
  box.replaceChildren();
  for (const opt of info.options || []) {
    const id = "opt-" + opt.name;
    const help = has("opt." + opt.name + ".help") ? t("opt." + opt.name + ".help") : opt.help || "";
    const label = h("label", { for: id, class: help ? "help" : null, title: help || null }, t("opt." + opt.name, null, opt.name.replace(/_/g, " ")));
    let control;
    if (opt.name === "first_dealer") {
      // seats are shown 1..n, as everywhere in the page; the engine counts from 0
      control = h("select", { id, class: "option", dataset: { name: opt.name, kind: "select" }, title: help || null });
      const drawn = opt.default === "draw" ? t("lobby.dealer_draw") : t("lobby.dealer_random");
      control.append(h("option", { value: JSON.stringify(opt.default ?? null) }, drawn));
      const n = Number($("players").value) || 0;
      for (let i = 0; i < n; i++) control.append(h("option", { value: JSON.stringify(i) }, t("seat.n", { n: i + 1 })));
    } else if (Array.isArray(opt.choices)) {
      // an open option with named choices (Trionfetti's presets): a list of them
      control = h("select", { id, class: "option", dataset: { name: opt.name, kind: "select" }, title: help || null });
      for (const v of opt.choices) control.append(h("option", { value: JSON.stringify(v) }, has("ranking." + v) ? t("ranking." + v) : valueLabel(v)));
      control.value = JSON.stringify(opt.default);
      if (control.selectedIndex < 0 && control.options.length) control.selectedIndex = 0;
    } else if (Array.isArray(opt.allowed)) {
      control = h("select", { id, class: "option", dataset: { name: opt.name, kind: "select" }, title: help || null });
      for (const v of opt.allowed) control.append(h("option", { value: JSON.stringify(v) }, valueLabel(v)));
      control.value = JSON.stringify(opt.default);
      if (control.selectedIndex < 0 && control.options.length) control.selectedIndex = 0;
    } else {
      control = h("input", {
        id,
        class: "option",
        dataset: { name: opt.name, kind: "free", default: JSON.stringify(opt.default) },
        placeholder: opt.default === null || opt.default === undefined ? t("val.null") : String(opt.default),
        title: [help, opt.describe].filter(Boolean).join(" · ") || null,
      });
      control.value = opt.default === null || opt.default === undefined ? "" : String(opt.default);
    }
    if (keep && before[opt.name] !== undefined) {
      control.value = before[opt.name];
      if (control.tagName === "SELECT" && control.selectedIndex < 0) control.selectedIndex = 0;
    }
    box.append(label, control);
  }
}

function parseFree(text) {
  const s = text.trim();
  if (!s) return undefined;
  try {
    return JSON.parse(s);
  } catch (_) {
    return s;
  }
}

function collectOptions() {
  const info = gameInfo();
  const out = {};
  for (const el of document.querySelectorAll("#options .option")) {
    const name = el.dataset.name;
    const spec = (info.options || []).find((o) => o.name === name);
    let value;
    if (el.dataset.kind === "select") value = JSON.parse(el.value);
    else value = parseFree(el.value);
    if (value === undefined) continue;
    if (spec && JSON.stringify(spec.default) === JSON.stringify(value)) continue;
    out[name] = value;
  }
  return out;
}

function showCreateError(text) {
  const el = $("create-error");
  el.textContent = text;
  el.hidden = !text;
}

async function onCreate(ev) {
  ev.preventDefault();
  showCreateError("");
  const game = $("game").value;
  const players = Number($("players").value);
  const seats = currentSeats().map((s) => {
    if (s.kind === "human") {
      const name = s.name.trim();
      return name ? { kind: "human", name } : { kind: "human" };
    }
    return { kind: "bot", level: s.kind };
  });
  const body = { game, players, options: collectOptions(), seats, public: $("public").checked, settings: collectSettings() };
  const title = $("title").value.trim();
  if (title) body.title = title;
  const button = $("create");
  button.disabled = true;
  try {
    const data = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
    const first = seats.find((s) => s.kind === "human");
    if (first && first.name) {
      try {
        localStorage.setItem("mazo.name", first.name);
      } catch (_) {
        // no storage
      }
    }
    lobby.created = { ...data, game };
    renderCreated();
    refreshTables();
  } catch (err) {
    showCreateError(t("lobby.create_failed", { error: err.message }));
  } finally {
    button.disabled = false;
  }
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

async function copyText(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch (_) {
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } });
    area.value = text;
    document.body.append(area);
    area.select();
    try {
      ok = document.execCommand("copy");
    } catch (__) {
      ok = false;
    }
    area.remove();
  }
  button.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
  setTimeout(() => {
    button.textContent = t("lobby.copy");
  }, 2000);
}

function rememberSeat(id, url, game) {
  try {
    const all = JSON.parse(localStorage.getItem("mazo.seats") || "{}");
    all[id] = { url, game, time: Date.now() };
    localStorage.setItem("mazo.seats", JSON.stringify(all));
  } catch (_) {
    // no storage
  }
}

function renderCreated() {
  const box = $("created");
  const data = lobby.created;
  if (!data) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const allHumans = data.seats.filter((s) => s.kind === "human");
  // on a public table an unnamed seat gets no link: anyone may claim it from the list
  const humans = allHumans.filter((s) => s.join_url);
  const open = allHumans.filter((s) => !s.join_url);
  const rows = humans.map((s) => {
    const url = absolute(s.join_url);
    const copy = h("button", { type: "button", class: "small copy" }, t("lobby.copy"));
    copy.addEventListener("click", () => copyText(url, copy));
    return h(
      "div",
      { class: "link-row", dataset: { seat: String(s.seat) } },
      h("strong", null, t("lobby.join_seat", { n: s.seat + 1, name: s.name || t("lobby.unnamed") })),
      h("a", { class: "join-link url", href: s.join_url }, url),
      copy,
    );
  });
  const watchUrl = absolute(data.watch_url);
  const copyWatch = h("button", { type: "button", class: "small copy" }, t("lobby.copy"));
  copyWatch.addEventListener("click", () => copyText(watchUrl, copyWatch));
  const go = humans.length
    ? h(
        "button",
        {
          type: "button",
          class: "primary",
          id: "go-seat",
          onclick: () => {
            rememberSeat(data.id, humans[0].join_url, data.game);
            location.href = humans[0].join_url;
          },
        },
        t("lobby.go_seat", { n: humans[0].seat + 1 }),
      )
    : h("a", { class: "button", href: data.watch_url, id: "go-seat" }, t("lobby.go_watch"));
  clear(
    box,
    h("h2", null, t("lobby.created", { id: data.id })),
    humans.length ? h("p", { class: "note" }, t("lobby.links_note")) : null,
    rows,
    open.map((s) => h("div", { class: "link-row open-seat", dataset: { seat: String(s.seat) } }, h("strong", null, t("seat.n", { n: s.seat + 1 })), h("span", null, t("lobby.open_seat")))),
    h("div", { class: "link-row" }, h("strong", null, t("lobby.watch")), h("a", { class: "watch-link url", href: data.watch_url }, watchUrl), copyWatch),
    h("p", null, go),
  );
}

// ---- open tables --------------------------------------------------------------------

async function refreshTables() {
  if (lobby.claiming) return; // do not wipe a half-typed name
  try {
    // the first lobby.pages pages, following each page's cursor
    let data = await api("/api/tables");
    const tables = [...(data.tables || [])];
    for (let page = 1; page < lobby.pages && data.next; page++) {
      data = await api(`/api/tables?after=${encodeURIComponent(data.next)}`);
      tables.push(...(data.tables || []));
    }
    lobby.tables = tables;
    lobby.more = data.next ? Math.max(0, (data.total || 0) - tables.length) : 0;
    renderTables();
  } catch (_) {
    // keep the previous list; try again later
  }
}

function seatLabel(table, s) {
  if (s.kind === "bot") return t("seat.bot_name", { n: s.seat + 1, level: botLabel(s.level) });
  return s.name || t("lobby.free_seat", { n: s.seat + 1 });
}

function renderTables() {
  const box = $("tables");
  box.replaceChildren();
  if (!lobby.tables.length) {
    box.append(h("li", { class: "empty" }, t("lobby.no_tables")));
    return;
  }
  for (const table of lobby.tables) {
    const seats = table.seats.map((s) => {
      const chip = h("span", { class: "chip" + (s.claimable ? " strong" : "") }, seatLabel(table, s));
      if (!s.claimable) return chip;
      const join = h("button", { type: "button", class: "small claim", dataset: { table: table.id, seat: String(s.seat) } }, t("lobby.join", { n: s.seat + 1 }));
      join.addEventListener("click", () => openClaim(table, s, item));
      return h("span", { class: "chips" }, chip, join);
    });
    const item = h(
      "li",
      { dataset: { table: table.id } },
      h("div", { class: "t-title" }, table.title || t("game." + table.game, null, table.game)),
      h("div", { class: "t-meta" }, `${t("game." + table.game, null, table.game)} · ${t("lobby.n_players", { n: table.players })} · ${t("lobby.status." + table.status, null, table.status)}`),
      h("div", { class: "t-seats" }, seats, h("a", { class: "table-watch", href: `/table/${encodeURIComponent(table.id)}` }, t("lobby.watch_table"))),
    );
    box.append(item);
  }
  if (lobby.more > 0) {
    const more = h("button", { type: "button", class: "small more-tables" }, t("lobby.more", { n: lobby.more }));
    more.addEventListener("click", () => {
      lobby.pages += 1;
      refreshTables();
    });
    box.append(h("li", { class: "more" }, more));
  }
}

function openClaim(table, seat, item) {
  lobby.claiming = `${table.id}/${seat.seat}`;
  for (const f of document.querySelectorAll(".claim-form")) f.remove();
  const input = h("input", { class: "claim-name", maxlength: "40", required: true, placeholder: t("lobby.your_name"), "aria-label": t("lobby.your_name") });
  try {
    input.value = localStorage.getItem("mazo.name") || "";
  } catch (_) {
    // no storage
  }
  const err = h("span", { class: "claim-error", role: "alert" });
  const cancel = h("button", { type: "button", class: "small" }, t("lobby.cancel"));
  const form = h("form", { class: "claim-form" }, h("span", null, t("lobby.claim_as", { n: seat.seat + 1 })), input, h("button", { type: "submit", class: "small primary" }, t("lobby.take_seat")), cancel, err);
  cancel.addEventListener("click", () => {
    form.remove();
    lobby.claiming = null;
    refreshTables();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) {
      err.textContent = t("name.invalid");
      return;
    }
    try {
      const data = await api(`/api/tables/${encodeURIComponent(table.id)}/seats/${seat.seat}/claim`, { method: "POST", body: JSON.stringify({ name }) });
      try {
        localStorage.setItem("mazo.name", name);
      } catch (_) {
        // no storage
      }
      rememberSeat(table.id, data.join_url, table.game);
      location.href = data.join_url;
    } catch (e) {
      err.textContent = e.status === 409 ? t("lobby.seat_taken") : e.message;
    }
  });
  item.append(form);
  input.focus();
}

function renderMine() {
  const box = $("my-tables");
  box.replaceChildren();
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem("mazo.seats") || "{}");
  } catch (_) {
    all = {};
  }
  const entries = Object.entries(all)
    .sort((a, b) => (b[1].time || 0) - (a[1].time || 0))
    .slice(0, 10);
  if (!entries.length) {
    box.append(h("li", { class: "empty" }, t("lobby.no_my_tables")));
    return;
  }
  for (const [id, entry] of entries) {
    const forget = h("button", { type: "button", class: "small" }, t("lobby.forget"));
    forget.addEventListener("click", () => {
      delete all[id];
      try {
        localStorage.setItem("mazo.seats", JSON.stringify(all));
      } catch (_) {
        // no storage
      }
      renderMine();
    });
    box.append(
      h("li", null, h("a", { href: entry.url }, `${entry.game ? t("game." + entry.game, null, entry.game) + " · " : ""}${id}`), " ", forget),
    );
  }
}

// ---- start --------------------------------------------------------------------------

function renderForm(keep) {
  fillGames();
  fillPlayers(keep);
  fillSeats();
  fillOptions(keep);
  fillSettings();
}

// ---- table settings (pace, turn timer, takeover bot, hints) -------------------------

const PACES = [0, 0.8, 1.5, 3];
const TIMERS = [0, 30, 60, 120];
const TAKEOVER = ["easy", "normal", "hard", "expert"];

function fillSettings() {
  const fill = (sel, values, label, fallback) => {
    const v = sel.value || String(fallback);
    clear(sel, values.map((x) => h("option", { value: String(x) }, label(x))));
    sel.value = v;
  };
  fill($("pace"), PACES, (x) => (x === 0 ? t("settings.pace_instant") : t("settings.pace_s", { n: x, name: t("settings.pace_" + String(x).replace(".", "_")) })), 1.5);
  // off by default at a private table, a minute at a public one (until the user picks)
  const timerDefault = $("public").checked ? 60 : 0;
  fill($("turn-timer"), TIMERS, (x) => (x === 0 ? t("settings.timer_off") : x < 60 ? t("settings.timer_s", { n: x }) : t("settings.timer_min", { n: x / 60 })), timerDefault);
  if (!lobby.timerTouched) $("turn-timer").value = String(timerDefault);
  // A public table never waits forever for someone who left: "off" is for private tables.
  const off = $("turn-timer").querySelector('option[value="0"]');
  if (off) off.disabled = $("public").checked;
  if ($("public").checked && $("turn-timer").value === "0") $("turn-timer").value = "60";
  fill($("takeover"), TAKEOVER, (x) => t("settings.takeover_bot", { level: botLabel(x) }), "normal");
}

function collectSettings() {
  return {
    dwell: Number($("pace").value),
    turn_timer: Number($("turn-timer").value),
    takeover: $("takeover").value,
    hints: $("hints").checked,
  };
}

async function main() {
  await initI18n($("lang"));
  try {
    const data = await api("/api/games");
    lobby.games = data.games || [];
    lobby.bots = data.bots || [];
  } catch (err) {
    showCreateError(t("lobby.load_failed", { error: err.message }));
    return;
  }
  renderForm(false);
  $("game").addEventListener("change", () => {
    setRulesLinks();
    fillPlayers(false);
    fillSeats();
    fillOptions();
  });
  $("players").addEventListener("change", () => {
    fillSeats();
    fillOptions(true); // the first dealer's seats follow the player count
  });
  $("create-form").addEventListener("submit", onCreate);
  $("turn-timer").addEventListener("change", () => {
    lobby.timerTouched = true;
  });
  $("public").addEventListener("change", fillSettings);
  onLanguageChange(() => {
    renderForm(true);
    renderCreated();
    renderTables();
    renderMine();
  });
  renderMine();
  refreshTables();
  setInterval(refreshTables, 4000);
  startFinished($("finished"));
}

main();
