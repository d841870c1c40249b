/*
 * fuzz_sessionlog.c — libFuzzer target over the session log's reader and
 * the chain's judge: the input is a log file's bytes. Every line must read
 * as an entry, a summary or an error that names it; slog_verify must judge
 * the whole file. A crash, leak, hang, sanitizer report, a refusal without
 * a message, or lines numbered out of order is a bug. Built and run by
 * `make fuzz`; seeds in tests/sessionlog/corpus/.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../sessionlog/sessionlog.h"

/* The input goes through a memfd: the reader takes a path. */
static int fuzz__fd = -1;
static char fuzz__path[64];

static void fuzz__read_all(void) {
    sb_err err = {0};
    slog_reader *r = slog_reader_open(fuzz__path, &err);
    if (!r) abort();
    slog_entry e;
    int64_t last = 0;
    for (;;) {
        err = (sb_err){0};
        int rc = slog_next(r, &e, &err);
        if (rc == 0) break;
        if (rc < 0 && !err.msg[0]) abort();
        if (slog_line(r) <= last) abort(); /* always forward */
        last = slog_line(r);
        if (strlen(slog_line_sha256(r)) != 64) abort();
    }
    slog_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (fuzz__fd < 0) {
        fuzz__fd = memfd_create("fuzz_sessionlog", MFD_CLOEXEC);
        if (fuzz__fd < 0) abort();
        snprintf(fuzz__path, sizeof fuzz__path, "/proc/self/fd/%d", fuzz__fd);
    }
    if (ftruncate(fuzz__fd, 0) || (size && pwrite(fuzz__fd, data, size, 0) !=
                                               (ssize_t)size))
        abort();
    fuzz__read_all();
    slog_report rep;
    sb_err err = {0};
    if (slog_verify(fuzz__path, &rep, &err)) {
        if (!err.msg[0]) abort();
        return 0;
    }
    if (rep.n_damage < 0 || rep.entries > rep.lines) abort();
    slog_report_free(&rep);
    return 0;
}
