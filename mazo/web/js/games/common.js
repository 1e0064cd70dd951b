// Pieces more than one game module draws the same way.

import { rankShort } from "../cards.js";

// A finished trick ({leader, cards, winner}) as the table's trick area shows it: each
// card with the seat that played it, the winner's marked, and a caption.
export function finishedTrick(last, ctx, caption) {
  return {
    cards: last.cards.map((card, i) => {
      const seat = (last.leader + i) % ctx.players;
      return { seat, card, winner: seat === last.winner };
    }),
    done: true,
    caption,
  };
}

/** Small card pictures in a row, for histories and lists (never the raw codes).
 * opts.win: a code to mark as the card that took the trick; opts.dim: codes drawn faded. */
export function miniCards(ctx, codes, opts = {}) {
  const dim = new Set(opts.dim || []);
  return ctx.h(
    "span",
    { class: "mini-cards" + (opts.className ? " " + opts.className : "") },
    (codes || []).map((c) =>
      ctx.card(c, { small: true, extraClass: "mini" + (c === opts.win ? " win" : "") + (dim.has(c) ? " dim" : "") }),
    ),
  );
}

/** One finished trick as a history line: its cards in playing order (the winner's
 * marked) and a sentence such as "Bot 2 takes (+14)". */
export function trickLine(ctx, trick, text) {
  const i = (trick.winner - trick.leader + ctx.players) % ctx.players;
  return ctx.h("li", { class: "trick-line" }, miniCards(ctx, trick.cards, { win: trick.cards[i] }), ctx.h("span", { class: "trick-text" }, text));
}

/** A box of the table's centre: what it shows (a card, a row of cards, or null), then one
 * line of text per entry of lines (a string, or a node such as a suit symbol; null ones
 * are left out). opts.className is added to the box's class, opts.id names it. */
export function infoCard(ctx, shown, lines, opts = {}) {
  const texts = [].concat(lines).filter((x) => x !== null && x !== undefined);
  return ctx.h(
    "div",
    { class: "info-card" + (opts.className ? " " + opts.className : ""), id: opts.id },
    shown,
    texts.map((x) => (x instanceof Node ? x : ctx.h("span", { class: "info-text" }, x))),
  );
}

/** The score table's columns of a partnership game: its score, its games and the deal's
 * tricks won, one value per side, under the labels of the i18n keys given. */
export function teamColumns(ctx, keys) {
  const { obs, t } = ctx;
  return [
    { label: t(keys[0]), values: obs.scores },
    { label: t(keys[1]), values: obs.games || [] },
    { label: t(keys[2]), values: obs.tricks_won || [] },
  ];
}

/** A rank as the corner of a card shows it, in the interface language. */
export { rankShort };
