"""Edit tasks made programmatically from a source file (stdlib only).

Each maker takes (text, lang, rng) and returns (kind, instruction, edited)
or None when the file offers nothing to apply it to. Every maker is a pure
function of its inputs (rng is a seeded random.Random), so a task set is a
pure function of the corpus and the seed. The edited text is what a careful
programmer would produce from the instruction: the rest of the file is left
byte for byte as it was.

Languages: "c", "cpp", "python", "javascript".
"""
import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

KEYWORDS = {
    "c": set("""auto break case char const continue default do double else
        enum extern float for goto if inline int long register restrict return
        short signed sizeof static struct switch typedef union unsigned void
        volatile while define include ifdef ifndef endif undef elif pragma
        defined NULL bool true false size_t""".split()),
    "python": set("""False None True and as assert async await break class
        continue def del elif else except finally for from global if import
        in is lambda nonlocal not or pass raise return try while with yield
        self cls print len str int float list dict set tuple object super
        isinstance range open type""".split()),
    "javascript": set("""break case catch class const continue debugger default
        delete do else export extends finally for function if import in
        instanceof new return super switch this throw try typeof var void
        while with yield let static await async null undefined true false
        require module exports console""".split()),
}

KEYWORDS["cpp"] = KEYWORDS["c"] | set("""class namespace template typename public
    private protected virtual override operator new delete this using friend
    explicit noexcept constexpr nullptr std try catch throw mutable""".split())

LINE_COMMENT = {"c": "//", "cpp": "//", "python": "#", "javascript": "//"}


def c_like(lang):
    return lang in ("c", "cpp")

# Word swaps for new identifier names: each side can become the other.
SYNONYMS = [
    ("buf", "buffer"), ("len", "length"), ("size", "length"), ("count", "total"),
    ("idx", "index"), ("tmp", "temp"), ("ptr", "pointer"), ("str", "text"),
    ("num", "count"), ("get", "fetch"), ("set", "assign"), ("init", "setup"),
    ("make", "build"), ("create", "make"), ("read", "load"), ("write", "store"),
    ("parse", "decode"), ("name", "label"), ("value", "val"), ("data", "payload"),
    ("result", "res"), ("error", "err"), ("list", "items"), ("node", "entry"),
    ("key", "field"), ("file", "stream"), ("path", "location"), ("msg", "message"),
    ("cfg", "config"), ("ctx", "context"), ("src", "source"), ("dst", "dest"),
    ("start", "begin"), ("end", "stop"), ("max", "limit"), ("min", "floor"),
    ("pos", "offset"), ("line", "row"), ("col", "column"), ("obj", "item"),
    ("handle", "process"), ("check", "verify"), ("add", "append"),
    ("remove", "drop"), ("find", "lookup"), ("run", "execute"), ("close", "shutdown"),
    ("open", "acquire"), ("flag", "option"), ("type", "kind"), ("id", "ident"),
]
WORDS = """alpha beta gamma delta item entry record chunk block frame token
    cursor anchor bucket cache queue stack table index window packet signal
    handler worker reader writer parser scanner matcher builder loader state
    status limit offset margin width height depth weight score total counter
    source target origin prefix suffix marker label title header footer""".split()


def lines_of(text):
    return text.splitlines(keepends=True)


def word_re(word):
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(word) + r"(?![A-Za-z0-9_])")


def count_word(text, word):
    return len(word_re(word).findall(text))


def split_words(name):
    """'parseLine' / 'parse_line' -> (['parse', 'line'], style)."""
    if "_" in name.strip("_"):
        return [w for w in name.split("_") if w], "snake"
    parts = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)
    if len(parts) > 1 and "".join(parts) == name:
        return [p.lower() for p in parts], "camel" if name[0].islower() else "pascal"
    return [name], "plain"


def join_words(words, style, lead=""):
    if style == "camel":
        return lead + words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return lead + "".join(w.capitalize() for w in words)
    if style == "upper":
        return lead + "_".join(w.upper() for w in words)
    return lead + "_".join(words)


