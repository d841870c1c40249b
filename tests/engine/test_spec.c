/* Tests of engine/spec.c on the tiny synthetic models: speculative decoding
 * gives plain decoding's tokens, stop reason, callback calls and KV state,
 * bit for bit, whatever the drafter proposes; and stops inside a verified
 * draft cut exactly where plain decoding stops. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../drafter/drafter.h"
#include "../../engine/engine.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../support/tiny_model.h"

/* Short: with the byte vocabulary every byte is a prefill row. */
static const char *PROMPTS[] = {
    "int parse(s) {",
    "def f(n):\n",
    "The fox",
    "x",
};
enum { N_PROMPTS = sizeof PROMPTS / sizeof *PROMPTS, MAX_GEN = 256 };

/* ==== helpers ============================================================== */

static eng_session *session(const eng_model *m, int32_t n_ctx) {
    sb_err err = {0};
    eng_session *s = eng_session_create(
        m, &(eng_options){.n_threads = 1, .n_ctx = n_ctx}, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    return s;
}

static int32_t tokenize(const eng_model *m, const char *text, int32_t *ids,
                        int64_t cap) {
    int64_t n = eng_tokenize(m, text, (int64_t)strlen(text), ids, cap);
    assert_true(n > 0 && n <= cap);
    return (int32_t)n;
}

static void gen(eng_session *s, const int32_t *ids, int32_t n,
                const eng_gen_params *p, eng_token_fn fn, void *ctx,
                eng_gen_result *r) {
    sb_err err = {0};
    if (eng_generate(s, ids, n, p, fn, ctx, r, &err))
        fail_msg("eng_generate: %s", err.msg);
}

/* The tiny model (seed 1) with an LM head of its own. The tied tiny model
 * mostly repeats its last token (its logits are dot products with the input
 * embeddings, largest for the token itself), which leaves the verify loop
 * few real mismatches; untied, its output varies like a real model's and
 * still falls into loops now and then. eos: the EOS id to write, or -1 for
 * the vocabulary's own. The caller frees the model. */
static eng_model *untied_model(mk_recipe recipe, int32_t eos) {
    static int serial;
    mk_job job;
    sb_err err = {0};
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = recipe, .seed = 1,
                          .n_threads = 2};
    if (mk_job_init(&job, &o, &err)) fail_msg("job: %s", err.msg);
    job.shape.tied = false;
    mk_plan_free(&job.plan);
    if (mk_plan_make(&job.shape, recipe, &job.plan, &err))
        fail_msg("plan: %s", err.msg);
    if (eos >= 0) job.vocab.eos = eos;
    char path[96];
    snprintf(path, sizeof path, "/tmp/sb-test-spec-%d-%d.gguf", (int)getpid(),
             serial++);
    return test_job_write_and_load(&job, path, NULL);
}

/* The spec run b equals the plain run a: tokens, stop, hash; and both
 * sessions hold the same state: the documented length, and the same logits
 * (bit for bit) when the last token is stepped next. */
static void assert_same(const eng_gen_result *a, eng_session *sa,
                        const eng_gen_result *b, eng_session *sb,
                        int32_t n_prompt) {
    assert_int_equal(a->n_tokens, b->n_tokens);
    assert_memory_equal(a->tokens, b->tokens, (size_t)a->n_tokens * sizeof(int32_t));
    assert_int_equal(a->stop, b->stop);
    assert_string_equal(a->sha256, b->sha256);
    int32_t want = n_prompt + (a->n_tokens > 0 ? a->n_tokens - 1 : 0);
    assert_int_equal(eng_session_length(sa), want);
    assert_int_equal(eng_session_length(sb), want);
    if (a->n_tokens == 0 || want == eng_session_capacity(sa)) return;
    size_t nv = (size_t)eng_n_vocab(eng_session_model(sa));
    float *la = malloc(nv * sizeof(float)), *lb = malloc(nv * sizeof(float));
    assert_true(la && lb);
    sb_err err = {0};
    int32_t last = a->tokens[a->n_tokens - 1];
    assert_int_equal(eng_session_step(sa, &last, 1, la, &err), 0);
    assert_int_equal(eng_session_step(sb, &last, 1, lb, &err), 0);
    assert_memory_equal(la, lb, nv * sizeof(float));
    free(la);
    free(lb);
}

