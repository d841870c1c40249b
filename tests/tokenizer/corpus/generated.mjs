// generated.mjs — corpus records too regular or too long to write by hand:
// the whitespace matrix (1..40 spaces or tabs in each position the qwen2
// pre-tokenizer treats differently), 10 kB lines, and seeded random
// strings. Deterministic: the same records on every run and machine.

const utf8 = new TextEncoder();

function rec(group, name, text) {
  return { name: `${group}/${name}`, bytes: typeof text === "string" ? utf8.encode(text) : text };
}

// Runs of whitespace: "\s+(?!\S)" leaves the last space to the next word,
// "\s*[\r\n]+" takes runs before a line break, "\s+" the rest (end of text).
function whitespace() {
  const out = [];
  for (const [tag, ch] of [["sp", " "], ["tab", "\t"]]) {
    for (let n = 1; n <= 40; n++) {
      const run = ch.repeat(n);
      out.push(rec("ws", `${tag}${n}-before-word`, `x${run}word`));
      out.push(rec("ws", `${tag}${n}-line-end`, `word${run}\nnext`));
      out.push(rec("ws", `${tag}${n}-text-end`, `end${run}`));
    }
  }
  for (let n = 1; n <= 12; n++) {
    out.push(rec("ws", `mixed${n}-indent`, `{\n${" \t".repeat(n)}x = 1;\n}`));
    out.push(rec("ws", `crlf${n}-indent`, `a\r\n${"  ".repeat(n)}b\r\n`));
    out.push(rec("ws", `punct${n}`, `f(a,${" ".repeat(n)}b)${" ".repeat(n)};`));
  }
  return out;
}

// 10 kB lines: a long letter run (one pre-token, so BPE merges 10,000
// symbols), long digit and space runs, minified code, and CJK.
function longLines() {
  const k = 10240;
  const fill = (s) => s.repeat(Math.ceil(k / s.length)).slice(0, k);
  return [
    rec("long", "letters", fill("a")),
    rec("long", "word-cycle", fill("abcdefghij")),
    rec("long", "digits", fill("0123456789")),
    rec("long", "spaces", fill(" ")),
    rec("long", "spaces-then-word", fill(" ") + "word"),
    rec("long", "minified-js", fill("function(a,b){return a+b*2}var x=[1,2,3];")),
    rec("long", "cjk", fill("漢字仮名交じり文")),
    rec("long", "emoji", fill("👩‍💻🚀")),
    rec("long", "newlines", fill("\n")),
    rec("long", "crlf", fill("\r\n")),
  ];
}

// mulberry32: a small, well-known 32-bit PRNG; seeded, so stable.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Code point ranges to draw from: ASCII, Latin-1, combining marks, Greek,
// Cyrillic, Hebrew, Arabic, Devanagari, Thai, Hangul jamo and syllables,
// kana, CJK, fullwidth forms, emoji and their modifiers, ZWJ, VS16, tags.
const RANGES = [
  [0x20, 0x7e], [0x09, 0x0d], [0xa0, 0xff], [0x300, 0x36f], [0x370, 0x3ff],
  [0x400, 0x4ff], [0x590, 0x5ff], [0x600, 0x6ff], [0x900, 0x97f],
  [0xe00, 0xe7f], [0x1100, 0x11ff], [0xac00, 0xd7a3], [0x3040, 0x30ff],
  [0x4e00, 0x9fff], [0xff00, 0xffef], [0x1f300, 0x1faff], [0x1f3fb, 0x1f3ff],
  [0x200d, 0x200d], [0xfe0f, 0xfe0f], [0xe0020, 0xe007f], [0x2000, 0x206f],
];

function randomText(r, n) {
  let s = "";
  while (s.length < n) {
    const [lo, hi] = RANGES[Math.floor(r() * RANGES.length)];
    s += String.fromCodePoint(lo + Math.floor(r() * (hi - lo + 1)));
  }
  return s;
}

function randomBytes(r, n, pick) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = pick(r);
  return b;
}

function random() {
  const out = [];
  const A = " \t\n\r'\"(){};:.,=+-*/<>!?_0123456789abcXYZ";
  const ascii = (r) => A.charCodeAt(Math.floor(r() * A.length));
  const any = (r) => Math.floor(r() * 256);
  // bytes >= 0x80 only: every kind of lead, continuation and invalid byte
  const high = (r) => 0x80 + Math.floor(r() * 128);
  for (let i = 0; i < 4; i++) {
    out.push(rec("random", `bytes${i}`, randomBytes(rng(1000 + i), 64 << i, any)));
    out.push(rec("random", `high${i}`, randomBytes(rng(2000 + i), 48 << i, high)));
    out.push(rec("random", `ascii${i}`, randomBytes(rng(3000 + i), 96 << i, ascii)));
    out.push(rec("random", `unicode${i}`, randomText(rng(4000 + i), 40 << i)));
  }
  return out;
}

export function generate() {
  return [...whitespace(), ...longLines(), ...random()];
}
