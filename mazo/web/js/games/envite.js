// Envite Canario: the vira and the trump hierarchy (computed here from the vira and the
// player count, rules §3.3; the observation leaves it out on purpose), the envío ladder
// with any pending proposal, tumbo, team signs and consultations (menus), renuncio
// offences (penalize mode), and why a card may not be played (the duty to follow).

import { suitOf, rankOf, rankShort, suitIcon } from "../cards.js";
import { finishedTrick, infoCard, teamColumns, trickLine } from "./common.js";

const FIXED = {
  4: [],
  6: ["3B", "QB", "JO"],
  8: ["5O", "3B", "QB", "JO"],
  10: ["2O", "5O", "3B", "QB", "JO"],
  12: ["1O", "2O", "5O", "3B", "QB", "JO"],
};
const VIRA_ORDER = ["2", "K", "Q", "J", "1", "7", "6", "5", "4", "3"];
const LADDER = [
  { level: 0, name: "none", value: 2 },
  { level: 1, name: "envio", value: 4 },
  { level: 2, name: "siete", value: 7 },
  { level: 3, name: "nueve", value: 9 },
  { level: 4, name: "chico", value: "chico" },
];
const FOLD_GIVES = { 1: 2, 2: 4, 3: 7, 4: 9 };
const BET_WORDS = ["envio", "accept", "fold", "raise"];

/** The trumps strongest first for this player count and vira (rules §3.2). */
export function trumpOrder(players, vira) {
  const fixed = FIXED[players] || [];
  const v = suitOf(vira);
  return [...fixed, ...VIRA_ORDER.map((r) => r + v).filter((c) => !fixed.includes(c))];
}

/** The exempt card: the top trump, unless it is the vira itself (then none). */
export function exemptCard(players, vira) {
  const top = trumpOrder(players, vira)[0];
  return top === vira ? null : top;
}

function levelName(ctx, level) {
  const step = LADDER[Math.max(0, Math.min(4, level))];
  return ctx.t("envite.level." + step.name);
}

function isTrump(ctx, card) {
  return trumpOrder(ctx.players, ctx.obs.vira).includes(card);
}

