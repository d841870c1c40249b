#!/usr/bin/env python3
"""The training data for the embedded demo model (stdlib only).

  make_data.py corpus --out DIR [--manifest tools/train/manifest.tsv]
      Picks source files of free software installed on this machine (C
      headers from Debian -dev packages under /usr/include, Python's
      standard library, the JavaScript of npm's own dependencies), cuts them
      into chunks of 50-300 lines at top-level boundaries, and writes
      DIR/corpus.jsonl.gz (one chunk a line: id, path, package, license,
      lang, split, text) and the manifest (one source file a line: path,
      package, version, license, sha256, chunks, split). A file's split
      ("train" or "heldout") is a hash of its path: held-out tasks come
      from files never seen in training.

  make_data.py corpus --out DIR --same-files [--manifest tools/train/manifest.tsv]
      The same, from only the files the manifest lists (a machine with more
      -dev packages installed would add files, some of them held-out): the
      manifest is compared, not rewritten, and the files that are gone or
      whose bytes or chunk count changed are named, held-out ones apart.

  make_data.py tasks --corpus DIR/corpus.jsonl.gz --split train|heldout
                     --seed N --per-chunk K [--limit N] [--jobs N]
                     [--kind-weights rename=60,...] [--non-ascii 0.2] --out FILE
      Edit tasks (tools/train/edits.py) as JSON lines: id, kind, lang,
      instruction, file, edited, source. Deterministic given the corpus and
      the seed, whatever --jobs is. --non-ascii R inserts comment lines of
      non-ASCII text into the file of that share of tasks (before the edit
      is made), for exact copying of byte-level tokens. --v2 R turns that
      share into tasks for edit prompt v2 ("prompt": "v2", the file as the
      document, "lines": the region holding every change with a random
      margin, "edited": the rewritten region; sb prompt --tasks reads them).

  make_data.py bench --tasks FILE --count N --out DIR
      The first N tasks of FILE (e.g. held-out ones) as `sb bench` task
      folders (input, expected, instruction.txt, meta.json), so the demo
      model's real greedy edits are scored and timed by the engine:
      `sb bench --device cpu -m models/sonicboom-demo.gguf --tasks DIR`.

Nothing at build or run time uses this; see tools/train/README.md.
"""
import argparse
import difflib
import glob
import gzip
import hashlib
import json
import multiprocessing
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import edits  # noqa: E402

MIN_LINES, MAX_LINES = 50, 300
# About 1,800 tokens: the prompt and the answer each hold the file once, and
# training sequences stay within 4,096 tokens.
MAX_CHARS = 5000
MAX_LINE_LEN = 160
PY_ROOT = "/root/.pyenv/versions/3.11.7/lib/python3.11"
NPM_ROOT = "/usr/lib/node_modules/npm"
HELDOUT_PER_MILLE = 80
MAX_CHUNKS_PER_PACKAGE = 400


# ---- where files come from ----------------------------------------------------

def dpkg_owners():
    """path -> package, from dpkg's file lists."""
    owner = {}
    for lst in sorted(glob.glob("/var/lib/dpkg/info/*.list")):
        pkg = os.path.basename(lst)[:-5].split(":")[0]
        with open(lst, encoding="utf-8", errors="replace") as f:
            for line in f:
                owner[line.rstrip("\n")] = pkg
    return owner