/* ==== scripted drafters ===================================================== */

/* What a scripted drafter does with the reference (plain) output. */
typedef enum script_mode {
    SCRIPT_ORACLE,    /* exactly the reference's next tokens */
    SCRIPT_WRONG,     /* every guess wrong */
    SCRIPT_PARTLY,    /* right for a pseudo-random count, then wrong */
    SCRIPT_GARBAGE,   /* right, then ids outside the vocabulary */
    SCRIPT_LIAR,      /* right guesses, but a count out of range */
    SCRIPT_EMPTY,     /* never guesses */
} script_mode;

typedef struct script {
    script_mode mode;
    const int32_t *ref; /* the reference output; guesses stop at its end */
    int32_t n_ref;
    int32_t n_vocab;
    int32_t begins, proposals;
    int32_t seen[MAX_GEN + 1]; /* what accept reported, concatenated */
    int32_t n_seen;
    bool out_ok;               /* out always equaled the reference prefix */
} script;

static void script_begin(void *ctx, const int32_t *prompt, int32_t n_prompt) {
    script *sc = ctx;
    assert_non_null(prompt);
    assert_true(n_prompt > 0);
    sc->begins++;
    sc->n_seen = 0;
}

static int32_t script_propose(void *ctx, const int32_t *out, int32_t n_out,
                              int32_t max_draft, int32_t *draft) {
    script *sc = ctx;
    sc->proposals++;
    assert_true(max_draft >= 1 && max_draft <= ENG_MAX_DRAFT);
    assert_int_equal(n_out, sc->n_seen);
    if (n_out > sc->n_ref || memcmp(out, sc->ref, (size_t)n_out * sizeof *out))
        sc->out_ok = false;
    int32_t d = sc->n_ref - n_out < max_draft ? sc->n_ref - n_out : max_draft;
    if (d < 0) d = 0;
    for (int32_t i = 0; i < d; i++) draft[i] = sc->ref[n_out + i];
    uint64_t h = sb_hash3(7, (uint64_t)n_out, (uint64_t)max_draft);
    switch (sc->mode) {
    case SCRIPT_ORACLE: return d;
    case SCRIPT_EMPTY: return 0;
    case SCRIPT_WRONG:
        for (int32_t i = 0; i < d; i++) draft[i] = (draft[i] + 1) % sc->n_vocab;
        return d;
    case SCRIPT_PARTLY:
        if (d > 0) {
            int32_t k = (int32_t)(h % (uint64_t)d);
            draft[k] = (draft[k] + 1 + (int32_t)(h >> 32) % 5) % sc->n_vocab;
        }
        return d;
    case SCRIPT_GARBAGE:
        if (d > 0) draft[h % (uint64_t)d] = (h & 1) ? -3 : sc->n_vocab + 5;
        return d;
    case SCRIPT_LIAR: return (h & 1) ? -1 : max_draft + 1000;
    }
    return 0;
}

static void script_accept(void *ctx, const int32_t *tokens, int32_t n) {
    script *sc = ctx;
    assert_true(n >= 1);
    assert_true(sc->n_seen + n <= MAX_GEN);
    memcpy(sc->seen + sc->n_seen, tokens, (size_t)n * sizeof *tokens);
    sc->n_seen += n;
}

static eng_drafter script_drafter(script *sc, script_mode mode,
                                  const eng_gen_result *ref, int32_t n_vocab) {
    *sc = (script){.mode = mode, .ref = ref->tokens, .n_ref = ref->n_tokens,
                   .n_vocab = n_vocab, .out_ok = true};
    return (eng_drafter){.ctx = sc, .begin = script_begin,
                         .propose = script_propose, .accept = script_accept};
}

/* After a spec run: the drafter saw the right prefixes and accept reported
 * exactly the result's tokens. */
static void assert_script_consistent(const script *sc, const eng_gen_result *r) {
    assert_int_equal(sc->begins, 1);
    assert_true(sc->out_ok);
    assert_int_equal(sc->n_seen, r->n_tokens);
    assert_memory_equal(sc->seen, r->tokens, (size_t)r->n_tokens * sizeof(int32_t));
}

