/* sb replay: check a session log's chain, then run every edit of it again
 * and compare each result it states. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../edit/edit.h"
#include "../sessionlog/sessionlog.h"
#include "cli.h"

/* Exit status when the log itself is damaged or holds no entry. */
enum { CLI_REPLAY_DAMAGED = 3 };

static const char *cli__replay_help =
    "usage: sb replay LOG [options]\n"
    "Checks LOG (sb-lsp's session log) for damage: its hash chain names\n"
    "every deleted, inserted, reordered, truncated or edited line. Then runs\n"
    "every edit again and prints, per entry, identical or what differs: the\n"
    "prompt, the output ids (first differing token), their hash, the status.\n"
    "  -m, --model FILE     model to use (default: the path the entry names);\n"
    "                       its SHA-256 must match the entry's\n"
    "      --device D       cpu or cuda (default: the entry's backend); a log\n"
    "                       made on the GPU replays on the CPU to the same bits\n"
    "      --threads N      CPU threads (default: all cores); never changes output\n"
    "      --speculation on|off  replay with speculation on (default) or off;\n"
    "                       either gives the same tokens\n"
    "      --any-version    replay entries another engine version logged (by\n"
    "                       default they are refused: the same-bits contract\n"
    "                       holds for one version)\n"
    "      --chain-only     check the log's chain only; run no model\n"
    "Exit status: 0 when the log is intact and every entry replays identical;\n"
    "1 when an entry differs, is refused or cannot be run; 2 for bad usage;\n"
    "3 when the log is damaged or holds no entry (this wins over 1).\n";

typedef struct cli_replay_opts {
    const char *log, *model;
    bool device_set;
    eng_device device;
    int threads;
    bool speculation, any_version, chain_only;
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
    eng_options opt = {.device = device, .n_threads = threads, .tuning = cli_tuning};
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
        {"speculation", 1, 0, 'P'}, {"any-version", 0, 0, 'V'},
        {"chain-only", 0, 0, 'C'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
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
        case 'V': o->any_version = true; break;
        case 'C': o->chain_only = true; break;
        case 'h': fputs(cli__replay_help, stdout); return -1;
        default: return cli_bad_option("replay");
        }
    }
    if (optind != argc - 1) return cli_usage("replay", "give exactly one LOG file");
    o->log = argv[optind];
    return CLI_OK;
}

/* ==== the chain ============================================================= */

/* Prints what slog_verify found; true when the log can be trusted. */
static bool cli__replay_chain(const cli_replay_opts *o, const slog_report *rep) {
    printf("log %s: %lld lines, %lld entries, %lld sessions (%lld closed)",
           o->log, (long long)rep->lines, (long long)rep->entries,
           (long long)rep->sessions, (long long)rep->closed);
    if (rep->lines) printf("; head sha256 %s", rep->head_sha256);
    putchar('\n');
    for (int i = 0; i < rep->n_damage; i++)
        printf("damage at line %lld: %s: %s\n", (long long)rep->damage[i].line,
               slog_damage_name(rep->damage[i].kind), rep->damage[i].what);
    if (rep->more_damage)
        printf("damage: %lld more findings not shown\n", (long long)rep->more_damage);
    for (int i = 0; i < rep->n_notes; i++)
        printf("note: %s\n", rep->notes[i].what);
    if (rep->more_notes)
        printf("note: %lld more notes not shown\n", (long long)rep->more_notes);
    if (rep->unchained)
        printf("note: %lld entries are of format v1 (before the hash chain): "
               "they replay, but cannot be checked for tampering\n",
               (long long)rep->unchained);
    if (!rep->entries) printf("damage: the log holds no edit entry: nothing to "
                              "replay, nothing proven\n");
    return rep->n_damage == 0 && rep->more_damage == 0 && rep->entries > 0;
}

/* ==== one entry ============================================================= */

/* The checks that need no model: the entry agrees with itself and with this
 * engine. NULL when it passes, else why not (static or in buf). */
static const char *cli__replay_precheck(const cli_replay_opts *o,
                                        const slog_entry *e, char *buf,
                                        size_t cap) {
    char sha[65];
    eng_tokens_sha256(e->output, e->n_output, sha);
    if (strcmp(sha, e->output_sha256))
        return "different: its output_sha256 is not the SHA-256 of its "
               "output_ids (the entry was changed)";
    if (strcmp(e->status, "done") && strcmp(e->status, "bad-answer")) {
        snprintf(buf, cap, "different: status '%.40s' is neither 'done' nor "
                 "'bad-answer'", e->status);
        return buf;
    }
    /* an edit rewrites whole lines: its region starts and ends at one */
    if ((e->region_start > 0 && e->document[e->region_start - 1] != '\n') ||
        (e->region_end > e->region_start && e->region_end < e->document_len &&
         e->document[e->region_end - 1] != '\n'))
        return "different: its region does not cover whole lines of the "
               "document (the entry was changed)";
    if (!e->engine_version && !o->any_version)
        return "refused: the entry names no engine version (--any-version "
               "replays it anyway)";
    if (e->engine_version && strcmp(e->engine_version, eng_version()) &&
        !o->any_version) {
        snprintf(buf, cap, "refused: logged by engine %.40s, this is %s; the "
                 "same-bits contract holds for one version (--any-version "
                 "replays it anyway)", e->engine_version, eng_version());
        return buf;
    }
    return NULL;
}

/* Compares what the replay gave with what the entry states; prints it.
 * True when every stated result holds. */
