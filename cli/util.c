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

static void cli__vprint(const char *cmd, const char *fmt, va_list ap) {
    fprintf(stderr, "sb %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_fail(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli__vprint(cmd, fmt, ap);
    va_end(ap);
    return CLI_FAIL;
}

int cli_usage(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli__vprint(cmd, fmt, ap);
    va_end(ap);
    fprintf(stderr, "(see sb %s --help)\n", cmd);
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

int cli_read_file(const char *path, char **data, int64_t *len) {
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        if (n == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                err = ENOMEM;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) err = ferror(f) ? EIO : -1; /* -1: clean end of file */
    }
    if (f != stdin) fclose(f);
    if (err > 0) {
        free(buf);
        errno = err;
        return -1;
    }
    *data = buf;
    *len = (int64_t)n;
    return 0;
}

const char *cli_model_path(const char *cmd, const char *given, char *buf,
                           size_t cap) {
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
    const char *use = cli_model_path(cmd, *path, buf, cap);
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
            return cli_usage(cmd, "bad option");
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
