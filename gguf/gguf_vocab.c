/*
 * gguf_vocab.c — how a gpt2-model GGUF stores its token strings (gguf.h).
 *
 * GPT-2's byte-to-unicode form: byte-level BPE vocabularies never store raw
 * bytes; each byte is written as one Unicode code point. The 188 printable
 * bytes 33..126, 161..172 and 174..255 stand for themselves; the other 68
 * (0..32, 127..160, 173) take the code points 256, 257, ... in byte order.
 * So every code point of a normal token string is below 324, and the string
 * is UTF-8 of 1- and 2-byte sequences only.
 */
#include "gguf.h"

static bool gguf_vocab__printable(unsigned b) {
    return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
}

uint32_t gguf_gpt2_byte_to_cp(uint8_t b) {
    if (gguf_vocab__printable(b)) return b;
    if (b <= 32) return 256u + b;          /* 33 bytes: 256..288 */
    if (b <= 160) return 289u + (b - 127); /* 34 bytes: 289..322 */
    return 323;                            /* b == 173 */
}

int gguf_gpt2_cp_to_byte(uint32_t cp) {
    if (cp < 256) return gguf_vocab__printable(cp) ? (int)cp : -1;
    if (cp <= 288) return (int)(cp - 256);
    if (cp <= 322) return (int)(cp - 289 + 127);
    if (cp == 323) return 173;
    return -1;
}

int64_t gguf_gpt2_decode(gguf_str s, char *out) {
    const unsigned char *p = (const unsigned char *)s.ptr;
    int64_t n = 0;
    for (uint64_t i = 0; i < s.len;) {
        uint32_t cp;
        if (p[i] < 0x80) {
            cp = p[i];
            i += 1;
        } else if (p[i] >= 0xC2 && p[i] <= 0xDF && i + 1 < s.len &&
                   (p[i + 1] & 0xC0) == 0x80) {
            cp = ((uint32_t)(p[i] & 0x1F) << 6) | (p[i + 1] & 0x3F);
            i += 2;
        } else {
            return -1; /* 3- and 4-byte sequences are all >= U+0800 */
        }
        int b = gguf_gpt2_cp_to_byte(cp);
        if (b < 0) return -1;
        out[n++] = (char)b;
    }
    return n;
}
