/*
 * device.c — the facts of the machine a table is made or checked on: the
 * backend, the device's name, and for a GPU its compute capability, the
 * driver's version and the CUDA versions (warmup/cuda/device.cu asks the
 * runtime; a build without CUDA has warmup/cuda/absent.c).
 */
#include <stdio.h>
#include <string.h>

#include "warmup_internal.h"

/* The NVIDIA driver's version as its kernel module states it
 * ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  ..."), or ""
 * where there is none. */
static void wu__nvidia_driver(char *out, size_t cap) {
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f) return;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Kernel Module");
        if (p) {
            p += strlen("Kernel Module");
            while (*p == ' ') p++;
            size_t n = strcspn(p, " \n");
            if (n >= cap) n = cap - 1;
            memcpy(out, p, n);
            out[n] = '\0';
        }
    }
    fclose(f);
}

void wu_device_of(const eng_session *s, wu_device *d) {
    memset(d, 0, sizeof *d);
    snprintf(d->backend, sizeof d->backend, "%s", eng_session_backend(s));
    snprintf(d->name, sizeof d->name, "%s", eng_session_device_name(s));
    if (strcmp(d->backend, "cuda")) return;
    wu__nvidia_driver(d->driver, sizeof d->driver);
    wu__cuda_facts(d->compute_capability, sizeof d->compute_capability,
                   &d->cuda_driver, &d->cuda_runtime);
}
