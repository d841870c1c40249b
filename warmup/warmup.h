/*
 * warmup.h — the public face of warmup/: the warm-up table. It records the
 * launch configuration a backend chose on one machine, with the facts of
 * that machine and model and a fingerprint of the bits they produce, so
 * that another machine can take the configuration without measuring and
 * prove it produces the same bits (`sb warmup`, `sb verify`,
 * `--warmup FILE`, sb-lsp's initializationOptions.warmup).
 *
 *     sb_err err = {0};
 *     wu_table t;                            // export: measure, describe
 *     eng_session *s = eng_session_create(m, &opt, &err);
 *     wu_table_make(s, m, &t, &err);         // runs the canary
 *     wu_table_save("h200.json", &t, &err);
 *     wu_table_free(&t);
 *
 *     wu_import imp;                         // import: no measurement
 *     eng_session *s2 = wu_session_import(m, &opt, "h200.json", &imp, &err);
 *     if (!s2) refuse(err.msg);              // names what differs
 *     for (int i = 0; i < imp.n_warnings; i++) warn(imp.warnings[i]);
 *
 * The configuration never changes a bit (docs/determinism.md's contract): every
 * choice gives the same logits. The fingerprint checks that, and more: the
 * canonical arithmetic gives the same bits on every GPU and on the CPU, so
 * a table made on an H200 verifies on any machine's CPU too.
 *
 * The fingerprint: the canary prompt (wu_canary_ids: a fixed text, as the
 * model tokenizes it) run from position 0 in steps of 64, 24, 8, 2, 1 and
 * 1 rows (100 positions: the row buckets of a verify step and the plain
 * step); the SHA-256 of each step's logits (n_rows x n_vocab float32,
 * little-endian) and of all of them in order.
 */
#ifndef SB_WARMUP_H
#define SB_WARMUP_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../stepcost/stepcost.h"

#define WU_FORMAT "sonicboom-warmup-v1"

/* The fingerprint's steps and the positions they cover. */
enum { WU_FP_STEPS = 6, WU_CANARY_LEN = 100 };
/* Limits on what a table may hold (its reader refuses more). */
enum { WU_MAX_CHOICES = 4096, WU_MAX_FILE = 1 << 20 };

/* The machine a table was made on. */
typedef struct wu_device {
    char backend[8];             /* "backend": "cpu" or "cuda" */
    char name[256];              /* "name": the GPU's or the CPU's model */
    char compute_capability[16]; /* "compute_capability": "9.0"; "" on CPU */
    char driver[64];             /* "driver": the NVIDIA driver's version
                                    ("570.86.15"); "" when none */
    int32_t cuda_driver;         /* "cuda_driver": the CUDA version the
                                    driver supports (13000); 0 when none */
    int32_t cuda_runtime;        /* "cuda_runtime": the CUDA runtime's (13000
                                    for 13.0); 0 when not built */
} wu_device;

/* The model's shape (what a configuration is chosen for). */
typedef struct wu_shape {
    int32_t n_layer, n_embd, n_ff, n_head, n_head_kv, head_dim, n_vocab, window;
} wu_shape;

typedef struct wu_fingerprint {
    char sha256[65];                   /* over every step's logits, in order */
    int32_t rows[WU_FP_STEPS];         /* each step's rows */
    char step_sha256[WU_FP_STEPS][65]; /* each step's logits */
} wu_fingerprint;

typedef struct wu_table {
    char engine_version[32];  /* "engine_version" */
    wu_device device;         /* "device" */
    char model_sha256[65];    /* "model": {"sha256", "shape"} */
    wu_shape shape;
    krn_choice *choices;      /* "configuration": [{name, value, ms}]; owned */
    int n_choices;
    int32_t measurements;     /* "measurements": timings run to choose them */
    wu_fingerprint fp;        /* "fingerprint" */
    stepcost_table costs;     /* "step_costs": this machine's step cost by
                                 rows (wu_step_costs); lists nothing in a
                                 table written before it was recorded */
} wu_table;

/* ---- the fingerprint (fingerprint.c) ---------------------------------- */

