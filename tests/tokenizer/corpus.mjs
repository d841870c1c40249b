// corpus.mjs — reads the tokenizer corpus: tests/tokenizer/corpus/*.txt
// (hand-written records) plus the records corpus/generated.mjs builds.
//
// A .txt file is UTF-8 without CR, so no editor or git line-ending setting
// can change a string behind our back; every byte a record needs that the
// file cannot hold literally (CR, invalid UTF-8, surrogates, control bytes,
// trailing whitespace that should be visible) is written as an escape.
//
//   anything before the first header is a comment
//   === NAME [!esc] [!repeat=N]
//   body lines...
//
// The body is every line up to the next line that starts with "=== " (or
// the end of the file), joined with "\n"; the line break just before that
// header (or the file's final one) is not part of the body, so a body that
// should end in "\n" is followed by an empty line. NAME is [A-Za-z0-9_.+-]+;
// the record's full name is "<file stem>/NAME" and must be unique.
//
// !esc turns on escapes in the body: \\ \n \r \t \xHH (any byte, so also
// invalid UTF-8 and surrogate halves) \u{H...} (a Unicode scalar value as
// UTF-8), and a backslash at the end of a line joins it to the next one
// with no line break. Any other escape is an error. Without !esc the body is
// taken literally (source code keeps its backslashes).
// !repeat=N repeats the body N times (long lines).

import { readdirSync, readFileSync } from "node:fs";
import { join, basename } from "node:path";
import { pathToFileURL } from "node:url";

const HEADER = /^=== ([A-Za-z0-9_.+-]+)((?: ![a-z]+(?:=\d+)?)*)\s*$/;
const utf8 = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

class CorpusError extends Error {}

function fail(where, msg) {
  throw new CorpusError(`${where}: ${msg}`);
}

function parseFlags(text, where) {
  const flags = { esc: false, repeat: 1 };
  for (const f of text.trim().split(/\s+/).filter(Boolean)) {
    const m = /^!([a-z]+)(?:=(\d+))?$/.exec(f);
    if (m[1] === "esc" && m[2] === undefined) flags.esc = true;
    else if (m[1] === "repeat" && m[2] !== undefined && +m[2] >= 1 &&
             +m[2] <= 100000) flags.repeat = +m[2];
    else fail(where, `unknown flag '${f}' (expected !esc or !repeat=N)`);
  }
  return flags;
}

// Bytes of one escaped body. Literal text is UTF-8 encoded; \x escapes go in
// as raw bytes, which is why this builds bytes rather than a JS string.
function unescapeBody(body, where) {
  const out = [];
  let lit = "";
  const flush = () => {
    if (lit) out.push(...utf8.encode(lit));
    lit = "";
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      lit += c;
      continue;
    }
    const e = body[++i];
    const simple = { "\\": "\\", n: "\n", r: "\r", t: "\t", "\n": "" };
    if (e in simple) {
      lit += simple[e];
    } else if (e === "x" && /^[0-9A-Fa-f]{2}$/.test(body.slice(i + 1, i + 3))) {
      flush();
      out.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === "u" && /^\{[0-9A-Fa-f]{1,6}\}/.test(body.slice(i + 1))) {
      const end = body.indexOf("}", i);
      const cp = parseInt(body.slice(i + 2, end), 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        fail(where, `\\u{${cp.toString(16)}} is not a Unicode scalar value ` +
             "(write surrogate bytes with \\x)");
      lit += String.fromCodePoint(cp);
      i = end;
    } else {
      fail(where, `bad escape '\\${e ?? "(end)"}'`);
    }
  }
  flush();
  return Uint8Array.from(out);
}

function makeRecord(stem, head, lines, where) {
  const m = HEADER.exec(head);
  if (!m) fail(where, `bad header '${head}' (expected '=== NAME [!flags]')`);
  const flags = parseFlags(m[2], where);
  const body = lines.join("\n");
  const once = flags.esc ? unescapeBody(body, where) : utf8.encode(body);
  const bytes = new Uint8Array(once.length * flags.repeat);
  for (let r = 0; r < flags.repeat; r++) bytes.set(once, r * once.length);
  return { name: `${stem}/${m[1]}`, bytes };
}

function parseFile(path) {
  const raw = readFileSync(path);
  const stem = basename(path, ".txt");
  if (raw.includes(0x0d)) fail(path, "contains a CR byte; write \\r in an !esc record");
  let text;
  try {
    text = strict.decode(raw);
  } catch {
    fail(path, "is not valid UTF-8; write such bytes as \\xHH in an !esc record");
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop(); // the file's final line break
  const records = [];
  let head = null, headLine = 0, body = [];
  const close = () => {
    if (head !== null)
      records.push(makeRecord(stem, head, body, `${path}:${headLine}`));
  };
  lines.forEach((line, i) => {
    if (!line.startsWith("=== ")) {
      if (head !== null) body.push(line);
      return;
    }
    close();
    head = line;
    headLine = i + 1;
    body = [];
  });
  close();
  return records;
}

// All records, in a fixed order: .txt files by name, then the generated
// ones. Throws CorpusError naming the file and line of a malformed record.
export async function loadCorpus(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".txt")).sort();
  const records = files.flatMap((f) => parseFile(join(dir, f)));
  const gen = await import(pathToFileURL(join(dir, "generated.mjs")).href);
  records.push(...gen.generate());
  const seen = new Set();
  for (const r of records) {
    if (seen.has(r.name)) fail(dir, `duplicate record name '${r.name}'`);
    seen.add(r.name);
  }
  return records;
}

export { CorpusError };
