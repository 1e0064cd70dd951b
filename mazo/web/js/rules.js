// The rules pages: /rules/<game> loads /static/rules/<game>.<lang>.html (a fragment of
// <section id="..."><h2>...</h2>...</section> written for players in that language),
// builds the table of contents from the sections' headings and draws every
// <span class="card-pic" data-card="7O"> as a card picture in the chosen deck style
// (data-caption adds a line under the picture). A row of cards is written compactly as
// <div class="card-row" data-cards="1O:11 3O!win 7C + 5B =_15" data-label="6 players">:
// each card is code[!mark][:caption], any other word is an operator between the cards
// ("_" stands for a space), data-label puts a label first; expandRows turns it into the
// same spans written out one by one. The language comes from ?lang=, else
// the picker / localStorage as on the other pages; the deck style is the one the table
// page remembers for that game, else the game module's own (games/<game>.js deckStyle).
// The games are the registry's, from /api/games: a new game needs no edit here.

import { initI18n, t, lang, onLanguageChange, LANGUAGES } from "./i18n.js";
import { h, clear } from "./dom.js";
import { cardEl, deckStyle, saveDeckStyle, isCard } from "./cards.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
let games = []; // the registry's game names, from /api/games
let style = "spanish";
let loaded = 0; // guards against an older fetch finishing after a newer one

/** The registry's game names (the lobby reads the same list). */
async function listGames() {
  const res = await fetch("/api/games");
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
  const data = await res.json();
  return data.games.map((g) => g.name);
}

/** The deck a game is drawn in until a player picks another: its table module's. */
async function defaultStyle(name) {
  try {
    return (await import(`./games/${encodeURIComponent(name)}.js`)).default.deckStyle || "spanish";
  } catch (_) {
    return "spanish"; // a game without a table module yet: its rules still show
  }
}

function rulesUrl(name, l) {
  return `/rules/${encodeURIComponent(name)}?lang=${encodeURIComponent(l)}`;
}

const CARD_TOKEN = /^(10|[1-9]|[JQK])([OCEB])(?:!([\w-]+))?(?::(\S+))?$/;

/** Turn every compact <div class="card-row" data-cards="..."> of `root` into its spans:
 * <span class="card-pic" data-card data-mark data-caption> per card, <span class="op">
 * per operator, a leading <span class="row-label"> from data-label. */
function expandRows(root) {
  for (const row of root.querySelectorAll(".card-row[data-cards]")) {
    const nodes = [];
    if (row.dataset.label) nodes.push(h("span", { class: "row-label" }, row.dataset.label));
    for (const token of row.dataset.cards.trim().split(/\s+/).filter(Boolean)) {
      const m = CARD_TOKEN.exec(token);
      if (!m) {
        nodes.push(h("span", { class: "op" }, token.replace(/_/g, " ")));
        continue;
      }
      const data = { card: m[1] + m[2] };
      if (m[4]) data.caption = m[4];
      if (m[3]) data.mark = m[3];
      nodes.push(h("span", { class: "card-pic", dataset: data }));
    }
    clear(row, ...nodes);
    delete row.dataset.cards;
    delete row.dataset.label;
  }
}

/** Draw every card placeholder of `root` in the current deck style. */
function drawCards(root) {
  for (const pic of root.querySelectorAll(".card-pic[data-card]")) {
    const code = pic.dataset.card;
    if (!isCard(code)) {
      pic.textContent = code;
      continue;
    }
    const card = cardEl(code, { style, extraClass: pic.dataset.mark ? "rules-mark-" + pic.dataset.mark : null });
    const nodes = [card];
    if (pic.dataset.caption) nodes.push(h("span", { class: "card-caption" }, pic.dataset.caption));
    clear(pic, ...nodes);
  }
}

function buildToc() {
  const list = $("toc");
  list.replaceChildren();
  for (const section of $("rules").querySelectorAll("section[id]")) {
    const heading = section.querySelector("h2");
    if (!heading) continue;
    heading.id = heading.id || "h-" + section.id;
    list.append(h("li", null, h("a", { href: "#" + section.id }, heading.textContent)));
  }
}

function renderHeader() {
  const name = t("game." + game, null, game);
  $("rules-title").textContent = t("rules.title", { game: name });
  document.title = `${t("rules.title", { game: name })} · mazo`;
  const nav = $("rules-games");
  clear(
    nav,
    h("span", { class: "rules-games-label" }, t("rules.games")),
    games.map((g) =>
      h("a", { href: rulesUrl(g, lang()), class: "rules-game" + (g === game ? " current" : ""), "aria-current": g === game ? "page" : null, dataset: { game: g } }, t("game." + g, null, g)),
    ),
  );
  const styleSel = $("deck-style");
  clear(styleSel, h("option", { value: "spanish" }, t("deck.spanish")), h("option", { value: "italian" }, t("deck.italian")));
  styleSel.value = style;
}

async function loadRules() {
  const mine = ++loaded;
  const l = lang();
  const article = $("rules");
  article.setAttribute("aria-busy", "true");
  let html;
  try {
    const res = await fetch(`/static/rules/${encodeURIComponent(game)}.${l}.html`);
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    html = await res.text();
  } catch (err) {
    if (mine !== loaded) return;
    clear(article, h("p", { class: "message", role: "alert" }, t("rules.missing", { error: err.message })));
    article.removeAttribute("aria-busy");
    return;
  }
  if (mine !== loaded) return;
  article.innerHTML = html; // our own static text, shipped with the page
  article.lang = l;
  article.dataset.lang = l;
  article.dataset.game = game;
  expandRows(article);
  drawCards(article);
  buildToc();
  article.removeAttribute("aria-busy");
  const url = new URL(location.href);
  url.searchParams.set("lang", l);
  history.replaceState(null, "", url.pathname + url.search + url.hash);
  if (location.hash) {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
}

async function main() {
  // ?lang= wins over the remembered language (and is remembered, like the picker)
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGUAGES.includes(asked)) {
    try {
      localStorage.setItem("mazo.lang", asked);
    } catch (_) {
      // not remembered: initI18n falls back to the browser's language
    }
  }
  await initI18n($("lang"));
  if (window.matchMedia && window.matchMedia("(max-width: 700px)").matches) $("toc-box").open = false;
  try {
    games = await listGames();
  } catch (err) {
    clear($("rules"), h("p", { class: "message", role: "alert" }, t("rules.missing", { error: err.message })));
    return;
  }
  if (!games.includes(game)) {
    $("rules-title").textContent = t("rules.unknown_game");
    return;
  }
  document.body.dataset.game = game;
  style = deckStyle(game, await defaultStyle(game));
  $("deck-style").addEventListener("change", () => {
    style = $("deck-style").value;
    saveDeckStyle(game, style);
    drawCards($("rules"));
  });
  $("toc").addEventListener("click", (ev) => {
    if (ev.target.closest("a") && window.matchMedia && window.matchMedia("(max-width: 700px)").matches) $("toc-box").open = false;
  });
  renderHeader();
  onLanguageChange(() => {
    renderHeader();
    loadRules();
  });
  await loadRules();
}

main();
