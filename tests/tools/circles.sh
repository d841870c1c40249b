#!/usr/bin/env bash
# circles.sh — tools/circles.sh on small trees made here: one per thing it
# must fail on (a call circle, a circle through a macro, a private header
# reached from outside, a stale exception), and a clean tree it must pass.
set -euo pipefail
checker="$(cd "$(dirname "$0")/../.." && pwd)/tools/circles.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0

# A tree: its files given as NAME=TEXT pairs.
tree() {
    rm -rf "$work/t"; mkdir -p "$work/t"
    : > "$work/allow"
    for pair in "$@"; do
        mkdir -p "$work/t/$(dirname "${pair%%=*}")"
        printf '%b\n' "${pair#*=}" > "$work/t/${pair%%=*}"
    done
}

# expect RC WORDS NAME: the checker exits RC and prints WORDS
expect() {
    local rc=0 out
    out="$("$checker" --root "$work/t" --allow "$work/allow" 2>&1)" || rc=$?
    if [ "$rc" -ne "$1" ] || ! grep -qF -- "$2" <<<"$out"; then
        echo "FAILED: $3: wanted exit $1 and '$2', got exit $rc:"; echo "$out"; fail=1
    else
        echo "ok: $3"
    fi
}

header='/*\n * a.h — the public face of a/.\n */\nint a_one(void);'
tree "a/a.h=$header" "a/a.c=#include \"a.h\"\nint a_one(void) { return b_two(); }" \
     "b/b.c=int b_two(void) { return 2; }"
expect 0 "0 cycle(s)" "a clean tree passes"

tree "a/a.c=int a_one(void) { return b_two(); }" "b/b.c=int b_two(void) { return a_one(); }"
expect 1 "a/a.c -> b/b.c  (b_two)" "a call circle between folders fails"

tree "a/x.c=static int helper(void) { return 1; }\nint x_one(void) { return Y_CALL(); }" \
     "a/y.h=#define Y_CALL() y_two()" \
     "a/y.c=int y_two(void) { return x_one(); }\nint y_three(void) { return 0; }"
expect 1 "a/x.c -> a/y.c  (y_two)" "a circle through a macro fails"

tree "a/a.c=static int b_two(void) { return 0; }\nint a_one(void) { return b_two(); }" \
     "b/b.c=int b_two(void) { return a_one(); }"
expect 0 "0 cycle(s)" "a static function of the same name is the file's own"

tree "a/in.h=/*\n * in.h — private to a/.\n */\nint a_one(void);" "b/b.c=#include \"../a/in.h\""
expect 1 "b/b.c includes a/in.h, private to a/" "a private header reached from outside fails"

tree "a/a.h=/*\n * a.h — the public face of a/.\n */" "b/b.c=#include \"../a/a.h\"" \
     "c/c.h=/*\n * c.h — named for its folder.\n */" "b/d.c=#include \"../c/c.h\""
expect 0 "0 private header(s)" "public faces may be included"

tree "a/a.c=int a_one(void) { return 1; }"
echo "symbol a/a.c a_one" > "$work/allow"
expect 1 "stale exception" "an exception nothing needs fails"

tree "a/a.c=int a_one(void) { return b_two(); }" "b/b.c=int b_two(void) { return a_one(); }"
echo "symbol a/a.c a_one" > "$work/allow"
expect 0 "1 use(s) excused" "an exception lets its arrow pass"

[ "$fail" -eq 0 ] || { echo "tests/tools/circles.sh: some checks failed"; exit 1; }
