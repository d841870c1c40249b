/* A fixed-size ring buffer of bytes: one writer, one reader. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RING_CAPACITY 256

struct ring {
    uint8_t data[RING_CAPACITY];
    size_t head; /* next byte to read */
    size_t tail; /* next slot to write */
    size_t used; /* bytes stored */
};

void ring_init(struct ring *r)
{
    memset(r, 0, sizeof *r);
}

size_t ring_space(const struct ring *r)
{
    return RING_CAPACITY - r->used;
}

/* Appends up to n bytes; returns how many fit. */
size_t ring_put(struct ring *r, const uint8_t *src, size_t n)
{
    size_t done = 0;
    while (done < n && r->used < RING_CAPACITY) {
        r->data[r->tail] = src[done++];
        r->tail = (r->tail + 1) % RING_CAPACITY;
        r->used++;
    }
    return done;
}

/* Removes up to n bytes into dst; returns how many were there. */
size_t ring_read(struct ring *r, uint8_t *dst, size_t n)
{
    size_t done = 0;
    while (done < n && r->used > 0) {
        dst[done++] = r->data[r->head];
        r->head = (r->head + 1) % RING_CAPACITY;
        r->used--;
    }
    return done;
}

/* Looks at the next byte without removing it; -1 when empty. */
int ring_peek(const struct ring *r)
{
    if (r->used == 0)
        return -1;
    return r->data[r->head];
}
