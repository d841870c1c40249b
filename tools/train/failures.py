#!/usr/bin/env python3
"""How the demo model's free-running edits fail (stdlib only).

Reads `make_data.py bench` task folders (input.*, expected.*,
instruction.txt, meta.json) and, for each, what `sb edit` wrote for it
(OUTS/NAME.out: stdout, NAME.err: stderr, NAME.rc: exit status), and
sorts every difference between the model's output and the expected file.

The two texts are cut into words (identifiers, runs of blanks, single other
characters) and aligned; each stretch where they differ is one divergence.
A divergence is "at the edit" when it touches a line that the expected
file changed (or the line where it deleted some), else it is in the copy.

Renames get finer classes, for each divergence:
  missed     the new name expected, the old name written (occurrence left)
  wrong_name the new name expected, something else written (`ringOW`)
  garbled    another identifier written wrong (`RING_CAPACACITY`): a
             copy error inside one identifier
  over       a look-alike renamed too: the new name written where the
             file keeps another identifier (`exc_type` -> the new name),
             or the rename's affix added to one (`defaultEncodingScore`)
  drift      any other change of the copied text: lines dropped or
             repeated, punctuation or blanks changed
  cut        the output ends before the expected file does
  runaway    the output goes on after the expected file ended
Every kind, by line hunks against the input: exact / no_edit (output ==
input) / copy_errors_only (the edit made right, other lines changed too) /
misplaced (the same change made at another place, or repeated there) /
wrong_edit (a different change where the edit goes, or the edit left out
and something else changed) / cut_or_unclosed (stopped by a length or
context cap, or no closing fence); "non_ascii" when a divergence holds
non-ASCII text.

With --sb the first divergence is also placed in tokens (sb tokenize).

  python3 tools/train/failures.py --tasks B --outs OUTS [--sb build/sb
      -m models/sonicboom-demo.gguf] [--json per_task.json]
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[ \t]+|\n|.", re.S)


def word_re(word):
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(word) + r"(?![A-Za-z0-9_])")


def count_word(text, word):
    return len(word_re(word).findall(text))


def words(text):
    return WORDS.findall(text)


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def one(folder, prefix):
    names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    return os.path.join(folder, names[0])


def load(folder, outs):
    name = os.path.basename(folder.rstrip("/"))
    task = json.load(open(os.path.join(folder, "meta.json")))
    task["name"] = name
    task["input"] = read(one(folder, "input."))
    task["expected"] = read(one(folder, "expected."))
    task["instruction"] = read(os.path.join(folder, "instruction.txt")).strip()
    err = read(os.path.join(outs, name + ".err"))
    rc = int(read(os.path.join(outs, name + ".rc")).strip() or 1)
    stop = re.search(r"stop=(\S+)", err)
    task["stop"] = stop.group(1) if stop else "none"
    task["rc"] = rc
    # An answer that never closes its fence: sb edit prints it raw on
    # stderr and nothing on stdout; score that raw text as the output.
    task["output"] = read(os.path.join(outs, name + ".out")) if rc == 0 else err
    return task


def rename_names(task):
    """(old, new) of a rename, from the instruction and the two texts."""
    cands = IDENT.findall(task["instruction"])
    inp = set(IDENT.findall(task["input"]))
    exp = set(IDENT.findall(task["expected"]))
    old = [c for c in cands if c in inp and c not in exp]
    new = [c for c in cands if c in exp and c not in inp]
    return (old[0] if old else None), (new[0] if new else None)


def edit_lines(inp, exp):
    """Lines of the expected file (0-based) the edit touched; a deletion
    marks the lines on both sides of where the deleted text was."""
    a, b = inp.splitlines(), exp.splitlines()
    touched = set()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        touched.update(range(j1, j2))
        if j1 == j2:
            touched.update((j1 - 1, j1))
    return touched


def hunks(a, b):
    """Line hunks turning text a into text b: (i1, i2, new lines)."""
    a, b = a.splitlines(), b.splitlines()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(i1, i2, tuple(b[j1:j2])) for op, i1, i2, j1, j2 in sm.get_opcodes()
            if op != "equal"]


def overlaps(h, g):
    if h[0] == h[1] or g[0] == g[1]:
        return g[0] <= h[0] <= g[1] or h[0] <= g[0] <= h[1]
    return h[0] < g[1] and g[0] < h[1]


def hunk_verdict(inp, exp, out):
    """Where the model made (or did not make) the edit, by line hunks
    against the input: applied / repeated (the edit also done elsewhere) /
    elsewhere (the same kind of change, at another place only) / misapplied
    (a different change where the edit goes) / missing."""
    eh, oh = hunks(inp, exp), hunks(inp, out)
    added = {l.strip() for h in eh for l in h[2] if l.strip()}
    deletes = all(not h[2] for h in eh)
    applied = [h in oh for h in eh]
    touched = [any(overlaps(h, g) for g in oh) for h in eh]
    extra = [g for g in oh if g not in eh and not any(overlaps(h, g) for h in eh)]

    def same_change(g):
        new = {l.strip() for l in g[2] if l.strip()}
        return (new and new <= added) or (deletes and not g[2])
    lookalike = [g for g in extra if same_change(g)]
    if all(applied):
        where = "repeated" if lookalike else "applied"
    elif any(t and not a for t, a in zip(touched, applied)):
        where = "misapplied"
    elif lookalike:
        where = "elsewhere"
    else:
        where = "missing"
    return where, len(extra) - len(lookalike)


def line_at(starts, k):
    return starts[k] if k < len(starts) else starts[-1] if starts else 0


def line_starts(wlist):
    out, line = [], 0
    for w in wlist:
        out.append(line)
        if w == "\n":
            line += 1
    out.append(line)
    return out


def name_kind(old, new):
    """How make_rename made the new name: the old one with a word added
    after it (suffix) or before it (prefix), the same words in another
    style (style), or other words (a synonym swapped in, or two new words)."""
    flat = lambda n: n.replace("_", "").lower()
    if flat(old) == flat(new):
        return "style"
    if flat(new).startswith(flat(old)):
        return "suffix"
    if flat(new).endswith(flat(old)):
        return "prefix"
    return "other"


def close(a, b):
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.6


def divergence_class(kind, old, new, ew, ow):
    """The rename class of one divergence: expected words ew, output ow."""
    e_ids = [w for w in ew if IDENT.fullmatch(w)]
    o_ids = [w for w in ow if IDENT.fullmatch(w)]
    if kind == "rename" and new is not None:
        if new in e_ids:
            if old in o_ids and new not in o_ids:
                return "missed"
            return "wrong_name"
        if new in o_ids or (old and old in new and len(e_ids) == 1 and
                            new.replace(old, e_ids[0]) in o_ids):
            return "over"
    if len(e_ids) == 1 and len(o_ids) == 1 and \
            "".join(ew).strip() == e_ids[0] and "".join(ow).strip() == o_ids[0] \
            and close(e_ids[0], o_ids[0]):
        return "garbled"
    return "drift"


def analyse(task, sb_tok=None):
    kind = task["kind"]
    inp, exp, out = task["input"], task["expected"], task["output"]
    r = {"name": task["name"], "kind": kind, "language": task["language"],
         "stop": task["stop"], "rc": task["rc"],
         "exact": out == exp, "input_lines": len(inp.splitlines()),
         "expected_bytes": len(exp.encode("utf-8", "surrogateescape"))}
    old = new = None
    if kind == "rename":
        old, new = rename_names(task)
        r.update(old=old, new=new, occurrences=count_word(exp, new) if new else None)
    if kind == "rename" and old and new:
        r["new_name"] = name_kind(old, new)
        r["lookalikes"] = len({w for w in IDENT.findall(inp)
                               if w != old and (old in w or close(old, w))})
    if sb_tok:
        r["input_tokens"] = len(sb_tok(inp))
        if kind == "rename" and old and new:
            r["old_tokens"], r["new_tokens"] = len(sb_tok(old)), len(sb_tok(new))
    touched = edit_lines(inp, exp)
    r["edit_line"] = min(touched) if touched else 0
    if sb_tok:
        r["edit_token"] = len(sb_tok("".join(exp.splitlines(True)[:max(0, r["edit_line"])])))
    if r["exact"]:
        r["verdict"] = "exact"
        return r
    ew, ow = words(exp), words(out)
    starts = line_starts(ew)
    at_edit = edit_lines(inp, exp)
    divs = []
    sm = difflib.SequenceMatcher(None, ew, ow, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        e_seg, o_seg = ew[i1:i2], ow[j1:j2]
        lines = set(range(line_at(starts, i1), line_at(starts, max(i1, i2 - 1)) + 1))
        if i2 == len(ew) and j1 == len(ow):
            cls = "cut"
        elif i1 == len(ew):
            cls = "runaway"
        else:
            cls = divergence_class(kind, old, new, e_seg, o_seg)
        text = "".join(e_seg) + "".join(o_seg)
        divs.append({"class": cls, "line": min(lines),
                     "at_edit": bool(lines & at_edit) or cls in ("missed", "wrong_name"),
                     "non_ascii": any(ord(c) > 127 for c in text),
                     "expected": "".join(e_seg)[:60], "output": "".join(o_seg)[:60],
                     "offset": len("".join(ew[:i1]))})
    r["divergences"] = divs
    r["classes"] = dict(Counter(d["class"] for d in divs))
    r["non_ascii"] = any(d["non_ascii"] for d in divs)
    r["non_ascii_file"] = any(ord(c) > 127 for c in inp)
    first = divs[0]
    r["first_class"] = first["class"]
    r["first_at_edit"] = first["at_edit"]
    r["first_line"] = first["line"]
    r["first_line_frac"] = first["line"] / max(1, len(exp.splitlines()))
    r["first_byte_frac"] = first["offset"] / max(1, len(exp))
    if sb_tok:
        r["first_token"] = len(sb_tok(exp[:first["offset"]]))
        r["expected_tokens"] = len(sb_tok(exp))
        r["first_token_frac"] = r["first_token"] / max(1, r["expected_tokens"])
    r["edit"], r["drift_hunks"] = hunk_verdict(inp, exp, out)
    if out == inp:
        r["verdict"] = "no_edit"
    elif task["stop"] != "end-of-turn" or task["rc"]:
        r["verdict"] = "cut_or_unclosed"
    elif r["edit"] == "applied":
        r["verdict"] = "copy_errors_only"
    elif r["edit"] in ("elsewhere", "repeated"):
        r["verdict"] = "misplaced"
    else:
        r["verdict"] = "wrong_edit"
    if kind == "rename" and new:
        r["new_in_output"] = count_word(out, new)
        r["old_in_output"] = count_word(out, old) if old else None
    return r


def occurrence_status(exp, out, new):
    """For each occurrence of the new name in the expected file, in order:
    renamed right in the output (True) or not (False)."""
    ew, ow = words(exp), words(out)
    sm = difflib.SequenceMatcher(None, ew, ow, autojunk=False)
    ok = set()
    for i, j, n in sm.get_matching_blocks():
        ok.update(range(i, i + n))
    # What precedes an occurrence decides its BPE pieces: after a blank
    # the name is tokenized as the instruction spells it (" name").
    return [(k in ok, k > 0 and ew[k - 1][0] in " \t")
            for k, w in enumerate(ew) if w == new]


def sb_first_piece(sb, model):
    """The first BPE piece of an identifier written alone."""
    cache = {}

    def first(name):
        if name not in cache:
            res = subprocess.run([sb, "tokenize", "-m", model, "--pieces", "--no-special"],
                                 input=name.encode(), capture_output=True, check=True)
            line = res.stdout.decode(errors="replace").split("\n", 1)[0]
            cache[name] = line.split("\t", 1)[1] if "\t" in line else name
        return cache[name]
    return first


def over_sites(rows, tasks, first):
    """Over-renamed identifiers that begin with the old name's first BPE
    piece, against all identifier occurrences (not the old name) in the
    same files: does the model choose a site by its first token?"""
    over = same = occ = occ_same = 0
    for r in rows:
        if r["kind"] != "rename" or r["exact"] or not r.get("old"):
            continue
        sites = [IDENT.findall(d["expected"]) for d in r["divergences"] if d["class"] == "over"]
        sites = [ids[0] for ids in sites if ids]
        if not sites:
            continue
        p = first(r["old"])
        over += len(sites)
        same += sum(first(w) == p for w in sites if w.startswith(p))
        counts = Counter(IDENT.findall(tasks[r["name"]]))
        for w, n in counts.items():
            if w != r["old"]:
                occ += n
                occ_same += n if w.startswith(p) and first(w) == p else 0
    print(f"  over-renamed sites starting with the old name's first BPE piece: {pct(same, over)}"
          f" | identifier occurrences in the same files that do: {pct(occ_same, occ)}")


def sb_tokenizer(sb, model):
    cache = {}

    def tok(text):
        if text not in cache:
            res = subprocess.run([sb, "tokenize", "-m", model, "--no-special"],
                                 input=text.encode("utf-8", "surrogateescape"),
                                 capture_output=True, check=True)
            cache[text] = res.stdout.split()
        return cache[text]
    return tok


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.0f}%)" if b else "0/0"


def tercile_table(rows, key, label):
    vals = sorted(r[key] for r in rows if r.get(key) is not None)
    if len(vals) < 6:
        return
    cuts = [vals[len(vals) // 3], vals[2 * len(vals) // 3]]
    bins = defaultdict(list)
    for r in rows:
        v = r.get(key)
        if v is None:
            continue
        b = 0 if v < cuts[0] else 1 if v < cuts[1] else 2
        bins[b].append(r)
    names = [f"< {cuts[0]}", f"{cuts[0]}..<{cuts[1]}", f">= {cuts[1]}"]
    print(f"  exact by {label}: " + "; ".join(
        f"{names[b]}: {pct(sum(r['exact'] for r in bins[b]), len(bins[b]))}" for b in range(3)))


def report(rows, occ, inputs=None, first=None):
    kinds = Counter(r["kind"] for r in rows)
    print(f"tasks {len(rows)}, exact {pct(sum(r['exact'] for r in rows), len(rows))}")
    verdicts = ("exact", "no_edit", "copy_errors_only", "misplaced", "wrong_edit",
                "cut_or_unclosed")
    print("\nverdict by kind: " + " / ".join(verdicts))
    for k, n in list(kinds.most_common()) + [("all", len(rows))]:
        v = Counter(r["verdict"] for r in rows if k in ("all", r["kind"]))
        print(f"  {k:17s} {n:4d}: " + " / ".join(f"{v[x]:3d}" for x in verdicts))
    fails = [r for r in rows if not r["exact"]]
    print("\nfailed tasks by where the edit went (line hunks against the input;"
          " +drift = other lines changed too):")
    for k, _ in kinds.most_common():
        c = Counter(("no_edit" if r["verdict"] == "no_edit" else r["edit"] +
                     ("+drift" if r["drift_hunks"] else "")) for r in fails if r["kind"] == k)
        if c:
            print(f"  {k:17s} " + ", ".join(f"{a} {b}" for a, b in sorted(c.items())))
    # The word classes below name rename mistakes; for the other kinds
    # every divergence is "drift" or "garbled", so only renames are shown.
    print("\nrenames, class of the FIRST divergence (failed tasks):")
    for k in ("rename",):
        c = Counter(r["first_class"] for r in fails if r["kind"] == k)
        if c:
            print(f"  {k:17s} " + ", ".join(f"{a} {b}" for a, b in c.most_common()))
    print("renames, tasks with at least one divergence of each class:")
    for k in ("rename",):
        c = Counter(cls for r in fails if r["kind"] == k for cls in r["classes"])
        if c:
            print(f"  {k:17s} " + ", ".join(f"{a} {b}" for a, b in c.most_common()))
    nd = Counter(d["class"] for r in fails for d in r["divergences"])
    print("\nall divergences, by class:", dict(nd.most_common()))
    n1 = sum(len(r["divergences"]) == 1 for r in fails)
    print(f"failed tasks with a single divergence: {pct(n1, len(fails))}")
    print("divergences per failed task:", dict(sorted(Counter(
        min(len(r["divergences"]), 6) for r in fails).items())), "(6 = 6 or more)")
    na = [r for r in rows if r.get("non_ascii_file")]
    print(f"\nnon-ASCII: files with non-ASCII text {len(na)}, exact "
          f"{pct(sum(r['exact'] for r in na), len(na))}; failed tasks with a "
          f"non-ASCII divergence {sum(r.get('non_ascii', False) for r in fails)}")
    print("\nstop reasons:", dict(Counter((r["stop"], r["rc"]) for r in rows)))
    fr = [r["first_token_frac"] if "first_token_frac" in r else r["first_byte_frac"] for r in fails]
    hist = Counter(min(int(f * 5), 4) for f in fr)
    print("first divergence, fraction of the expected file (fifths):",
          [hist[i] for i in range(5)])
    print("first divergence at the edit:", pct(sum(r["first_at_edit"] for r in fails), len(fails)))
    for k in ("rename",):
        rr = [r for r in rows if r["kind"] == k]
        if not rr:
            continue
        print(f"\n{k}:")
        tercile_table(rr, "input_tokens" if "input_tokens" in rr[0] else "input_lines", "file size")
        tercile_table(rr, "occurrences", "occurrences of the name")
        tercile_table(rr, "first_occurrence_token" if "first_occurrence_token" in rr[0]
                      else "first_occurrence_line", "where the name first occurs")
        for key in ("new_name", "language"):
            c = defaultdict(list)
            for r in rr:
                c[r.get(key)].append(r["exact"])
            print(f"  exact by {key}: " + "; ".join(
                f"{a}: {pct(sum(v), len(v))}" for a, v in sorted(c.items(), key=str)))
        la = defaultdict(list)
        for r in rr:
            la[min(r.get("lookalikes", 0), 2)].append(r["exact"])
        print("  exact by look-alike identifiers in the file (0, 1, 2+): " +
              "; ".join(pct(sum(la[i]), len(la[i])) for i in sorted(la)))
        n_ok = sum(r["first_occurrence_ok"] for r in rr)
        print("  1st occurrence renamed right:", pct(n_ok, len(rr)), "| exact when it was:",
              pct(sum(r["exact"] for r in rr if r["first_occurrence_ok"]), n_ok))
        if "new_tokens" in rr[0]:
            tercile_table(rr, "new_tokens", "tokens in the new name")
            tercile_table(rr, "old_tokens", "tokens in the old name")
        f = [r for r in rr if not r["exact"]]
        if first:
            over_sites(rows, inputs, first)
        print("  failed: new name nowhere in output", sum(r.get("new_in_output") == 0 for r in f),
              "| old name still somewhere", sum((r.get("old_in_output") or 0) > 0 for r in f),
              "| old name gone, new name everywhere it should be",
              sum(r.get("old_in_output") == 0 and r.get("new_in_output") == r["occurrences"] for r in f))
        by_ord = defaultdict(lambda: [0, 0])
        after = defaultdict(lambda: [0, 0])
        for st in occ:
            for ok, blank in st:
                after[blank][0] += ok
                after[blank][1] += 1
        print("  occurrences renamed right, after a blank:", pct(*after[True]),
              "| after anything else:", pct(*after[False]))
        for st in occ:
            for i, (ok, _) in enumerate(st):
                b = by_ord[min(i, 5)]
                b[0] += ok
                b[1] += 1
        first_ok = [st for st in occ if st and st[0][0]]
        first_no = [st for st in occ if st and not st[0][0]]
        rest = lambda sts: pct(sum(ok for st in sts for ok, _ in st[1:]),
                               sum(len(st) - 1 for st in sts))
        print("  later occurrences renamed right when the 1st was:", rest(first_ok),
              "| when the 1st was not:", rest(first_no))
        print("  occurrences renamed right, by their order in the file (1st, 2nd, .., 6th+):",
              ", ".join(pct(*by_ord[i]) for i in sorted(by_ord)))
    other = [r for r in rows if r["kind"] != "rename"]
    if other:
        print("\nall other kinds:")
        tercile_table(other, "input_tokens" if "input_tokens" in other[0] else "input_lines", "file size")
        tercile_table(other, "edit_token" if "edit_token" in other[0] else "edit_line",
                      "where the edit starts")
        ne = defaultdict(list)
        for r in other:
            v = r.get("edit_token", r["edit_line"])
            ne[r["verdict"] == "no_edit"].append(v)
        med = lambda v: sorted(v)[len(v) // 2] if v else None
        print("  median start of the edit, no_edit tasks:", med(ne[True]),
              "| the others:", med(ne[False]))
    print("\nexact by file size, every kind:")
    tercile_table(rows, "input_tokens" if "input_tokens" in rows[0] else "input_lines", "file size")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", required=True, help="make_data.py bench folder")
    ap.add_argument("--outs", required=True, help="NAME.out/.err/.rc from sb edit")
    ap.add_argument("--sb", help="sb binary, to count tokens")
    ap.add_argument("-m", "--model", default="models/sonicboom-demo.gguf")
    ap.add_argument("--first", type=int, default=0, help="only the first N tasks")
    ap.add_argument("--json", help="write the per-task analysis here")
    args = ap.parse_args()
    tok = sb_tokenizer(args.sb, args.model) if args.sb else None
    first = sb_first_piece(args.sb, args.model) if args.sb else None
    inputs = {}
    names = sorted(n for n in os.listdir(args.tasks)
                   if os.path.exists(os.path.join(args.outs, n + ".rc")))
    if args.first:
        names = names[: args.first]
    rows, occ = [], []
    for n in names:
        task = load(os.path.join(args.tasks, n), args.outs)
        r = analyse(task, tok)
        inputs[n] = task["input"]
        rows.append(r)
        if task["kind"] == "rename" and r.get("new"):
            st = occurrence_status(task["expected"], task["output"], r["new"])
            occ.append(st)
            exp = task["expected"]
            at = word_re(r["new"]).search(exp).start()
            r["first_occurrence_ok"] = bool(st and st[0][0])
            r["first_occurrence_line"] = exp.count("\n", 0, at)
            if tok:
                r["first_occurrence_token"] = len(tok(exp[:at]))
    report(rows, occ, inputs, first)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