static void assert_stats_consistent(const eng_gen_result *r) {
    int64_t steps = 0, acc = 0;
    for (int k = 0; k <= ENG_MAX_DRAFT; k++) {
        steps += r->accept_hist[k];
        acc += (int64_t)k * r->accept_hist[k];
    }
    assert_int_equal(steps, r->n_tokens > 0 ? r->steps - 1 : 0);
    assert_int_equal(acc, r->accepted);
    assert_true(r->accepted <= r->drafted);
    /* Each step commits its accepted guesses and one sample, unless a stop
     * fell on an accepted guess (then that guess was the step's sample). */
    assert_true(r->n_tokens == r->steps + r->accepted ||
                (r->stop != ENG_STOP_LENGTH &&
                 r->n_tokens == r->steps + r->accepted - 1));
}

/* ==== exactness with scripted drafters ===================================== */

static eng_gen_params params(int32_t n_max, float temp, uint64_t seed) {
    eng_gen_params p = eng_gen_defaults();
    p.n_max = n_max;
    p.sampling = (eng_sampling){.temperature = temp, .seed = seed,
                                .top_k = temp > 0 ? 40 : 0};
    return p;
}

/* Runs spec with a scripted drafter (mode, max_draft md) against the plain
 * run a (made in sa with p), and checks it: same tokens, stop and state. */
static void check_mode(const eng_model *m, eng_session *sa, eng_session *sb,
                       const int32_t *ids, int32_t n, eng_gen_params p,
                       const eng_gen_result *a, script_mode mode, int32_t md) {
    script sc;
    eng_drafter d = script_drafter(&sc, mode, a, eng_n_vocab(m));
    eng_gen_params q = p;
    q.drafter = &d;
    q.max_draft = md;
    eng_gen_result b;
    gen(sb, ids, n, &q, NULL, NULL, &b);
    assert_same(a, sa, &b, sb, n);
    /* assert_same stepped one more token: cut sa back for the next call */
    eng_session_truncate(sa, n + a->n_tokens - 1);
    assert_script_consistent(&sc, &b);
    assert_stats_consistent(&b);
    if (mode == SCRIPT_ORACLE || mode == SCRIPT_LIAR)
        assert_int_equal(b.accepted, b.drafted);
    if (mode == SCRIPT_ORACLE && b.stop == ENG_STOP_LENGTH) {
        /* every step full, bar the last, clamped to what n_max allows */
        int32_t per = md + 1;
        assert_int_equal(b.steps, 1 + (b.n_tokens - 1 + per - 1) / per);
    }
    if (mode == SCRIPT_WRONG || mode == SCRIPT_EMPTY)
        assert_int_equal(b.accepted, 0);
    free(b.tokens);
}

/* Many prompts, greedy and seeded sampling, both quantised recipes, tied
 * and untied heads, several draft lengths: spec on gives the tokens of spec
 * off, with the oracle and with a drafter that is wrong in one of five
 * ways. */
static void test_spec_matches_plain(void **state) {
    (void)state;
    static const int32_t mds[] = {1, 4, 15, 63};
    int turn = 0;
    for (int mi = 0; mi < 4; mi++) {
        mk_recipe rc = mi % 2 ? MK_RECIPE_Q4_K_M : MK_RECIPE_Q8_0;
        eng_model *m = mi < 2 ? test_tiny_model_load(rc) : untied_model(rc, -1);
        eng_session *sa = session(m, 0), *sb = session(m, 0);
        for (int si = 0; si < 3; si++, turn++) {
            int32_t ids[256];
            int32_t n = tokenize(m, PROMPTS[(si + mi) % N_PROMPTS], ids, 256);
            eng_gen_params p = params(24, si ? 0.8f : 0.0f, (uint64_t)(si + 3 * mi));
            eng_gen_result a;
            gen(sa, ids, n, &p, NULL, NULL, &a);
            check_mode(m, sa, sb, ids, n, p, &a, SCRIPT_ORACLE, mds[turn % 4]);
            /* the wrong modes waste rows: keep their drafts short */
            script_mode wrong = (script_mode)(SCRIPT_WRONG + turn % 5);
            check_mode(m, sa, sb, ids, n, p, &a, wrong, 1 + turn % 4);
            free(a.tokens);
        }
        eng_session_destroy(sa);
        eng_session_destroy(sb);
        eng_model_free(m);
    }
}

