// Sounds of the table, made here with WebAudio (short synthesized tones and noise: no
// sound files to fetch, nothing borrowed). Off until the player turns them on in the
// menu; the choice is kept in the browser. The browser only lets a page start audio
// after a tap, which turning sounds on is.

const store = window.localStorage;
let ctx = null;

export function soundOn() {
  return store.getItem("pdk.sound") === "on";
}

export function setSound(on) {
  store.setItem("pdk.sound", on ? "on" : "off");
  if (on) audio();
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function tone(a, freq, start, length, { type = "sine", gain = 0.2, slide = 0 } = {}) {
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, a.currentTime + start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, a.currentTime + start + length);
  g.gain.setValueAtTime(0.0001, a.currentTime + start);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + start + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + start + length);
  osc.connect(g).connect(a.destination);
  osc.start(a.currentTime + start);
  osc.stop(a.currentTime + start + length + 0.02);
}

function noise(a, start, length, gain) {
  const buf = a.createBuffer(1, Math.floor(a.sampleRate * length), a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const src = a.createBufferSource();
  const g = a.createGain();
  g.gain.value = gain;
  src.buffer = buf;
  src.connect(g).connect(a.destination);
  src.start(a.currentTime + start);
}

// Each event of the table and its sound: a card snapped down, a soft knock for a pass, a
// low boom for a bomb, a two-note call for 报单, a chime for your turn, a rising run to win.
const SOUNDS = {
  play: (a) => { noise(a, 0, 0.06, 0.5); tone(a, 660, 0, 0.08, { type: "triangle", gain: 0.12 }); },
  pass: (a) => tone(a, 220, 0, 0.12, { type: "sine", gain: 0.15 }),
  bomb: (a) => { noise(a, 0, 0.5, 0.9); tone(a, 110, 0, 0.5, { type: "sawtooth", gain: 0.25, slide: 0.4 }); },
  bao: (a) => { tone(a, 880, 0, 0.12, { type: "square", gain: 0.08 }); tone(a, 660, 0.14, 0.16, { type: "square", gain: 0.08 }); },
  turn: (a) => { tone(a, 988, 0, 0.18, { gain: 0.12 }); tone(a, 1319, 0.09, 0.22, { gain: 0.1 }); },
  win: (a) => [523, 659, 784, 1047].forEach((f, i) => tone(a, f, i * 0.1, 0.25, { type: "triangle", gain: 0.15 })),
  lose: (a) => [392, 330, 262].forEach((f, i) => tone(a, f, i * 0.12, 0.25, { type: "triangle", gain: 0.1 })),
};

// Play the sounds of these events (those that have one), if sounds are on.
export function sound(events) {
  if (!soundOn()) return;
  const a = audio();
  if (!a) return;
  for (const name of events) {
    if (!SOUNDS[name]) continue;
    SOUNDS[name](a);
    document.body.dataset.sound = name; // the last sound played, for anyone checking
  }
}
