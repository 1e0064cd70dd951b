// Trionfetti: the ranking in force (strongest first) and the cutter's choice (keep, a
// preset, or an order of one's own built in the custom ranking editor), the bottom card
// and deal 4's leftover, the vega (call, accept, refuse), partner sharing, claims to the
// partner or the table (menus) and free talk (tell / say) in a text box.

import { RANKS_52, SUITS, suitIcon, rankShort } from "../cards.js";
import { finishedTrick, infoCard, miniCards, teamColumns, trickLine } from "./common.js";

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

/** A claim's short label in a menu: the word, the rank's name, or a small card picture. */
function shortClaim(ctx, claim) {
  if (WORDS.includes(claim)) return ctx.t("claim." + claim);
  if (RANKS_52.includes(claim)) return ctx.t("rank." + claim);
  if (ctx.isCard(claim)) return miniCards(ctx, [claim]);
  return claim;
}

/** A ranking as text in the interface language: "K Q J 10 ... 1", with the suits of a
 * level that holds only some of them named ("R (spade)"). */
function levelsText(ctx, levels) {
  return levels
    .map((l) => {
      const suits = l.suits || SUIT_ORDER;
      if (suits.length === 4) return rankShort(l.rank);
      return `${rankShort(l.rank)} (${suits
        .split("")
        .map((x) => ctx.t("suit." + x))
        .join(", ")})`;
    })
    .join(" ");
}

/** A preset's button: its name and its order, each level's rank as the cards show it
 * and the suits of a part level as symbols. */
function presetLabel(ctx, id) {
  const { h } = ctx;
  return h(
    "span",
    { class: "preset-label" },
    h("span", { class: "preset-name" }, ctx.t("ranking." + id)),
    " ",
    h(
      "span",
      { class: "preset-order" },
      presetLevels(id).map((l) =>
        h("span", { class: "lvl" }, rankShort(l.rank), l.suits.length < 4 ? l.suits.split("").map((x) => h("span", { html: suitIcon(x, ctx.style, 12) })) : null),
      ),
    ),
  );
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
    rankShort(level.rank),
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

/** What each partner showed this smazzata, every card once with the latest knowledge:
 * still in the partner's hand (shown during this deal and not played since), or gone
 * (played since, or set aside with an earlier deal). Strongest first. */
export function partnerKnowledge(obs, seat) {
  const log = obs.smazzata_log || obs.deal_log || [];
  let first = -1;
  log.forEach((e, i) => {
    if (e.type === "deal") first = i;
  });
  const played = new Map();
  log.forEach((e, i) => {
    if (e.type === "play") played.set(e.card, i);
  });
  const rank = new Map();
  (obs.ranking || []).forEach((level, i) => {
    for (const x of level.suits || SUIT_ORDER) rank.set(level.rank + x, i);
  });
  const bySeat = new Map();
  log.forEach((e, i) => {
    if (e.type !== "share" || e.seat === seat) return;
    if (!bySeat.has(e.seat)) bySeat.set(e.seat, { seat: e.seat, cards: new Map(), reason: null });
    const entry = bySeat.get(e.seat);
    for (const c of e.cards) entry.cards.set(c, { at: i, reason: e.reason });
  });
  const strength = (a, b) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99);
  return [...bySeat.values()].map((entry) => {
    const held = [];
    const gone = [];
    let latest = null;
    for (const [c, k] of entry.cards) {
      const now = k.at > first && k.reason !== "shown_previous" && !((played.get(c) ?? -1) > k.at);
      if (now) {
        held.push(c);
        if (!latest || k.at > latest.at) latest = k;
      } else gone.push(c);
    }
    const reason = latest ? latest.reason : null;
    return { seat: entry.seat, held: held.sort(strength), gone: gone.sort(strength), reason };
  });
}

