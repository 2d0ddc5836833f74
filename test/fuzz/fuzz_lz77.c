/* fuzz_lz77.c - nitro_lz77_decompress on arbitrary bytes (output capped at 1 MiB). */
#include <stdint.h>
#include <stdlib.h>

#include "nitro/nitro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *out;
    size_t out_size;
    (void)nitro_lz77_detect(data, size);
    nitro_status st = nitro_lz77_decompress(data, size, (size_t)1 << 20, &out, &out_size);
    if (st.ok) free(out);
    return 0;
}
