// The "Hint" button of the table page (table option settings.hints): asks the server
// what the `normal` bot would play for this seat now ({"type": "hint"}) and shows its
// answer under the actions: the move (a card picture, or the action's label) and one
// line of why (an i18n key with params; card params are card codes, drawn as names).

import { h, clear } from "./dom.js";
import { isCard } from "./cards.js";

const hint = {
  asked: null, // the version a hint was asked for
  answer: null, // {version, action, reason}
};

/** The server's `hint` message. */
export function receiveHint(data) {
  hint.answer = data;
  hint.asked = null;
}

/** Forget a pending question (an error answered it). */
export function hintFailed() {
  hint.asked = null;
}

/** May this seat ask now? (hints on, a seat, its turn or an answer owed) */
export function hintWanted(ctx) {
  const settings = ctx.table.settings || {};
  if (!settings.hints || ctx.seat === null || ctx.seat === undefined) return false;
  if (ctx.obs.match_over || !ctx.legal.length) return false;
  // a seat a bot plays for (its timer ran out) gets its "I'm back" bar, not a hint
  const mine = (ctx.table.seats || []).find((s) => s.seat === ctx.seat);
  if (mine && mine.autoplay) return false;
  if (ctx.obs.to_act === ctx.seat) return true;
  // an answer owed out of turn (an Envite bet, a Trionfetti vega, the tumbo)
  return ctx.legal.some((a) => a === "accept" || a === "tumbo_play");
}

function reasonText(ctx, reason) {
  const params = {};
  for (const [k, v] of Object.entries(reason.params || {})) {
    if (typeof v === "string" && isCard(v)) params[k] = ctx.cardName(v);
    else if (k === "ranking") params[k] = ctx.t("ranking." + v, null, v);
    else if (k === "action") params[k] = ctx.actionLabel(String(v));
    else params[k] = v;
  }
  return ctx.t(reason.key, params, "");
}

/** Draw the button and the answer for this version into #hint-box. */
export function renderHint(ctx, send) {
  const box = document.getElementById("hint-box");
  if (!box) return;
  if (!hintWanted(ctx)) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const answer = hint.answer && hint.answer.version === ctx.version ? hint.answer : null;
  const waiting = hint.asked === ctx.version;
  const button = h(
    "button",
    { type: "button", id: "hint-button", class: "small hint-button", title: ctx.t("hint.button_title"), disabled: waiting || !!answer },
    ctx.t("hint.button"),
  );
  button.addEventListener("click", () => {
    hint.asked = ctx.version;
    if (!send({ type: "hint" })) hint.asked = null;
    ctx.rerender();
  });
  const parts = [button];
  if (waiting) parts.push(h("span", { class: "hint-wait" }, ctx.t("hint.loading")));
  if (answer) {
    const action = answer.action;
    const codes = action.split("+");
    let move;
    if (codes.every(isCard)) {
      // a card, or an Escoba capture: the card played, then what it takes
      move = [ctx.card(codes[0], { small: true, extraClass: "hint-card" })];
      if (codes.length > 1) move.push(h("span", { class: "hint-takes" }, "→"), codes.slice(1).map((c) => ctx.card(c, { small: true, extraClass: "hint-card" })));
    } else {
      move = [h("strong", { class: "hint-action" }, ctx.actionLabel(action))];
    }
    parts.push(
      h(
        "p",
        { id: "hint-text", class: "hint-text", dataset: { action }, role: "status" },
        h("span", { class: "hint-label" }, ctx.t("hint.label")),
        h("span", { class: "hint-move" }, move),
        h("span", { class: "hint-reason" }, reasonText(ctx, answer.reason || {})),
      ),
    );
  }
  clear(box, ...parts);
  // the hinted card in the hand, marked
  if (answer) {
    const code = answer.action.split("+")[0];
    for (const el of document.querySelectorAll("#hand .card")) el.classList.toggle("hinted", el.dataset.card === code);
  }
}
