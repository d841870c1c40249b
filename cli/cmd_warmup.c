/* sb warmup and sb verify: the warm-up table (warmup/warmup.h) made,
 * imported and checked. The --warmup FILE that generate, edit and bench
 * take is session_open.c's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../warmup/warmup.h"
#include "cli.h"

static const char *cli__warmup_help =
    "usage: sb warmup [-m MODEL] [--device cpu|cuda] [--threads N]\n"
    "                 (--export FILE | --import FILE [--export FILE])\n"
    "The warm-up table: the launch configuration the backend chose for this\n"
    "model on this machine, the machine's facts (GPU, compute capability,\n"
    "driver and CUDA versions), the model's SHA-256 and shape, the time each\n"
    "measurement took, and a fingerprint: the SHA-256 of the logits of a fixed\n"
    "canary prompt run in steps of 64, 24, 8, 2, 1 and 1 rows.\n"
    "  --export FILE   measure (where the backend has choices to make) and\n"
    "                  write the table to FILE\n"
    "  --import FILE   take FILE's configuration with no measurement, run the\n"
    "                  canary, and refuse unless the model and the bits are\n"
    "                  the table's (naming what differs); another GPU, driver\n"
    "                  or engine version with the same bits is a warning.\n"
    "                  With --export too: write this machine's table so made.\n"
    "The configuration never changes a bit: the fingerprint is the same on\n"
    "every GPU and on the CPU. Exit 0; 1 refused or failed; 2 bad usage.\n";

static const char *cli__verify_help =
    "usage: sb verify [-m MODEL] [--device cpu|cuda] [--threads N]\n"
    "                 --fingerprint FILE\n"
    "Runs the canary of a warm-up table (sb warmup --export) on this machine\n"
    "and compares its bits with the table's fingerprint: exit 0 when\n"
    "identical, 1 when they differ (naming the step and what else differs:\n"
    "device, driver, engine) or the table is for another model, 2 for bad\n"
    "usage. A table made on a GPU verifies on the CPU too.\n";

typedef struct cli_warmup_opts {
    const char *model, *export_path, *import_path;
    eng_options eng;
} cli_warmup_opts;

/* ---- parsing -------------------------------------------------------------- */

/* Options of both commands; `verify` takes --fingerprint for --import. */
static int cli__warmup_parse(const char *cmd, const char *help, int argc,
                             char **argv, cli_warmup_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"device", 1, 0, 'D'}, {"threads", 1, 0, 't'},
        {"export", 1, 0, 'E'}, {"import", 1, 0, 'I'}, {"fingerprint", 1, 0, 'F'},
        {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const bool verify = !strcmp(cmd, "verify");
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'D':
            if (cli_opt_device(cmd, optarg, &o->eng.device)) return CLI_USAGE;
            break;
        case 't':
            if (cli_opt_threads(cmd, optarg, &o->eng.n_threads)) return CLI_USAGE;
            break;
        case 'E':
            if (verify) return cli_usage(cmd, "bad option --export");
            o->export_path = optarg;
            break;
        case 'I':
        case 'F':
            if (verify != (c == 'F'))
                return cli_usage(cmd, "bad option --%s", c == 'F' ? "fingerprint"
                                                                 : "import");
            o->import_path = optarg;
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_bad_option(cmd);
        }
    }
    if (optind != argc) return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
    if (verify && !o->import_path) return cli_usage(cmd, "give --fingerprint FILE");
    if (!verify && !o->import_path && !o->export_path)
        return cli_usage(cmd, "give --export FILE or --import FILE");
    return CLI_OK;
}

/* ---- the commands ---------------------------------------------------------- */

static void cli__print_device(const wu_device *d) {
    printf("device: %s backend on %s", d->backend, d->name);
    if (d->compute_capability[0])
        printf(" (compute capability %s, driver %s, CUDA driver %d, runtime %d)",
               d->compute_capability, d->driver[0] ? d->driver : "?",
               (int)d->cuda_driver, (int)d->cuda_runtime);
    putchar('\n');
}

/* Makes this machine's table from s and writes it to path. */
static int cli__export(const char *cmd, eng_session *s, eng_model *m,
                       const char *path, double create_s) {
    sb_err err = {0};
    wu_table t;
    if (wu_table_make(s, m, &t, &err)) return cli_fail(cmd, "%s", err.msg);
    cli__print_device(&t.device);
    printf("configuration: %d choices, %d measurements (backend made in %.2f s)\n",
           t.n_choices, (int)t.measurements, create_s);
    printf("fingerprint: %s (%d steps, %d positions)\n", t.fp.sha256, WU_FP_STEPS,
           WU_CANARY_LEN);
    char listed[512];
    printf("step costs, ms by rows: %s\n",
           stepcost_table_format(&t.costs, listed, sizeof listed));
    int rc = wu_table_save(path, &t, &err) ? cli_fail(cmd, "%s", err.msg) : CLI_OK;
    if (rc == CLI_OK) printf("wrote %s\n", path);
    wu_table_free(&t);
    return rc;
}

static int cli__warmup_run(const char *cmd, const cli_warmup_opts *o) {
    const char *path = o->model;
    char buf[4096];
    eng_model *m = cli_model_open(cmd, &path, buf, sizeof buf);
    if (!m) return CLI_FAIL;
    int rc = CLI_FAIL;
    sb_err err = {0};
    wu_import imp;
    double t0 = sb_now();
    eng_options eo = o->eng;
    eo.tuning = cli_tuning;
    eng_session *s = o->import_path ? wu_session_import(m, &eo, o->import_path, &imp, &err)
                                    : eng_session_create(m, &eo, &err);
    double create_s = sb_now() - t0;
    if (!s) {
        cli_fail(cmd, "%s", err.msg);
        goto done;
    }
    if (o->import_path) {
        printf("%s %s (sha256 %.16s...): %d choices taken, %d measurements\n",
               !strcmp(cmd, "verify") ? "checked" : "imported", o->import_path,
               imp.table_sha256, imp.n_choices, imp.measurements);
        printf("fingerprint: %s: identical to the table's\n", imp.fingerprint);
        for (int i = 0; i < imp.n_warnings; i++)
            printf("warning: %s\n", imp.warnings[i]);
    }
    rc = o->export_path ? cli__export(cmd, s, m, o->export_path, create_s) : CLI_OK;
done:
    eng_session_destroy(s);
    eng_model_free(m);
    return rc;
}

int cli_warmup(int argc, char **argv) {
    cli_warmup_opts o = {0};
    int rc = cli__warmup_parse("warmup", cli__warmup_help, argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    return cli__warmup_run("warmup", &o);
}

int cli_verify(int argc, char **argv) {
    cli_warmup_opts o = {0};
    int rc = cli__warmup_parse("verify", cli__verify_help, argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    return cli__warmup_run("verify", &o);
}
