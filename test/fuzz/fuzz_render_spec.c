/* fuzz_render_spec.c - the render spec parser (golden scenes drawn by `dsgx render`) on arbitrary
 * bytes: never crashes, and an accepted spec gives a NULL-terminated argument vector whose
 * frame/model variant can be built and freed. */
#include <stdint.h>
#include <string.h>

#include "tools/core/render_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    render_spec s;
    memset(&s, 0, sizeof s);
    char err[256];
    if (render_spec_parse(&s, "fuzz.render", "dir", (const char *)data, size, err, sizeof err) ==
        0) {
        size_t total = 0;
        for (int i = 0; i < s.argc; i++) total += strlen(s.argv[i]);
        (void)total;
        int argc;
        char **v = render_spec_argv(&s, 3, &argc);
        render_spec_argv_free(v);
    }
    render_spec_free(&s);
    return 0;
}
