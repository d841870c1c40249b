/*
 * cli.h — private to cli/: the sb subcommands and their shared helpers.
 * Each command parses its own options (getopt_long), prints errors as one
 * line on stderr, and returns the process exit code: 0 success, 1 failure,
 * 2 bad usage.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/engine.h"
#include "../mkmodel/mkmodel.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

int cli_generate(int argc, char **argv);
int cli_mkmodel(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_tokenize(int argc, char **argv);
int cli_detokenize(int argc, char **argv);
int cli_prompt(int argc, char **argv);
int cli_quantize(int argc, char **argv);
int cli_edit(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_draftsim(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_logits(int argc, char **argv);
int cli_compare(int argc, char **argv);
int cli_warmup(int argc, char **argv);
int cli_verify(int argc, char **argv);

/* A session on m for command cmd: eng_session_create, or with `warmup` (a
 * table's path, --warmup FILE) the table's configuration imported and its
 * fingerprint checked (warmup/warmup.h), a line on stderr saying so and
 * one per warning. table_sha256 (may be NULL) receives the table file's
 * SHA-256, or "" without one. NULL after printing why. [session_open.c] */
eng_session *cli_session_open(const char *cmd, eng_model *m,
                              const eng_options *opt, const char *warmup,
                              char table_sha256[65]);

/* Prints "sb <cmd>: message" on stderr; returns CLI_FAIL. */
int cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Same, on the same line "(see sb <cmd> --help)"; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The subcommand's argv (sb.c sets it), for cli_bad_option. */
extern char **cli_argv;
/* The kernel switches of the environment (SB_CUDA_*, SB_CPU_ISA), read once
 * by main (sb.c) before any command runs; every session a command opens
 * takes them (eng_options.tuning). */
extern krn_tuning cli_tuning;
/* What getopt_long returned '?' for, named in one line (getopt's own
 * message is off: opterr = 0 in sb.c); returns CLI_USAGE. */
int cli_bad_option(const char *cmd);

/* Strict number parsing: the whole string, in range. */
int cli_parse_int(const char *s, long lo, long hi, long *out);
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_float(const char *s, double lo, double hi, float *out);

/* Caps on the files sb reads whole (docs/limits.md). A prompt, a file to
 * edit or a draft source: 16 MiB is millions of tokens, beyond any model's
 * context, and --max-input raises it. Data files (a tokenizer.json, saved
 * results): 1 GiB. Without a cap `-f /dev/zero` reads until memory ends. */
#define CLI_INPUT_MAX ((int64_t)16 << 20)
#define CLI_DATA_MAX ((int64_t)1 << 30)

/* Reads a whole file ("-" for stdin) of at most max bytes; caller frees
 * *data (NUL-terminated past *len). -1 with errno set: EISDIR for a
 * directory, EFBIG past max, else what the system said. */
int cli_read_file(const char *path, int64_t max, char **data, int64_t *len);
/* Prints why cli_read_file failed, from errno: "sb <cmd>: cannot read <what>
 * 'PATH': it is a directory" / "...: larger than the limit of N bytes
 * (raise it with --max-input BYTES)" when hint_option, or strerror.
 * Returns CLI_FAIL. */
int cli_read_fail(const char *cmd, const char *what, const char *path,
                  int64_t max, bool hint_option);
/* Parses --max-input's BYTES (1..2^40); CLI_OK or a usage exit. */
int cli_opt_max_input(const char *cmd, const char *arg, int64_t *out);

/* Loads the model a command runs: *path (its -m) when not NULL, else the
 * default model, whose path goes into buf[cap] and *path (so a report can
 * name the file used). NULL after printing "sb <cmd>: ..." naming the file
 * and what is wrong with it. Free with eng_model_free. */
eng_model *cli_model_open(const char *cmd, const char **path, char *buf,
                          size_t cap);

/* Parses a command whose only options are -m MODEL and --help (which
 * prints help on stdout); *model receives -m's value or stays NULL.
 * Returns -1 to go on with the arguments from optind, else the exit code. */
int cli_parse_model_opt(const char *cmd, int argc, char **argv,
                        const char *help, const char **model);

/* Options several commands take, parsed one way: --device cpu|cuda,
 * --threads 1..1024, and on|off switches (flag names the option, e.g.
 * "--speculation"). CLI_OK, or a usage exit naming the option and arg. */
int cli_opt_device(const char *cmd, const char *arg, eng_device *out);
int cli_opt_threads(const char *cmd, const char *arg, int *out);
int cli_opt_on_off(const char *cmd, const char *flag, const char *arg,
                   bool *out);

/* ---- inspectable outputs (outputs.c) ---------------------------------- */

/* Tokenizes len bytes of text into a malloc'd array (*ids, *n; caller
 * frees); `what` names the text in errors. CLI_OK or a failure reported
 * as sb <cmd>. */
int cli_tokens(const eng_model *m, const char *cmd, const char *what,
               const char *text, int64_t len, unsigned flags, int32_t **ids,
               int32_t *n);
/* A new JSON array of the ids (caller decrefs); NULL when out of memory. */
json_t *cli_ids_json(const int32_t *ids, int64_t n);
/* A JSON array of integers in 0..n_vocab-1 into a malloc'd array (*ids, *n;
 * caller frees); anything else is a failure naming `what` and the element. */
int cli_ids_from_json(const char *cmd, const char *what, const json_t *a,
                      int32_t n_vocab, int32_t **ids, int32_t *n);
/* path followed by suffix, malloc'd (caller frees); NULL when out of memory. */
char *cli_path_with(const char *path, const char *suffix);
/* Byte offset of the start of line `line` (1-based) in text[0..len); len
 * when the text has fewer lines (then *past is set). */
int64_t cli_line_start(const char *text, int64_t len, int64_t line, bool *past);

#endif /* SB_CLI_H */
