/*
 * ttft_lsp.c — the prefix cache through the language server:
 * two edits of one 1,000-line document, different regions and different
 * instructions, and the time each takes to its first token.
 *
 *     build/prefix_ttft BUILD_DIR MODEL REPS [INIT_JSON]
 *
 * Per repetition a fresh `BUILD_DIR/sb-lsp --stdio` is started with MODEL, prompt v2
 * (the document as context), threads 2, maxTokens 32 and a session log,
 * the document is opened, and three sonicboom.edit requests run one after
 * the other (none applied): lines 401-420 "rename counter to total"; lines
 * 421-430, the next function, "add a comment above each function"; lines
 * 601-615 "use a while loop". The second region lies in the first's
 * context window (docs/architecture.md: the default budget, half the demo
 * model's 4,096, holds about 100 of these lines), the third does not and
 * shares the system turn only. For each edit it prints the time from
 * sending the request to the first $/progress report (the server reports
 * after each step, the first being the prefill's last row: the client's
 * view of the first token) and the engine's first_token_s, prompt_tokens
 * and cached_tokens from the session log; then the median ratio second /
 * first (and third / first). The same with prefixCache off gives the baseline. INIT_JSON (an
 * object) is merged into the initializationOptions (e.g. '{"device":"cuda"}').
 *
 * A benchmark, not a test: nothing here is asserted; the numbers go to
 * bench/RESULTS.md with the command, machine and date.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../base/base.h"
/* the tests' plain LSP client; not every helper of it is used here */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../tests/lsp/lsp_client.h"
#pragma GCC diagnostic pop

static const char URI[] = "file:///tmp/prefix-bench/big.c";

/* 1,000 lines of C: 100 functions of 10 lines, each a little different. */
static char *make_document(void) {
    size_t cap = 1 << 17, n = 0;
    char *d = malloc(cap);
    if (!d) abort();
    for (int f = 0; f < 100; f++)
        n += (size_t)snprintf(d + n, cap - n,
            "static int step_%03d(const int *values, int count) {\n"
            "    int counter = 0;\n"
            "    for (int i = 0; i < count; i++) {\n"
            "        if (values[i] %% %d == %d)\n"
            "            counter += values[i] * %d;\n"
            "    }\n"
            "    if (counter > %d)\n"
            "        counter -= %d;\n"
            "    return counter;\n"
            "}\n", f, f % 7 + 2, f % 3, f + 1, 1000 + 17 * f, f * 3);
    return d;
}

static json_t *await_response(client *c, int64_t id) {
    json_t *m;
    while ((m = client_next(c))) {
        if (client_is_response(m, id)) return m;
        json_decref(m);
    }
    fprintf(stderr, "prefix_ttft: the server ended\n");
    exit(1);
}

/* Runs one edit; returns seconds to the first progress report. */
static double run_edit(client *c, int first_line, int last_line, const char *instr,
                       int n) {
    char token[32];
    snprintf(token, sizeof token, "edit-%d", n);
    json_t *arg = json_pack("{s:s,s:s,s:i,s:{s:{s:i,s:i},s:{s:i,s:i}}}", "uri", URI,
                            "instruction", instr, "version", 1, "range", "start",
                            "line", first_line - 1, "character", 0, "end", "line",
                            last_line, "character", 0);
    double t0 = sb_now(), first = -1;
    int64_t id = client_request(c, "workspace/executeCommand",
                                json_pack("{s:s,s:[o],s:s}", "command", "sonicboom.edit",
                                          "arguments", arg, "workDoneToken", token));
    json_t *m;
    while ((m = client_next(c))) {
        const char *method = client_method(m);
        if (client_is_response(m, id)) {
            json_decref(m);
            return first;
        }
        if (method && !strcmp(method, "$/progress") && first < 0) {
            const char *kind = json_string_value(json_object_get(
                json_object_get(json_object_get(m, "params"), "value"), "kind"));
            if (kind && !strcmp(kind, "report")) first = sb_now() - t0;
        } else if (method && !strcmp(method, "workspace/applyEdit")) {
            /* not applied: both edits see the document as opened */
            client_send(c, json_pack("{s:O,s:{s:b}}", "id", json_object_get(m, "id"),
                                     "result", "applied", 0));
        }
        json_decref(m);
    }
    fprintf(stderr, "prefix_ttft: the server ended\n");
    exit(1);
}

typedef struct logged {
    double first_token_s;
    long long prompt_tokens, cached_tokens;
} logged;

