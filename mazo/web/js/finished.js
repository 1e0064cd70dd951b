// The lobby's "Recently finished" list: public tables whose match is over, the most
// recently finished first (GET /api/tables?status=finished), each linked to its replay
// (/replay/<id>).

import { t, onLanguageChange } from "./i18n.js";
import { h } from "./dom.js";

const REFRESH_MS = 15000;
let tables = [];

function seatLabel(s) {
  if (s.kind === "bot") return t("seat.bot_name", { n: s.seat + 1, level: t("bot." + s.level, null, s.level) });
  return s.name || t("seat.n", { n: s.seat + 1 });
}

function resultText(table) {
  const result = table.result || {};
  const w = result.winner;
  if (w === null || w === undefined) return t("lobby.draw");
  const sides = Array.isArray(result.scores) && result.scores.length ? result.scores.length : table.players;
  let side;
  if (sides < table.players) side = t("team." + w, null, t("team.n", { n: w + 1 }));
  else side = seatLabel((table.seats || []).find((s) => s.seat === w) || { seat: w, kind: "human" });
  return t("lobby.won_by", { side });
}

function render(box) {
  box.replaceChildren();
  if (!tables.length) {
    box.append(h("li", { class: "empty" }, t("lobby.no_finished")));
    return;
  }
  for (const table of tables) {
    const game = t("game." + table.game, null, table.game);
    const href = `/replay/${encodeURIComponent(table.id)}`;
    box.append(
      h(
        "li",
        { dataset: { table: table.id } },
        h("div", { class: "t-title" }, table.title || game),
        h("div", { class: "t-meta" }, `${game} · ${t("lobby.n_players", { n: table.players })} · ${resultText(table)}`),
        h(
          "div",
          { class: "t-seats" },
          (table.seats || []).map((s) => h("span", { class: "chip" }, seatLabel(s))),
          h("a", { class: "button small replay-link", href }, t("lobby.replay")),
        ),
      ),
    );
  }
}

async function refresh(box) {
  try {
    const res = await fetch("/api/tables?status=finished");
    if (!res.ok) return;
    const data = await res.json();
    tables = data.tables || [];
    render(box);
  } catch (_) {
    // keep the previous list; try again later
  }
}

/** Fill `box` (a <ul>) and keep it fresh. */
export function startFinished(box) {
  if (!box) return;
  render(box);
  refresh(box);
  setInterval(() => refresh(box), REFRESH_MS);
  onLanguageChange(() => render(box));
}
