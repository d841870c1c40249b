/*
 * cli.h — private to cli/: the sb subcommands and their shared helpers.
 * Each command parses its own options (getopt_long), prints errors as one
 * line on stderr, and returns the process exit code: 0 success, 1 failure,
 * 2 bad usage.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <stdint.h>

#include "../engine/engine.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

int cli_generate(int argc, char **argv);
int cli_mkmodel(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_tokenize(int argc, char **argv);
int cli_detokenize(int argc, char **argv);

/* Prints "sb <cmd>: message" on stderr; returns CLI_FAIL. */
int cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Same, returns CLI_USAGE and points at --help. */
int cli_usage(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Strict number parsing: the whole string, in range. */
int cli_parse_int(const char *s, long lo, long hi, long *out);
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_float(const char *s, double lo, double hi, float *out);

/* Reads a whole file ("-" for stdin); caller frees *data. -1 with errno set. */
int cli_read_file(const char *path, char **data, int64_t *len);

#endif /* SB_CLI_H */
