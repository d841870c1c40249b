/*
 * fuzz_warmup.c — libFuzzer target over the warm-up table's reader: the
 * input is a table file's bytes. A table that parses must write out and
 * parse back to the same table. Built and run by `make fuzz` (clang
 * -fsanitize=fuzzer,address,undefined); seeds in tests/warmup/corpus/. A
 * crash, leak, sanitizer report or failed round trip is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../warmup/warmup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wu_table t, back;
    sb_err err = {0};
    if (wu_table_parse((const char *)data, size, &t, &err)) {
        if (!err.msg[0]) abort(); /* every refusal says why */
        return 0;
    }
    char *text = wu_table_json(&t);
    if (!text) abort();
    if (wu_table_parse(text, strlen(text), &back, &err)) abort();
    char *again = wu_table_json(&back);
    if (!again || strcmp(text, again)) abort();
    free(text);
    free(again);
    wu_table_free(&t);
    wu_table_free(&back);
    return 0;
}