/* Every draft length 1..63 with the oracle: a step of md + 1 rows, fully
 * accepted, for every md, giving plain decoding's tokens each time. */
static void test_every_row_bucket(void **state) {
    (void)state;
    eng_model *m = untied_model(MK_RECIPE_Q4_K_M, -1);
    eng_session *sa = session(m, 0), *sb = session(m, 0);
    int32_t ids[256];
    int32_t n = tokenize(m, PROMPTS[3], ids, 256);
    eng_gen_params p = params(ENG_MAX_DRAFT + 2, 0.7f, 5);
    p.stop_at_eos = false;
    eng_gen_result a, b;
    gen(sa, ids, n, &p, NULL, NULL, &a);
    for (int32_t md = 1; md <= ENG_MAX_DRAFT; md++) {
        /* n_max md + 2: the prefill's token, then one step of md guesses
         * and the bonus sample; plain's tokens are a prefix of a. */
        script sc;
        eng_drafter d = script_drafter(&sc, SCRIPT_ORACLE, &a, eng_n_vocab(m));
        eng_gen_params q = p;
        q.n_max = md + 2;
        q.drafter = &d;
        q.max_draft = md;
        gen(sb, ids, n, &q, NULL, NULL, &b);
        assert_int_equal(b.n_tokens, md + 2);
        assert_memory_equal(a.tokens, b.tokens, (size_t)(md + 2) * sizeof(int32_t));
        assert_int_equal(b.steps, 2);
        assert_int_equal(b.accepted, md);
        assert_int_equal(b.accept_hist[md], 1);
        assert_int_equal(eng_session_length(sb), n + md + 1);
        assert_script_consistent(&sc, &b);
        free(b.tokens);
    }
    free(a.tokens);
    eng_session_destroy(sa);
    eng_session_destroy(sb);
    eng_model_free(m);
}

/* ==== stops inside a verified draft ======================================== */

/* The long reference for the stop tests: greedy, no EOS stop, so that the
 * oracle's drafts run past every stop the tests set. */
typedef struct stop_fixture {
    eng_model *m;
    eng_session *sa, *sb;
    int32_t ids[256];
    int32_t n;
    eng_gen_params p;
    eng_gen_result ref;
} stop_fixture;

static void fixture_init(stop_fixture *f, eng_model *m, int32_t n_ctx,
                         int32_t n_ref, float temp) {
    f->m = m;
    f->sa = session(m, n_ctx);
    f->sb = session(m, n_ctx);
    f->n = tokenize(m, PROMPTS[1], f->ids, 256);
    f->p = params(n_ref, temp, 11);
    f->p.stop_at_eos = false;
    gen(f->sa, f->ids, f->n, &f->p, NULL, NULL, &f->ref);
}

static void fixture_free(stop_fixture *f) {
    free(f->ref.tokens);
    eng_session_destroy(f->sa);
    eng_session_destroy(f->sb);
}

/* Plain with p (in sa), then spec with p and the oracle drafting from the
 * long reference (in sb); checks they agree and returns the plain result
 * (the caller frees its tokens). on_token/ctx_a/ctx_b: a callback and its
 * state for each run. */
static eng_gen_result stop_check(stop_fixture *f, eng_gen_params p,
                                 int32_t md, eng_token_fn fn, void *ctx_a,
                                 void *ctx_b) {
    eng_gen_result a, b;
    gen(f->sa, f->ids, f->n, &p, fn, ctx_a, &a);
    script sc;
    eng_drafter d = script_drafter(&sc, SCRIPT_ORACLE, &f->ref, eng_n_vocab(f->m));
    p.drafter = &d;
    p.max_draft = md;
    gen(f->sb, f->ids, f->n, &p, fn, ctx_b, &b);
    assert_same(&a, f->sa, &b, f->sb, f->n);
    assert_script_consistent(&sc, &b);
    assert_stats_consistent(&b);
    free(b.tokens);
    return a;
}