export default {
  deckStyle: "spanish",

  centre(ctx) {
    const { obs, t } = ctx;
    const bet = obs.bet || {};
    const text = bet.pending
      ? t("envite.pending_short", { team: ctx.sideName(bet.pending.team), level: levelName(ctx, bet.pending.level) })
      : t("envite.bet_short", { level: levelName(ctx, bet.level || 0), value: bet.value === "chico" ? t("envite.level.chico") : bet.value });
    return [
      obs.vira && infoCard(ctx, ctx.card(obs.vira, { small: true }), t("envite.vira"), { className: "vira", id: "vira" }),
      infoCard(ctx, null, text),
      obs.tumbo_deal && infoCard(ctx, null, t("envite.tumbo_deal")),
    ];
  },

  trick(ctx) {
    const { obs, t } = ctx;
    if ((obs.trick || []).length) return null;
    const tricks = obs.tricks || [];
    if (!tricks.length) return null;
    const last = tricks[tricks.length - 1];
    return finishedTrick(last, ctx, t("trick.last_won_plain", { name: ctx.seatName(last.winner) }));
  },

  seatBadges(seat, ctx) {
    const { obs, t } = ctx;
    const out = [];
    if (obs.eldest === seat) out.push(t("envite.mano"));
    const tumbo = obs.tumbo || [];
    if (tumbo[seat % 2] && seat === obs.captains?.[seat % 2]) out.push(t("envite.tumbo"));
    return out;
  },

  seatCards(seat, ctx) {
    const shown = (ctx.obs.shown_hands || []).find((x) => x.seat === seat);
    return shown ? shown.cards : null;
  },

  actionLabel(action, ctx) {
    const { obs, t } = ctx;
    const bet = obs.bet || {};
    const pending = bet.pending;
    switch (action) {
      case "envio": {
        const next = (bet.level || 0) + 1;
        if (next === 1) return t("envite.act.envio_first", { value: LADDER[1].value });
        return t("envite.act.envio", { level: levelName(ctx, next) });
      }
      case "accept":
        return pending ? t("envite.act.accept", { level: levelName(ctx, pending.level) }) : null;
      case "fold":
        return pending ? t("envite.act.fold", { n: FOLD_GIVES[pending.level] ?? "?" }) : null;
      case "raise":
        return pending ? t("envite.act.raise", { level: levelName(ctx, pending.level + 1) }) : null;
      default:
        return null;
    }
  },

  groupActions(actions, ctx) {
    const { t } = ctx;
    const bets = actions.filter((a) => BET_WORDS.includes(a));
    const signals = actions.filter((a) => a.startsWith("signal "));
    const consults = actions.filter((a) => a.startsWith("consult "));
    const rest = actions.filter((a) => !bets.includes(a) && !signals.includes(a) && !consults.includes(a));
    return [
      { key: "bets", actions: bets, className: "bet", title: bets.length ? t("envite.bets_title") : null },
      { key: "main", actions: rest },
      { key: "signals", menu: true, title: t("envite.signals_menu"), actions: signals },
      { key: "consult", menu: true, title: t("envite.consult_menu"), actions: consults },
    ];
  },

  describeLast(last, ctx) {
    const { t, obs } = ctx;
    const bet = obs.bet || {};
    const who = ctx.seatName(last.seat);
    switch (String(last.action)) {
      case "envio":
        return t("envite.last_envio", { name: who, level: levelName(ctx, bet.pending ? bet.pending.level : bet.level || 1) });
      case "raise":
        return t("envite.last_raise", { name: who, level: levelName(ctx, bet.pending ? bet.pending.level : bet.level || 1) });
      case "accept":
        return t("envite.last_accept", { name: who, level: levelName(ctx, bet.level || 1) });
      case "fold":
        return t("envite.last_fold", { name: who });
      default:
        return null;
    }
  },

  statusNote(ctx) {
    const { obs, t } = ctx;
    if (obs.team_must_answer) return t("envite.team_must_answer");
    if (obs.team_must_decide) return t("envite.team_must_decide");
    return null;
  },

  turnHint(ctx) {
    const { obs, t } = ctx;
    if (obs.phase === "bet_pending") return t("envite.hint_answer", { level: levelName(ctx, obs.bet?.pending?.level ?? 1) });
    if (obs.phase === "tumbo_decision") return t("envite.hint_tumbo");
    return t("hint.play_card");
  },

  whyIllegal(card, ctx) {
    const { obs, t } = ctx;
    if (ctx.seat === null || ctx.seat === undefined) return null;
    if (obs.phase === "bet_pending") return t("envite.why_bet_pending");
    if (obs.phase === "tumbo_decision") return t("envite.why_tumbo");
    if (obs.to_play !== ctx.seat) return null;
    const trick = obs.trick || [];
    if (!trick.length) return null;
    const led = trick[0].card;
    if (isTrump(ctx, led)) return t("envite.why_follow_trump");
    return t("envite.why_follow_suit", { suit: t("suit." + suitOf(led)) });
  },

  scoreColumns(ctx) {
    return teamColumns(ctx, ["envite.stones", "envite.chicos", "envite.tricks"]);
  },

  scoreNote(ctx) {
    const { obs, t } = ctx;
    const parts = [t("envite.chicos_to_win", { n: obs.chicos_to_win, deal: obs.deal_number })];
    (obs.tumbo || []).forEach((at, side) => {
      if (at) parts.push(t("envite.at_tumbo", { side: ctx.sideName(side) }));
    });
    return parts.join(" · ");
  },

  panels(ctx) {
    const { obs, t, h } = ctx;
    const out = [];
    if (obs.vira) {
      const order = trumpOrder(ctx.players, obs.vira);
      const exempt = exemptCard(ctx.players, obs.vira);
      const v = suitOf(obs.vira);
      const mala = "2" + v;
      const chips = [];
      order.forEach((c, i) => {
        if (i) chips.push(h("span", { class: "sep" }, ">"));
        const marks = [];
        if (c === exempt) marks.push(t("envite.exempt"));
        if (c === mala && order.includes(mala) && !(FIXED[ctx.players] || []).includes(mala)) marks.push(t("envite.mala"));
        if (c === "JO" && ctx.players >= 6) marks.push(t("envite.perica"));
        const title = ctx.cardName(c) + (marks.length ? ` (${marks.join(", ")})` : "");
        chips.push(
          h(
            "span",
            { class: "chip" + (marks.length ? " strong" : "") + (c === obs.vira ? " out" : ""), title },
            h("span", { html: suitIcon(suitOf(c), ctx.style, 14) }),
            rankShort(rankOf(c)),
            marks.length ? h("small", null, " " + marks.join(", ")) : null,
          ),
        );
      });
      out.push(
        ctx.panel(
          t("envite.trumps_title", { suit: t("suit." + v) }),
          h("div", { class: "chips", id: "trump-order" }, chips),
          h("p", { class: "note" }, exempt ? t("envite.exempt_note", { card: ctx.cardName(exempt) }) : t("envite.no_exempt")),
          h("p", { class: "note" }, t("envite.plain_order")),
        ),
      );
    }
    // the bet
    const bet = obs.bet || {};
    const ladder = h(
      "ol",
      { class: "ladder" },
      LADDER.map((step) =>
        h(
          "li",
          {
            class: (step.level === (bet.level || 0) ? "current" : "") + (bet.pending && bet.pending.level === step.level ? " pending" : ""),
          },
          step.value === "chico" ? t("envite.level.chico") : `${t("envite.level." + step.name)} (${step.value})`,
        ),
      ),
    );
    const lines = [];
    if (bet.pending) {
      lines.push(
        h("p", null, h("strong", null, t("envite.pending", { name: ctx.seatName(bet.pending.seat), team: ctx.sideName(bet.pending.team), level: levelName(ctx, bet.pending.level) }))),
      );
      if (obs.team_must_answer) lines.push(h("p", null, t("envite.answer_hint", { fold: FOLD_GIVES[bet.pending.level] ?? "?" })));
    }
    if (bet.pending) {
      // while a proposal waits, the answering team may raise at once (rules §9.2),
      // whoever accepted the last bet
      const answering = 1 - bet.pending.team;
      lines.push(
        h(
          "p",
          { class: "note", id: "raise-note" },
          bet.pending.level < 4
            ? t("envite.answer_may_raise", { team: ctx.sideName(answering), level: levelName(ctx, bet.pending.level + 1) })
            : t("envite.answer_top", { team: ctx.sideName(answering) }),
        ),
      );
    } else if ((bet.level || 0) < 4) {
      // below chico: who may propose the next step (after an acceptance, the acceptors)
      const next = levelName(ctx, (bet.level || 0) + 1);
      const right = bet.raise_right !== null && bet.raise_right !== undefined && (ctx.table.options || {}).raise_right !== "any_team";
      lines.push(
        h(
          "p",
          { class: "note", id: "raise-note" },
          right ? t("envite.next_envio", { team: ctx.sideName(bet.raise_right), level: next }) : t("envite.either_may_propose", { level: next }),
        ),
      );
    }
    if (obs.phase === "tumbo_decision" && obs.tumbo_team !== null && obs.tumbo_team !== undefined) {
      lines.push(h("p", null, h("strong", null, t("envite.tumbo_decision", { team: ctx.sideName(obs.tumbo_team) }))));
    }
    out.push(ctx.panel(t("envite.bet_title"), ladder, ...lines));
    // the tricks of this deal, latest first
    const tricks = obs.tricks || [];
    if (tricks.length) {
      out.push(
        ctx.panel(
          t("envite.tricks_title", { n: tricks.length }),
          h(
            "ul",
            { class: "msglist tricklist", id: "trick-history" },
            tricks
              .slice()
              .reverse()
              .map((tr) => trickLine(ctx, tr, t("history.trick_takes", { name: ctx.seatName(tr.winner) }))),
          ),
        ),
      );
    }
    // team messages
    const msgs = obs.messages || [];
    if (msgs.length || ctx.legal.some((a) => a.startsWith("signal ") || a.startsWith("consult "))) {
      out.push(
        ctx.panel(
          t("envite.messages_title"),
          msgs.length
            ? h(
                "ul",
                { class: "msglist", id: "team-messages" },
                msgs.map((m) =>
                  h(
                    "li",
                    null,
                    m.type === "consult"
                      ? t("envite.msg_consult", { name: ctx.seatName(m.seat), what: t("consult." + m.intent, null, m.intent) })
                      : t("envite.msg_signal", { name: ctx.seatName(m.seat), what: t("signal.envite." + m.kind, null, m.kind) }),
                  ),
                ),
              )
            : h("p", { class: "empty" }, t("envite.no_messages")),
        ),
      );
    }
    const ld = obs.last_deal;
    if (ld && ld.detail) {
      const d = ld.detail;
      const award = d.award === "chico" ? t("envite.level.chico") : d.award;
      out.push(
        ctx.panel(
          t("envite.last_deal"),
          h("p", null, t("envite.reason." + d.reason, { team: ctx.sideName(d.team), award }, `${d.reason}: ${award}`)),
          d.chico !== null && d.chico !== undefined ? h("p", null, h("strong", null, t("envite.chico_won", { team: ctx.sideName(d.chico) }))) : null,
        ),
      );
    }
    return out;
  },
};
