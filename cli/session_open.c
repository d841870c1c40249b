/* cli_session_open: the session every command that runs a model opens
 * (sb generate, edit, bench), plain or with --warmup FILE's table
 * imported (warmup/warmup.h). */
#include <stdio.h>
#include <string.h>

#include "../warmup/warmup.h"
#include "cli.h"

eng_session *cli_session_open(const char *cmd, eng_model *m,
                              const eng_options *opt, const char *warmup,
                              char table_sha256[65]) {
    sb_err err = {0};
    if (table_sha256) table_sha256[0] = '\0';
    if (!warmup) {
        eng_session *s = eng_session_create(m, opt, &err);
        if (!s) cli_fail(cmd, "%s", err.msg);
        return s;
    }
    wu_import imp;
    eng_session *s = wu_session_import(m, opt, warmup, &imp, &err);
    if (!s) {
        cli_fail(cmd, "%s", err.msg);
        return NULL;
    }
    fprintf(stderr, "sb %s: warm-up table %s: %d choices taken, %d measurements; "
            "fingerprint %.16s... identical\n", cmd, warmup, imp.n_choices,
            imp.measurements, imp.fingerprint);
    for (int i = 0; i < imp.n_warnings; i++)
        fprintf(stderr, "sb %s: warning: %s\n", cmd, imp.warnings[i]);
    if (table_sha256) memcpy(table_sha256, imp.table_sha256, 65);
    return s;
}
