# circles.awk — the include and call graph of the product's sources, read by
# tools/circles.sh (which documents the rules and the output). Plain POSIX
# awk (Debian's default is mawk): no gawk extensions.
#
# Per file it reads the quoted #includes, the #define bodies, the functions
# and variables defined at file scope (static or not), and every identifier
# it names (a member after `.` or `->` is not a name). A file "uses" another
# when it includes it, or names something the other defines and it does not
# define itself, directly or through a macro it uses. Edges are between
# files; the folder graph is the same edges between top-level folders.
#
# Variables set by the caller: allow (the exception list's path), files_of
# (a folder whose file-level edges are printed, or ""), verbose (1: the
# folder graph is printed even when nothing is wrong).

function folder_of(p,   i) {
    i = index(p, "/")
    return i ? substr(p, 1, i - 1) : "."
}

function dir_of(p,   i, d) {
    d = p
    if (!sub(/\/[^\/]*$/, "", d)) d = "."
    return d
}

# a/b/../c -> a/c; ./x -> x
function normalize(p,   n, parts, out, k, i) {
    n = split(p, parts, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "." || parts[i] == "") continue
        if (parts[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = parts[i]
    }
    p = ""
    for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
    return p
}

# The line with its comments, strings and character literals removed;
# in_comment carries a /* ... */ across lines.
function strip(s,   out, m, c, rest) {
    out = ""
    while (s != "") {
        if (in_comment) {
            m = index(s, "*/")
            if (!m) return out
            s = substr(s, m + 2)
            in_comment = 0
            continue
        }
        if (!match(s, /\/\*|\/\/|"|'/)) return out s
        out = out substr(s, 1, RSTART - 1) " "
        c = substr(s, RSTART, RLENGTH)
        rest = substr(s, RSTART + RLENGTH)
        if (c == "//") return out
        if (c == "/*") { in_comment = 1; s = rest; continue }
        # a literal: up to its unescaped closing quote (or the line's end)
        if (c == "\"") m = match(rest, /^([^"\\]|\\.)*"/)
        else m = match(rest, /^([^'\\]|\\.)*'/)
        s = m ? substr(rest, RLENGTH + 1) : ""
    }
    return out
}

function skip_name(t) {
    return t == "__attribute__" || t == "__launch_bounds__" || t == "alignas" ||
           t == "_Alignas" || t == "__declspec" || t == "sizeof" || t == "defined"
}

function is_keyword(t) {
    return t ~ /^(if|for|while|switch|return|sizeof|do|else|case|goto|static|const|extern|inline|typedef|struct|union|enum|void|int|char|float|double|long|short|unsigned|signed|bool|volatile|restrict|template|typename|namespace)$/
}

# A file-scope statement ended by `{` or `;`: a function definition, a
# variable, or neither.
function end_statement(f, brace,   i, pdepth, name, t, has_eq, is_static, first) {
    if (nstmt == 0) return ""
    first = stmt[1]
    is_static = 0
    for (i = 1; i <= nstmt; i++) if (stmt[i] == "static") is_static = 1
    # the first name called at parenthesis depth 0: a function's name
    pdepth = 0; name = ""; has_eq = 0
    for (i = 1; i <= nstmt; i++) {
        t = stmt[i]
        if (t == "=") { has_eq = 1; break }
        if (t == "(") {
            if (pdepth == 0 && i > 1 && stmt[i - 1] ~ /^[A-Za-z_]/ &&
                !skip_name(stmt[i - 1]) && !is_keyword(stmt[i - 1])) {
                name = stmt[i - 1]
                break
            }
            pdepth++
        } else if (t == ")") pdepth--
    }
    if (brace) {
        if (name != "" && !has_eq) { define(f, name, is_static); return "function" }
        return ""
    }
    # a prototype names what it declares without using it
    if (name != "") { declared[f, name] = 1; return "" }
    # a typedef, a template's or a struct's declaration: no storage
    if (first == "typedef" || first == "template" || first == "using") return ""
    if (first ~ /^(struct|union|enum|class)$/ && nstmt == 2) return ""
    # a variable: the name before its `=`, `[` or the end (after a body:
    # `struct s {...} v;`)
    name = ""
    for (i = 1; i <= nstmt; i++) {
        t = stmt[i]
        if (t == "=" || t == "[" || t == ",") break
        if (t == "{}") name = ""
        else if (t ~ /^[A-Za-z_]/) name = t
    }
    if (name == "" || is_keyword(name) || nstmt < 2) return ""
    if (first == "extern") declared[f, name] = 1
    else define(f, name, is_static)
    return ""
}

function define(f, name, is_static) {
    if (debug != "" && name == debug) print "debug: " f ":" FNR " defines " name > "/dev/stderr"
    local[f, name] = 1
    if (is_static || name == "main") return
    if ((name in owner) && index(" " owner[name] " ", " " f " ") == 0)
        owner[name] = owner[name] " " f
    else if (!(name in owner)) owner[name] = f
}

function use(f, t) {
    if (!((f, t) in used)) { used[f, t] = 1; uses[f] = uses[f] " " t }
}

# The tokens of a stripped line: identifiers, numbers, and the punctuation
# the statement reader needs.
function tokens(f, s,   t, after_member, kind) {
    after_member = 0
    while (match(s, /[A-Za-z_][A-Za-z_0-9]*|[0-9][A-Za-z_0-9.]*|->|[{}();=,\[.]/)) {
        t = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        if (t == "->" || t == ".") { after_member = 1; continue }
        if (t ~ /^[0-9]/) { after_member = 0; continue }
        if (t ~ /^[A-Za-z_]/) {
            if (!after_member) use(f, t)
            after_member = 0
        } else after_member = 0
        if (t == "{") {
            if (depth == 0) {
                # extern "C" { and namespace { ... } hold file-scope code
                if (nstmt > 0 && (stmt[nstmt] == "extern" || stmt[1] == "namespace")) {
                    nstmt = 0; transparent[++ntransparent] = 1; continue
                }
                kind = end_statement(f, 1)
                if (kind == "function") nstmt = 0
                else stmt[++nstmt] = "{}"  # a struct's or an initializer's body
            }
            depth++
            continue
        }
        if (t == "}") {
            if (depth == 0 && ntransparent > 0) { ntransparent--; nstmt = 0; continue }
            if (depth > 0) depth--
            continue
        }
        if (depth > 0) continue
        if (t == ";") { end_statement(f, 0); nstmt = 0; continue }
        stmt[++nstmt] = t
    }
}

function preprocessor(f, s,   name, body, rest) {
    if (match(s, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/)) {
        rest = substr(s, RSTART, RLENGTH)
        sub(/^[^"]*"/, "", rest)
        sub(/"$/, "", rest)
        includes[f] = includes[f] " " normalize(dir_of(f) "/" rest)
        return
    }
    if (match(s, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z_0-9]*/)) {
        name = substr(s, RSTART, RLENGTH)
        sub(/^[ \t]*#[ \t]*define[ \t]+/, "", name)
        body = strip(substr(s, RSTART + RLENGTH))
        local[f, name] = 1
        while (match(body, /[A-Za-z_][A-Za-z_0-9]*/)) {
            if (substr(body, RSTART - 1, 1) != "." && substr(body, RSTART - 2, 2) != "->")
                macro[name] = macro[name] " " substr(body, RSTART, RLENGTH)
            body = substr(body, RSTART + RLENGTH)
        }
    }
}

FNR == 1 {
    f = FILENAME
    nfiles++; file[nfiles] = f
    in_comment = 0; depth = 0; nstmt = 0; ntransparent = 0; pending = ""
    # a header's second line says whose it is (private to D/, or public face)
    if (f ~ /\.(h|cuh)$/) header[f] = 1
}

FNR == 2 && (f in header) {
    line2 = $0
    if (match(line2, /private to [A-Za-z_0-9\/]+\//)) {
        p = substr(line2, RSTART + 11, RLENGTH - 11)
        sub(/\/$/, "", p)
        private_to[f] = p
    } else if (line2 ~ /public face/) public_face[f] = 1
}

{
    s = $0
    if (pending != "") { s = pending " " s; pending = "" }
    if (s ~ /\\$/ && (s ~ /^[ \t]*#/)) { sub(/\\$/, "", s); pending = s; next }
    if (!in_comment && s ~ /^[ \t]*#/) { preprocessor(f, s); next }
    tokens(f, strip(s))
}

# ---- after reading: edges, folders, cycles ----

function add_edge(a, b, why) {
    if (a == b) return
    if (!((a, b) in edge)) {
        edge[a, b] = why
        adj[a, ++deg[a]] = b
    } else if (length(edge[a, b]) < 60 && index(" " edge[a, b] " ", " " why " ") == 0)
        edge[a, b] = edge[a, b] " " why
}

# Names a file uses, with the names in the bodies of the macros it uses.
function expand(f,   n, list, i, t, round, more) {
    for (round = 0; round < 3; round++) {
        n = split(uses[f], list, " ")
        more = 0
        for (i = 1; i <= n; i++) {
            t = list[i]
            if ((t in macro) && !((f, "#" t) in used)) {
                used[f, "#" t] = 1
                uses[f] = uses[f] macro[t]
                more = 1
            }
        }
        if (!more) break
    }
}

# A header private to its directory (or the one it names) seen from f.
function reaches_private(f, h,   d) {
    if (!(h in header)) return 0
    if (h in private_to) d = private_to[h]
    else if ((h in public_face) || folder_name_header(h)) return 0
    else d = dir_of(h)
    # the benchmark programs measure internals alone, as tests do
    if (index(f, "bench/programs/") == 1) return 0
    return !(f == h || index(f, d "/") == 1)
}

# A folder's own name.h is its public face (base/base.h, kernels/kernels.h).
function folder_name_header(h,   d, base) {
    d = dir_of(h)
    base = d
    sub(/.*\//, "", base)
    return h == d "/" base ".h"
}

# Tarjan's strongly connected components over the file graph.
function strongconnect(v,   i, w) {
    index_of[v] = low[v] = ++counter
    stack[++sp] = v; on_stack[v] = 1
    for (i = 1; i <= deg[v]; i++) {
        w = adj[v, i]
        if (!(w in index_of)) {
            strongconnect(w)
            if (low[w] < low[v]) low[v] = low[w]
        } else if (on_stack[w] && index_of[w] < low[v]) low[v] = index_of[w]
    }
    if (low[v] == index_of[v]) {
        ncomp++
        comp_size[ncomp] = 0
        do {
            w = stack[sp--]; on_stack[w] = 0
            comp[w] = ncomp; comp_size[ncomp]++
            members[ncomp] = members[ncomp] " " w
        } while (w != v)
    }
}

function read_allow(   line, n, w) {
    if (allow == "") return
    while ((getline line < allow) > 0) {
        sub(/#.*/, "", line)
        n = split(line, w, " ")
        if (n == 0) continue
        if (w[1] == "symbol" && n == 3) { allow_symbol[w[2], w[3]] = 1; allow_line[++nallow] = w[1] " " w[2] " " w[3] }
        else if (w[1] == "include" && n == 3) { allow_include[w[2], w[3]] = 1; allow_line[++nallow] = w[1] " " w[2] " " w[3] }
        else { print "circles: " allow ": cannot read the line: " line > "/dev/stderr"; bad = 1 }
    }
    close(allow)
}

END {
    read_allow()
    for (i = 1; i <= nfiles; i++) isfile[file[i]] = 1
    for (i = 1; i <= nfiles; i++) {
        f = file[i]
        expand(f)
        n = split(includes[f], inc, " ")
        for (k = 1; k <= n; k++) {
            h = inc[k]
            if (!(h in isfile)) continue
            if (reaches_private(f, h)) {
                if ((f, h) in allow_include) { allow_used["include " f " " h] = 1; excused++ }
                else { private_bad[++nprivate] = f " includes " h ", private to " ((h in private_to) ? private_to[h] : dir_of(h)) "/" }
            }
            add_edge(f, h, "#include")
        }
        n = split(uses[f], names, " ")
        for (k = 1; k <= n; k++) {
            t = names[k]
            if (!(t in owner) || ((f, t) in local) || ((f in header) && ((f, t) in declared))) continue
            m = split(owner[t], owners, " ")
            for (o = 1; o <= m; o++) {
                if ((owners[o], t) in allow_symbol) { allow_used["symbol " owners[o] " " t] = 1; excused++; continue }
                add_edge(f, owners[o], t)
            }
        }
    }
    # folders
    for (i = 1; i <= nfiles; i++) {
        a = file[i]
        for (k = 1; k <= deg[a]; k++) {
            b = adj[a, k]
            fa = folder_of(a); fb = folder_of(b)
            if (fa == fb) continue
            if (!((fa, fb) in fedge)) {
                fedge[fa, fb] = a " -> " b " (" edge[a, b] ")"
                fadj[fa] = fadj[fa] " " fb
            }
            seen_folder[fa] = seen_folder[fb] = 1
        }
        seen_folder[folder_of(a)] = 1
    }
    for (i = 1; i <= nfiles; i++) if (!(file[i] in index_of)) strongconnect(file[i])

    cycles = 0
    for (c = 1; c <= ncomp; c++) {
        if (comp_size[c] < 2) continue
        cycles++
        print "cycle: " comp_size[c] " files call or include each other:"
        n = split(members[c], ms, " ")
        for (k = 1; k <= n; k++) for (j = 1; j <= deg[ms[k]]; j++) {
            b = adj[ms[k], j]
            if (comp[b] == c) print "  " ms[k] " -> " b "  (" edge[ms[k], b] ")"
        }
    }
    for (k = 1; k <= nprivate; k++) print "private header: " private_bad[k]
    for (k = 1; k <= nallow; k++)
        if (!(allow_line[k] in allow_used)) {
            print "stale exception (nothing needs it now; delete it from " allow_name "): " allow_line[k]
            bad = 1
        }

    # the folder graph (a folder cycle is also a file cycle, found above)
    nf = 0
    for (x in seen_folder) fl[++nf] = x
    for (i = 2; i <= nf; i++) for (j = i; j > 1 && fl[j - 1] > fl[j]; j--) {
        t = fl[j]; fl[j] = fl[j - 1]; fl[j - 1] = t
    }
    if (verbose || cycles || nprivate) {
        print "folders (A -> B: a file of A includes a header of B, or names what B defines):"
        for (i = 1; i <= nf; i++) {
            n = split(fadj[fl[i]], to, " ")
            for (j = 2; j <= n; j++) for (k = j; k > 1 && to[k - 1] > to[k]; k--) {
                t = to[k]; to[k] = to[k - 1]; to[k - 1] = t
            }
            line = ""
            for (j = 1; j <= n; j++) line = line " " to[j]
            printf "  %-12s ->%s\n", fl[i], line == "" ? " (nothing)" : line
        }
    }
    if (files_of != "") {
        print "files of " files_of "/ (A -> B: A includes B, or names what B defines):"
        for (i = 1; i <= nfiles; i++) {
            a = file[i]
            if (index(a, files_of "/") != 1) continue
            for (k = 1; k <= deg[a]; k++) {
                b = adj[a, k]
                if (index(b, files_of "/") == 1) print "  " a " -> " b "  (" edge[a, b] ")"
            }
        }
    }
    printf "circles: %d files, %d cycle(s), %d private header(s) reached from outside, %d use(s) excused by %s\n", \
        nfiles, cycles, nprivate, excused, allow_name
    exit (cycles || nprivate || bad) ? 1 : 0
}
