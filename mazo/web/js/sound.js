// Two quiet sounds made here with the Web Audio API (no files): a soft card "snap" when a
// card is played and a two-note chime when it becomes your turn. Off by default; the
// header's toggle turns them on and the choice is remembered (localStorage "mazo.sound").

const KEY = "mazo.sound";
let ctx = null;
let on = false;
let played = 0;
let button = null;

try {
  on = localStorage.getItem(KEY) === "on";
} catch (_) {
  on = false;
}

// a speaker with sound waves, or struck through (drawn here: no emoji font needed)
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const ICON_ON = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${SPEAKER}<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
const ICON_OFF = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${SPEAKER}<path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;

function audio() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

export function soundOn() {
  return on;
}

/** Wire the header button: aria-pressed tells the state, its label what a click does. */
export function initSoundToggle(el, t) {
  button = el;
  const sync = () => {
    el.setAttribute("aria-pressed", on ? "true" : "false");
    el.dataset.state = on ? "on" : "off";
    el.dataset.played = String(played);
    el.innerHTML = on ? ICON_ON : ICON_OFF;
    const label = on ? t("sound.turn_off") : t("sound.turn_on");
    el.title = label;
    el.setAttribute("aria-label", label);
  };
  el.addEventListener("click", () => {
    on = !on;
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch (_) {
      // not remembered
    }
    if (on) {
      audio(); // created inside the click: browsers allow sound from here on
      playSound("turn");
    }
    sync();
  });
  // a remembered "on" needs one gesture before the browser lets the page make sound
  document.addEventListener("pointerdown", () => on && audio(), { once: true });
  sync();
  return sync;
}

function tone(ac, freq, start, length, gain) {
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = "sine";
  osc.frequency.value = freq;
  g.gain.setValueAtTime(0, start);
  g.gain.linearRampToValueAtTime(gain, start + 0.015);
  g.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(g).connect(ac.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function snap(ac, start) {
  // a short burst of filtered noise: a card laid on cloth
  const length = 0.07;
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 0.8;
  const g = ac.createGain();
  g.gain.value = 0.12;
  src.connect(filter).connect(g).connect(ac.destination);
  src.start(start);
}

/** "play" or "turn"; nothing when sound is off. */
export function playSound(kind) {
  if (!on) return;
  const ac = audio();
  if (!ac) return;
  const now = ac.currentTime + 0.01;
  if (kind === "play") snap(ac, now);
  else {
    tone(ac, 659.3, now, 0.18, 0.05);
    tone(ac, 880, now + 0.13, 0.26, 0.05);
  }
  played += 1;
  if (button) button.dataset.played = String(played);
}
