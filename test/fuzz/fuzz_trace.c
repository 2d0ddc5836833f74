/* fuzz_trace.c - the GX trace text parser on arbitrary bytes, then the writer on what parsed. */
#include <stdio.h>
#include <stdlib.h>

#include "tools/core/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dsgx_trace t = {0};
    char err[256];
    dsgx_trace_parse(&t, "fuzz", (const char *)data, size, err, sizeof err);
    FILE *f = fopen("/dev/null", "w");
    if (f) {
        dsgx_trace_write(&t, f);
        fclose(f);
    }
    dsgx_trace_free(&t);
    return 0;
}
