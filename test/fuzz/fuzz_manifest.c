/* fuzz_manifest.c - the golden manifest (TSV) parser on arbitrary bytes: never crashes, and
 * every row it accepts can be read back cell by cell. */
#include <stdint.h>
#include <string.h>

#include "tools/core/golden.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    golden_manifest m;
    memset(&m, 0, sizeof m);
    char err[256];
    if (golden_manifest_parse(&m, "fuzz.tsv", (const char *)data, size, err, sizeof err) == 0) {
        for (size_t r = 0; r < m.nrows; r++) {
            (void)golden_scene_name(&m, r);
            (void)golden_expected_hash(&m, r, false);
            (void)golden_row_frame(&m, r);
            for (size_t c = 0; c < m.ncols; c++) (void)golden_cell(&m, r, (int)c);
        }
    }
    golden_manifest_free(&m);
    return 0;
}
