/*
 * utf8_stream.c — release token bytes as whole UTF-8 characters.
 *
 * A byte-level BPE token can end in the middle of a character. An editor
 * that receives half a character shows garbage or rejects the message, so
 * incomplete sequences wait here until their last byte arrives. Bytes that
 * can never complete (a stray continuation byte, a lead byte followed by a
 * non-continuation) are released as they are: the text is the model's, and
 * we never drop or invent bytes.
 */
#include "engine.h"

/* Length a lead byte announces: 1 for ASCII, 2..4 for multi-byte leads, 0 for
 * a byte that cannot start a character. */
static int eng__utf8_len(unsigned char c) {
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return 2;
    if (c >= 0xE0 && c <= 0xEF) return 3;
    if (c >= 0xF0 && c <= 0xF4) return 4;
    return 0;
}

static int eng__is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

/* Feeds one byte; appends what became final to out, returns bytes added. */
static int64_t eng__push_byte(eng_utf8_stream *st, unsigned char c, char *out) {
    int64_t n = 0;
    if (st->n_pending > 0) {
        if (eng__is_cont(c)) {
            st->pending[st->n_pending++] = c;
            if (st->n_pending == eng__utf8_len(st->pending[0])) {
                for (int i = 0; i < st->n_pending; i++) out[n++] = (char)st->pending[i];
                st->n_pending = 0;
            }
            return n;
        }
        /* The pending sequence can never complete: release it unchanged. */
        for (int i = 0; i < st->n_pending; i++) out[n++] = (char)st->pending[i];
        st->n_pending = 0;
    }
    int len = eng__utf8_len(c);
    if (len <= 1) {
        out[n++] = (char)c;
    } else {
        st->pending[0] = c;
        st->n_pending = 1;
    }
    return n;
}

int64_t eng_utf8_stream_push(eng_utf8_stream *st, const char *bytes,
                             int64_t len, char *out) {
    int64_t n = 0;
    for (int64_t i = 0; i < len; i++)
        n += eng__push_byte(st, (unsigned char)bytes[i], out + n);
    return n;
}

int64_t eng_utf8_stream_flush(eng_utf8_stream *st, char *out) {
    int64_t n = 0;
    for (int i = 0; i < st->n_pending; i++) out[n++] = (char)st->pending[i];
    st->n_pending = 0;
    return n;
}
