/*
 * tokens.c — engine.h's tokens (eng_tokenize*, eng_special_id,
 * eng_token_bytes, eng_n_vocab): a model's vocabulary handed to tokenizer/.
 */
#include "model_internal.h"

int64_t eng_tokenize_cuts(const eng_model *m, const char *text, int64_t n,
                          int32_t *ids, int64_t cap, unsigned flags,
                          const int64_t *cuts, int n_cuts, int64_t *cut_at) {
    if (!m || (flags & ~(unsigned)ENG_TOK_SPECIAL)) return -1;
    return tok_encode(&m->vocab, text, n, ids, cap, (flags & ENG_TOK_SPECIAL) != 0,
                      cuts, n_cuts, cut_at);
}

int64_t eng_tokenize_ex(const eng_model *m, const char *text, int64_t n,
                        int32_t *ids, int64_t cap, unsigned flags) {
    return eng_tokenize_cuts(m, text, n, ids, cap, flags, NULL, 0, NULL);
}

int64_t eng_tokenize(const eng_model *m, const char *text, int64_t n,
                     int32_t *ids, int64_t cap) {
    return eng_tokenize_ex(m, text, n, ids, cap, ENG_TOK_SPECIAL);
}

int32_t eng_special_id(const eng_model *m, const char *text) {
    return m ? tok_special_id(&m->vocab, text) : -1;
}

const char *eng_token_bytes(const eng_model *m, int32_t id, int64_t *len) {
    return tok_token_bytes(&m->vocab, id, len);
}

int32_t eng_n_vocab(const eng_model *m) { return m->vocab.n; }