static bool cli__replay_compare(const slog_entry *e, const edit_result *r) {
    const char *status = r->status == EDIT_DONE ? "done" : "bad-answer";
    if (strcmp(r->prompt_version, e->prompt_version)) {
        printf("different: the prompt's wording (%s here, %s in the log)\n",
               r->prompt_version, e->prompt_version);
        return false;
    }
    if (strcmp(r->prompt_sha256, e->prompt_sha256) || r->n_prompt != e->n_prompt) {
        printf("different: the prompt's ids (%lld here, %lld in the log, hashes "
               "%.16s... and %.16s...)\n", (long long)r->n_prompt,
               (long long)e->n_prompt, r->prompt_sha256, e->prompt_sha256);
        return false;
    }
    int32_t n = r->gen.n_tokens < e->n_output ? r->gen.n_tokens : e->n_output, k = 0;
    while (k < n && r->gen.tokens[k] == e->output[k]) k++;
    if (k < n) {
        printf("different at token %d (log %d, replay %d)", (int)k,
               (int)e->output[k], (int)r->gen.tokens[k]);
    } else if (k != r->gen.n_tokens || k != e->n_output) {
        printf("different at token %d (log has %d tokens, replay %d)", (int)k,
               (int)e->n_output, (int)r->gen.n_tokens);
    } else if (strcmp(r->gen.sha256, e->output_sha256)) {
        printf("different: output_sha256 %.16s... here, %.16s... in the log",
               r->gen.sha256, e->output_sha256);
    } else if (strcmp(status, e->status)) {
        printf("different: status %s here, %s in the log", status, e->status);
    } else {
        printf("identical (%d tokens, sha256 %s)\n", (int)k, r->gen.sha256);
        return true;
    }
    if (e->engine_version && strcmp(e->engine_version, eng_version()))
        printf("; logged by engine %s, replayed by %s", e->engine_version,
               eng_version());
    putchar('\n');
    return false;
}

/* Replays one entry; prints its verdict; true when identical. */
static bool cli__replay_entry(const cli_replay_opts *o, cli_replay_engine *eng,
                              const slog_entry *e, int64_t line) {
    printf("entry at line %lld: ", (long long)line);
    char why[300];
    const char *bad = cli__replay_precheck(o, e, why, sizeof why);
    if (bad) {
        printf("%s\n", bad);
        return false;
    }
    const char *path = o->model ? o->model : e->model_path;
    eng_device dev = o->device_set ? o->device
                     : !strcmp(e->backend, "cuda") ? ENG_DEVICE_CUDA : ENG_DEVICE_CPU;
    sb_err err = {0};
    if (!path) {
        printf("failed: the entry names no model file (give -m MODEL)\n");
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
    if (edit_prompt_version_parse(e->prompt_version, &rq.prompt_version)) {
        printf("refused: prompt version '%.40s' is unknown to this build\n",
               e->prompt_version);
        return false;
    }
    if (e->has_context &&
        edit_request_context_at(&rq, e->document, e->document_len, e->region_start,
                                e->region_end, e->context_start, e->context_end,
                                &err)) {
        printf("failed: %s\n", err.msg);
        return false;
    }
    edit_opts eo = edit_defaults();
    /* each entry from an empty cache: replay depends on no earlier one
     * (the bits are the same either way, docs/determinism.md) */
    eo.prefix_cache = false;
    eo.drafter = o->speculation ? EDIT_DRAFTER_COPY : EDIT_DRAFTER_NONE;
    eo.max_tokens = e->max_tokens;
    eo.sampling = (eng_sampling){.temperature = e->temperature, .seed = e->seed,
                                 .top_k = e->top_k};
    edit_result r = {0};
    edit_run(eng->session, &rq, &eo, &r, &err);
    bool same = false;
    if (r.status != EDIT_DONE && r.status != EDIT_BAD_ANSWER)
        printf("failed: %s\n", err.msg);
    else
        same = cli__replay_compare(e, &r);
    edit_result_free(&r);
    return same;
}

/* Replays every edit entry of the log; counts the verdicts. */
static int cli__replay_entries(const cli_replay_opts *o, int *identical,
                               int *different) {
    sb_err err = {0};
    slog_reader *r = slog_reader_open(o->log, &err);
    if (!r) return cli_fail("replay", "%s", err.msg);
    cli_replay_engine eng = {0};
    slog_entry e;
    int got;
    /* unreadable lines: named by the chain check already */
    while ((got = slog_next(r, &e, &(sb_err){0})) != 0) {
        if (got < 0 || e.kind != SLOG_KIND_EDIT) continue;
        if (cli__replay_entry(o, &eng, &e, slog_line(r))) (*identical)++;
        else (*different)++;
        fflush(stdout);
    }
    cli__engine_free(&eng);
    slog_reader_close(r);
    return CLI_OK;
}

int cli_replay(int argc, char **argv) {
    cli_replay_opts o = {0};
    int rc = cli__replay_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    sb_err err = {0};
    slog_report rep;
    if (slog_verify(o.log, &rep, &err)) return cli_fail("replay", "%s", err.msg);
    bool intact = cli__replay_chain(&o, &rep);
    int64_t n_damage = rep.n_damage + rep.more_damage;
    slog_report_free(&rep);
    fflush(stdout);
    int identical = 0, different = 0;
    if (!o.chain_only && cli__replay_entries(&o, &identical, &different))
        return CLI_FAIL;
    if (o.chain_only)
        fprintf(stderr, "sb replay: chain %s; no entry replayed (--chain-only)\n",
                intact ? "intact" : "DAMAGED");
    else
        fprintf(stderr, "sb replay: %d identical, %d different, refused or "
                "failed; log %s (%lld damage findings)\n", identical, different,
                intact ? "intact" : "DAMAGED", (long long)n_damage);
    if (!intact) return CLI_REPLAY_DAMAGED;
    return different ? CLI_FAIL : CLI_OK;
}
