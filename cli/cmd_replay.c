/* sb replay: run every edit of a session log again and compare the tokens. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../edit/edit.h"
#include "../sessionlog/sessionlog.h"
#include "cli.h"

static const char *cli__replay_help =
    "usage: sb replay LOG [options]\n"
    "Runs every edit recorded in LOG (sb-lsp's session log) again and prints,\n"
    "per entry, identical or different (with the first differing token).\n"
    "  -m, --model FILE     model to use (default: the path the entry names);\n"
    "                       its SHA-256 must match the entry's\n"
    "      --device D       cpu or cuda (default: the entry's backend)\n"
    "      --threads N      CPU threads (default: all cores); never changes output\n"
    "      --speculation on|off  replay with speculation on (default) or off;\n"
    "                       either gives the same tokens\n"
    "Exit status 0 when every entry is identical, 1 when any differs or\n"
    "cannot be read or run, 2 for bad usage.\n";

typedef struct cli_replay_opts {
    const char *log, *model;
    bool device_set;
    eng_device device;
    int threads;
    bool speculation;
} cli_replay_opts;

/* The model and session of the entry being replayed, kept across entries
 * that name the same file and device. */
typedef struct cli_replay_engine {
    char *path;
    eng_device device;
    eng_model *model;
    eng_session *session;
} cli_replay_engine;

static void cli__engine_free(cli_replay_engine *e) {
    eng_session_destroy(e->session);
    eng_model_free(e->model);
    free(e->path);
    memset(e, 0, sizeof *e);
}

/* Makes e run `path` on `device`; -1 with err. */
static int cli__engine_use(cli_replay_engine *e, const char *path,
                           eng_device device, int threads, sb_err *err) {
    if (e->session && e->device == device && !strcmp(e->path, path)) return 0;
    cli__engine_free(e);
    e->model = eng_model_load(path, err);
    if (!e->model) return -1;
    eng_options opt = {.device = device, .n_threads = threads};
    e->session = eng_session_create(e->model, &opt, err);
    e->path = strdup(path);
    e->device = device;
    if (!e->session || !e->path) {
        cli__engine_free(e);
        return sb_err_set(err, "replay", "cannot start the %s backend%s",
                          device == ENG_DEVICE_CUDA ? "cuda" : "cpu",
                          e->path ? "" : " (out of memory)");
    }
    return 0;
}

static int cli__replay_parse(int argc, char **argv, cli_replay_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"device", 1, 0, 'D'}, {"threads", 1, 0, 't'},
        {"speculation", 1, 0, 'P'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    o->speculation = true;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'D':
            o->device_set = true;
            if (cli_opt_device("replay", optarg, &o->device)) return CLI_USAGE;
            break;
        case 't':
            if (cli_opt_threads("replay", optarg, &o->threads)) return CLI_USAGE;
            break;
        case 'P':
            if (cli_opt_on_off("replay", "--speculation", optarg, &o->speculation))
                return CLI_USAGE;
            break;
        case 'h': fputs(cli__replay_help, stdout); return -1;
        default: return cli_usage("replay", "bad option");
        }
    }
    if (optind != argc - 1) return cli_usage("replay", "give exactly one LOG file");
    o->log = argv[optind];
    return CLI_OK;
}

/* Replays one entry; prints its verdict; true when identical. */
static bool cli__replay_entry(const cli_replay_opts *o, cli_replay_engine *eng,
                              const slog_entry *e, int64_t line) {
    printf("entry at line %lld: ", (long long)line);
    const char *path = o->model ? o->model : e->model_path;
    eng_device dev = o->device_set ? o->device
                     : !strcmp(e->backend, "cuda") ? ENG_DEVICE_CUDA : ENG_DEVICE_CPU;
    sb_err err = {0};
    if (!path) {
        printf("unreadable: the entry names no model file (give -m MODEL)\n");
        return false;
    }
    if (cli__engine_use(eng, path, dev, o->threads, &err)) {
        printf("failed: %s\n", err.msg);
        return false;
    }
    const char *sha = eng_model_sha256(eng->model);
    if (strcmp(sha, e->model_sha256)) {
        printf("failed: model SHA-256 %.16s... is not the logged %.16s...\n", sha,
               e->model_sha256);
        return false;
    }
    edit_request rq = {.file = e->document + e->region_start,
                       .file_len = e->region_end - e->region_start,
                       .instruction = e->instruction,
                       .instruction_len = e->instruction_len,
                       .language = e->language && *e->language ? e->language : NULL,
                       .path = e->uri && !strncmp(e->uri, "file://", 7) ? e->uri + 7
                                                                        : NULL};
    edit_opts eo = edit_defaults();
    eo.drafter = o->speculation ? EDIT_DRAFTER_COPY : EDIT_DRAFTER_NONE;
    eo.max_tokens = e->max_tokens;
    eo.sampling = (eng_sampling){.temperature = e->temperature, .seed = e->seed,
                                 .top_k = e->top_k};
    edit_result r = {0};
    edit_run(eng->session, &rq, &eo, &r, &err);
    bool same = false;
    if (r.status != EDIT_DONE && r.status != EDIT_BAD_ANSWER) {
        printf("failed: %s\n", err.msg);
    } else if (strcmp(r.prompt_sha256, e->prompt_sha256)) {
        printf("different: the prompt's ids differ (prompt %s here, %s in the log)\n",
               r.prompt_version, e->prompt_version);
    } else {
        int32_t n = r.gen.n_tokens < e->n_output ? r.gen.n_tokens : e->n_output, k = 0;
        while (k < n && r.gen.tokens[k] == e->output[k]) k++;
        same = k == r.gen.n_tokens && k == e->n_output;
        if (same)
            printf("identical (%d tokens, sha256 %s)\n", (int)k, r.gen.sha256);
        else if (k < n)
            printf("different at token %d (log %d, replay %d)", (int)k,
                   (int)e->output[k], (int)r.gen.tokens[k]);
        else
            printf("different at token %d (log has %d tokens, replay %d)", (int)k,
                   (int)e->n_output, (int)r.gen.n_tokens);
        /* The contract holds for one engine version (docs/determinism.md). */
        if (!same && e->engine_version && strcmp(e->engine_version, eng_version()))
            printf("; logged by engine %s, replayed by %s", e->engine_version,
                   eng_version());
        if (!same) putchar('\n');
    }
    edit_result_free(&r);
    return same;
}

int cli_replay(int argc, char **argv) {
    cli_replay_opts o = {0};
    int rc = cli__replay_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    sb_err err = {0};
    slog_reader *r = slog_reader_open(o.log, &err);
    if (!r) return cli_fail("replay", "%s", err.msg);
    cli_replay_engine eng = {0};
    int identical = 0, different = 0, unreadable = 0;
    slog_entry e;
    for (;;) {
        sb_err lerr = {0};
        int got = slog_next(r, &e, &lerr);
        if (got == 0) break;
        if (got < 0) {
            printf("entry at line %lld: unreadable: %s\n", (long long)slog_line(r),
                   lerr.msg);
            unreadable++;
            continue;
        }
        if (cli__replay_entry(&o, &eng, &e, slog_line(r))) identical++;
        else different++;
        fflush(stdout);
    }
    cli__engine_free(&eng);
    slog_reader_close(r);
    fprintf(stderr, "sb replay: %d identical, %d different or failed, %d "
            "unreadable\n", identical, different, unreadable);
    return different || unreadable ? CLI_FAIL : CLI_OK;
}
