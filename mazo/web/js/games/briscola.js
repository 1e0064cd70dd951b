// Briscola: the face-up trump and the stock, the last trick, deal points, partner
// signals (a menu), the trump-2 exchange, open hands (known_cards) and removed cards.

import { suitIcon } from "../cards.js";
import { finishedTrick, infoCard, trickLine } from "./common.js";

function lastTrick(obs) {
  const tricks = obs.tricks || [];
  return tricks.length ? tricks[tricks.length - 1] : null;
}

export default {
  deckStyle: "italian",

  centre(ctx) {
    const { obs, t } = ctx;
    const drawn = obs.indicator_holder !== null && obs.indicator_holder !== undefined;
    const trump = drawn ? t("briscola.trump_taken", { name: ctx.seatName(obs.indicator_holder) }) : t("briscola.trump");
    const top = obs.stock_top ? ctx.card(obs.stock_top, { small: true }) : null;
    const suit = obs.trump_suit && [
      ctx.h("span", { class: "info-text", html: suitIcon(obs.trump_suit, ctx.style, 22) }),
      t("briscola.trump_suit", { suit: t("suit." + obs.trump_suit) }),
    ];
    return [
      obs.trump && infoCard(ctx, ctx.card(obs.trump, { small: true, extraClass: drawn ? "dim" : "" }), trump, { className: "trump", id: "trump" }),
      infoCard(ctx, top, t("briscola.stock", { n: obs.stock_size ?? 0 }), { className: "stock" }),
      suit && infoCard(ctx, null, suit),
    ];
  },

  trick(ctx) {
    const { obs, t } = ctx;
    if ((obs.trick || []).length) return { cards: obs.trick, caption: null };
    const last = lastTrick(obs);
    if (!last) return null;
    return finishedTrick(
      last,
      ctx,
      t("trick.last_won", { name: ctx.seatName(last.winner), points: last.points ?? 0 }),
    );
  },

  seatCards(seat, ctx) {
    const known = ctx.obs.known_cards || {};
    return known[String(seat)] || null;
  },

  scoreColumns(ctx) {
    const { obs, t } = ctx;
    return [
      { label: t("briscola.deal_wins"), values: obs.scores },
      { label: t("briscola.deal_points"), values: obs.deal_points || [] },
    ];
  },

  scoreNote(ctx) {
    const { obs, t } = ctx;
    return t("briscola.target", { n: obs.target, deal: obs.deal });
  },

  groupActions(actions, ctx) {
    const { t } = ctx;
    const signals = actions.filter((a) => a.startsWith("signal "));
    const main = actions.filter((a) => !a.startsWith("signal "));
    return [
      { key: "main", actions: main },
      { key: "signals", menu: true, title: t("briscola.signals_menu"), actions: signals },
    ];
  },

  turnHint(ctx) {
    if (ctx.obs.phase === "exchange") return ctx.t("briscola.hint_exchange");
    return ctx.t("hint.play_card");
  },

  panels(ctx) {
    const { obs, t, h } = ctx;
    const out = [];
    const signals = obs.signals || [];
    if (signals.length || ctx.legal.some((a) => a.startsWith("signal "))) {
      out.push(
        ctx.panel(
          t("briscola.signals_title"),
          signals.length
            ? h(
                "ul",
                { class: "msglist" },
                signals.map((s) => h("li", null, t("briscola.signal_line", { name: ctx.seatName(s.seat), trick: s.trick, meaning: t("signal.briscola." + s.meaning, null, s.meaning) }))),
              )
            : h("p", { class: "empty" }, t("briscola.no_signals")),
        ),
      );
    }
    const extras = [];
    if ((obs.removed || []).length) {
      extras.push(h("h3", null, t("briscola.removed")), h("div", { class: "cardrow" }, obs.removed.map((c) => ctx.card(c, { small: true }))));
    }
    const ex = obs.exchange;
    if (ex && !ex.declined) {
      extras.push(h("p", null, t("briscola.exchanged", { name: ctx.seatName(ex.seat), gave: ctx.cardName(ex.gave), took: ctx.cardName(ex.took) })));
    } else if (ex && ex.declined) {
      extras.push(h("p", null, t("briscola.declined", { name: ctx.seatName(ex.seat) })));
    }
    const tricks = obs.tricks || [];
    if (tricks.length) {
      extras.push(
        h("h3", null, t("briscola.tricks_this_deal", { n: tricks.length })),
        h(
          "ul",
          { class: "msglist tricklist", id: "trick-history" },
          tricks
            .slice()
            .reverse()
            .map((tr) => trickLine(ctx, tr, t("history.trick_takes_points", { name: ctx.seatName(tr.winner), points: tr.points ?? 0 }))),
        ),
      );
    }
    if (extras.length) out.push(ctx.panel(t("briscola.deal_title", { n: obs.deal }), ...extras));
    return out;
  },
};
