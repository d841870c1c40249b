/* Shared helpers of the sb subcommands: messages, number parsing, files,
 * the model, and the options several commands take. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Messages quote what files hold (a GGUF key, an architecture name, a log
 * field): escaped like sb info's name (sb_escape_text), so that a hostile
 * file cannot drive the terminal through an error message either. */
static void cli__vprint(const char *cmd, const char *fmt, va_list ap,
                        bool usage) {
    char msg[2048], shown[4 * sizeof msg];
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1;
    sb_escape_text(msg, len, shown, sizeof shown);
    if (usage) fprintf(stderr, "sb %s: %s (see sb %s --help)\n", cmd, shown, cmd);
    else fprintf(stderr, "sb %s: %s\n", cmd, shown);
}

char **cli_argv;
krn_tuning cli_tuning;

int cli_bad_option(const char *cmd) {
    const char *arg = cli_argv && optind > 0 ? cli_argv[optind - 1] : NULL;
    if (optopt > 0 && optopt < 128 && (!arg || arg[0] != '-' || arg[1] != '-'))
        return cli_usage(cmd, "option -%c: unknown, or given without its value",
                         optopt);
    return cli_usage(cmd, "option '%s': unknown, or given without its value",
                     arg ? arg : "?");
}

int cli_fail(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli__vprint(cmd, fmt, ap, false);
    va_end(ap);
    return CLI_FAIL;
}

int cli_usage(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli__vprint(cmd, fmt, ap, true);
    va_end(ap);
    return CLI_USAGE;
}

int cli_parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    if (*s == '-') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_float(const char *s, double lo, double hi, float *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) return -1;
    *out = (float)v;
    return 0;
}

int cli_read_file(const char *path, int64_t max, char **data, int64_t *len) {
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) return -1;
    int rc = sb_read_stream(f, max, data, len);
    int e = errno;
    if (f != stdin) fclose(f);
    errno = e;
    return rc;
}

int cli_read_fail(const char *cmd, const char *what, const char *path,
                  int64_t max, bool hint_option) {
    int e = errno;
    const char *shown = strcmp(path, "-") ? path : "(stdin)";
    if (e == EISDIR)
        return cli_fail(cmd, "cannot read %s '%s': it is a directory, expected "
                        "a file", what, shown);
    if (e == EFBIG)
        return cli_fail(cmd, "cannot read %s '%s': larger than the limit of "
                        "%lld bytes%s", what, shown, (long long)max,
                        hint_option ? " (raise it with --max-input BYTES)" : "");
    return cli_fail(cmd, "cannot read %s '%s': %s", what, shown, strerror(e));
}

int cli_opt_max_input(const char *cmd, const char *arg, int64_t *out) {
    uint64_t v;
    if (cli_parse_u64(arg, &v) || v < 1 || v > ((uint64_t)1 << 40))
        return cli_usage(cmd, "--max-input '%s': expected 1..%llu bytes", arg,
                         (unsigned long long)1 << 40);
    *out = (int64_t)v;
    return CLI_OK;
}

/* The model a command runs: `given` (its -m) when not NULL, else the
 * default model (eng_default_model_path) written into buf[cap]. NULL after
 * printing "sb <cmd>: ..." naming the path where the default was expected. */
static const char *cli__model_path(const char *cmd, const char *given,
                                   char *buf, size_t cap) {
    if (given) return given;
    sb_err err = {0};
    if (eng_default_model_path(buf, cap, &err)) {
        cli_fail(cmd, "%s", err.msg);
        return NULL;
    }
    return buf;
}

eng_model *cli_model_open(const char *cmd, const char **path, char *buf,
                          size_t cap) {
    const char *use = cli__model_path(cmd, *path, buf, cap);
    if (!use) return NULL;
    sb_err err = {0};
    eng_model *m = eng_model_load(use, &err);
    if (!m) {
        cli_fail(cmd, "%s", err.msg);
        return NULL;
    }
    *path = use;
    return m;
}

int cli_parse_model_opt(const char *cmd, int argc, char **argv,
                        const char *help, const char **model) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        if (c == 'm') {
            *model = optarg;
        } else if (c == 'h') {
            fputs(help, stdout);
            return CLI_OK;
        } else {
            return cli_bad_option(cmd);
        }
    }
    return -1;
}

int cli_opt_device(const char *cmd, const char *arg, eng_device *out) {
    if (!strcmp(arg, "cpu")) *out = ENG_DEVICE_CPU;
    else if (!strcmp(arg, "cuda")) *out = ENG_DEVICE_CUDA;
    else return cli_usage(cmd, "--device '%s': expected cpu or cuda", arg);
    return CLI_OK;
}

int cli_opt_threads(const char *cmd, const char *arg, int *out) {
    long v;
    if (cli_parse_int(arg, 1, 1024, &v))
        return cli_usage(cmd, "--threads '%s': expected 1..1024", arg);
    *out = (int)v;
    return CLI_OK;
}

int cli_opt_on_off(const char *cmd, const char *flag, const char *arg,
                   bool *out) {
    if (!strcmp(arg, "on")) *out = true;
    else if (!strcmp(arg, "off")) *out = false;
    else return cli_usage(cmd, "%s '%s': expected on or off", flag, arg);
    return CLI_OK;
}

int64_t cli_line_start(const char *text, int64_t len, int64_t line, bool *past) {
    int64_t at = 0;
    for (int64_t l = 1; l < line; l++) {
        const char *nl = memchr(text + at, '\n', (size_t)(len - at));
        if (!nl) {
            *past = true;
            return len;
        }
        at = nl - text + 1;
    }
    if (at == len && line > 1) *past = true;
    return at;
}
