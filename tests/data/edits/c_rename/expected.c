/* ring.c — a fixed-size ring buffer of bytes. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define RB_CAP 256

typedef struct ring {
    unsigned char data[RB_CAP];
    size_t head;  /* next byte to read */
    size_t count; /* bytes stored */
} ring;

void rb_init(ring *r) {
    memset(r, 0, sizeof *r);
}

size_t rb_space(const ring *r) {
    return RB_CAP - r->count;
}

/* Appends one byte; false when the buffer is full. */
bool ring_push(ring *r, unsigned char c) {
    if (rb_space(r) == 0) return false;
    r->data[(r->head + r->count) % RB_CAP] = c;
    r->count++;
    return true;
}

/* Removes the oldest byte into *c; false when empty. */
bool rb_pop(ring *r, unsigned char *c) {
    if (r->count == 0) return false;
    *c = r->data[r->head];
    r->head = (r->head + 1) % RB_CAP;
    r->count--;
    return true;
}

/* Appends as many of the n bytes as fit; returns how many. */
size_t ring_push_all(ring *r, const unsigned char *bytes, size_t n) {
    size_t done = 0;
    while (done < n && ring_push(r, bytes[done])) done++;
    return done;
}

/* Moves up to n bytes into out; returns how many. */
size_t rb_pop_all(ring *r, unsigned char *out, size_t n) {
    size_t done = 0;
    while (done < n && rb_pop(r, &out[done])) done++;
    return done;
}

/* Copies the stored bytes into out without removing them. */
size_t rb_peek(const ring *r, unsigned char *out, size_t n) {
    size_t k = n < r->count ? n : r->count;
    for (size_t i = 0; i < k; i++)
        out[i] = r->data[(r->head + i) % RB_CAP];
    return k;
}

/* Moves bytes from one ring to another until either runs out. */
size_t rb_transfer(ring *from, ring *to) {
    size_t moved = 0;
    unsigned char c;
    while (rb_space(to) > 0 && rb_pop(from, &c)) {
        ring_push(to, c);
        moved++;
    }
    return moved;
}
