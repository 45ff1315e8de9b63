// Spoken call-outs through the browser's own speech synthesis, in the page's language, under
// the sound switch: 报单, 炸弹, 要不起, 全关 and "your turn", where the device has a voice for
// that language. One call-out at a time (a new one replaces what is still queued), at most
// one every 700 ms, so a fast table never talks over itself.
import { soundOn } from "./sound.js";
import { lang } from "./page.js";

const SAID = { bao: "say_bao", bomb: "say_bomb", pass: "say_pass", turn: "say_turn" };
let last = 0;

function voiceFor(code) {
  const voices = window.speechSynthesis.getVoices();
  return voices.find((v) => v.lang.toLowerCase().startsWith(code)) ?? null;
}

// The words for what just happened (motion.js's cues), the most telling first.
export function callOut(cues, model, t) {
  if (model && model.settlement && cues.some((c) => c === "win" || c === "lose")) {
    if (model.settlement.rows.some((r) => r.shut_out)) return t("say_shut_out");
  }
  for (const cue of ["bao", "bomb", "turn", "pass"]) if (cues.includes(cue)) return t(SAID[cue]);
  return null;
}

export function speak(cues, model, t) {
  if (!soundOn() || !("speechSynthesis" in window)) return null;
  const text = callOut(cues, model, t);
  const now = Date.now();
  if (!text || now - last < 700) return null;
  const code = lang() === "zh" ? "zh" : "en";
  const voice = voiceFor(code);
  if (!voice) return null; // no voice for this language on this device: the sounds alone
  last = now;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = voice.lang;
  try {
    u.voice = voice;
  } catch (e) {
    // not a voice object the browser knows: its language alone picks one
  }
  u.rate = 1.1;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(u);
  return text;
}
