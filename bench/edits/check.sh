#!/usr/bin/env bash
# Validates the code-edit benchmark's tasks (bench/edits/README.md has the
# format): every task folder holds input.EXT, expected.EXT, instruction.txt
# and meta.json, and the line counts in meta.json match the files.
#
# changed_lines is counted from a plain `diff input expected`: each hunk
# counts its input lines removed or changed plus the lines it adds beyond
# them, i.e. max(lines on the left, lines on the right). changed_share is
# changed_lines / max(lines_in, lines_out), to three decimals.
#
# usage: bench/edits/check.sh [DIR]   (DIR: the tasks' folder, default: this
#        script's folder). Prints a table; exits 1 on any problem.
set -uo pipefail

dir=${1:-$(dirname "$0")}
if [ ! -d "$dir" ]; then
    echo "check.sh: not a directory: $dir" >&2
    exit 1
fi
MIN_EDIT_TASKS=12
MIN_NEW_TASKS=3
KINDS="rename add-parameter error-handling doc-comments change-type extract-helper"
KINDS+=" fix-bug sort-entries add-config-key new"
FIELDS="language lines_in lines_out kind changed_lines changed_share"

# The language each file extension must be labelled with in meta.json.
language_of() {
    case "$1" in
        c) echo C ;;
        cpp) echo C++ ;;
        py) echo Python ;;
        ts) echo TypeScript ;;
        js) echo JavaScript ;;
        rs) echo Rust ;;
        go) echo Go ;;
        java) echo Java ;;
        sh) echo Shell ;;
        yaml) echo YAML ;;
        toml) echo TOML ;;
        ini) echo INI ;;
        md) echo Markdown ;;
        sql) echo SQL ;;
        *) echo "?" ;;
    esac
}

# Prints the value of "key" in a flat, one-level JSON object: a string
# without its quotes, or a number. Prints nothing when the key is absent.
json_field() {
    awk -v key="$2" '
        { text = text $0 "\n" }
        END {
            pat = "\"" key "\"[ \t\r\n]*:[ \t\r\n]*"
            if (!match(text, pat)) exit
            rest = substr(text, RSTART + RLENGTH)
            if (substr(rest, 1, 1) == "\"") {
                rest = substr(rest, 2)
                print substr(rest, 1, index(rest, "\"") - 1)
            } else if (match(rest, /^-?[0-9]+(\.[0-9]+)?/)) {
                print substr(rest, 1, RLENGTH)
            }
        }' "$1"
}

# Keys of meta.json, one per line.
json_keys() {
    grep -o '"[A-Za-z_]*"[[:space:]]*:' "$1" | sed 's/"\([A-Za-z_]*\)".*/\1/'
}

# Counts changed lines between two files from diff's normal-format hunk
# headers ("12,14c12,15", "30a31,33", "40,41d39").
changed_lines() {
    local hunks rc
    hunks=$(diff -- "$1" "$2")
    rc=$?
    if [ "$rc" -gt 1 ]; then
        return 1
    fi
    awk '
        function span(range,   parts) {
            if (split(range, parts, ",") == 2) return parts[2] - parts[1] + 1
            return 1
        }
        /^[0-9]+(,[0-9]+)?[acd][0-9]+(,[0-9]+)?$/ {
            op = $0; sub(/^[0-9,]+/, "", op); op = substr(op, 1, 1)
            left = $0; sub(/[acd].*/, "", left)
            right = $0; sub(/^[0-9,]+[acd]/, "", right)
            n = (op == "a") ? 0 : span(left)
            m = (op == "d") ? 0 : span(right)
            total += (n > m) ? n : m
        }
        END { print total + 0 }' <<<"$hunks"
}

ends_with_newline() {
    [ -s "$1" ] && [ -z "$(tail -c 1 "$1")" ]
}

failures=0
edit_tasks=0
new_tasks=0
printf '%-30s %-11s %-15s %5s %5s %7s %6s  %s\n' \
    task language kind in out changed share status