/* The first index >= 12 of the reference whose token did not occur before
 * it: an EOS there stops plain decoding at that index, mid-draft for a
 * drafter that guesses 63 tokens. */
static int32_t first_new_token_index(const eng_gen_result *r) {
    for (int32_t k = 12; k < r->n_tokens; k++) {
        bool seen = false;
        for (int32_t j = 0; j < k && !seen; j++) seen = r->tokens[j] == r->tokens[k];
        if (!seen) return k;
    }
    fail_msg("the reference output has no new token after index 12");
    return -1;
}

static void test_stop_eos_inside_draft(void **state) {
    (void)state;
    eng_model *m0 = untied_model(MK_RECIPE_Q8_0, -1);
    stop_fixture f0;
    fixture_init(&f0, m0, 0, 64, 0.0f);
    int32_t k = first_new_token_index(&f0.ref);
    /* The same weights with that token as the model's EOS. */
    eng_model *m = untied_model(MK_RECIPE_Q8_0, f0.ref.tokens[k]);
    assert_int_equal(eng_model_eos(m), f0.ref.tokens[k]);
    stop_fixture f;
    fixture_init(&f, m, 0, 64, 0.0f);
    assert_memory_equal(f.ref.tokens, f0.ref.tokens, 64 * sizeof(int32_t));
    static const int32_t mds[] = {63, 4};
    for (int i = 0; i < 2; i++) {
        eng_gen_params p = f.p;
        p.stop_at_eos = true;
        eng_gen_result a = stop_check(&f, p, mds[i], NULL, NULL, NULL);
        assert_int_equal(a.stop, ENG_STOP_EOS);
        assert_int_equal(a.n_tokens, k + 1);
        free(a.tokens);
    }
    fixture_free(&f);
    fixture_free(&f0);
    eng_model_free(m);
    eng_model_free(m0);
}

static void test_stop_length_inside_draft(void **state) {
    (void)state;
    eng_model *m = untied_model(MK_RECIPE_Q4_K_M, -1);
    stop_fixture f;
    fixture_init(&f, m, 0, 70, 0.9f);
    static const int32_t n_maxes[] = {1, 2, 30, 65};
    for (int i = 0; i < 4; i++) {
        /* the drafter would guess 63 tokens; fewer remain */
        eng_gen_params p = f.p;
        p.n_max = n_maxes[i];
        eng_gen_result a = stop_check(&f, p, 63, NULL, NULL, NULL);
        assert_int_equal(a.stop, ENG_STOP_LENGTH);
        assert_int_equal(a.n_tokens, n_maxes[i]);
        free(a.tokens);
    }
    fixture_free(&f);
    eng_model_free(m);
}

typedef struct stopper {
    int32_t calls, stop_at;
    int32_t last;
} stopper;

static int stop_on_call(void *ctx, int32_t id) {
    stopper *st = ctx;
    /* nothing may arrive after the call that asked to stop */
    assert_true(st->calls < st->stop_at);
    st->last = id;
    return ++st->calls == st->stop_at;
}

static void test_stop_callback_inside_draft(void **state) {
    (void)state;
    eng_model *m = untied_model(MK_RECIPE_Q8_0, -1);
    stop_fixture f;
    fixture_init(&f, m, 0, 70, 0.0f);
    static const int32_t ats[] = {1, 17, 66};
    for (int i = 0; i < 3; i++) {
        stopper sa = {.stop_at = ats[i]}, sb = {.stop_at = ats[i]};
        eng_gen_result a = stop_check(&f, f.p, 63, stop_on_call, &sa, &sb);
        assert_int_equal(a.stop, ENG_STOP_CALLBACK);
        assert_int_equal(a.n_tokens, ats[i]);
        assert_int_equal(sb.calls, ats[i]);
        assert_int_equal(sb.last, a.tokens[ats[i] - 1]);
        free(a.tokens);
    }
    fixture_free(&f);
    eng_model_free(m);
}

/* The generated bytes of r's first n tokens; returns their length. */
static int64_t token_text(const eng_model *m, const int32_t *ids, int32_t n,
                          char *buf, int64_t cap, int32_t *end_of) {
    int64_t len = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t tl = 0;
        const char *t = eng_token_bytes(m, ids[i], &tl);
        assert_true(t && len + tl <= cap);
        memcpy(buf + len, t, (size_t)tl);
        len += tl;
        if (end_of) end_of[i] = (int32_t)len; /* bytes up to token i's end */
    }
    return len;
}