/** The tricks of the smazzata, grouped by deal, latest deal first. */
function tricksByDeal(obs) {
  const log = obs.smazzata_log || obs.deal_log || [];
  const deals = [];
  for (const e of log) {
    const d = deals[deals.length - 1];
    if (e.type === "deal") deals.push({ deal: e.deal, tricks: [], vega: null });
    else if (!d) continue;
    else if (e.type === "trick") d.tricks.push(e);
    else if (e.type === "vega") d.vega = { seat: e.seat, value: e.value, answer: null, by: null };
    else if ((e.type === "accept" || e.type === "refuse") && d.vega) Object.assign(d.vega, { answer: e.type, by: e.seat });
  }
  return deals.filter((d) => d.tricks.length || d.vega).reverse();
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

// ---- the custom ranking editor ---------------------------------------------------------
//
// The cutter builds an order of levels (a rank and some of its suits), strongest first,
// starting from the ranking in force or a preset. Every card stays in exactly one level by
// construction: a suit is split off its level into a level of its own just below, and a
// part level joins back into the nearest other level of its rank; moves only reorder. The
// engine checks the result (a refusal comes back in #message with its reason). The state
// lives in ctx.draft.rank, so redraws keep the order being built; it is dropped once the
// choice is no longer offered.

const SUIT_ORDER = SUITS.join("");

function canonSuits(suits) {
  return SUITS.filter((s) => suits.includes(s)).join("");
}

/** Levels from a preset's text: "KE", "K(BCO)" and "K" words. */
function presetLevels(id) {
  return PRESETS[id].split(" ").map((word) => {
    const open = word.indexOf("(");
    if (open > 0) return { rank: word.slice(0, open), suits: canonSuits(word.slice(open + 1, -1)) };
    if (word.length > 1 && SUITS.includes(word.slice(-1)) && RANKS_52.includes(word.slice(0, -1))) return { rank: word.slice(0, -1), suits: word.slice(-1) };
    return { rank: word, suits: SUIT_ORDER };
  });
}

function copyLevels(levels) {
  return (levels || []).map((l) => ({ rank: String(l.rank), suits: canonSuits(l.suits || SUIT_ORDER) }));
}

function levelKey(level) {
  return level.rank + ":" + level.suits;
}

function levelName(ctx, level) {
  if (level.suits.length === 4) return ctx.t("trionfetti.editor.rank_all", { rank: ctx.t("rank." + level.rank) });
  return level.suits
    .split("")
    .map((s) => ctx.cardName(level.rank + s))
    .join(", ");
}

/** The action that sets this order: `rank [{"rank": "K", "suits": "E"}, ...]`. */
function customRankingAction(levels) {
  return "rank " + JSON.stringify(levels.map((l) => ({ rank: l.rank, suits: l.suits })));
}

function rankingOffered(ctx) {
  return ctx.seat !== null && ctx.seat !== undefined && ctx.obs.phase === "ranking" && ctx.legal.some((a) => a === "keep" || a.startsWith("rank "));
}

function startLevels(ed) {
  return ed.start && PRESETS[ed.start] ? presetLevels(ed.start) : copyLevels(ed.ctx.obs.ranking);
}

function moveLevel(ed, i, delta) {
  const j = i + delta;
  const levels = ed.levels;
  if (j < 0 || j >= levels.length) return;
  [levels[i], levels[j]] = [levels[j], levels[i]];
  ed.note = ed.ctx.t("trionfetti.editor.moved", { level: levelName(ed.ctx, levels[j]), pos: j + 1, n: levels.length });
  drawEditor(ed, (delta < 0 ? (j > 0 ? "up:" : "down:") : j < levels.length - 1 ? "down:" : "up:") + levelKey(levels[j]));
}

function splitLevel(ed, i, suit) {
  const level = ed.levels[i];
  if (level.suits.length < 2 || !level.suits.includes(suit)) return;
  const own = { rank: level.rank, suits: suit };
  level.suits = level.suits.replace(suit, "");
  ed.levels.splice(i + 1, 0, own);
  ed.note = ed.ctx.t("trionfetti.editor.split_done", { card: ed.ctx.cardName(level.rank + suit), pos: i + 2, n: ed.levels.length });
  drawEditor(ed, "up:" + levelKey(own));
}

function joinLevel(ed, i) {
  const levels = ed.levels;
  const level = levels[i];
  let best = -1;
  for (let j = 0; j < levels.length; j++) {
    if (j === i || levels[j].rank !== level.rank) continue;
    if (best < 0 || Math.abs(j - i) < Math.abs(best - i)) best = j;
  }
  if (best < 0) return;
  const target = levels[best];
  target.suits = canonSuits(target.suits + level.suits);
  levels.splice(i, 1);
  const pos = levels.indexOf(target);
  ed.note = ed.ctx.t("trionfetti.editor.joined", { level: levelName(ed.ctx, target), pos: pos + 1, n: levels.length });
  drawEditor(ed, (pos > 0 ? "up:" : "down:") + levelKey(target));
}

function levelRow(ed, level, i) {
  const ctx = ed.ctx;
  const { t, h } = ctx;
  const n = ed.levels.length;
  const name = levelName(ctx, level);
  const split = level.suits.length > 1;
  const suits = level.suits.split("").map((s) =>
    split
      ? h("button", {
          type: "button",
          class: "small suit-split",
          dataset: { key: `split:${levelKey(level)}:${s}`, suit: s },
          title: t("trionfetti.editor.split", { card: ctx.cardName(level.rank + s) }),
          "aria-label": t("trionfetti.editor.split", { card: ctx.cardName(level.rank + s) }),
          html: suitIcon(s, ctx.style, 16),
          onclick: () => splitLevel(ed, ed.levels.indexOf(level), s),
        })
      : h("span", { class: "suit-alone", title: ctx.cardName(level.rank + s), html: suitIcon(s, ctx.style, 16) }),
  );
  const others = ed.levels.some((l) => l !== level && l.rank === level.rank);
  const button = (dir, text, disabled) =>
    h(
      "button",
      {
        type: "button",
        class: "small move-" + dir,
        disabled,
        dataset: { key: `${dir}:${levelKey(level)}` },
        title: t("trionfetti.editor." + dir, { level: name }),
        "aria-label": t("trionfetti.editor." + dir, { level: name }),
        onclick: () => moveLevel(ed, ed.levels.indexOf(level), dir === "up" ? -1 : 1),
      },
      text,
    );
  const row = h(
    "li",
    { class: "rank-level" + (level.suits.length < 4 ? " part" : ""), dataset: { rank: level.rank, suits: level.suits } },
    h("span", { class: "pos", "aria-hidden": "true" }, `${i + 1}.`),
    h("span", { class: "rank-code", title: name }, rankShort(level.rank)),
    h("span", { class: "level-name" }, name),
    h(
      "span",
      { class: "level-controls" },
      h("span", { class: "suits" }, suits),
      others
        ? h(
            "button",
            {
              type: "button",
              class: "small join",
              dataset: { key: `join:${levelKey(level)}` },
              title: t("trionfetti.editor.join_title", { level: name }),
              "aria-label": t("trionfetti.editor.join_title", { level: name }),
              onclick: () => joinLevel(ed, ed.levels.indexOf(level)),
            },
            t("trionfetti.editor.join"),
          )
        : null,
      button("up", "↑", i === 0),
      button("down", "↓", i === n - 1),
    ),
  );
  // Alt+Up / Alt+Down move the level whose row holds the focus
  row.addEventListener("keydown", (ev) => {
    if (!ev.altKey || (ev.key !== "ArrowUp" && ev.key !== "ArrowDown")) return;
    ev.preventDefault();
    moveLevel(ed, ed.levels.indexOf(level), ev.key === "ArrowUp" ? -1 : 1);
  });
  return row;
}

/** Draw the editor's body again from ed.levels, keeping (or moving) the focus. */
function drawEditor(ed, focusKey) {
  const ctx = ed.ctx;
  const { obs, t, h } = ctx;
  const active = document.activeElement;
  const keep = focusKey || (active && ed.body.contains(active) ? active.dataset.key : null);
  ed.summary.textContent = t("trionfetti.editor.open");
  const inForce = t("ranking." + obs.ranking_name, null, obs.ranking_name);
  const select = h("select", { id: "rank-start", dataset: { key: "start" } });
  select.append(h("option", { value: "" }, t("trionfetti.editor.in_force", { name: inForce })));
  for (const id of Object.keys(PRESETS)) select.append(h("option", { value: id }, t("ranking." + id)));
  select.value = ed.start || "";
  select.addEventListener("change", () => {
    ed.start = select.value;
    ed.levels = startLevels(ed);
    ed.note = "";
    drawEditor(ed, "start");
  });
  const chips = [];
  ed.levels.forEach((level, i) => {
    if (i) chips.push(h("span", { class: "sep" }, ">"));
    chips.push(levelChip(ctx, level));
  });
  ed.body.replaceChildren(
    h("p", { class: "note" }, t("trionfetti.editor.help")),
    h("label", { class: "rank-start" }, t("trionfetti.editor.start"), " ", select),
    h("ol", { class: "rank-levels", id: "rank-levels", "aria-label": t("trionfetti.editor.levels") }, ed.levels.map((level, i) => levelRow(ed, level, i))),
    h("div", { class: "rank-preview" }, h("span", { class: "group-title" }, t("trionfetti.editor.preview", { n: ed.levels.length })), h("div", { class: "chips", id: "rank-preview" }, chips)),
    h("p", { class: "note", id: "rank-editor-status", role: "status", "aria-live": "polite" }, ed.note || ""),
    h(
      "div",
      { class: "rank-buttons" },
      h(
        "button",
        {
          type: "button",
          id: "rank-reset",
          dataset: { key: "reset" },
          onclick: () => {
            ed.levels = startLevels(ed);
            ed.note = t("trionfetti.editor.reset_done");
            drawEditor(ed, "reset");
          },
        },
        t("trionfetti.editor.reset"),
      ),
      h(
        "button",
        {
          type: "button",
          id: "rank-send",
          class: "primary",
          dataset: { key: "send" },
          onclick: () => ed.ctx.act(customRankingAction(ed.levels)),
        },
        t("trionfetti.editor.send"),
      ),
    ),
  );
  if (keep) {
    const el = ed.body.querySelector(`[data-key="${CSS.escape(keep)}"]`);
    if (el && !el.disabled) el.focus();
    else {
      const row = keep.includes(":") ? ed.body.querySelector(`[data-key$="${CSS.escape(keep.slice(keep.indexOf(":")))}"]:not([disabled])`) : null;
      if (row) row.focus();
    }
  }
}

/** The editor (a <details> whose summary opens it), or null when the seat cannot choose. */
function rankEditor(ctx) {
  const { obs, draft, h } = ctx;
  if (!rankingOffered(ctx)) {
    draft.rank = null;
    return null;
  }
  const key = `${obs.smazzata}/${(obs.games || []).join("-")}/${obs.dealer}`;
  let ed = draft.rank;
  if (!ed || ed.key !== key) {
    ed = draft.rank = { key, start: "", levels: copyLevels(obs.ranking), note: "", look: null };
    ed.summary = h("summary", null);
    ed.body = h("div", { class: "rank-editor-body" });
    ed.node = h("details", { class: "menu rank-editor", id: "rank-editor" }, ed.summary, ed.body);
  }
  ed.ctx = ctx;
  // drawn again only when the language, the deck style or the ranking in force change
  const look = `${ctx.t("trionfetti.editor.open")}/${ctx.style}/${obs.ranking_name}/${JSON.stringify(obs.ranking)}`;
  if (ed.look !== look) {
    ed.look = look;
    drawEditor(ed);
  }
  return ed.node;
}

export default {
  deckStyle: "italian",

  centre(ctx) {
    const { obs, t } = ctx;
    const left = obs.leftover && obs.leftover.length ? obs.leftover : null;
    return [
      obs.bottom_card && infoCard(ctx, ctx.card(obs.bottom_card, { small: true }), t("trionfetti.bottom_card"), { className: "bottom", id: "bottom-card" }),
      left &&
        infoCard(
          ctx,
          ctx.h("div", { class: "cardrow" }, left.map((c) => ctx.card(c, { small: true }))),
          obs.leftover_public ? t("trionfetti.leftover") : t("trionfetti.leftover_peek"),
          { className: "leftover" },
        ),
      infoCard(ctx, null, [
        t("trionfetti.deal_of", { deal: obs.deal ?? 1, smazzata: obs.smazzata ?? 1 }),
        t("trionfetti.ranking_short", { name: t("ranking." + obs.ranking_name, null, obs.ranking_name) }),
        obs.vega && obs.vega.stake > 1 ? t("trionfetti.stake", { n: obs.vega.stake }) : null,
      ]),
    ];
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
      if (PRESETS[id]) return `${t("ranking." + id)}: ${levelsText(ctx, presetLevels(id))}`;
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
      {
        key: "ranking",
        actions: ranking,
        title: ranking.length ? t("trionfetti.choose_ranking") : null,
        className: "bet",
        label: (a) => (a.startsWith("rank ") && PRESETS[a.slice(5)] ? presetLabel(ctx, a.slice(5)) : ctx.actionLabel(a)),
      },
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
    return teamColumns(ctx, ["trionfetti.points", "trionfetti.games", "trionfetti.tricks"]);
  },

  scoreNote(ctx) {
    const { obs, t } = ctx;
    return t("trionfetti.targets", { points: obs.points_to_win_game, games: obs.games_to_win_match });
  },

  extra(ctx) {
    const { obs } = ctx;
    if (ctx.seat === null || ctx.seat === undefined || obs.match_over) return null;
    const editor = rankEditor(ctx);
    const talk = obs.talk === "partner" || obs.talk === "all" ? talkForm(ctx) : null;
    if (!editor || !talk) return editor || talk;
    // both at once: one lasting box, so what is being typed or built is kept
    const box = ctx.draft.extraBox || (ctx.draft.extraBox = ctx.h("div", { class: "extra-stack" }));
    if (box.firstChild !== editor || box.lastChild !== talk || box.childNodes.length !== 2) box.replaceChildren(editor, talk);
    return box;
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
    const known = partnerKnowledge(obs, ctx.seat);
    if (known.length) {
      out.push(
        ctx.panel(
          t("trionfetti.shared_title"),
          known.map((k) =>
            h(
              "div",
              { class: "shared", id: "partner-shown", dataset: { seat: String(k.seat) } },
              k.held.length
                ? [
                    h("p", { class: "note" }, t("trionfetti.shared_held", { name: ctx.seatName(k.seat), reason: t("trionfetti.share." + k.reason, null, k.reason) })),
                    miniCards(ctx, k.held, { className: "held" }),
                  ]
                : null,
              k.gone.length
                ? [h("p", { class: "note" }, t("trionfetti.shared_gone", { name: ctx.seatName(k.seat) })), miniCards(ctx, k.gone, { className: "gone" })]
                : null,
            ),
          ),
        ),
      );
    }
    const byDeal = tricksByDeal(obs);
    if (byDeal.length) {
      out.push(
        ctx.panel(
          t("trionfetti.tricks_title"),
          h(
            "div",
            { id: "trick-history" },
            byDeal.map((d) => [
              h("h3", null, t("trionfetti.deal_n", { n: d.deal })),
              d.vega
                ? h(
                    "p",
                    { class: "note vega-line" },
                    t("trionfetti.log_vega", { name: ctx.seatName(d.vega.seat), n: d.vega.value }),
                    d.vega.answer ? " " + t("trionfetti.log_vega_" + d.vega.answer, { name: ctx.seatName(d.vega.by) }) : "",
                  )
                : null,
              d.tricks.length
                ? h(
                "ul",
                { class: "msglist tricklist" },
                d.tricks
                  .slice()
                  .reverse()
                  .map((tr) => trickLine(ctx, tr, t("history.trick_takes", { name: ctx.seatName(tr.winner) }))),
              )
                : null,
            ]),
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
                  return h("li", null, t("trionfetti.msg_" + m.type, { name: who, claim: claimText(ctx, m.claim) }), ctx.isCard(m.claim) ? [" ", miniCards(ctx, [m.claim])] : null);
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
