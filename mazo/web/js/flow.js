// The flow of play on the table page: a display queue that paces incoming `state`
// messages (a finished trick stays readable for the table's dwell, is gathered toward its
// winner, then the next states follow one by one), the slide of new cards onto the felt,
// and the overlays a deal end and a match end bring (the deal result, the match summary).
// table.js owns the socket and the drawing; it hands this module a small `host`.

export const SPACING_MS = 300; // between two queued plays
export const FAST_SPACING_MS = 120; // when many states are queued (catching up)
export const GATHER_MS = 420; // the trick moving to its winner
export const WATCH_RESULT_MS = 4000; // a watcher's deal result closes by itself

const now = () => performance.now();

/** The winner of the trick this message's events complete, else the seat of a capture it
 * makes (Escoba: a play that takes cards from the table), else null: what the dwell holds. */
export function trickWinner(msg) {
  const done = (msg.events || []).filter((e) => e.type === "trick" && typeof e.winner === "number").pop();
  if (done) return done.winner;
  const cap = captureOf(msg);
  return cap ? cap.seat : null;
}

/** A play of this message that took cards from the table ({seat, card, captured, escoba}). */
export function captureOf(msg) {
  return (msg.events || []).find((e) => e.type === "play" && Array.isArray(e.captured) && e.captured.length && typeof e.seat === "number") || null;
}

export function dealEnd(msg) {
  return (msg.events || []).find((e) => e.type === "hand_end" && Array.isArray(e.points)) || null;
}

/** The table's dwell in seconds (0 = instant). */
export function dwellOf(msg) {
  const s = msg && msg.table && msg.table.settings;
  const d = s ? Number(s.dwell) : NaN;
  return Number.isFinite(d) && d >= 0 ? d : 1.5;
}

/**
 * host: {
 *   shown(): the message on screen (or null),
 *   draw(msg): draw it now (displayState),
 *   mine(msg): true for the viewer's own action (drawn at once, no gathering),
 *   gather(seat): start the trick's gathering toward `seat`; false when there is nothing to gather,
 * }
 */
export class Pacer {
  constructor(host) {
    this.host = host;
    this.queue = [];
    this.timer = null;
    this.waiting = null; // "dwell" | "gather" | "space"
    this.lastDraw = -Infinity;
    this.gatherSeat = null;
  }

  /** A received message: queued behind the ones not drawn yet. */
  push(msg) {
    const last = this.queue[this.queue.length - 1];
    if (last && last.version === msg.version) this.queue[this.queue.length - 1] = msg;
    else this.queue.push(msg);
    this.pump();
  }

  /** True while some received message is not on screen yet. */
  behind() {
    return this.queue.length > 0;
  }

  pump() {
    if (this.timer) {
      // the viewer's own action ends any wait: they have seen what was on the felt
      if (!(this.queue.length && this.host.mine(this.queue[0]))) return;
      clearTimeout(this.timer);
      this.timer = null;
      this.waiting = null;
    }
    while (this.queue.length) {
      const msg = this.queue[0];
      const shown = this.host.shown();
      if (shown && shown.version === msg.version) {
        // the same version again (names, connections, timers): redraw now, nothing to pace
        this.queue.shift();
        this.host.draw(msg);
        continue;
      }
      const dwell = dwellOf(msg);
      const mine = this.host.mine(msg);
      if (dwell <= 0) {
        this.queue.shift();
        this.gatherSeat = null;
        this.host.draw(msg);
        this.lastDraw = now();
        continue;
      }
      if (this.gatherSeat !== null && !mine) {
        const seat = this.gatherSeat;
        this.gatherSeat = null;
        if (this.host.gather(seat)) {
          this.wait("gather", GATHER_MS);
          return;
        }
      }
      this.gatherSeat = null;
      const spacing = this.queue.length > 6 ? FAST_SPACING_MS : SPACING_MS;
      const gap = this.lastDraw + spacing - now();
      if (gap > 0 && !mine) {
        this.wait("space", gap);
        return;
      }
      this.queue.shift();
      this.host.draw(msg);
      this.lastDraw = now();
      const winner = trickWinner(msg);
      if (winner !== null) {
        this.gatherSeat = winner;
        this.wait("dwell", dwell * 1000);
        return;
      }
    }
  }

  wait(kind, ms) {
    this.waiting = kind;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.waiting = null;
      this.pump();
    }, ms);
  }

  /** A click on the felt: no more waiting; every queued state is drawn now, in order. */
  skip() {
    const was = !!this.timer || this.queue.length > 0;
    clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
    this.gatherSeat = null;
    while (this.queue.length) this.host.draw(this.queue.shift());
    this.lastDraw = now();
    return was;
  }

  /** Draw the newest received message now, dropping the ones in between. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
    this.gatherSeat = null;
    const last = this.queue.pop();
    this.queue = [];
    if (last) {
      this.host.draw(last);
      this.lastDraw = now();
    }
  }
}

// ---- animations ------------------------------------------------------------------------

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Move the cards of #trick toward the seat element; false when there is nothing to move. */
export function gatherTrick(trickBox, seatEl) {
  const figs = [...trickBox.querySelectorAll("figure.played")];
  if (!figs.length || !seatEl || !trickBox.classList.contains("done")) return false;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  const to = centre(seatEl);
  for (const fig of figs) {
    const from = centre(fig);
    fig.style.setProperty("--gather-x", `${to.x - from.x}px`);
    fig.style.setProperty("--gather-y", `${to.y - from.y}px`);
    fig.classList.add("gathering");
  }
  trickBox.classList.add("gathering");
  return true;
}

/** Slide the figures of #trick showing `codes` in from the seat element of their player. */
export function slideIn(trickBox, plays, seatOf) {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  for (const { card, seat } of plays) {
    const img = trickBox.querySelector(`[data-card="${card}"]`);
    const fig = img ? img.closest("figure") || img : null;
    const seatEl = seatOf(seat);
    if (!fig || !seatEl) continue;
    const from = centre(seatEl);
    const to = centre(fig);
    fig.style.setProperty("--from-x", `${from.x - to.x}px`);
    fig.style.setProperty("--from-y", `${from.y - to.y}px`);
    fig.classList.remove("slide-in");
    void fig.offsetWidth; // restart the animation
    fig.classList.add("slide-in");
  }
}