def new_name(old, rng):
    """A plausible new name for identifier `old` (None if none found)."""
    lead = old[: len(old) - len(old.lstrip("_"))]
    words, style = split_words(old.lstrip("_"))
    if old.lstrip("_").isupper() and "_" in old.strip("_"):
        style = "upper"
        words = [w.lower() for w in words]
    how = rng.randrange(5)
    if how == 0:  # swap a word for its synonym
        for i in rng.sample(range(len(words)), len(words)):
            for a, b in rng.sample(SYNONYMS, len(SYNONYMS)):
                if words[i].lower() in (a, b):
                    w = b if words[i].lower() == a else a
                    return join_words(words[:i] + [w] + words[i + 1:], style, lead)
        how = 1
    if how == 1:  # add a word in front
        return join_words([rng.choice(WORDS)] + [w.lower() for w in words],
                          style if style != "plain" else "snake", lead)
    if how == 2:  # add a word at the end
        return join_words([w.lower() for w in words] + [rng.choice(WORDS)],
                          style if style != "plain" else "snake", lead)
    if how == 3 and style in ("snake", "camel") and len(words) > 1:
        return join_words(words, "camel" if style == "snake" else "snake", lead)
    return join_words([rng.choice(WORDS), rng.choice(WORDS)],
                      style if style != "plain" else "snake", lead)


def code_lines(text, lang):
    """Indices of lines that are code: not blank, not a comment line."""
    c = LINE_COMMENT[lang]
    out = []
    for i, ln in enumerate(lines_of(text)):
        s = ln.strip()
        if not s or s.startswith(c) or s.startswith("/*") or s.startswith("*"):
            continue
        if lang == "python" and (s.startswith('"""') or s.startswith("'''")):
            continue
        out.append(i)
    return out


def unique_line(lines, i):
    s = lines[i].strip()
    return sum(1 for ln in lines if ln.strip() == s) == 1


def quote(s, rng):
    return "`%s`" % s if rng.random() < 0.7 else s


# ---- renames -------------------------------------------------------------

def identifiers(text, lang):
    counts = {}
    for m in IDENT.finditer(text):
        counts[m.group()] = counts.get(m.group(), 0) + 1
    kw = KEYWORDS[lang]
    good = []
    for name, n in sorted(counts.items()):
        if name in kw or len(name) < 3 or n < 2 or n > 40:
            continue
        if name.startswith("__"):
            continue
        # a made-up name (parse_line, parseLine, buf2), never a plain word
        # that could also be prose or a property like .length
        distinctive = "_" in name.strip("_") or re.search(r"[a-z][A-Z]", name) \
            or re.search(r"[A-Za-z][0-9]", name)
        if distinctive:
            good.append(name)
    return good


RENAME_TEMPLATES = [
    "Rename `{old}` to `{new}`.",
    "Rename {old} to {new} everywhere.",
    "rename {old} -> {new}",
    "Change the name {old} to {new} throughout the file.",
    "Please rename the identifier `{old}` to `{new}`.",
    "`{old}` should be called `{new}`; rename it everywhere.",
    "Replace every occurrence of the identifier {old} with {new}.",
    "Rename {old} to {new}",
    "Use the name `{new}` instead of `{old}`.",
]


def make_rename(text, lang, rng):
    names = identifiers(text, lang)
    if not names:
        return None
    old = rng.choice(names)
    for _ in range(6):
        new = new_name(old, rng)
        if new and new != old and IDENT.fullmatch(new) and \
                new not in KEYWORDS[lang] and count_word(text, new) == 0:
            break
    else:
        return None
    edited = word_re(old).sub(new, text)
    instr = rng.choice(RENAME_TEMPLATES).format(old=old, new=new)
    return "rename", instr, edited


# ---- parameters --------------------------------------------------------------

PY_PARAMS = [("verbose", "False"), ("strict", "True"), ("timeout", "None"),
             ("encoding", "'utf-8'"), ("limit", "0"), ("callback", "None"),
             ("debug", "False"), ("retries", "3"), ("prefix", "''"),
             ("quiet", "False"), ("max_depth", "10"), ("default", "None")]
C_PARAMS = ["int flags", "size_t len", "void *ctx", "unsigned mode",
            "const char *name", "int timeout_ms", "bool verbose", "long offset"]
JS_PARAMS = [("options", "{}"), ("verbose", "false"), ("timeout", "0"),
             ("callback", "null"), ("limit", "Infinity"), ("strict", "true")]


