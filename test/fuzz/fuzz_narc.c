/* fuzz_narc.c - nitro_narc_parse on arbitrary bytes, then name lookups. */
#include <stdint.h>
#include <stdlib.h>

#include "nitro/nitro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nitro_narc n;
    nitro_status st = nitro_narc_parse(data, size, &n);
    if (st.ok) {
        (void)nitro_narc_find(&n, "a");
        nitro_narc_free(&n);
    }
    return 0;
}