/* The edit entries of the session log, in order. */
static int read_log(const char *path, logged *out, int cap) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char *line = NULL;
    size_t lc = 0;
    int n = 0;
    while (getline(&line, &lc, f) > 0 && n < cap) {
        json_t *o = json_loads(line, 0, NULL);
        if (o && json_object_get(o, "first_token_s")) {
            out[n].first_token_s = json_number_value(json_object_get(o, "first_token_s"));
            out[n].prompt_tokens = json_integer_value(json_object_get(o, "prompt_tokens"));
            out[n].cached_tokens = json_integer_value(json_object_get(o, "cached_tokens"));
            n++;
        }
        json_decref(o);
    }
    free(line);
    fclose(f);
    return n;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { EDITS = 3 };
static const struct {
    int first, last;
    const char *instruction;
} EDIT[EDITS] = {{401, 420, "rename counter to total"},
                 {421, 430, "add a comment above each function"},
                 {601, 615, "use a while loop"}};

/* One repetition; fills client-side and engine times of the edits. */
static void one_run(const char *model, const char *doc, bool cache, json_t *more,
                    double client_s[EDITS], logged eng[EDITS]) {
    char dir[] = "/tmp/prefix-bench-XXXXXX", log[64];
    if (!mkdtemp(dir)) abort();
    snprintf(log, sizeof log, "%s/edits.jsonl", dir);
    setenv("SB_BUILD", getenv("SB_LSP_DIR"), 1);
    client c;
    client_start(&c, NULL, NULL);
    json_t *opts = json_pack("{s:s,s:s,s:i,s:s,s:i,s:b}", "model", model, "log", log,
                             "threads", 2, "promptVersion", "v2", "maxTokens", 32,
                             "prefixCache", cache);
    if (more) json_object_update(opts, more);
    json_decref(await_response(&c, client_request(&c, "initialize", json_pack(
        "{s:i,s:{s:{s:b}},s:o}", "processId", (int)getpid(), "capabilities",
        "window", "workDoneProgress", 1, "initializationOptions", opts))));
    client_notify(&c, "initialized", NULL);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "c",
        "version", 1, "text", doc));
    for (int i = 0; i < EDITS; i++)
        client_s[i] = run_edit(&c, EDIT[i].first, EDIT[i].last, EDIT[i].instruction, i);
    json_decref(await_response(&c, client_request(&c, "shutdown", NULL)));
    client_notify(&c, "exit", NULL);
    client_finish(&c);
    if (read_log(log, eng, EDITS) != EDITS) {
        fprintf(stderr, "prefix_ttft: the session log %s lacks the edits\n", log);
        exit(1);
    }
    unlink(log);
    rmdir(dir);
}

static void series(const char *model, const char *doc, bool cache, json_t *more,
                   int reps) {
    double c[EDITS][16], e[EDITS][16], rc[EDITS][16], re[EDITS][16];
    for (int r = 0; r < reps; r++) {
        double cs[EDITS];
        logged eng[EDITS];
        one_run(model, doc, cache, more, cs, eng);
        printf("prefix cache %s, run %d:", cache ? "on" : "off", r + 1);
        for (int i = 0; i < EDITS; i++) {
            c[i][r] = cs[i];
            e[i][r] = eng[i].first_token_s;
            rc[i][r] = cs[i] / cs[0];
            re[i][r] = e[i][r] / e[0][r];
            printf(" edit %d: %lld prompt tokens (%lld cached), first token %.1f ms "
                   "(engine %.1f ms);", i + 1, eng[i].prompt_tokens,
                   eng[i].cached_tokens, 1e3 * cs[i], 1e3 * e[i][r]);
        }
        putchar('\n');
        fflush(stdout);
    }
    printf("prefix cache %s, median of %d runs:", cache ? "on" : "off", reps);
    for (int i = 0; i < EDITS; i++)
        printf(" edit %d %.1f ms (engine %.1f ms)%s", i + 1, 1e3 * median(c[i], reps),
               1e3 * median(e[i], reps), i + 1 < EDITS ? ";" : "\n");
    for (int i = 1; i < EDITS; i++)
        printf("prefix cache %s: edit %d / edit 1, time to first token: %.3f "
               "(client), %.3f (engine)\n", cache ? "on" : "off", i + 1,
               median(rc[i], reps), median(re[i], reps));
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: prefix_ttft SB_LSP_DIR MODEL REPS [INIT_JSON]\n");
        return 2;
    }
    setenv("SB_LSP_DIR", argv[1], 1);
    int reps = atoi(argv[3]);
    if (reps < 1 || reps > 16) reps = 3;
    json_t *more = argc > 4 ? json_loads(argv[4], 0, NULL) : NULL;
    if (argc > 4 && !json_is_object(more)) {
        fprintf(stderr, "prefix_ttft: INIT_JSON must be a JSON object\n");
        return 2;
    }
    char *doc = make_document();
    series(argv[2], doc, true, more, reps);
    series(argv[2], doc, false, more, reps);
    free(doc);
    json_decref(more);
    return 0;
}