/* The canary's WU_CANARY_LEN ids for m (its fixed text, repeated as
 * needed) into ids. -1 with err when the model cannot encode it. */
int wu_canary_ids(const eng_model *m, int32_t ids[WU_CANARY_LEN], sb_err *err);
/* Runs the canary on s (resetting it; its context must hold
 * WU_CANARY_LEN positions) and fills fp. -1 with err. */
int wu_fingerprint_compute(eng_session *s, wu_fingerprint *fp, sb_err *err);

/* ---- this machine (device.c) ------------------------------------------- */

/* The facts of the device s runs on. */
void wu_device_of(const eng_session *s, wu_device *d);

/* ---- this machine's step costs (costs.c) ---------------------------------- */

/* Steps measured a row count (the median is kept), and the time the
 * measurement of a whole curve may take by default. */
enum { WU_COST_REPS = 5 };
#define WU_COST_BUDGET_S 1.0

/* Measures what a step of 1, 2, 4, 8, 16, 24, 32, 48 and 64 rows (those
 * the session's context holds) takes on s, at KV depth 0: the median of
 * WU_COST_REPS steps each, after an untimed one, in ms. Row counts are
 * measured in that order until budget_s seconds have passed; the rest go
 * unlisted (stepcost.h: no draft is sized past the largest listed), so a
 * slow machine spends about budget_s and drafts short. Leaves s empty
 * (length 0). out's source names the device and the date. -1 with err. */
int wu_step_costs(eng_session *s, double budget_s, stepcost_table *out, sb_err *err);

/* ---- tables (table.c) --------------------------------------------------- */

/* Describes s (just created on m): this machine, the model, the
 * configuration the backend chose and what it measured, the canary's
 * fingerprint and the step costs (wu_step_costs, WU_COST_BUDGET_S; both
 * run s, which is left empty). -1 with err; free with wu_table_free. */
int wu_table_make(eng_session *s, eng_model *m, wu_table *t, sb_err *err);
void wu_table_free(wu_table *t);

/* The table as JSON text (malloc'd; caller frees), NULL when out of
 * memory; and written to path atomically (via a temporary, base.h sb_out). */
char *wu_table_json(const wu_table *t);
int wu_table_save(const char *path, const wu_table *t, sb_err *err);

/* Reads a table from len bytes of untrusted JSON: every field checked
 * (type, range, length) before use; -1 with err naming the field. */
int wu_table_parse(const char *text, size_t len, wu_table *t, sb_err *err);
/* The same from a file of at most WU_MAX_FILE bytes; sha256 (may be NULL)
 * receives the file's SHA-256, which session logs record. */
int wu_table_load(const char *path, wu_table *t, char sha256[65], sb_err *err);

/* ---- checking and importing (check.c) ----------------------------------- */

enum { WU_MAX_WARNINGS = 4 };

/* What an import found. */
typedef struct wu_import {
    char table_sha256[65];    /* of the table file */
    int n_choices;            /* the configuration taken */
    int measurements;         /* timings the backend ran anyway (0 expected) */
    char fingerprint[65];     /* this machine's, equal to the table's */
    int n_warnings;           /* accepted differences: another GPU, driver,
                                 engine version, backend */
    char warnings[WU_MAX_WARNINGS][256];
    stepcost_table costs;     /* the table's step costs, taken only when
                                 the table was made on this backend and
                                 device (else, or when it has none: none
                                 listed, stepcost_table_valid false) */
} wu_import;

/* The import: loads the table at path, refuses it when it is for another
 * model, creates a session on m with opt and the table's configuration
 * (no measurement), runs the canary and checks the bits: the model and
 * the bits must be the table's (err names the first step whose logits
 * differ, with the machine facts that differ as likely causes); another
 * device, driver or engine version goes to imp's warnings.
 * Returns the session (destroy with eng_session_destroy) and fills imp;
 * NULL with err naming what is wrong or differs. */
eng_session *wu_session_import(eng_model *m, const eng_options *opt,
                               const char *path, wu_import *imp, sb_err *err);

#endif /* SB_WARMUP_H */
