// Trionfetti: the ranking in force (strongest first) and the cutter's choice (keep or a
// preset; a custom ranking is not offered here, see docs/web.md), the bottom card and
// deal 4's leftover, the vega (call, accept, refuse), partner sharing, claims to the
// partner or the table (menus) and free talk (tell / say) in a text box.

import { RANKS_52, suitIcon } from "../cards.js";
import { finishedTrick } from "./common.js";

const PRESETS = {
  piu_ponto_e_piu_figure: "K Q J 10 9 8 7 6 5 4 3 2 1",
  manco_ponto: "1 2 3 4 5 6 7 8 9 10 J Q K",
  piu_ponto: "10 9 8 7 6 5 4 3 2 1 K Q J",
  manco_e_cavalli: "Q 1 2 3 4 5 6 7 8 9 10 J K",
  bomba: "KE QE JE 3 4 2 1 10 9 8 7 6 5 K(BCO) Q(BCO) J(BCO)",
};
const WORDS = ["have", "nothing", "strong", "weak", "want_vega"];

function claimOf(action) {
  return action.slice(action.indexOf(" ") + 1);
}

function claimText(ctx, claim) {
  const { t } = ctx;
  if (WORDS.includes(claim)) return t("claim." + claim);
  if (RANKS_52.includes(claim)) return t("trionfetti.claim_rank", { rank: t("rank." + claim) });
  if (ctx.isCard(claim)) return t("trionfetti.claim_card", { card: ctx.cardName(claim) });
  return claim;
}

function shortClaim(ctx, claim) {
  if (WORDS.includes(claim)) return ctx.t("claim." + claim);
  return claim;
}

function vegaValue(obs) {
  return (obs.points_to_win_game ?? 20) - Math.max(...(obs.scores || [0, 0]));
}

function levelChip(ctx, level) {
  const { h } = ctx;
  const suits = level.suits || "OCEB";
  const all = suits.length === 4;
  const title = all
    ? ctx.t("rank." + level.rank)
    : suits
        .split("")
        .map((s) => ctx.cardName(level.rank + s))
        .join(", ");
  return h(
    "span",
    { class: "chip" + (all ? "" : " strong"), title },
    level.rank,
    all ? null : suits.split("").map((s) => h("span", { html: suitIcon(s, ctx.style, 14) })),
  );
}

function lastTrickFromLog(obs) {
  const log = obs.deal_log || [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.type === "trick") return e;
    if (e.type === "deal") return null;
  }
  return null;
}

function talkForm(ctx) {
  const { obs, t, h } = ctx;
  const talk = obs.talk;
  const draft = ctx.draft;
  // the same form while the talk window and the language stay: typing is not interrupted
  const key = `${talk}/${t("trionfetti.send")}`;
  if (draft.talkForm && draft.talkKey === key) return draft.talkForm;
  const input = h("input", { type: "text", id: "talk-input", maxlength: "200", placeholder: t("trionfetti.talk_placeholder"), "aria-label": t("trionfetti.talk_placeholder") });
  input.value = draft.talk || "";
  input.addEventListener("input", () => {
    draft.talk = input.value;
  });
  const to = h("select", { id: "talk-to", "aria-label": t("trionfetti.talk_to") });
  to.append(h("option", { value: "tell" }, t("trionfetti.to_partner")));
  if (talk === "all") to.append(h("option", { value: "say" }, t("trionfetti.to_table")));
  to.value = draft.talkTo && (draft.talkTo === "tell" || talk === "all") ? draft.talkTo : "tell";
  to.addEventListener("change", () => {
    draft.talkTo = to.value;
  });
  const form = h(
    "form",
    { class: "talk-form", id: "talk-form" },
    h("label", { for: "talk-input" }, t("trionfetti.talk_label")),
    to,
    input,
    h("button", { type: "submit", id: "talk-send" }, t("trionfetti.send")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text || text.length > 200) {
      ctx.showMessage(t("trionfetti.talk_invalid"), "warn");
      return;
    }
    draft.talk = "";
    input.value = "";
    ctx.act(`${to.value} ${text}`);
  });
  draft.talkForm = form;
  draft.talkKey = key;
  return form;
}

