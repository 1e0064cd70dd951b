// Pieces more than one game module draws the same way.

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
