// Card pictures, drawn here as SVG: rank, suit symbols, simple figures, a back.
// Two suit styles: "spanish" (oros, copas, espadas, bastos: a plain coin, a goblet,
// a straight blue sword, a knotted club) and "italian" (denari, coppe, spade,
// bastoni: a rosette coin, a wide urn, a curved blade, a straight banded baton).
// Card codes are rank then suit: 1..10, J, Q, K and O, C, E, B (e.g. "7O", "10B").

import { t } from "./i18n.js";

export const SUITS = ["O", "C", "E", "B"];
export const RANKS_40 = ["1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];
export const RANKS_52 = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

const INK = { O: "#9a6a00", C: "#b3261e", E: "#1f4f8a", B: "#2e6b1f" };
const STYLE_KEY = "mazo.deck.";

export function rankOf(code) {
  return code.slice(0, -1);
}

export function suitOf(code) {
  return code.slice(-1);
}

export function isCard(code) {
  return typeof code === "string" && /^(10|[1-9]|[JQK])[OCEB]$/.test(code);
}

export function suitColor(suit) {
  return INK[suit] || "#222";
}

/** The remembered deck style for a game, or the game's own default. */
export function deckStyle(game, fallback) {
  try {
    const saved = localStorage.getItem(STYLE_KEY + game);
    if (saved === "spanish" || saved === "italian") return saved;
  } catch (_) {
    // no storage: use the default
  }
  return fallback;
}

export function saveDeckStyle(game, style) {
  try {
    localStorage.setItem(STYLE_KEY + game, style);
  } catch (_) {
    // not remembered
  }
}

/** "siete de oros", "sette di denari", "seven of coins"... in the interface language. */
export function cardName(code) {
  if (!isCard(code)) return code;
  return t("card.name", { rank: t("rank." + rankOf(code)), suit: t("suit." + suitOf(code)) });
}

/** The corner mark of a rank in the interface language: 1..10, or the figure's letter
 * (S/C/R in Spanish, F/C/R in Italian, J/Q/K in English). */
export function rankShort(rank) {
  return ["J", "Q", "K"].includes(rank) ? t("face." + rank + ".short") : rank;
}

// ---- suit symbols, drawn in a 20x20 box centred on 0,0 ------------------------------

function spanishSymbol(suit) {
  switch (suit) {
    case "O":
      return (
        '<circle r="9.4" fill="#f2c230" stroke="#8a5c00" stroke-width="1"/>' +
        '<circle r="6.2" fill="none" stroke="#c0392b" stroke-width="1.3"/>' +
        '<circle r="2.3" fill="#8a5c00"/>'
      );
    case "C":
      return (
        '<path d="M-7,-8 L7,-8 Q7.5,1 0,2.5 Q-7.5,1 -7,-8 Z" fill="#c0392b" stroke="#6e1410" stroke-width="0.8"/>' +
        '<ellipse cx="0" cy="-8" rx="7" ry="1.6" fill="#f2c230" stroke="#8a5c00" stroke-width="0.6"/>' +
        '<rect x="-1.2" y="2" width="2.4" height="5" fill="#f2c230" stroke="#8a5c00" stroke-width="0.5"/>' +
        '<ellipse cx="0" cy="8" rx="5.5" ry="1.8" fill="#f2c230" stroke="#8a5c00" stroke-width="0.6"/>'
      );
    case "E":
      return (
        '<path d="M0,-10.5 L1.7,-7.5 L1.7,4.6 L-1.7,4.6 L-1.7,-7.5 Z" fill="#9cc0ea" stroke="#1f4f8a" stroke-width="0.8"/>' +
        '<rect x="-5.2" y="4.6" width="10.4" height="1.9" rx="0.6" fill="#1f4f8a"/>' +
        '<rect x="-1" y="6.5" width="2" height="2.6" fill="#c0392b"/>' +
        '<circle cy="9.8" r="1.3" fill="#f2c230" stroke="#8a5c00" stroke-width="0.4"/>'
      );
    case "B":
      return (
        '<g transform="rotate(-18)">' +
        '<path d="M-2.3,-10 Q2,-11.2 3.6,-7.8 L1.9,9 Q0,10.6 -1.6,9 L-3.7,-7 Q-4.2,-9.5 -2.3,-10 Z" fill="#6f9a35" stroke="#2f4f12" stroke-width="0.8"/>' +
        '<ellipse cx="-2.6" cy="-4" rx="1.4" ry="1" fill="#2f4f12"/>' +
        '<ellipse cx="2.4" cy="-1" rx="1.3" ry="0.9" fill="#2f4f12"/>' +
        '<ellipse cx="-1.7" cy="3.4" rx="1.2" ry="0.9" fill="#2f4f12"/>' +
        "</g>"
      );
    default:
      return "";
  }
}

function italianSymbol(suit) {
  switch (suit) {
    case "O": {
      let petals = "";
      for (let i = 0; i < 8; i++) {
        petals += `<ellipse cx="0" cy="-4.6" rx="1.5" ry="3" fill="#c0392b" transform="rotate(${i * 45})"/>`;
      }
      return (
        '<circle r="9.6" fill="#e8b923" stroke="#6b4200" stroke-width="1"/>' +
        '<circle r="8" fill="none" stroke="#6b4200" stroke-width="0.5" stroke-dasharray="1 1"/>' +
        petals +
        '<circle r="2.3" fill="#1f4f8a" stroke="#e8b923" stroke-width="0.6"/>'
      );
    }
    case "C":
      return (
        '<path d="M-8.5,-5 Q-9.5,3.5 -3,4.5 L3,4.5 Q9.5,3.5 8.5,-5 Z" fill="#e2a72e" stroke="#6b4200" stroke-width="0.8"/>' +
        '<rect x="-9" y="-7.6" width="18" height="2.8" rx="1" fill="#c0392b" stroke="#6b4200" stroke-width="0.5"/>' +
        '<path d="M-8.3,-3 Q-11.5,-1 -8,2" fill="none" stroke="#6b4200" stroke-width="0.9"/>' +
        '<path d="M8.3,-3 Q11.5,-1 8,2" fill="none" stroke="#6b4200" stroke-width="0.9"/>' +
        '<path d="M-2,4.5 L2,4.5 L3.6,9 L-3.6,9 Z" fill="#3a6ea5" stroke="#1d3563" stroke-width="0.5"/>'
      );
    case "E":
      return (
        '<path d="M-4,6 C-6.5,-2 -2,-8.5 7,-10.5 C1.5,-6 -0.6,-1 -1.2,6 Z" fill="#6d8fc4" stroke="#1d3563" stroke-width="0.8"/>' +
        '<line x1="-6.8" y1="5.6" x2="1.6" y2="6.6" stroke="#c0392b" stroke-width="1.8" stroke-linecap="round"/>' +
        '<line x1="-2.6" y1="6.8" x2="-3.1" y2="10.2" stroke="#6b4200" stroke-width="2.2" stroke-linecap="round"/>'
      );
    case "B":
      return (
        '<g transform="rotate(32)">' +
        '<rect x="-1.5" y="-10.5" width="3" height="21" rx="1.2" fill="#c46a1d" stroke="#5a2d0c" stroke-width="0.7"/>' +
        '<rect x="-1.9" y="-7.6" width="3.8" height="1.7" fill="#2e7d32"/>' +
        '<rect x="-1.9" y="5.9" width="3.8" height="1.7" fill="#2e7d32"/>' +
        '<rect x="-1.9" y="-0.8" width="3.8" height="1.6" fill="#c0392b"/>' +
        "</g>"
      );
    default:
      return "";
  }
}

/** One suit symbol as SVG markup at (x, y), `size` units across. */
export function suitSymbol(suit, style, x, y, size) {
  const k = size / 20;
  const body = style === "italian" ? italianSymbol(suit) : spanishSymbol(suit);
  return `<g transform="translate(${x} ${y}) scale(${k})">${body}</g>`;
}

/** A standalone little SVG of a suit (for chips and labels). */
export function suitIcon(suit, style, px = 18) {
  return `<svg class="suit-icon" viewBox="-10 -10 20 20" width="${px}" height="${px}" aria-hidden="true">${
    style === "italian" ? italianSymbol(suit) : spanishSymbol(suit)
  }</svg>`;
}

// ---- pip layouts on a 100x150 card ----------------------------------------------------

const PIPS = {
  1: [[50, 75]],
  2: [[50, 45], [50, 105]],
  3: [[50, 40], [50, 75], [50, 110]],
  4: [[34, 45], [66, 45], [34, 105], [66, 105]],
  5: [[34, 42], [66, 42], [50, 75], [34, 108], [66, 108]],
  6: [[34, 40], [66, 40], [34, 75], [66, 75], [34, 110], [66, 110]],
  7: [[34, 38], [66, 38], [50, 56], [34, 75], [66, 75], [34, 112], [66, 112]],
  8: [[34, 38], [66, 38], [50, 56], [34, 75], [66, 75], [50, 94], [34, 112], [66, 112]],
  9: [[34, 36], [66, 36], [34, 62], [66, 62], [50, 75], [34, 88], [66, 88], [34, 114], [66, 114]],
  10: [[34, 36], [66, 36], [50, 49], [34, 62], [66, 62], [34, 88], [66, 88], [50, 101], [34, 114], [66, 114]],
};

function pipSize(n) {
  if (n === 1) return 50;
  if (n <= 3) return 30;
  if (n <= 6) return 27;
  if (n <= 8) return 23;
  return 21;
}

function faceFigure(rank, suit, style) {
  const ink = suitColor(suit);
  let s = `<rect x="18" y="24" width="64" height="102" rx="5" fill="#fbf3df" stroke="${ink}" stroke-width="1.5"/>`;
  if (rank === "Q") {
    // the horse (caballo / cavallo) with its rider
    s +=
      '<path d="M27,120 L30,94 L20,100 Q15,98 17,92 L31,77 L33,70 L37,76 Q45,80 43,98 L41,120 Z" fill="#9a6132" stroke="#4a2a10" stroke-width="1"/>' +
      '<circle cx="33" cy="82" r="1.3" fill="#222"/>' +
      `<path d="M46,118 L49,70 Q58,64 67,70 L70,118 Z" fill="${ink}" opacity="0.85"/>` +
      '<circle cx="58" cy="56" r="8.5" fill="#f1c9a5" stroke="#7a4b2a" stroke-width="1"/>' +
      '<path d="M49,53 Q58,42 67,53 Z" fill="#4a2a10"/>' +
      suitSymbol(suit, style, 69, 82, 17);
  } else {
    s +=
      `<path d="M35,120 L39,70 Q50,63 61,70 L65,120 Z" fill="${ink}" opacity="0.85"/>` +
      '<path d="M39,70 Q50,78 61,70" fill="none" stroke="#fbf3df" stroke-width="1.5"/>' +
      '<circle cx="50" cy="54" r="9" fill="#f1c9a5" stroke="#7a4b2a" stroke-width="1"/>';
    if (rank === "K") {
      s += '<path d="M40,47 L41,35 L45.5,41 L50,32 L54.5,41 L59,35 L60,47 Z" fill="#f2c230" stroke="#8a5c00" stroke-width="0.8"/>';
      s += '<path d="M43,60 Q50,70 57,60 L57,64 Q50,74 43,64 Z" fill="#7a7a7a" opacity="0.7"/>';
    } else {
      s += '<path d="M40,52 Q50,38 60,52 L63,50 Q50,33 37,50 Z" fill="#4a2a10"/>';
      s += '<path d="M58,44 Q66,34 70,38" fill="none" stroke="#c0392b" stroke-width="2" stroke-linecap="round"/>';
    }
    s += suitSymbol(suit, style, 66, 86, 18);
  }
  const name = t("face." + rank).toUpperCase();
  s += `<text x="50" y="134" font-size="9" text-anchor="middle" fill="${ink}" font-family="sans-serif" font-weight="bold">${escapeXml(name)}</text>`;
  return s;
}

function escapeXml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** The SVG markup of a card face. */
export function faceSvg(code, style) {
  const rank = rankOf(code);
  const suit = suitOf(code);
  const ink = suitColor(suit);
  const corner = ["J", "Q", "K"].includes(rank) ? t("face." + rank + ".short") : rank;
  const cornerSize = corner.length > 1 ? 15 : 19;
  let body = "";
  if (["J", "Q", "K"].includes(rank)) {
    body = faceFigure(rank, suit, style);
  } else {
    const n = Number(rank);
    const size = pipSize(n);
    for (const [x, y] of PIPS[n] || []) body += suitSymbol(suit, style, x, y, size);
  }
  const cornerMark =
    `<text x="11" y="19" font-size="${cornerSize}" text-anchor="middle" font-weight="bold" font-family="sans-serif" fill="${ink}">${escapeXml(corner)}</text>` +
    suitSymbol(suit, style, 11, 29, 11);
  const edge = style === "italian" ? "#8a5c00" : "#444";
  return (
    `<svg viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf6" stroke="${edge}" stroke-width="1.5"/>` +
    (style === "italian" ? `<rect x="5" y="5" width="90" height="140" rx="5" fill="none" stroke="${ink}" stroke-width="0.7" stroke-dasharray="3 2"/>` : "") +
    body +
    cornerMark +
    `<g transform="rotate(180 50 75)">${cornerMark}</g>` +
    "</svg>"
  );
}

/** The SVG markup of a card back. */
export function backSvg() {
  let lattice = "";
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 6; col++) {
      const x = 17 + col * 13.2 + (row % 2 ? 6.6 : 0);
      const y = 17 + row * 14.5;
      if (x > 86) continue;
      lattice += `<path d="M${x},${y - 5} L${x + 4},${y} L${x},${y + 5} L${x - 4},${y} Z" fill="#e9c46a" opacity="0.55"/>`;
    }
  }
  return (
    '<svg viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">' +
    '<rect x="1" y="1" width="98" height="148" rx="8" fill="#7a1f2b" stroke="#3d0d14" stroke-width="1.5"/>' +
    '<rect x="8" y="8" width="84" height="134" rx="5" fill="#8f2a37" stroke="#e9c46a" stroke-width="1.5"/>' +
    lattice +
    '<circle cx="50" cy="75" r="13" fill="#7a1f2b" stroke="#e9c46a" stroke-width="1.5"/>' +
    '<text x="50" y="81" font-size="17" text-anchor="middle" font-family="serif" font-weight="bold" fill="#e9c46a">M</text>' +
    "</svg>"
  );
}

/**
 * A card element. opts: style ("spanish"/"italian"), button (true: a focusable
 * <button>), legal, small, extraClass, label (aria-label override).
 */
export function cardEl(code, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card" + (opts.small ? " small" : "") + (opts.extraClass ? " " + opts.extraClass : "");
  if (opts.button) el.type = "button";
  el.dataset.card = code;
  if (opts.legal) el.classList.add("legal");
  const name = cardName(code);
  el.title = name;
  el.setAttribute("aria-label", opts.label || name);
  if (!opts.button) el.setAttribute("role", "img");
  el.innerHTML = faceSvg(code, opts.style || "spanish");
  return el;
}

export function backEl(opts = {}) {
  const el = document.createElement("div");
  el.className = "card back" + (opts.small ? " small" : "") + (opts.tiny ? " tiny" : "");
  el.setAttribute("aria-hidden", "true");
  el.innerHTML = backSvg();
  return el;
}