def split_params(s):
    """Top-level comma split of a parameter list's inside."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def paren_span(text, open_at):
    """(start, end) of the inside of the parentheses opening at open_at."""
    depth = 0
    for j in range(open_at, min(len(text), open_at + 2000)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return open_at + 1, j
    return None


def function_sites(text, lang):
    """(name, inside_start, inside_end) of function definitions/prototypes
    whose name occurs exactly once in the file (so no caller needs fixing)."""
    if lang == "python":
        pat = re.compile(r"^[ \t]*def ([A-Za-z_]\w*)\(", re.M)
    elif lang == "javascript":
        pat = re.compile(r"^[ \t]*(?:async )?function\*? ?([A-Za-z_$][\w$]*) ?\(", re.M)
    else:
        pat = re.compile(r"^[A-Za-z_][\w \t\*]*?[ \t\*]([A-Za-z_]\w*)[ \t]*\(", re.M)
    out = []
    for m in pat.finditer(text):
        name = m.group(1)
        if name in KEYWORDS[lang] or count_word(text, name) != 1:
            continue
        span = paren_span(text, m.end() - 1)
        if not span:
            continue
        inside = text[span[0]:span[1]]
        if "\n" in inside and lang == "python":
            continue
        if c_like(lang):
            after = text[span[1] + 1:span[1] + 80].lstrip()
            if not after or after[0] not in ";{" and not after.startswith("__"):
                continue
            if "(" in inside or "..." in inside or "#" in inside:
                continue
        out.append((name, span[0], span[1]))
    return out


ADD_PARAM_TEMPLATES = [
    "Add a parameter `{p}` to `{fn}`.",
    "Add a new parameter {p} at the end of {fn}'s parameter list.",
    "{fn} should take an extra parameter `{p}`.",
    "Add `{p}` as the last parameter of the function {fn}.",
]
PY_ADD_PARAM_TEMPLATES = [
    "Add a keyword parameter `{name}` with default `{default}` to `{fn}`.",
    "Give {fn} a new parameter {name} that defaults to {default}.",
    "Add `{p}` as the last parameter of {fn}.",
    "{fn} should accept an optional `{name}` argument (default {default}).",
]
REMOVE_PARAM_TEMPLATES = [
    "Remove the parameter `{name}` from `{fn}`.",
    "Drop the {name} argument of {fn}.",
    "{fn} no longer needs its `{name}` parameter; remove it.",
    "Delete the last parameter ({name}) of the function {fn}.",
]


def param_name(p, lang):
    p = p.split("=")[0].split(":")[0].strip()
    m = re.findall(r"[A-Za-z_$][\w$]*", p)
    return m[-1] if m else None


def make_add_param(text, lang, rng):
    sites = function_sites(text, lang)
    if not sites:
        return None
    fn, a, b = rng.choice(sites)
    inside = text[a:b]
    params = split_params(inside)
    if any(x.strip().startswith("*") and lang == "python" for x in params) or \
            any("..." in x for x in params) or "/" in inside and lang == "python":
        return None
    if lang == "python":
        name, default = rng.choice(PY_PARAMS)
        if count_word(text, name):
            return None
        p = "%s=%s" % (name, default)
        instr = rng.choice(PY_ADD_PARAM_TEMPLATES).format(fn=fn, p=p, name=name,
                                                          default=default)
    elif lang == "javascript":
        name, default = rng.choice(JS_PARAMS)
        if count_word(text, name):
            return None
        p = "%s = %s" % (name, default)
        instr = rng.choice(ADD_PARAM_TEMPLATES).format(fn=fn, p=p)
    else:
        p = rng.choice(C_PARAMS)
        name = param_name(p, lang)
        if count_word(text, name):
            return None
        instr = rng.choice(ADD_PARAM_TEMPLATES).format(fn=fn, p=p)
    stripped = inside.strip()
    if not stripped or (lang == "c" and stripped == "void"):
        new_inside = p
    else:
        trail = inside[len(inside.rstrip()):]
        new_inside = inside.rstrip() + ", " + p + trail
    return "add_param", instr, text[:a] + new_inside + text[b:]


def make_remove_param(text, lang, rng):
    sites = function_sites(text, lang)
    rng.shuffle(sites)
    for fn, a, b in sites:
        inside = text[a:b]
        params = split_params(inside)
        if len(params) < 2 or "\n" in inside:
            continue
        last = params[-1]
        name = param_name(last, lang)
        if not name or name in ("self", "cls") or last.strip().startswith("*"):
            continue
        if lang in ("python", "javascript") and count_word(text, name) != 1:
            continue  # used in the body: removing it would break the code
        if c_like(lang) and "[" in last:
            continue
        head = ",".join(params[:-1])
        trail = inside[len(inside.rstrip()):]
        instr = rng.choice(REMOVE_PARAM_TEMPLATES).format(fn=fn, name=name)
        return "remove_param", instr, text[:a] + head.rstrip() + trail + text[b:]
    return None


# ---- comments ------------------------------------------------------------------

COMMENT_TEXTS = [
    "TODO: handle errors here", "NOTE: keep this in sync with the caller",
    "FIXME: this is slow for large inputs", "Validate the input first",
    "This must run before anything else", "See the documentation for details",
    "Edge case: empty input", "Reuse the cached value", "Called once per item",
    "XXX: not thread-safe", "Default values", "Clean up before returning",
]
ADD_COMMENT_TEMPLATES = [
    "Add a comment `{c}` above the line `{line}`.",
    "Insert the comment \"{c}\" on its own line just before `{line}`.",
    "Put a comment saying {c} before the line {line}",
    "Add the line comment '{c}' above `{line}`.",
]
TOP_COMMENT_TEMPLATES = [
    "Add a comment `{c}` as the first line of the file.",
    "Insert the comment \"{c}\" at the very top of the file.",
]


def comment_line(lang, indent, c):
    return "%s%s %s\n" % (indent, LINE_COMMENT[lang], c)


def make_add_comment(text, lang, rng):
    lines = lines_of(text)
    c = rng.choice(COMMENT_TEXTS)
    if rng.random() < 0.15 and not lines[0].startswith("#!"):
        instr = rng.choice(TOP_COMMENT_TEMPLATES).format(c=c)
        return "add_comment", instr, comment_line(lang, "", c) + text
    cands = [i for i in code_lines(text, lang)
             if unique_line(lines, i) and 8 <= len(lines[i].strip()) <= 70 and
             "`" not in lines[i]]
    if lang == "python":  # not inside a bracketed continuation
        cands = [i for i in cands if i == 0 or not lines[i - 1].rstrip().endswith((",", "(", "[", "{", "\\"))]
    if not cands:
        return None
    i = rng.choice(cands)
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    instr = rng.choice(ADD_COMMENT_TEMPLATES).format(c=c, line=lines[i].strip())
    return "add_comment", instr, "".join(lines[:i]) + comment_line(lang, indent, c) + "".join(lines[i:])


def full_comment_lines(lines, lang):
    c = LINE_COMMENT[lang]
    out = []
    for i, ln in enumerate(lines):
        s = ln.strip()
        if s.startswith(c) and not (lang == "python" and s.startswith("#!")) \
                and not (c_like(lang) and re.match(r"#\s*[a-z]", s)):
            out.append(i)
    return out


def make_delete_comments(text, lang, rng):
    lines = lines_of(text)
    idx = full_comment_lines(lines, lang)
    if not idx:
        return None
    if rng.random() < 0.5 and len(idx) <= 20:
        instr = rng.choice([
            "Remove all the {c} comment lines.",
            "Delete every line that holds only a comment.",
            "Strip the full-line {c} comments from this file.",
            "remove line comments",
        ]).format(c=LINE_COMMENT[lang])
        drop = set(idx)
    else:
        i = rng.choice(idx)
        if not unique_line(lines, i) or len(lines[i].strip()) > 90:
            return None
        instr = rng.choice([
            "Delete the comment `{t}`.", "Remove the comment line {t}",
            "Remove the line `{t}`.",
        ]).format(t=lines[i].strip())
        drop = {i}
    return "delete_comment", instr, "".join(l for j, l in enumerate(lines) if j not in drop)


def make_comment_out(text, lang, rng):
    lines = lines_of(text)
    cands = [i for i in code_lines(text, lang) if unique_line(lines, i)
             and 6 <= len(lines[i].strip()) <= 70 and simple_statement(lines, i, lang)]
    if not cands:
        return None
    i = rng.choice(cands)
    ln = lines[i]
    indent = ln[: len(ln) - len(ln.lstrip())]
    new = indent + LINE_COMMENT[lang] + " " + ln.lstrip()
    if lang == "python" and only_statement(lines, i):
        return None
    instr = rng.choice(["Comment out the line `{t}`.", "Comment out {t}",
                        "Disable the line `{t}` by commenting it out."]).format(t=ln.strip())
    return "comment_out", instr, "".join(lines[:i]) + new + "".join(lines[i + 1:])


# ---- literals and types -----------------------------------------------------------

NUM = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
STR = re.compile(r"\"([A-Za-z][A-Za-z ,.:!?'-]{2,30})\"")


def make_change_literal(text, lang, rng):
    if rng.random() < 0.6:
        nums = {}
        for m in NUM.finditer(text):
            nums.setdefault(m.group(1), []).append(m)
        cands = sorted(k for k, v in nums.items() if len(v) == 1 and len(k) <= 6
                       and not text[max(0, v[0].start() - 12):v[0].start()].rstrip().endswith(("include", "line")))
        if not cands:
            return None
        old = rng.choice(cands)
        v = int(old)
        new = str(rng.choice([v + 1, v * 2, v + 10, max(0, v - 1), v * 10, rng.randrange(1, 1000)]))
        if new == old or len(old) > 1 and old.startswith("0"):
            return None
        m = nums[old][0]
        instr = rng.choice(["Change the number {o} to {n}.", "Replace the constant {o} with {n}.",
                            "Use {n} instead of {o}.", "change {o} to {n}"]).format(o=old, n=new)
        return "change_literal", instr, text[:m.start(1)] + new + text[m.end(1):]
    strs = {}
    for m in STR.finditer(text):
        strs.setdefault(m.group(1), []).append(m)
    cands = sorted(k for k, v in strs.items() if len(v) == 1)
    if not cands:
        return None
    old = rng.choice(cands)
    how = rng.randrange(3)
    if how == 0:
        new = old.upper() if old != old.upper() else old.lower()
    elif how == 1:
        new = old + " " + rng.choice(WORDS)
    else:
        ws = old.split(" ")
        ws[rng.randrange(len(ws))] = rng.choice(WORDS)
        new = " ".join(ws)
    if new == old:
        return None
    m = strs[old][0]
    instr = rng.choice(['Change the string "{o}" to "{n}".', 'Replace the text "{o}" with "{n}".',
                        'The message "{o}" should read "{n}".']).format(o=old, n=new)
    return "change_literal", instr, text[:m.start(1)] + new + text[m.end(1):]


def in_code(text, pos, lang):
    """False when pos is on a comment line or after a line comment's start
    (a cheap test: block comments spanning lines count by their '*' lines)."""
    start = text.rfind("\n", 0, pos) + 1
    before = text[start:pos]
    s = before.lstrip()
    if s.startswith(("*", "/*", LINE_COMMENT[lang])):
        return False
    return LINE_COMMENT[lang] not in before and "/*" not in before


C_TYPES = [("int", "long"), ("long", "int64_t"), ("unsigned", "uint32_t"),
           ("float", "double"), ("double", "float"), ("short", "int"),
           ("size_t", "uint64_t"), ("uint32_t", "uint64_t"), ("uint8_t", "unsigned char"),
           ("char", "signed char"), ("int", "int32_t")]
PY_TYPES = [("int", "float"), ("str", "bytes"), ("list", "tuple"), ("dict", "Mapping")]


def make_change_type(text, lang, rng):
    if lang == "javascript":
        return None
    table = C_TYPES if c_like(lang) else PY_TYPES
    cands = []
    for old, new in table:
        if c_like(lang):
            pat = re.compile(r"(?<!unsigned )(?<!signed )(?<!long )(?<!short )(?<![\w])" + old +
                             r"(?![\w])(?! long)(?! int)(?! short)(?! char)(?= *[A-Za-z_*(])")
        else:  # annotations only: ": int" / "-> int"
            pat = re.compile(r"(?<=: )" + old + r"(?=[,)=\] ])|(?<=-> )" + old + r"(?=:)")
        ms = list(pat.finditer(text))
        if 1 <= len(ms) <= 12 and count_word(text, new.split()[-1]) == 0:
            cands.append((old, new, pat, len(ms)))
    if not cands:
        return None
    old, new, pat, n = rng.choice(cands)
    spans = [m.span() for m in pat.finditer(text) if in_code(text, m.start(), lang)]
    if not spans:
        return None
    edited = text
    for a, b in reversed(spans):
        edited = edited[:a] + new + edited[b:]
    if lang == "python":
        instr = rng.choice(["Change the `{o}` type annotations to `{n}`.",
                            "Annotate with {n} wherever the code says {o}."]).format(o=old, n=new)
    else:
        instr = rng.choice(["Change every `{o}` type to `{n}`.", "Replace the type {o} with {n} everywhere.",
                            "Use `{n}` instead of `{o}` for all declarations.",
                            "change {o} to {n} in all declarations"]).format(o=old, n=new)
    return "change_type", instr, edited


# ---- statements, lines, imports ----------------------------------------------------

def balanced(s):
    depth = 0
    for ch in s:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0:
            return False
    return depth == 0


def simple_statement(lines, i, lang):
    s = lines[i].strip()
    if not balanced(s) or s.endswith(("\\", ",")):
        return False
    if lang == "python":
        if s.endswith(":") or s.startswith(("@", "elif", "else", "except", "finally",
                                            "return", "raise", "yield", "def ", "class ")):
            return False
        prev = lines[i - 1].rstrip() if i else ""
        return not prev.endswith(("\\", ",", "(", "[", "{"))
    if c_like(lang) and s.startswith("#"):
        return False
    return s.endswith(";") and not s.startswith(("return", "}", "case", "default", "else", "break"))


def only_statement(lines, i):
    """True when line i is the only statement of its Python block."""
    ind = len(lines[i]) - len(lines[i].lstrip())

    def indent_of(j):
        return len(lines[j]) - len(lines[j].lstrip())
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    prev_same = j >= 0 and indent_of(j) == ind and not lines[j].rstrip().endswith(":")
    k = i + 1
    while k < len(lines) and not lines[k].strip():
        k += 1
    next_same = k < len(lines) and indent_of(k) == ind
    return not (prev_same or next_same)


def make_delete_statement(text, lang, rng):
    lines = lines_of(text)
    cands = [i for i in code_lines(text, lang) if unique_line(lines, i)
             and 6 <= len(lines[i].strip()) <= 80 and simple_statement(lines, i, lang)
             and "`" not in lines[i]]
    if lang == "python":
        cands = [i for i in cands if not only_statement(lines, i)]
    if not cands:
        return None
    i = rng.choice(cands)
    instr = rng.choice(["Delete the line `{t}`.", "Remove the statement `{t}`.",
                        "Remove {t}", "Get rid of the line {t}",
                        "Delete `{t}`."]).format(t=lines[i].strip())
    return "delete_statement", instr, "".join(lines[:i] + lines[i + 1:])


def import_block(lines, lang):
    """(start, end) of the first run of >= 3 single-line import lines."""
    if lang == "python":
        ok = lambda s: re.match(r"(import \w[\w.]*( as \w+)?|from [\w.]+ import [\w, ]+)$", s)
    elif c_like(lang):
        ok = lambda s: re.match(r"#\s*include\s*[<\"][^>\"]+[>\"]$", s)
    else:
        ok = lambda s: re.match(r"((const|var|let) \w+ = require\([^)]*\);?|import .* from .*;?)$", s)
    i = 0
    while i < len(lines):
        if ok(lines[i].rstrip("\r\n")):
            j = i
            while j < len(lines) and ok(lines[j].rstrip("\r\n")):
                j += 1
            if j - i >= 3:
                return i, j
            i = j
        i += 1
    return None


def make_sort_imports(text, lang, rng):
    lines = lines_of(text)
    blk = import_block(lines, lang)
    if not blk:
        return None
    a, b = blk
    block = lines[a:b]
    if not all(l.endswith("\n") for l in block):
        return None
    want = sorted(block)
    if want == block:
        return None
    what = {"python": "imports", "c": "#include lines", "cpp": "#include lines",
            "javascript": "require/import lines"}[lang]
    instr = rng.choice(["Sort the {w} alphabetically.", "Put the {w} in alphabetical order.",
                        "sort {w}", "Reorder the {w} so they are sorted."]).format(w=what)
    return "sort_imports", instr, "".join(lines[:a] + want + lines[b:])


PY_MODULES = ["os", "sys", "re", "json", "time", "math", "logging", "itertools",
              "functools", "collections", "typing", "pathlib", "io", "struct"]
C_HEADERS = ["<stdio.h>", "<stdlib.h>", "<string.h>", "<stdint.h>", "<stdbool.h>",
             "<errno.h>", "<assert.h>", "<limits.h>"]
JS_MODULES = ["fs", "path", "util", "os", "events", "assert", "crypto"]


def make_insert_line(text, lang, rng):
    lines = lines_of(text)
    blk = import_block(lines, lang)
    if not blk:
        return None
    a, b = blk
    if lang == "python":
        mod = rng.choice(PY_MODULES)
        new = "import %s\n" % mod
    elif c_like(lang):
        mod = rng.choice(C_HEADERS)
        new = "#include %s\n" % mod
    else:
        mod = rng.choice(JS_MODULES)
        new = "const %s = require('%s');\n" % (mod, mod)
    if new in lines:
        return None
    after = rng.randrange(a, b)
    if not unique_line(lines, after):
        return None
    instr = rng.choice(["Insert the line `{n}` after `{a}`.", "Add `{n}` right after the line `{a}`.",
                        "After {a}, add {n}"]).format(n=new.strip(), a=lines[after].strip())
    return "insert_line", instr, "".join(lines[:after + 1]) + new + "".join(lines[after + 1:])


def python_block_end(lines, i):
    ind = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines):
        s = lines[j]
        if s.strip() and len(s) - len(s.lstrip()) <= ind:
            break
        j += 1
    while j > i + 1 and not lines[j - 1].strip():
        j -= 1
    return j


def make_delete_function(text, lang, rng):
    lines = lines_of(text)
    cands = []
    for i, ln in enumerate(lines):
        if lang == "python":
            m = re.match(r"\s*def (\w+)\(", ln)
            if m and not (i and lines[i - 1].strip().startswith("@")):
                end = python_block_end(lines, i)
                cands.append((m.group(1), i, end))
        elif lang == "javascript":
            m = re.match(r"(?:async )?function (\w+) ?\(", ln)
            if m:
                for j in range(i + 1, min(len(lines), i + 200)):
                    if lines[j].startswith("}"):
                        cands.append((m.group(1), i, j + 1))
                        break
    cands = [c for c in cands if 2 <= c[2] - c[1] <= 60 and count_word(text, c[0]) >= 1]
    names = [c[0] for c in cands]
    cands = [c for c in cands if names.count(c[0]) == 1]
    if not cands:
        return None
    name, a, b = rng.choice(cands)
    # take one blank line after the function with it, so no double gap stays
    if b < len(lines) and not lines[b].strip() and a > 0 and not lines[a - 1].strip():
        b += 1
    instr = rng.choice(["Delete the function `{f}`.", "Remove the {f} function entirely.",
                        "Remove `{f}` (the whole function).", "delete function {f}"]).format(f=name)
    return "delete_function", instr, "".join(lines[:a] + lines[b:])


MAKERS = [
    (make_rename, 30), (make_add_param, 8), (make_remove_param, 5),
    (make_add_comment, 8), (make_delete_comments, 7), (make_comment_out, 5),
    (make_change_literal, 9), (make_change_type, 6), (make_delete_statement, 9),
    (make_sort_imports, 5), (make_insert_line, 5), (make_delete_function, 5),
]
KINDS = sorted({m.__name__[5:] for m, _ in MAKERS})


def parse_weights(spec):
    """{kind: weight} from "rename=60,add_param=4" (kinds not named keep
    MAKERS' weights); ValueError naming the bad part."""
    out = {}
    for part in filter(None, (spec or "").split(",")):
        kind, _, w = part.partition("=")
        if kind not in KINDS or not w.isdigit():
            raise ValueError("bad kind weight %r (kinds: %s)" % (part, ", ".join(KINDS)))
        out[kind] = int(w)
    return out


def make_task(text, lang, rng, tries=8, weights=None):
    """One task (kind, instruction, edited) for text, kinds drawn by weight
    (MAKERS', with `weights` {kind: weight} overriding some); None when no
    maker applies after `tries` draws."""
    makers = [(m, (weights or {}).get(m.__name__[5:], w)) for m, w in MAKERS]
    total = sum(w for _, w in makers)
    for _ in range(tries):
        r = rng.randrange(total)
        for maker, w in makers:
            if r < w:
                break
            r -= w
        got = maker(text, lang, rng)
        if got and got[2] != text and "```" not in got[1]:
            return got
    return None
