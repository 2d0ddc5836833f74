/* fuzz_nsbtx.c - nitro_parse on arbitrary bytes (seeds: BTX0 fixtures from nitro/writer.c);
 * also formats the description so every parsed field is read. */
#include <stdint.h>
#include <stdlib.h>

#include "nitro/nitro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nitro_file f;
    nitro_status st = nitro_parse(data, size, &f);
    if (st.ok) {
        free(nitro_describe(&f, true));
        nitro_file_free(&f);
    }
    return 0;
}