shopt -s nullglob
for task_dir in "$dir"/*/; do
    task_dir=${task_dir%/}
    task=$(basename "$task_dir")
    problems=()
    language=- kind=- lines_in=- lines_out=- changed=- share=-

    is_new=0
    if [[ $task =~ ^new-[0-9][0-9]-[a-z0-9-]+$ ]]; then
        is_new=1
    elif ! [[ $task =~ ^[0-9][0-9]-[a-z0-9-]+$ ]]; then
        problems+=("folder name is not NN-name or new-NN-name")
    fi

    inputs=("$task_dir"/input.*)
    expecteds=("$task_dir"/expected.*)
    input="" expected="" ext=""
    if [ ${#inputs[@]} -ne 1 ]; then
        problems+=("needs exactly one input.EXT, found ${#inputs[@]}")
    else
        input=${inputs[0]}
        ext=${input##*/input.}
        expected=$task_dir/expected.$ext
        if [ ${#expecteds[@]} -ne 1 ] || [ ! -f "$expected" ]; then
            problems+=("needs exactly one expected.$ext")
            expected=""
        fi
    fi
    for file in "$task_dir"/* "$task_dir"/.[!.]*; do
        case "${file##*/}" in
            input.* | expected.* | instruction.txt | meta.json) ;;
            region.txt)
                # optional: "A:B", the input's lines the edit rewrites
                if ! grep -Eqx '[1-9][0-9]*:[1-9][0-9]*' "$file"; then
                    problems+=("region.txt must be one line A:B")
                fi ;;
            *) problems+=("unexpected file ${file##*/}") ;;
        esac
    done

    instruction=$task_dir/instruction.txt
    if ! ends_with_newline "$instruction"; then
        problems+=("instruction.txt missing, empty or without a final newline")
    elif [ "$(wc -l < "$instruction")" -ne 1 ] || ! grep -q '[^[:space:]]' "$instruction"; then
        problems+=("instruction.txt must be one non-blank line")
    fi

    meta=$task_dir/meta.json
    if [ ! -f "$meta" ]; then
        problems+=("meta.json missing")
    else
        for key in $(json_keys "$meta" | sort | uniq -d); do
            problems+=("meta.json: duplicate key $key")
        done
        for key in $(json_keys "$meta"); do
            [[ " $FIELDS " == *" $key "* ]] || problems+=("meta.json: unknown key $key")
        done
        for key in $FIELDS; do
            [ -n "$(json_field "$meta" "$key")" ] || problems+=("meta.json: $key missing or empty")
        done
        language=$(json_field "$meta" language)
        kind=$(json_field "$meta" kind)
        meta_in=$(json_field "$meta" lines_in)
        meta_out=$(json_field "$meta" lines_out)
        meta_changed=$(json_field "$meta" changed_lines)
        meta_share=$(json_field "$meta" changed_share)
        language=${language:--} kind=${kind:--}
    fi

    if [[ " $KINDS " != *" $kind "* ]]; then
        problems+=("unknown kind '$kind'")
    elif [ "$is_new" -eq 1 ] && [ "$kind" != new ]; then
        problems+=("a new-NN folder must have kind new")
    elif [ "$is_new" -eq 0 ] && [ "$kind" = new ]; then
        problems+=("kind new belongs in a new-NN folder")
    fi
    if [ -n "$ext" ] && [ "$language" != "$(language_of "$ext")" ]; then
        problems+=("language '$language' does not match .$ext ($(language_of "$ext"))")
    fi

    if [ -n "$input" ] && [ -n "$expected" ]; then
        for file in "$input" "$expected"; do
            ends_with_newline "$file" || problems+=("${file##*/} is empty or lacks a final newline")
        done
        lines_in=$(wc -l < "$input")
        lines_out=$(wc -l < "$expected")
        if changed=$(changed_lines "$input" "$expected"); then
            share=$(awk -v c="$changed" -v a="$lines_in" -v b="$lines_out" \
                'BEGIN { d = (a > b) ? a : b; printf "%.3f", (d > 0) ? c / d : 0 }')
        else
            problems+=("diff failed")
            changed=-
        fi

        if [ "$is_new" -eq 1 ]; then
            [ "$lines_in" -le 10 ] || problems+=("a new-code input should be near-empty (<= 10 lines)")
            { [ "$lines_out" -ge 60 ] && [ "$lines_out" -le 200 ]; } ||
                problems+=("a new-code reference should be 60-200 lines")
        else
            { [ "$lines_in" -ge 100 ] && [ "$lines_in" -le 300 ]; } ||
                problems+=("input should be 100-300 lines")
            [ "$changed" != 0 ] || problems+=("expected output is identical to the input")
        fi

        if [ -f "$meta" ]; then
            [ "${meta_in:-}" = "$lines_in" ] || problems+=("lines_in ${meta_in:-?} != $lines_in")
            [ "${meta_out:-}" = "$lines_out" ] || problems+=("lines_out ${meta_out:-?} != $lines_out")
            [ "${meta_changed:-}" = "$changed" ] ||
                problems+=("changed_lines ${meta_changed:-?} != $changed")
            if [ -z "${meta_share:-}" ] ||
                ! awk -v m="$meta_share" -v s="$share" \
                    'BEGIN { exit !(sprintf("%.3f", m) == sprintf("%.3f", s)) }'; then
                problems+=("changed_share ${meta_share:-?} != $share")
            fi
        fi
    fi

    if [ "$is_new" -eq 1 ]; then
        new_tasks=$((new_tasks + 1))
    else
        edit_tasks=$((edit_tasks + 1))
    fi
    status=ok
    if [ ${#problems[@]} -gt 0 ]; then
        failures=$((failures + 1))
        status="FAIL: $(printf '%s; ' "${problems[@]}")"
        status=${status%; }
    fi
    printf '%-30s %-11s %-15s %5s %5s %7s %6s  %s\n' \
        "$task" "$language" "$kind" "$lines_in" "$lines_out" "$changed" "$share" "$status"
done

echo "$edit_tasks edit tasks, $new_tasks new-code tasks, $failures failing"
if [ "$edit_tasks" -lt "$MIN_EDIT_TASKS" ] || [ "$new_tasks" -lt "$MIN_NEW_TASKS" ]; then
    echo "check.sh: need at least $MIN_EDIT_TASKS edit tasks and $MIN_NEW_TASKS new-code tasks" >&2
    exit 1
fi
if [ "$failures" -gt 0 ]; then
    echo "check.sh: $failures task(s) failed" >&2
    exit 1
fi
echo "all tasks ok"
