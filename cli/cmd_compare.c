/*
 * sb compare: two sets of logit rows side by side — dumps of sb logits (this
 * engine on two devices, or another implementation's logits written in the
 * same layout), or the committed transformers reference (SBREF002, written
 * by tools/reference_logits.py).
 *
 * Rows are matched by position, and only while both sides have seen the
 * same tokens: after two greedy paths part, their rows answer different
 * questions. A top-1 difference is judged by its top-2 margins: a near-tie
 * flips on rounding noise alone (benign), a clear margin does not (a bug).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sb compare reads float32 little-endian: a big-endian host needs a byte swap"
#endif

static const char cli__cmp_help[] =
    "usage: sb compare A B [--ref-prompt K] [--max-abs X] [--max-rel X]\n"
    "                  [--max-scaled X] [--tie X]\n"
    "A and B are each a PREFIX.json written by sb logits or an SBREF002\n"
    "reference (tools/reference_logits.py: transformers' logits at every\n"
    "position of a few prompts, e.g. tests/data/ref_tiny_f32.exact.bin);\n"
    "  --ref-prompt K   the prompt of a reference to use (0-based)\n"
    "To check this engine against a reference prompt: write its ids as a JSON\n"
    "array, run sb logits --ids-in IDS --prompt-logits, compare with the\n"
    "reference as B. B is the baseline: relative measures divide by B.\n"
    "Rows are matched by position while both sides have seen the same tokens.\n"
    "Per row:\n"
    "  max_abs   largest |A - B| over the vocabulary\n"
    "  rel_l2    ||A - B|| / ||B||\n"
    "  scaled    max_abs / largest |B| (the measure tests/engine/test_reference.c\n"
    "            bounds)\n"
    "  top1      each side's largest logit (lowest id on a tie)\n"
    "Where top-1 differs, each side's top-2 margin (its top-1 minus its\n"
    "runner-up) is divided by its largest |logit|: below --tie X in both\n"
    "(default 0.01) the divergence is a near-tie, benign; otherwise a BUG.\n"
    "  --max-abs X, --max-rel X, --max-scaled X\n"
    "                   fail when any row's max_abs, rel_l2 or scaled exceeds X\n"
    "The last line on stdout: sb compare: rows= top1_agree= max_abs=\n"
    "max_rel_l2= max_scaled= median_scaled= divergences= verdict=ok|benign|\n"
    "exceeded|BUG. Exit 0 for ok and benign; 1 for exceeded, BUG (a clear-\n"
    "margin divergence or a non-finite logit) and errors, such as files of\n"
    "different n_vocab; 2 for bad usage.\n";

typedef struct cmp_opts {
    const char *path[2];
    long ref_prompt;            /* -1: none given */
    float max_abs, max_rel, max_scaled; /* -1: no limit */
    float tie;
} cmp_opts;

/* One side: rows of logits and the tokens they have seen. */
typedef struct cmp_src {
    const char *path;
    char *data_path;   /* the file holding the rows (malloc'd) */
    bool reference;    /* SBREF002: teacher-forced, every position */
    int32_t n_vocab;
    int32_t *seq;      /* row r has seen seq[0..first + r] */
    int64_t n_seq;
    int64_t first;     /* position of row 0; rows = n_seq - first */
    char sha[65];      /* the model file's (dump) or its weights' (reference) */
    char device[8];
    FILE *f;
    int64_t data_off;  /* byte offset of row 0 in f */
} cmp_src;

/* One matched row. */
typedef struct cmp_row {
    bool finite;
    double max_abs, rel_l2, scaled;
    int32_t top1[2];
    double margin[2]; /* top-1 minus runner-up, over the side's largest |logit| */
} cmp_row;

/* ==== options ============================================================= */

static int cli__cmp_limit(const char *name, const char *s, float *out) {
    if (cli_parse_float(s, 0.0, 1e30, out))
        return cli_usage("compare", "%s '%s': expected a number >= 0", name, s);
    return CLI_OK;
}

