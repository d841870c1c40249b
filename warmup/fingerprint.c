/*
 * fingerprint.c — the canary: a fixed prompt run in the row buckets a
 * generation uses, its logits hashed. Two machines with the same hashes
 * produce the same bits for that model (the logits, not only the argmax).
 */
#include <string.h>

#include "warmup.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the fingerprint hashes float32 as stored: little-endian hosts only"
#endif

/* Code, prose and digits: every kind of token an edit sees. */
static const char wu__canary_text[] =
    "// canary: the same bits everywhere\n"
    "static int clamp(int v, int lo, int hi) {\n"
    "    return v < lo ? lo : v > hi ? hi : v;\n"
    "}\n"
    "def mean(xs): return sum(xs) / max(len(xs), 1)  # 3.14159, 2.71828\n"
    "The quick brown fox jumps over the lazy dog.\n";

/* The steps' rows: a full verify step, two smaller buckets, a two-row step
 * and two plain decoding steps. */
static const int32_t wu__steps[WU_FP_STEPS] = {64, 24, 8, 2, 1, 1};

int wu_canary_ids(const eng_model *m, int32_t ids[WU_CANARY_LEN], sb_err *err) {
    enum { CAP = 3 * sizeof wu__canary_text + 1 };
    int32_t tok[CAP];
    int64_t n = eng_tokenize_ex(m, wu__canary_text, (int64_t)sizeof wu__canary_text - 1,
                                tok, CAP, 0);
    if (n < 1 || n > CAP)
        return sb_err_set(err, "wu_canary_ids", "the model cannot encode the "
                          "canary text");
    for (int i = 0; i < WU_CANARY_LEN; i++) ids[i] = tok[i % n];
    return 0;
}

int wu_fingerprint_compute(eng_session *s, wu_fingerprint *fp, sb_err *err) {
    memset(fp, 0, sizeof *fp);
    if (eng_session_capacity(s) < WU_CANARY_LEN)
        return sb_err_set(err, "wu_fingerprint", "the session holds %d "
                          "positions; the canary needs %d", (int)eng_session_capacity(s),
                          WU_CANARY_LEN);
    const eng_model *m = eng_session_model(s);
    int32_t ids[WU_CANARY_LEN];
    if (wu_canary_ids(m, ids, err)) return -1;
    const size_t n_vocab = (size_t)eng_n_vocab(m);
    float *logits = eng_session_logits(s);
    sb_sha256 *all = sb_sha256_begin();
    if (!all) return sb_err_set(err, "wu_fingerprint", "out of memory");
    eng_session_truncate(s, 0);
    int pos = 0;
    for (int k = 0; k < WU_FP_STEPS; k++) {
        const int rows = wu__steps[k];
        if (eng_session_step(s, ids + pos, rows, logits, err)) {
            sb_sha256_final(all, fp->sha256);
            memset(fp, 0, sizeof *fp);
            return -1;
        }
        const size_t bytes = (size_t)rows * n_vocab * sizeof *logits;
        sb_sha256_hex(logits, bytes, fp->step_sha256[k]);
        sb_sha256_update(all, logits, bytes);
        fp->rows[k] = rows;
        pos += rows;
    }
    sb_sha256_final(all, fp->sha256);
    eng_session_truncate(s, 0);
    return 0;
}