/* Stop strings cut from the reference's own text, of 1..9 bytes, at many
 * places (loops give partial matches that must fall back correctly): plain
 * stops at the token holding the end of the string's first occurrence, as
 * a naive search finds it, and spec stops at the same token. */
static void test_stop_string_inside_draft(void **state) {
    (void)state;
    eng_model *m = untied_model(MK_RECIPE_Q4_K_M, -1);
    stop_fixture f;
    fixture_init(&f, m, 0, 100, 0.6f);
    static char text[100 * 16];
    int32_t end_of[100];
    int64_t len = token_text(m, f.ref.tokens, f.ref.n_tokens, text,
                             sizeof text, end_of);
    int checked = 0;
    for (int64_t at = 5; at + 9 < len && checked < 5; at += len / 5) {
        int32_t sl = 1 + (int32_t)(at % 9);
        const char *stop = text + at;
        /* where a naive search first completes it */
        int64_t first_end = -1;
        for (int64_t i = 0; i + sl <= len && first_end < 0; i++)
            if (!memcmp(text + i, stop, (size_t)sl)) first_end = i + sl;
        int32_t want = 0;
        while (end_of[want] < first_end) want++;
        eng_gen_params p = f.p;
        p.stop = stop;
        p.stop_len = sl;
        eng_gen_result a = stop_check(&f, p, 63 - checked, NULL, NULL, NULL);
        assert_int_equal(a.stop, ENG_STOP_STRING);
        assert_int_equal(a.n_tokens, want + 1);
        free(a.tokens);
        checked++;
    }
    assert_true(checked >= 4);
    fixture_free(&f);
    eng_model_free(m);
}

static void test_stop_context_inside_draft(void **state) {
    (void)state;
    eng_model *m = untied_model(MK_RECIPE_Q8_0, -1);
    int32_t ids[256];
    int32_t n = tokenize(m, PROMPTS[1], ids, 256);
    for (int32_t room = 1; room <= 61; room += 30) {
        stop_fixture f;
        fixture_init(&f, m, n + room, 100, 0.0f);
        eng_gen_params p = f.p;
        p.n_max = 100;
        eng_gen_result a = stop_check(&f, p, 63, NULL, NULL, NULL);
        /* the ref was cut by the context too: it is what plain gives */
        assert_int_equal(a.stop, ENG_STOP_CONTEXT);
        assert_int_equal(a.n_tokens, room + 1);
        assert_int_equal(eng_session_length(f.sb), n + room);
        free(a.tokens);
        fixture_free(&f);
    }
    eng_model_free(m);
}

/* ==== the real drafters ==================================================== */

/* Spec with a drafter from drafter/ against the plain run a (made in sa
 * with p); returns the longest accepted run of a step. */
static int32_t check_drafter(eng_session *sa, eng_session *sb,
                             const int32_t *ids, int32_t n, eng_gen_params p,
                             const eng_gen_result *a, const eng_drafter *d) {
    eng_gen_result b;
    p.drafter = d;
    gen(sb, ids, n, &p, NULL, NULL, &b);
    assert_same(a, sa, &b, sb, n);
    eng_session_truncate(sa, n + a->n_tokens - 1); /* undo assert_same's step */
    assert_stats_consistent(&b);
    int32_t longest = 0;
    for (int32_t k = 0; k <= ENG_MAX_DRAFT; k++)
        if (b.accept_hist[k]) longest = k;
    free(b.tokens);
    return longest;
}

/* The copy drafter (source: the prompt, as sb generate's default; and the
 * plain output itself, as an edit whose answer is its file) and the ngram
 * baseline give plain decoding's tokens on tied and untied models, greedy
 * and seeded; and long drafts really are accepted: random models loop,
 * and the copy drafter drafts loops from the output itself. */