static int cli__cmp_parse(int argc, char **argv, cmp_opts *o) {
    static const struct option longs[] = {
        {"ref-prompt", 1, 0, 'r'}, {"max-abs", 1, 0, 'a'}, {"max-rel", 1, 0, 'l'},
        {"max-scaled", 1, 0, 's'}, {"tie", 1, 0, 't'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    *o = (cmp_opts){.ref_prompt = -1, .max_abs = -1, .max_rel = -1,
                    .max_scaled = -1, .tie = 0.01f};
    int c, rc = CLI_OK;
    optind = 1;
    while (!rc && (c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (cli_parse_int(optarg, 0, 1 << 16, &o->ref_prompt))
                rc = cli_usage("compare", "--ref-prompt '%s': expected 0..65536", optarg);
            break;
        case 'a': rc = cli__cmp_limit("--max-abs", optarg, &o->max_abs); break;
        case 'l': rc = cli__cmp_limit("--max-rel", optarg, &o->max_rel); break;
        case 's': rc = cli__cmp_limit("--max-scaled", optarg, &o->max_scaled); break;
        case 't': rc = cli__cmp_limit("--tie", optarg, &o->tie); break;
        case 'h': fputs(cli__cmp_help, stdout); return -1;
        default: return cli_bad_option("compare");
        }
    }
    if (rc) return rc;
    if (argc - optind != 2) return cli_usage("compare", "expected two files, A and B");
    o->path[0] = argv[optind];
    o->path[1] = argv[optind + 1];
    return CLI_OK;
}

/* ==== a reference file (SBREF002) ========================================= */

static int cli__cmp_get(cmp_src *s, void *p, size_t n) {
    if (fread(p, 1, n, s->f) == n) return CLI_OK;
    return cli_fail("compare", "%s: truncated reference file", s->path);
}

/* Finds prompt k of the reference: its ids and the offset of its rows.
 * Every count and size is checked against the file before it is used. */
static int cli__cmp_ref_open(cmp_src *s, long k) {
    struct stat st;
    if (fstat(fileno(s->f), &st)) return cli_fail("compare", "%s: %m", s->path);
    char sha[64];
    uint32_t n_prompts;
    if (fseeko(s->f, 8, SEEK_SET) || cli__cmp_get(s, sha, 64) ||
        cli__cmp_get(s, &n_prompts, 4))
        return CLI_FAIL;
    memcpy(s->sha, sha, 64);
    s->sha[64] = '\0';
    if (n_prompts < 1 || n_prompts > 1u << 16)
        return cli_fail("compare", "%s: %u prompts; expected 1..65536", s->path, n_prompts);
    if (k < 0)
        return cli_usage("compare", "%s is an SBREF002 reference of %u prompts: "
                         "choose one with --ref-prompt 0..%u", s->path,
                         n_prompts, n_prompts - 1);
    if (k >= (long)n_prompts)
        return cli_fail("compare", "--ref-prompt %ld: %s has prompts 0..%u", k,
                        s->path, n_prompts - 1);
    for (long i = 0;; i++) {
        uint32_t n_tok, n_vocab;
        if (cli__cmp_get(s, &n_tok, 4)) return CLI_FAIL;
        if (n_tok < 1 || n_tok > 1u << 24)
            return cli_fail("compare", "%s: prompt %ld has %u tokens; expected "
                            "1..16777216", s->path, i, n_tok);
        if (i == k) {
            s->seq = malloc((size_t)n_tok * sizeof *s->seq);
            if (!s->seq) return cli_fail("compare", "out of memory");
            if (cli__cmp_get(s, s->seq, (size_t)n_tok * sizeof *s->seq)) return CLI_FAIL;
        } else if (fseeko(s->f, (off_t)n_tok * 4, SEEK_CUR)) {
            return cli_fail("compare", "%s: %m", s->path);
        }
        if (cli__cmp_get(s, &n_vocab, 4)) return CLI_FAIL;
        if (n_vocab < 1 || n_vocab > 1u << 24)
            return cli_fail("compare", "%s: prompt %ld has n_vocab %u; expected "
                            "1..16777216", s->path, i, n_vocab);
        uint64_t bytes = (uint64_t)n_tok * n_vocab * 4, end;
        int64_t here = ftello(s->f);
        if (here < 0 || !sb_add_u64((uint64_t)here, bytes, &end) ||
            end > (uint64_t)st.st_size)
            return cli_fail("compare", "%s: prompt %ld's logits run past the "
                            "end of the file", s->path, i);
        if (i == k) {
            s->n_vocab = (int32_t)n_vocab;
            s->n_seq = n_tok;
            s->data_off = here;
            break;
        }
        if (fseeko(s->f, (off_t)end, SEEK_SET)) return cli_fail("compare", "%s: %m", s->path);
    }
    for (int64_t i = 0; i < s->n_seq; i++)
        if (s->seq[i] < 0 || s->seq[i] >= s->n_vocab)
            return cli_fail("compare", "%s: prompt %ld's token %lld is id %d, "
                            "outside 0..%d", s->path, k, (long long)i,
                            (int)s->seq[i], (int)s->n_vocab - 1);
    s->reference = true;
    s->first = 0;
    snprintf(s->device, sizeof s->device, "-");
    return CLI_OK;
}

/* ==== a dump of sb logits (PREFIX.json + PREFIX.bin) ====================== */

static int cli__cmp_int(const cmp_src *s, const json_t *j, const char *key,
                        json_int_t lo, json_int_t hi, int64_t *out) {
    const json_t *v = json_object_get(j, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return cli_fail("compare", "%s: \"%s\" must be an integer in %lld..%lld",
                        s->path, key, (long long)lo, (long long)hi);
    *out = json_integer_value(v);
    return CLI_OK;
}

static int cli__cmp_ids(const cmp_src *s, const json_t *j, const char *key,
                        int32_t **ids, int32_t *n) {
    char what[300];
    snprintf(what, sizeof what, "%s: \"%s\"", s->path, key);
    return cli_ids_from_json("compare", what, json_object_get(j, key), s->n_vocab,
                             ids, n);
}

/* The .bin beside the .json: logits_file must be a plain file name. */
static int cli__cmp_data_path(cmp_src *s, const json_t *j) {
    const char *name = json_string_value(json_object_get(j, "logits_file"));
    if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return cli_fail("compare", "%s: \"logits_file\" must name a file beside it",
                        s->path);
    const char *slash = strrchr(s->path, '/');
    size_t dir = slash ? (size_t)(slash - s->path) + 1 : 0;
    s->data_path = malloc(dir + strlen(name) + 1);
    if (!s->data_path) return cli_fail("compare", "out of memory");
    memcpy(s->data_path, s->path, dir);
    strcpy(s->data_path + dir, name);
    return CLI_OK;
}

/* Reads the description (untrusted: every field checked) and opens the rows. */
static int cli__cmp_dump_read(cmp_src *s, const json_t *j) {
    const char *format = json_string_value(json_object_get(j, "format"));
    if (!format || strcmp(format, "sb-logits-1"))
        return cli_fail("compare", "%s: neither an sb logits description "
                        "(\"format\": \"sb-logits-1\") nor an SBREF002 reference",
                        s->path);
    int64_t n_vocab, steps, first, rows;
    int32_t *prompt = NULL, *greedy = NULL, n_prompt = 0, n_greedy = 0;
    if (cli__cmp_int(s, j, "n_vocab", 1, 1 << 24, &n_vocab)) return CLI_FAIL;
    s->n_vocab = (int32_t)n_vocab;
    int rc = CLI_FAIL;
    if (cli__cmp_int(s, j, "steps", 0, 1 << 24, &steps) ||
        cli__cmp_int(s, j, "first_position", 0, INT32_MAX, &first) ||
        cli__cmp_int(s, j, "rows", 1, INT32_MAX, &rows) ||
        cli__cmp_ids(s, j, "prompt_ids", &prompt, &n_prompt) ||
        cli__cmp_ids(s, j, "greedy_ids", &greedy, &n_greedy) || cli__cmp_data_path(s, j))
        goto done;
    if (n_prompt < 1 || n_greedy != steps || (first != 0 && first != n_prompt - 1) ||
        rows != n_prompt + steps - first) {
        cli_fail("compare", "%s: %d prompt ids, %d greedy ids, steps %lld, "
                 "first_position %lld and rows %lld do not fit together", s->path,
                 (int)n_prompt, (int)n_greedy, (long long)steps, (long long)first,
                 (long long)rows);
        goto done;
    }
    s->n_seq = (int64_t)n_prompt + n_greedy;
    s->seq = malloc((size_t)s->n_seq * sizeof *s->seq);
    if (!s->seq) {
        cli_fail("compare", "out of memory");
        goto done;
    }
    memcpy(s->seq, prompt, (size_t)n_prompt * sizeof *s->seq);
    memcpy(s->seq + n_prompt, greedy, (size_t)n_greedy * sizeof *s->seq);
    s->first = first;
    const char *sha = json_string_value(json_object_get(j, "model_sha256"));
    const char *dev = json_string_value(json_object_get(j, "device"));
    snprintf(s->sha, sizeof s->sha, "%s", sha ? sha : "?");
    snprintf(s->device, sizeof s->device, "%s", dev ? dev : "?");
    rc = CLI_OK;
done:
    free(prompt);
    free(greedy);
    return rc;
}

/* Opens the rows file and checks it holds exactly the rows described. */
static int cli__cmp_dump_rows(cmp_src *s) {
    sb_err err = {0};
    s->f = sb_fopen_read(s->data_path, "rows file", &err);
    struct stat st;
    if (!s->f) return cli_fail("compare", "%s (the rows of %s)", err.msg, s->path);
    if (fstat(fileno(s->f), &st))
        return cli_fail("compare", "cannot open '%s' (the rows of %s): %m",
                        s->data_path, s->path);
    uint64_t want = (uint64_t)(s->n_seq - s->first) * (uint64_t)s->n_vocab * 4;
    if ((uint64_t)st.st_size != want)
        return cli_fail("compare", "%s holds %lld bytes; %s describes %lld rows "
                        "of %d float32, %llu bytes", s->data_path,
                        (long long)st.st_size, s->path,
                        (long long)(s->n_seq - s->first), (int)s->n_vocab,
                        (unsigned long long)want);
    s->data_off = 0;
    return CLI_OK;
}

static int cli__cmp_open(cmp_src *s, const char *path, long ref_prompt) {
    s->path = path;
    sb_err err = {0};
    s->f = sb_fopen_read(path, "input", &err);
    if (!s->f) return cli_fail("compare", "%s", err.msg);
    char magic[8];
    if (fread(magic, 1, 8, s->f) == 8 && !memcmp(magic, "SBREF002", 8)) {
        s->data_path = cli_path_with(path, "");
        if (!s->data_path) return cli_fail("compare", "out of memory");
        return cli__cmp_ref_open(s, ref_prompt);
    }
    rewind(s->f);
    json_error_t jerr;
    json_t *j = json_loadf(s->f, JSON_REJECT_DUPLICATES, &jerr);
    fclose(s->f);
    s->f = NULL;
    if (!j)
        return cli_fail("compare", "%s: neither an SBREF002 reference nor JSON: "
                        "%s (line %d)", path, jerr.text, jerr.line);
    int rc = cli__cmp_dump_read(s, j);
    json_decref(j);
    return rc ? rc : cli__cmp_dump_rows(s);
}

static void cli__cmp_close(cmp_src *s) {
    if (s->f) fclose(s->f);
    free(s->seq);
    free(s->data_path);
}

static int cli__cmp_row_read(const cmp_src *s, int64_t pos, float *out) {
    size_t n = (size_t)s->n_vocab;
    off_t off = (off_t)(s->data_off + (pos - s->first) * (int64_t)n * 4);
    if (fseeko(s->f, off, SEEK_SET) || fread(out, sizeof *out, n, s->f) != n)
        return cli_fail("compare", "%s: cannot read the row of position %lld",
                        s->data_path, (long long)pos);
    return CLI_OK;
}

/* ==== per row ============================================================== */

/* Top-1 (lowest id on a tie, as greedy sampling picks), its margin over the
 * runner-up relative to the largest |logit|. v is finite. */
static void cli__cmp_top(const float *v, int32_t n, int32_t *top1, double *margin) {
    int32_t best = 0;
    double scale = fabs(v[0]);
    for (int32_t i = 1; i < n; i++) {
        if (v[i] > v[best]) best = i;
        scale = fmax(scale, fabs(v[i]));
    }
    double second = -INFINITY;
    for (int32_t i = 0; i < n; i++)
        if (i != best) second = fmax(second, v[i]);
    *top1 = best;
    *margin = n < 2 ? INFINITY : ((double)v[best] - second) / (scale > 0 ? scale : 1.0);
}

static bool cli__cmp_finite(const float *v, int32_t n) {
    for (int32_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static cmp_row cli__cmp_row(const float *a, const float *b, int32_t n) {
    cmp_row r = {.finite = cli__cmp_finite(a, n) && cli__cmp_finite(b, n)};
    if (!r.finite) {
        r.max_abs = r.rel_l2 = r.scaled = NAN;
        r.top1[0] = r.top1[1] = -1;
        return r;
    }
    double d2 = 0, b2 = 0, bmax = 0;
    for (int32_t i = 0; i < n; i++) {
        double d = (double)a[i] - (double)b[i];
        r.max_abs = fmax(r.max_abs, fabs(d));
        d2 += d * d;
        b2 += (double)b[i] * b[i];
        bmax = fmax(bmax, fabs(b[i]));
    }
    r.rel_l2 = b2 > 0 ? sqrt(d2 / b2) : (d2 > 0 ? INFINITY : 0);
    r.scaled = bmax > 0 ? r.max_abs / bmax : (r.max_abs > 0 ? INFINITY : 0);
    cli__cmp_top(a, n, &r.top1[0], &r.margin[0]);
    cli__cmp_top(b, n, &r.top1[1], &r.margin[1]);
    return r;
}

/* ==== the comparison ======================================================= */

typedef struct cmp_sum {
    int64_t rows, agree, divergences, bugs, non_finite;
    double max_abs, max_rel, max_scaled; /* worst over finite rows */
    int64_t at_abs, at_rel, at_scaled;    /* their positions */
    double *scaled;                       /* per finite row, for the median */
} cmp_sum;

static void cli__cmp_describe(const char *side, const cmp_src *s) {
    if (s->reference)
        printf("%s: %s, reference (teacher-forced), weights sha256 %.16s, rows "
               "for positions 0..%lld\n", side, s->path, s->sha,
               (long long)s->n_seq - 1);
    else
        printf("%s: %s, sb logits on %s, model sha256 %.16s, rows for positions "
               "%lld..%lld\n", side, s->path, s->device, s->sha,
               (long long)s->first, (long long)s->n_seq - 1);
}

static void cli__cmp_account(cmp_sum *sum, const cmp_row *r, int64_t pos,
                             const cmp_opts *o) {
    sum->rows++;
    if (!r->finite) {
        sum->non_finite++;
        sum->bugs++;
        printf("%8lld  non-finite logits: BUG\n", (long long)pos);
        return;
    }
    sum->scaled[sum->rows - 1 - sum->non_finite] = r->scaled;
    if (r->max_abs > sum->max_abs) {
        sum->max_abs = r->max_abs;
        sum->at_abs = pos;
    }
    if (r->rel_l2 > sum->max_rel) {
        sum->max_rel = r->rel_l2;
        sum->at_rel = pos;
    }
    if (r->scaled > sum->max_scaled) {
        sum->max_scaled = r->scaled;
        sum->at_scaled = pos;
    }
    printf("%8lld  %10.3e  %10.3e  %10.3e  %7d  %7d\n", (long long)pos,
           r->max_abs, r->rel_l2, r->scaled, (int)r->top1[0], (int)r->top1[1]);
    if (r->top1[0] == r->top1[1]) {
        sum->agree++;
        return;
    }
    bool tie = r->margin[0] < o->tie && r->margin[1] < o->tie;
    sum->divergences++;
    sum->bugs += !tie;
    printf("          top-1 differs: top-2 margins %.3e (A) and %.3e (B) of "
           "the logit scale: %s\n", r->margin[0], r->margin[1],
           tie ? "benign, a near-tie" : "BUG, a clear margin");
}

static int cli__cmp_order(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Prints the exceeded limit and returns 1, or 0 when within it. */
static int cli__cmp_over(const char *name, float limit, double worst, int64_t at) {
    if (limit < 0 || worst <= limit) return 0;
    printf("%s %.3e at position %lld exceeds %s %g\n", name + 2, worst,
           (long long)at, name, limit);
    return 1;
}

static int cli__cmp_run(const cmp_opts *o, cmp_src *a, cmp_src *b) {
    if (a->n_vocab != b->n_vocab)
        return cli_fail("compare", "A has n_vocab %d but B has %d: logits over "
                        "different vocabularies cannot be compared",
                        (int)a->n_vocab, (int)b->n_vocab);
    cli__cmp_describe("A", a);
    cli__cmp_describe("B", b);
    if (!a->reference && !b->reference && strcmp(a->sha, b->sha))
        printf("note: A and B come from different model files\n");
    int64_t same = 0, end = a->n_seq < b->n_seq ? a->n_seq : b->n_seq;
    while (same < end && a->seq[same] == b->seq[same]) same++;
    int64_t lo = a->first > b->first ? a->first : b->first;
    if (same <= lo)
        return cli_fail("compare", "no row to compare: A has rows for positions "
                        "%lld.., B for %lld.., and their tokens differ from "
                        "position %lld", (long long)a->first, (long long)b->first,
                        (long long)same);
    size_t n = (size_t)a->n_vocab;
    float *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
    cmp_sum sum = {.scaled = malloc((size_t)(same - lo) * sizeof *sum.scaled)};
    int rc = CLI_FAIL;
    if (!ra || !rb || !sum.scaled) {
        cli_fail("compare", "out of memory");
        goto done;
    }
    printf("position     max_abs      rel_l2      scaled   top1_A   top1_B\n");
    for (int64_t pos = lo; pos < same; pos++) {
        if (cli__cmp_row_read(a, pos, ra) || cli__cmp_row_read(b, pos, rb)) goto done;
        cmp_row r = cli__cmp_row(ra, rb, a->n_vocab);
        cli__cmp_account(&sum, &r, pos, o);
    }
    if (same < end)
        printf("the tokens differ at position %lld (A %d, B %d): later rows "
               "are not compared\n", (long long)same, (int)a->seq[same],
               (int)b->seq[same]);
    int over = cli__cmp_over("--max-abs", o->max_abs, sum.max_abs, sum.at_abs) +
               cli__cmp_over("--max-rel", o->max_rel, sum.max_rel, sum.at_rel) +
               cli__cmp_over("--max-scaled", o->max_scaled, sum.max_scaled, sum.at_scaled);
    int64_t n_fin = sum.rows - sum.non_finite;
    qsort(sum.scaled, (size_t)n_fin, sizeof *sum.scaled, cli__cmp_order);
    double median = n_fin > 0 ? sum.scaled[n_fin / 2] : NAN;
    const char *verdict = sum.bugs ? "BUG" : over ? "exceeded"
                          : sum.divergences ? "benign" : "ok";
    printf("sb compare: rows=%lld top1_agree=%lld max_abs=%.6g max_rel_l2=%.6g "
           "max_scaled=%.6g median_scaled=%.6g divergences=%lld verdict=%s\n",
           (long long)sum.rows, (long long)sum.agree, sum.max_abs, sum.max_rel,
           sum.max_scaled, median, (long long)sum.divergences, verdict);
    rc = sum.bugs || over ? CLI_FAIL : CLI_OK;
done:
    free(sum.scaled);
    free(ra);
    free(rb);
    return rc;
}

int cli_compare(int argc, char **argv) {
    cmp_opts o;
    int rc = cli__cmp_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    cmp_src s[2] = {{0}, {0}};
    rc = cli__cmp_open(&s[0], o.path[0], o.ref_prompt);
    if (!rc) rc = cli__cmp_open(&s[1], o.path[1], o.ref_prompt);
    if (!rc && o.ref_prompt >= 0 && !s[0].reference && !s[1].reference)
        rc = cli_usage("compare", "--ref-prompt given, but neither file is an "
                       "SBREF002 reference");
    if (!rc) rc = cli__cmp_run(&o, &s[0], &s[1]);
    cli__cmp_close(&s[0]);
    cli__cmp_close(&s[1]);
    return rc;
}
