/* fuzz_ntrfd.c - the NTRFD reader (raw and PNG container) and the dump -> trace conversion on
 * arbitrary bytes: must never crash, read out of bounds or hang; a dump it accepts must convert. */
#include <stdlib.h>

#include "tools/core/ntrfd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dsgx_ntrfd fd;
    char err[256];
    if (dsgx_ntrfd_load_buffer(&fd, "fuzz", data, size, err, sizeof err)) return 0;
    dsgx_trace t = {0};
    if (dsgx_ntrfd_to_trace(&fd, &t)) abort(); /* accepted dumps always convert */
    uint8_t *out;
    size_t len;
    if (!dsgx_ntrfd_serialize(&fd, &out, &len)) free(out);
    dsgx_trace_free(&t);
    dsgx_ntrfd_free(&fd);
    return 0;
}