static void test_drafters_match_plain(void **state) {
    (void)state;
    int32_t longest = 0, long_runs = 0;
    for (int mi = 0; mi < 3; mi++) {
        mk_recipe rc = mi == 1 ? MK_RECIPE_Q4_K_M : MK_RECIPE_Q8_0;
        eng_model *m = mi == 0 ? test_tiny_model_load(rc) : untied_model(rc, -1);
        eng_session *sa = session(m, 0), *sb = session(m, 0);
        {
            /* 130 tokens: drafts that grow with the running acceptance */
            int si = mi == 2;
            int32_t ids[256];
            int32_t n = tokenize(m, PROMPTS[mi], ids, 256);
            eng_gen_params p = params(130, si ? 0.8f : 0.0f, (uint64_t)(mi + 1));
            p.stop_at_eos = false;
            eng_gen_result a;
            gen(sa, ids, n, &p, NULL, NULL, &a);
            sb_err err = {0};
            /* A step cost that is mostly fixed overhead (a step of 64 rows
             * costs twice one of 1) lets the cost rule reach 63-token
             * drafts within 130 tokens; the default H200 table wants
             * 99.7% acceptance before it pays for 64 rows. */
            stepcost_table overhead;
            stepcost_table_empty(&overhead, "overhead");
            for (int r = 1; r <= KRN_MAX_ROWS; r++) overhead.listed[r] = 64 + r;
            /* source: the prompt */
            drf_copy *c = drf_copy_create(ids, n,
                                          &(drf_copy_opts){.step_costs = &overhead},
                                          &err);
            assert_non_null(c);
            eng_drafter d = drf_copy_drafter(c);
            int32_t l = check_drafter(sa, sb, ids, n, p, &a, &d);
            drf_copy_destroy(c);
            long_runs += l >= 16;
            longest = l > longest ? l : longest;
            /* source: the plain output; min_match 1 and 2 */
            c = drf_copy_create(a.tokens, a.n_tokens,
                                &(drf_copy_opts){.min_match = 1 + si,
                                                 .step_costs = &overhead},
                                &err);
            assert_non_null(c);
            d = drf_copy_drafter(c);
            assert_true(check_drafter(sa, sb, ids, n, p, &a, &d) >= 48);
            drf_copy_destroy(c);
            /* the baseline drafts at almost every step (a 1-gram nearly
             * always matches): a short run, short drafts */
            drf_ngram *g = drf_ngram_create(ids, n, 0, &err);
            assert_non_null(g);
            d = drf_ngram_drafter(g);
            free(a.tokens);
            p.n_max = 40;
            p.max_draft = 3;
            gen(sa, ids, n, &p, NULL, NULL, &a);
            check_drafter(sa, sb, ids, n, p, &a, &d);
            drf_ngram_destroy(g);
            free(a.tokens);
        }
        eng_session_destroy(sa);
        eng_session_destroy(sb);
        eng_model_free(m);
    }
    /* from the models' own loops, not from a source that holds the answer */
    assert_true(long_runs >= 1);
    assert_true(longest >= 48);
}

/* Bad parameters are refused with a message, before any work. */
static void test_bad_params(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    eng_session *s = session(m, 0);
    int32_t ids[4] = {1, 2, 3, 4};
    eng_gen_result r;
    sb_err err = {0};
    eng_gen_params p = params(4, 0.0f, 0);
    p.max_draft = 64;
    assert_int_equal(eng_generate(s, ids, 4, &p, NULL, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "max_draft"));
    p = params(4, 0.0f, 0);
    p.stop_len = 3;
    memset(&err, 0, sizeof err);
    assert_int_equal(eng_generate(s, ids, 4, &p, NULL, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "stop string"));
    eng_drafter d = {0};
    p = params(4, 0.0f, 0);
    p.drafter = &d;
    memset(&err, 0, sizeof err);
    assert_int_equal(eng_generate(s, ids, 4, &p, NULL, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "propose"));
    eng_session_destroy(s);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_matches_plain),
        cmocka_unit_test(test_every_row_bucket),
        cmocka_unit_test(test_stop_eos_inside_draft),
        cmocka_unit_test(test_stop_length_inside_draft),
        cmocka_unit_test(test_stop_callback_inside_draft),
        cmocka_unit_test(test_stop_string_inside_draft),
        cmocka_unit_test(test_stop_context_inside_draft),
        cmocka_unit_test(test_drafters_match_plain),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
