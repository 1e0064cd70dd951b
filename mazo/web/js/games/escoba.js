// Escoba: the table cards (in the trick area), the capture choice (one button per way
// to make 15, highlighting the table cards it takes), captured piles, escobas and the
// breakdown of the last hand.

import { infoCard, miniCards } from "./common.js";

function parse(action) {
  const parts = action.split("+");
  return { card: parts[0], captured: parts.slice(1) };
}

function countWhere(cards, pred) {
  return (cards || []).filter(pred).length;
}

const BREAKDOWN = ["escobas", "cards", "oros", "velo", "prime", "bonus_all_sevens", "bonus_all_oros", "bonus_cards_over_30", "total"];

export default {
  deckStyle: "spanish",

  trick(ctx) {
    const { obs, t } = ctx;
    const caption = obs.last_capturer !== null && obs.last_capturer !== undefined
      ? t("escoba.last_capturer", { name: ctx.seatName(obs.last_capturer) })
      : null;
    return { cards: obs.table || [], caption, emptyText: t("escoba.table_empty") };
  },

  centre(ctx) {
    const { obs, t } = ctx;
    return [
      infoCard(ctx, null, t("escoba.stock", { n: obs.stock_size ?? 0 })),
      infoCard(ctx, null, t("escoba.hand_round", { hand: obs.hand_number ?? 1, round: (obs.round ?? 0) + 1 })),
    ];
  },

  actionLabel(action, ctx) {
    if (!action.includes("+")) return null;
    const { card, captured } = parse(action);
    return ctx.t("escoba.capture", { card: ctx.cardName(card), cards: captured.map(ctx.cardName).join(" + ") });
  },

  choiceContent(action, ctx) {
    const { t, h } = ctx;
    const { captured } = parse(action);
    if (!captured.length) return [t("escoba.lay")];
    const table = ctx.obs.table || [];
    const sweep = captured.length === table.length;
    return [
      h("span", null, t("escoba.takes")),
      ...captured.map((c) => ctx.card(c, { small: true })),
      sweep ? h("strong", null, " ", t("escoba.escoba")) : null,
    ].filter(Boolean);
  },

  choiceHighlights(action) {
    return parse(action).captured;
  },

  turnHint(ctx) {
    const caps = ctx.legal.filter((a) => a.includes("+"));
    return caps.length ? ctx.t("escoba.hint_capture") : ctx.t("escoba.hint_lay");
  },

  describeLast(last, ctx) {
    const { t, obs } = ctx;
    const action = String(last.action);
    if (!/^(10|[1-9JQK])[OCEB]/.test(action)) return null;
    const { card, captured } = parse(action);
    const who = ctx.seatName(last.seat);
    const hist = obs.history || [];
    const entry = hist.length ? hist[hist.length - 1] : null;
    const escoba = entry && entry.card === card && entry.seat === last.seat && entry.escoba;
    if (!captured.length) return t("escoba.last_lay", { name: who, card: ctx.cardName(card) });
    const text = t("escoba.last_capture", { name: who, card: ctx.cardName(card), cards: captured.map(ctx.cardName).join(", ") });
    return escoba ? `${text} ${t("escoba.escoba")}` : text;
  },

  scoreColumns(ctx) {
    const { obs, t } = ctx;
    const captured = obs.captured || [];
    return [
      { label: t("escoba.points"), values: obs.scores },
      { label: t("escoba.escobas"), values: obs.escobas || [] },
      { label: t("escoba.cards"), values: captured.map((p) => p.length) },
      { label: t("escoba.oros"), values: captured.map((p) => countWhere(p, (c) => c.endsWith("O"))) },
      { label: t("escoba.sevens"), values: captured.map((p) => countWhere(p, (c) => c.startsWith("7"))) },
    ];
  },

  scoreNote(ctx) {
    const { obs, t } = ctx;
    const captured = obs.captured || [];
    const velo = captured.findIndex((p) => p.includes("7O"));
    const parts = [t("escoba.target", { n: obs.target })];
    if (velo >= 0) parts.push(t("escoba.velo_held", { side: ctx.sideName(velo) }));
    return parts.join(" · ");
  },

  panels(ctx) {
    const { obs, t, h } = ctx;
    const out = [];
    const markers = obs.escoba_markers || [];
    const hist = obs.history || [];
    const items = [];
    if (markers.length) {
      items.push(
        h("h3", null, t("escoba.escobas_this_hand")),
        h(
          "ul",
          { class: "msglist" },
          markers.map((m) =>
            m.card === "deal"
              ? h("li", null, t("escoba.opening_escoba", { name: ctx.seatName(m.seat) }))
              : h("li", { class: "play-line" }, t("escoba.escoba_by", { name: ctx.seatName(m.seat), card: ctx.cardName(m.card) }), " ", miniCards(ctx, [m.card])),
          ),
        ),
      );
    }
    if (hist.length) {
      items.push(
        h("h3", null, t("escoba.plays_this_hand")),
        h(
          "ul",
          { class: "msglist playlist", id: "play-history" },
          hist
            .slice()
            .reverse()
            .slice(0, 12)
            .map((e) => {
              const took = e.captured && e.captured.length;
              return h(
                "li",
                { class: "play-line" + (e.escoba ? " escoba" : "") },
                h("span", { class: "who" }, ctx.seatName(e.seat)),
                miniCards(ctx, [e.card]),
                h("span", { class: "verb" }, took ? t("escoba.took") : t("escoba.laid")),
                took ? miniCards(ctx, e.captured) : null,
                e.escoba ? h("strong", { class: "escoba-mark" }, t("escoba.escoba")) : null,
              );
            }),
        ),
      );
    }
    if (items.length) out.push(ctx.panel(t("escoba.hand_title", { n: obs.hand_number ?? 1 }), ...items));
    const lh = obs.last_hand;
    if (lh && lh.detail) {
      const d = lh.detail;
      const rows = BREAKDOWN.filter((k) => Array.isArray(d[k]) && (k === "total" || d[k].some((v) => v))).map((k) =>
        h("tr", null, h("th", { scope: "row" }, t("escoba.bd." + k)), d[k].map((v) => h("td", null, String(v)))),
      );
      const head = h("tr", null, h("th", null, ""), (lh.points || []).map((_, side) => h("th", { scope: "col" }, ctx.sideName(side))));
      const counts = [];
      if (d.card_counts) counts.push(t("escoba.bd.counts", { cards: d.card_counts.join(" / "), oros: (d.oros_counts || []).join(" / ") }));
      out.push(ctx.panel(t("escoba.last_hand"), h("table", { class: "scores" }, h("thead", null, head), h("tbody", null, rows)), counts.length ? h("p", { class: "note" }, counts.join(" ")) : null));
    }
    return out;
  },
};
