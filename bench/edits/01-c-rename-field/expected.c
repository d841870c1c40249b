/*
 * byte_ring.c - a fixed-size byte ring buffer for the serial console.
 *
 * The UART interrupt handler pushes received bytes; the console task pops
 * them and assembles lines.  One producer, one consumer, so the head and
 * tail indices are each written by exactly one side.  The buffer never
 * grows: when it is full, new bytes are dropped and counted, because
 * blocking inside an interrupt handler is not an option.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct byte_ring {
    uint8_t *data;      /* storage, capacity bytes */
    size_t capacity;    /* always a power of two */
    size_t head;        /* next slot to write; only the producer moves it */
    size_t tail;        /* next slot to read; only the consumer moves it */
    size_t dropped;     /* bytes lost because the ring was full */
};

/* Round up to the next power of two so that index wrapping is a mask. */
static size_t round_up_pow2(size_t n)
{
    size_t p = 1;

    while (p < n) {
        if (p > SIZE_MAX / 2)
            return 0;
        p <<= 1;
    }
    return p;
}

struct byte_ring *byte_ring_create(size_t min_capacity)
{
    struct byte_ring *ring;
    size_t cap;

    if (min_capacity == 0)
        return NULL;
    cap = round_up_pow2(min_capacity);
    if (cap == 0)
        return NULL;

    ring = calloc(1, sizeof(*ring));
    if (ring == NULL)
        return NULL;
    ring->data = malloc(cap);
    if (ring->data == NULL) {
        free(ring);
        return NULL;
    }
    ring->capacity = cap;
    return ring;
}

void byte_ring_destroy(struct byte_ring *ring)
{
    if (ring == NULL)
        return;
    free(ring->data);
    free(ring);
}

/* head and tail run freely and wrap at SIZE_MAX; their difference is the
 * fill level as long as capacity is a power of two. */
size_t byte_ring_used(const struct byte_ring *ring)
{
    return ring->head - ring->tail;
}

size_t byte_ring_free(const struct byte_ring *ring)
{
    return ring->capacity - byte_ring_used(ring);
}

bool byte_ring_is_empty(const struct byte_ring *ring)
{
    return ring->head == ring->tail;
}

bool byte_ring_is_full(const struct byte_ring *ring)
{
    return byte_ring_used(ring) == ring->capacity;
}

/* Called from the interrupt handler: never blocks, never allocates. */
bool byte_ring_push(struct byte_ring *ring, uint8_t byte)
{
    if (byte_ring_is_full(ring)) {
        ring->dropped++;
        return false;
    }
    ring->data[ring->head & (ring->capacity - 1)] = byte;
    ring->head++;
    return true;
}

bool byte_ring_pop(struct byte_ring *ring, uint8_t *out)
{
    if (byte_ring_is_empty(ring))
        return false;
    *out = ring->data[ring->tail & (ring->capacity - 1)];
    ring->tail++;
    return true;
}

/* Copies up to len bytes without consuming them.  The copy may straddle
 * the end of the storage, so it is done in at most two pieces. */
size_t byte_ring_peek(const struct byte_ring *ring, uint8_t *dst, size_t len)
{
    size_t used = byte_ring_used(ring);
    size_t start = ring->tail & (ring->capacity - 1);
    size_t first;

    if (len > used)
        len = used;
    first = ring->capacity - start;
    if (first > len)
        first = len;
    memcpy(dst, ring->data + start, first);
    memcpy(dst + first, ring->data, len - first);
    return len;
}

size_t byte_ring_read(struct byte_ring *ring, uint8_t *dst, size_t len)
{
    size_t n = byte_ring_peek(ring, dst, len);

    ring->tail += n;
    return n;
}

size_t byte_ring_write(struct byte_ring *ring, const uint8_t *src, size_t len)
{
    size_t room = byte_ring_free(ring);
    size_t start = ring->head & (ring->capacity - 1);
    size_t first;

    if (len > room) {
        ring->dropped += len - room;
        len = room;
    }
    first = ring->capacity - start;
    if (first > len)
        first = len;
    memcpy(ring->data + start, src, first);
    memcpy(ring->data, src + first, len - first);
    ring->head += len;
    return len;
}

/* Finds the first '\n' among the unread bytes and returns its distance
 * from the tail, or -1 when no complete line has arrived yet. */
long byte_ring_find_newline(const struct byte_ring *ring)
{
    size_t used = byte_ring_used(ring);
    size_t mask = ring->capacity - 1;

    for (size_t i = 0; i < used; i++) {
        if (ring->data[(ring->tail + i) & mask] == '\n')
            return (long)i;
    }
    return -1;
}

/* Reads one line (without its '\n') into dst, NUL-terminated.  Returns
 * false when no full line is buffered or dst is too small; in the latter
 * case the line stays in the ring so the caller can retry with more room. */
bool byte_ring_read_line(struct byte_ring *ring, char *dst, size_t dst_size)
{
    long nl = byte_ring_find_newline(ring);
    uint8_t newline;

    if (nl < 0 || (size_t)nl + 1 > dst_size)
        return false;
    byte_ring_read(ring, (uint8_t *)dst, (size_t)nl);
    dst[nl] = '\0';
    byte_ring_pop(ring, &newline);
    return true;
}

void byte_ring_clear(struct byte_ring *ring)
{
    ring->tail = ring->head;
}

size_t byte_ring_dropped(const struct byte_ring *ring)
{
    return ring->dropped;
}