export default {
  deckStyle: "italian",

  centre(ctx) {
    const { obs, t, h } = ctx;
    const out = [];
    if (obs.bottom_card) {
      out.push(h("div", { class: "info-card bottom", id: "bottom-card" }, ctx.card(obs.bottom_card, { small: true }), h("span", { class: "info-text" }, t("trionfetti.bottom_card"))));
    }
    if (obs.leftover && obs.leftover.length) {
      out.push(
        h(
          "div",
          { class: "info-card leftover" },
          h("div", { class: "cardrow" }, obs.leftover.map((c) => ctx.card(c, { small: true }))),
          h("span", { class: "info-text" }, obs.leftover_public ? t("trionfetti.leftover") : t("trionfetti.leftover_peek")),
        ),
      );
    }
    out.push(
      h(
        "div",
        { class: "info-card" },
        h("span", { class: "info-text" }, t("trionfetti.deal_of", { deal: obs.deal ?? 1, smazzata: obs.smazzata ?? 1 })),
        h("span", { class: "info-text" }, t("trionfetti.ranking_short", { name: t("ranking." + obs.ranking_name, null, obs.ranking_name) })),
        obs.vega && obs.vega.stake > 1 ? h("span", { class: "info-text" }, t("trionfetti.stake", { n: obs.vega.stake })) : null,
      ),
    );
    return out;
  },

  trick(ctx) {
    const { obs, t } = ctx;
    if ((obs.trick || []).length) return null;
    const last = lastTrickFromLog(obs);
    if (!last) return null;
    return finishedTrick(last, ctx, t("trick.last_won_plain", { name: ctx.seatName(last.winner) }));
  },

  seatBadges(seat, ctx) {
    const { obs, t } = ctx;
    const out = [];
    if (obs.cutter === seat) out.push(t("trionfetti.cutter"));
    if (obs.eldest === seat) out.push(t("trionfetti.mano"));
    return out;
  },

  actionLabel(action, ctx) {
    const { obs, t } = ctx;
    if (action.startsWith("rank ")) {
      const id = action.slice(5);
      if (PRESETS[id]) return `${t("ranking." + id)}: ${PRESETS[id]}`;
      return t("trionfetti.custom_ranking");
    }
    if (action === "keep") return t("trionfetti.act.keep", { name: t("ranking." + obs.ranking_name, null, obs.ranking_name) });
    if (action === "vega") return t("trionfetti.act.vega", { n: vegaValue(obs) });
    if (action === "accept" && obs.vega?.pending) return t("trionfetti.act.accept", { n: obs.vega.pending.value });
    if (action === "refuse" && obs.vega?.pending) return t("trionfetti.act.refuse");
    if (action.startsWith("signal ")) return t("trionfetti.sign", { claim: claimText(ctx, claimOf(action)) });
    if (action.startsWith("announce ")) return t("trionfetti.announce", { claim: claimText(ctx, claimOf(action)) });
    if (action.startsWith("tell ")) return t("trionfetti.tell", { text: claimOf(action) });
    if (action.startsWith("say ")) return t("trionfetti.say", { text: claimOf(action) });
    return null;
  },

  groupActions(actions, ctx) {
    const { t } = ctx;
    const ranking = actions.filter((a) => a === "keep" || a.startsWith("rank "));
    const signals = actions.filter((a) => a.startsWith("signal "));
    const announces = actions.filter((a) => a.startsWith("announce "));
    const rest = actions.filter((a) => !ranking.includes(a) && !signals.includes(a) && !announces.includes(a));
    const sections = (list) => [
      { title: t("trionfetti.claims_words"), actions: list.filter((a) => WORDS.includes(claimOf(a))) },
      { title: t("trionfetti.claims_ranks"), actions: list.filter((a) => RANKS_52.includes(claimOf(a))) },
      { title: t("trionfetti.claims_cards"), actions: list.filter((a) => ctx.isCard(claimOf(a))) },
    ];
    const short = (a) => shortClaim(ctx, claimOf(a));
    return [
      { key: "ranking", actions: ranking, title: ranking.length ? t("trionfetti.choose_ranking") : null, className: "bet" },
      { key: "main", actions: rest },
      { key: "signals", menu: true, title: t("trionfetti.signals_menu"), actions: signals, sections: sections(signals), label: short },
      { key: "announce", menu: true, title: t("trionfetti.announce_menu"), actions: announces, sections: sections(announces), label: short },
    ];
  },

  statusNote(ctx) {
    if (ctx.obs.team_must_answer) return ctx.t("trionfetti.team_must_answer");
    return null;
  },

  turnHint(ctx) {
    const { obs, t } = ctx;
    if (obs.phase === "ranking") return t("trionfetti.hint_ranking");
    if (obs.phase === "vega_pending") return t("trionfetti.hint_vega", { n: obs.vega?.pending?.value ?? "" });
    return t("hint.play_card");
  },

  whyIllegal(card, ctx) {
    const { obs, t } = ctx;
    if (obs.phase === "ranking") return t("trionfetti.why_ranking");
    if (obs.phase === "vega_pending") return t("trionfetti.why_vega");
    return null;
  },

  scoreColumns(ctx) {
    const { obs, t } = ctx;
    return [
      { label: t("trionfetti.points"), values: obs.scores },
      { label: t("trionfetti.games"), values: obs.games || [] },
      { label: t("trionfetti.tricks"), values: obs.tricks_won || [] },
    ];
  },

  scoreNote(ctx) {
    const { obs, t } = ctx;
    return t("trionfetti.targets", { points: obs.points_to_win_game, games: obs.games_to_win_match });
  },

  extra(ctx) {
    const { obs } = ctx;
    if (ctx.seat === null || ctx.seat === undefined || obs.match_over) return null;
    if (obs.talk !== "partner" && obs.talk !== "all") return null;
    return talkForm(ctx);
  },

  describeLast(last, ctx) {
    const action = String(last.action);
    if (action.startsWith("tell ")) return ctx.t("trionfetti.last_tell", { name: ctx.seatName(last.seat) });
    return null;
  },

  panels(ctx) {
    const { obs, t, h } = ctx;
    const out = [];
    const ranking = obs.ranking || [];
    const chips = [];
    ranking.forEach((level, i) => {
      if (i) chips.push(h("span", { class: "sep" }, ">"));
      chips.push(levelChip(ctx, level));
    });
    out.push(
      ctx.panel(
        t("trionfetti.ranking_title", { name: t("ranking." + obs.ranking_name, null, obs.ranking_name) }),
        h("div", { class: "chips", id: "ranking" }, chips),
        h("p", { class: "note" }, t("trionfetti.ranking_note")),
      ),
    );
    const vega = obs.vega || {};
    const vegaLines = [];
    if (vega.pending) vegaLines.push(h("p", null, h("strong", null, t("trionfetti.vega_pending", { name: ctx.seatName(vega.pending.seat), n: vega.pending.value }))));
    else if (vega.used) vegaLines.push(h("p", null, t("trionfetti.vega_used", { n: vega.stake })));
    else vegaLines.push(h("p", null, t("trionfetti.vega_open", { n: vegaValue(obs) })));
    out.push(ctx.panel(t("trionfetti.vega_title"), ...vegaLines));
    const shared = obs.partner_cards || [];
    if (shared.length) {
      out.push(
        ctx.panel(
          t("trionfetti.shared_title"),
          shared.map((s) =>
            h(
              "div",
              { class: "shared" },
              h("p", { class: "note" }, t("trionfetti.shared_line", { name: ctx.seatName(s.seat), reason: t("trionfetti.share." + s.reason, null, s.reason) })),
              h("div", { class: "cardrow" }, s.cards.map((c) => ctx.card(c, { small: true }))),
            ),
          ),
        ),
      );
    }
    const msgs = obs.messages || [];
    const canTalk = obs.talk === "partner" || obs.talk === "all";
    if (msgs.length || canTalk) {
      out.push(
        ctx.panel(
          t("trionfetti.messages_title"),
          msgs.length
            ? h(
                "ul",
                { class: "msglist", id: "table-messages" },
                msgs.map((m) => {
                  const who = ctx.seatName(m.seat);
                  if (m.type === "tell" || m.type === "say") return h("li", null, t("trionfetti.msg_" + m.type, { name: who, text: m.text }));
                  return h("li", null, t("trionfetti.msg_" + m.type, { name: who, claim: claimText(ctx, m.claim) }));
                }),
              )
            : h("p", { class: "empty" }, t("trionfetti.no_messages")),
          h("p", { class: "note" }, t("trionfetti.talk." + (obs.talk || "none"))),
        ),
      );
    }
    const ld = obs.last_deal;
    if (ld && ld.detail) {
      const d = ld.detail;
      out.push(
        ctx.panel(
          t("trionfetti.last_deal"),
          h("p", null, t("trionfetti.reason." + d.reason, { team: ctx.sideName(d.team), n: d.award }, `${d.reason}: ${d.award}`)),
          d.game_won !== null && d.game_won !== undefined ? h("p", null, h("strong", null, t("trionfetti.game_won", { team: ctx.sideName(d.game_won) }))) : null,
        ),
      );
    }
    return out;
  },
};