def dpkg_versions():
    versions, pkg = {}, None
    with open("/var/lib/dpkg/status", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("Package: "):
                pkg = line[9:].strip()
            elif line.startswith("Version: ") and pkg:
                versions[pkg] = line[9:].strip()
    return versions


LICENSE_HINTS = [
    ("GNU Lesser General Public License", "LGPL"),
    ("GNU Library General Public License", "LGPL"),
    ("GNU General Public License", "GPL"),
    ("Apache License", "Apache-2.0"),
    ("Permission is hereby granted, free of charge", "MIT"),
    ("Redistribution and use in source and binary forms", "BSD"),
    ("Permission to use, copy, modify, and/or distribute", "ISC"),
    ("This software is provided 'as-is'", "Zlib"),
]


def debian_license(pkg):
    """The package's license as its copyright file states it: the first
    DEP-5 'License:' field, else the first known license text it quotes."""
    path = "/usr/share/doc/%s/copyright" % pkg
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    m = re.search(r"^License:\s*(\S.*)$", text, re.M)
    if m:
        return m.group(1).strip()
    for needle, name in LICENSE_HINTS:
        if needle in text:
            return name + " (see %s)" % path
    return None


def c_sources():
    owner, versions = dpkg_owners(), dpkg_versions()
    licenses = {}
    for path in sorted(glob.glob("/usr/include/**/*.h", recursive=True)):
        real = os.path.realpath(path)
        pkg = owner.get(path) or owner.get(real)
        if not pkg:
            continue
        if pkg not in licenses:
            licenses[pkg] = debian_license(pkg)
        if licenses[pkg]:
            yield path, pkg, versions.get(pkg, "?"), licenses[pkg], "c"


CPP_HINT = re.compile(r"^\s*(namespace\b|template\s*<|class \w+\s*[:{]|public:|private:)|\bstd::",
                      re.M)


def language_of(text, lang):
    """Headers are C unless they hold C++ (the fence tag says which)."""
    return "cpp" if lang == "c" and CPP_HINT.search(text) else lang


def python_sources():
    skip = re.compile(r"/(test|tests|idlelib|site-packages|lib2to3|encodings|"
                      r"turtledemo|pydoc_data|ensurepip|config-[^/]*)/")
    for path in sorted(glob.glob(PY_ROOT + "/**/*.py", recursive=True)):
        if not skip.search(path):
            yield path, "cpython", "3.11.7", "PSF-2.0", "python"


def npm_package(path):
    d = os.path.dirname(path)
    while d.startswith(NPM_ROOT):
        pj = os.path.join(d, "package.json")
        if os.path.exists(pj):
            try:
                meta = json.load(open(pj, encoding="utf-8"))
            except ValueError:
                return None
            lic = meta.get("license")
            if isinstance(lic, dict):
                lic = lic.get("type")
            if meta.get("name") and isinstance(lic, str):
                return meta["name"], str(meta.get("version", "?")), lic
        d = os.path.dirname(d)
    return None


def js_sources():
    for path in sorted(glob.glob(NPM_ROOT + "/**/*.js", recursive=True)):
        if "/dist/" in path or ".min." in path:
            continue
        meta = npm_package(path)
        if meta:
            yield (path,) + meta + ("javascript",)


# ---- chunks ----------------------------------------------------------------------

def usable(text, lang):
    lines = text.splitlines()
    if len(lines) < MIN_LINES or "```" in text or "\x00" in text:
        return False
    if any(len(l) > MAX_LINE_LEN for l in lines):
        return False
    low = text[:2000].lower()
    if "generated by" in low or "do not edit" in low or "automatically generated" in low:
        return False
    code = [l.strip() for l in lines if l.strip()]
    if len(set(code)) < 0.6 * len(code):
        return False
    if lang in ("c", "cpp") and sum(l.startswith("#define") for l in code) > 0.5 * len(code):
        return False
    return True


def indent_of(line):
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def top_level_blocks(lines, max_indent=0):
    """Cuts lines into blocks that start at a line indented at most
    max_indent after a blank line (a top-level boundary in C, Python and
    JavaScript alike). A block too long for a chunk is cut again at the
    next indentation level (the methods of a class)."""
    blocks, cur = [], []
    for i, line in enumerate(lines):
        boundary = (i > 0 and not lines[i - 1].strip() and line.strip()
                    and indent_of(line) <= max_indent and line.lstrip()[0] not in "})]")
        if boundary and cur:
            blocks.append(cur)
            cur = []
        cur.append(line)
    if cur:
        blocks.append(cur)
    out = []
    for b in blocks:
        too_big = len(b) > MAX_LINES or sum(map(len, b)) > MAX_CHARS
        if too_big and max_indent < 8 and len(b) > 1:
            out += top_level_blocks(b, max_indent + 4)
        else:
            out.append(b)
    return out


def chunks_of(text, rng):
    lines = text.splitlines(keepends=True)
    if MIN_LINES <= len(lines) <= MAX_LINES and len(text) <= MAX_CHARS:
        return [text]
    out, cur, want = [], [], rng.randrange(MIN_LINES, 180)
    for block in top_level_blocks(lines):
        if cur and (len(cur) + len(block) > want or
                    sum(map(len, cur)) + sum(map(len, block)) > MAX_CHARS):
            if len(cur) >= MIN_LINES:
                out.append("".join(cur))
            cur, want = [], rng.randrange(MIN_LINES, 180)
        cur += block
    if MIN_LINES <= len(cur) and sum(map(len, cur)) <= MAX_CHARS:
        out.append("".join(cur))
    out = [c.lstrip("\n") for c in out]
    return [c for c in out if MIN_LINES <= c.count("\n") <= MAX_LINES
            and len(c) <= MAX_CHARS]


def split_of(path):
    h = int(hashlib.sha256(path.encode()).hexdigest()[:8], 16)
    return "heldout" if h % 1000 < HELDOUT_PER_MILLE else "train"


def read_manifest(path):
    """path -> the manifest's row (path, package, version, license, sha256,
    chunks, split)."""
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    return {r[0]: tuple(r) for r in rows}


def compare_manifest(listed, manifest):
    """Names the listed files that are gone or changed; held-out ones
    first, as they change what runs compare on."""
    made = {row[0]: row for row in manifest}
    for split in ("heldout", "train"):
        gone = [p for p, r in listed.items() if r[6] == split and p not in made]
        changed = [p for p, r in listed.items() if r[6] == split and p in made
                   and (made[p][4], made[p][5]) != (r[4], r[5])]
        print("corpus --same-files: %s files: %d of %d gone, %d changed" %
              (split, len(gone), sum(r[6] == split for r in listed.values()), len(changed)))
        for p in gone:
            print("  gone: %s" % p)
        for p in changed:
            print("  changed: %s (version %s -> %s, chunks %s -> %s)" % (
                p, listed[p][2], made[p][2], listed[p][5], made[p][5]))


def cmd_corpus(args):
    os.makedirs(args.out, exist_ok=True)
    per_pkg, records, manifest = {}, [], []
    sources = list(c_sources()) + list(python_sources()) + list(js_sources())
    listed = read_manifest(args.manifest) if args.same_files else None
    if listed is not None:
        sources = [s for s in sources if s[0] in listed]
    for path, pkg, version, lic, lang in sources:
        raw = open(path, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        text = text.replace("\r\n", "\n")
        if not text.endswith("\n"):
            text += "\n"
        if not usable(text, lang):
            continue
        rng = random.Random(path)
        lang = language_of(text, lang)
        chunks = [c for c in chunks_of(text, rng) if usable(c, lang)]
        # one Debian package must not crowd out the rest (the Python
        # standard library counts as one package but is many projects)
        cap = MAX_CHUNKS_PER_PACKAGE if lang in ("c", "cpp") else 10 ** 6
        room = cap - per_pkg.get(pkg, 0)
        chunks = chunks[:max(0, room)]
        if not chunks:
            continue
        per_pkg[pkg] = per_pkg.get(pkg, 0) + len(chunks)
        split = split_of(path)
        for k, c in enumerate(chunks):
            records.append({"id": "%s#%d" % (path, k), "path": path, "package": pkg,
                            "license": lic, "lang": lang, "split": split, "text": c})
        manifest.append((path, pkg, version, lic, hashlib.sha256(raw).hexdigest(),
                         str(len(chunks)), split))
    out = os.path.join(args.out, "corpus.jsonl.gz")
    # mtime 0: the same corpus gives the same bytes
    with open(out + ".tmp", "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        for r in records:
            f.write((json.dumps(r, ensure_ascii=False) + "\n").encode("utf-8"))
    os.replace(out + ".tmp", out)
    if listed is not None:
        compare_manifest(listed, manifest)
    else:
        with open(args.manifest + ".tmp", "w", encoding="utf-8") as f:
            f.write("# Source files of the demo model's training data (make_data.py "
                    "corpus).\n# path\tpackage\tversion\tlicense\tsha256\tchunks\tsplit\n")
            for row in manifest:
                f.write("\t".join(row) + "\n")
        os.replace(args.manifest + ".tmp", args.manifest)
    by = {}
    for r in records:
        key = (r["lang"], r["split"])
        by[key] = by.get(key, 0) + 1
    print("corpus: %d files, %d chunks %s -> %s" % (len(manifest), len(records),
          dict(sorted(by.items())), out))


# ---- tasks -----------------------------------------------------------------------

def read_corpus(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


# Text outside ASCII for --non-ascii: byte-level tokens the model must copy
# exactly (an editor's file holds such text, and the demo model once turned
# an emoji into another one). Several scripts, accents, symbols, emoji.
NON_ASCII = [
    "café, naïve, façade, déjà vu", "Grüße aus Köln: Größe in µm", "señor, año, mañana",
    "Привет, мир: буфер переполнен", "Ελληνικά: αβγ δεζ", "日本語のコメント：バッファ",
    "中文注释：缓冲区已满", "한국어 주석: 버퍼", "emoji 😀 🚀 ✅ 🎉", "→ ← ↑ ↓ ⇒ ≤ ≥ ≠ ± × ÷",
    "°C, ½, ¾, ², ³, €, £, ¥", "ç ø å æ ß œ ð þ", "“quoted” ‘text’ — and … more",
    "שלום עולם", "مرحبا بالعالم", "हिन्दी टिप्पणी", "ℹ️ ⚠️ ❌ 🔥 👍🏽", "Zoë, Chloé, Björn, Łukasz",
]
COMMENT = {"c": "//", "cpp": "//", "javascript": "//", "python": "#"}


def with_non_ascii(text, lang, rng):
    """text with one to three comment lines of NON_ASCII inserted before
    random lines (never after a line continued by a backslash), each at
    the indentation of the line it precedes."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(1, len(lines))
        if lines[at - 1].endswith("\\"):
            continue
        indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
        lines.insert(at, "%s%s %s" % (indent, COMMENT.get(lang, "//"), rng.choice(NON_ASCII)))
    return "\n".join(lines)


def as_v2(task, rng):
    """The task for edit prompt v2: its file becomes the document and the
    lines to rewrite cover every changed line, with 0-6 lines of margin
    each side (a fifth of the time the whole file, no "lines"); "edited"
    becomes the rewritten region. None when the rewritten region would be
    empty."""
    a = task["file"].splitlines(True)
    b = task["edited"].splitlines(True)
    changed = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
               if op[0] != "equal"]
    if not changed:
        return None
    v2 = dict(task, prompt="v2")
    if rng.random() < 0.2:
        return v2
    lo = max(0, min(op[1] for op in changed) - rng.randint(0, 6))
    hi = min(len(a), max(max(op[2] for op in changed), lo + 1) + rng.randint(0, 6))
    region = "".join(b[lo:len(b) - (len(a) - hi)])
    if not region or "".join(a[:lo]) + region + "".join(a[hi:]) != task["edited"]:
        return None
    v2.update(lines=[lo + 1, hi], edited=region)
    return v2


def tasks_for(job):
    chunk, seed, per_chunk, weights, non_ascii, v2_share = job
    out, seen = [], set()
    for k in range(per_chunk * 2):
        if len(out) == per_chunk:
            break
        rng = random.Random("%d:%s:%d" % (seed, chunk["id"], k))
        text = chunk["text"]
        if non_ascii:  # its own generator: the tasks without it stay as they were
            na = random.Random("non-ascii:%d:%s:%d" % (seed, chunk["id"], k))
            if na.random() < non_ascii:
                text = with_non_ascii(text, chunk["lang"], na)
        got = edits.make_task(text, chunk["lang"], rng, weights=weights)
        if not got or got[1] in seen:
            continue
        seen.add(got[1])
        kind, instruction, edited = got
        task = {"id": "%s@%d" % (chunk["id"], k), "kind": kind,
                "lang": chunk["lang"], "instruction": instruction,
                "file": text, "edited": edited, "source": chunk["path"]}
        if v2_share:  # its own generator, as for --non-ascii
            v2 = random.Random("v2:%d:%s:%d" % (seed, chunk["id"], k))
            if v2.random() < v2_share:
                task = as_v2(task, v2) or task
        out.append(task)
    return out


def cmd_tasks(args):
    chunks = [c for c in read_corpus(args.corpus) if c["split"] == args.split]
    random.Random(args.seed).shuffle(chunks)
    try:
        weights = edits.parse_weights(args.kind_weights)
    except ValueError as e:
        raise SystemExit("make_data.py tasks: --kind-weights: %s" % e)
    jobs = [(c, args.seed, args.per_chunk, weights, args.non_ascii, args.v2) for c in chunks]
    n = 0
    with open(args.out + ".tmp", "w", encoding="utf-8") as f:
        if args.jobs > 1:
            pool = multiprocessing.Pool(args.jobs)
            results = pool.imap(tasks_for, jobs, chunksize=16)
        else:
            pool, results = None, map(tasks_for, jobs)
        kinds = {}
        for tasks in results:
            for t in tasks:
                if args.limit and n >= args.limit:
                    break
                f.write(json.dumps(t, ensure_ascii=False) + "\n")
                kinds[t["kind"]] = kinds.get(t["kind"], 0) + 1
                n += 1
        if pool:
            pool.close()
            pool.join()
    os.replace(args.out + ".tmp", args.out)
    print("tasks: %d (%s) from %d %s chunks -> %s" % (n, ", ".join(
        "%s %d" % kv for kv in sorted(kinds.items())), len(chunks), args.split, args.out))


def cmd_bench(args):
    with open(args.tasks, encoding="utf-8") as f:
        tasks = [json.loads(line) for line in f][:args.count]
    for i, t in enumerate(tasks):
        if t.get("prompt") == "v2":
            raise SystemExit("make_data.py bench: task %s is a v2 task; sb bench takes "
                             "whole-file tasks (make them without --v2)" % t["id"])
        folder = os.path.join(args.out, "%03d-%s" % (i, t["kind"]))
        os.makedirs(folder, exist_ok=True)
        ext = os.path.splitext(t["source"])[1] or ".txt"
        a, b = t["file"].splitlines(), t["edited"].splitlines()
        changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in
                      difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
                      if tag != "equal")
        meta = {"language": t["lang"], "kind": t["kind"], "lines_in": len(a),
                "lines_out": len(b), "changed_lines": changed,
                "changed_share": round(min(1.0, changed / max(1, len(a))), 3),
                "source": t["source"], "id": t["id"]}
        for name, text in (("input" + ext, t["file"]), ("expected" + ext, t["edited"]),
                           ("instruction.txt", t["instruction"] + "\n"),
                           ("meta.json", json.dumps(meta, indent=1) + "\n")):
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
    print("bench: %d task folders -> %s" % (len(tasks), args.out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("corpus")
    c.add_argument("--out", required=True)
    c.add_argument("--manifest", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "manifest.tsv"))
    c.add_argument("--same-files", action="store_true",
                   help="only the files the manifest lists; compare it, do not rewrite it")
    t = sub.add_parser("tasks")
    t.add_argument("--corpus", required=True)
    t.add_argument("--split", choices=["train", "heldout"], required=True)
    t.add_argument("--seed", type=int, required=True)
    t.add_argument("--per-chunk", type=int, default=4)
    t.add_argument("--limit", type=int, default=0)
    t.add_argument("--jobs", type=int, default=1)
    t.add_argument("--kind-weights", default="",
                   help="override edit kinds' draw weights, e.g. rename=60 (edits.MAKERS)")
    t.add_argument("--non-ascii", type=float, default=0.0,
                   help="share of tasks whose file gets comment lines of non-ASCII text")
    t.add_argument("--v2", type=float, default=0.0,
                   help="share of tasks for edit prompt v2 (the file as context, a region)")
    t.add_argument("--out", required=True)
    b = sub.add_parser("bench")
    b.add_argument("--tasks", required=True)
    b.add_argument("--count", type=int, default=40)
    b.add_argument("--out", required=True)
    args = ap.parse_args()
    {"corpus": cmd_corpus, "tasks": cmd_tasks, "bench": cmd_bench}[args.cmd](args)


if __name__ == "__main__":
    main()
