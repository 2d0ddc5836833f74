/*
 * input.c - format detection for replayable inputs (see input.h): by content, not by name.
 * "NTRFD" magic: a raw frame dump; the PNG signature: a PNG that must carry an `ndSf` chunk;
 * anything else is parsed as a GX trace.
 */
#include "tools/core/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/core/ntrfd.h"

int dsgx_input_load(const char *path, dsgx_trace *t, char *err, size_t errlen)
{
    uint8_t *buf;
    size_t n;
    if (dsgx_read_file(path, &buf, &n, err, errlen)) return -1;
    int r;
    if ((n >= 5 && !memcmp(buf, "NTRFD", 5)) || (n >= 4 && !memcmp(buf, "\x89PNG", 4))) {
        dsgx_ntrfd fd;
        r = dsgx_ntrfd_load_buffer(&fd, path, buf, n, err, errlen);
        if (!r) {
            r = dsgx_ntrfd_to_trace(&fd, t);
            if (r) snprintf(err, errlen, "%s: out of memory", path);
            dsgx_ntrfd_free(&fd);
        }
    } else {
        r = dsgx_trace_parse(t, path, (const char *)buf, n, err, errlen);
    }
    free(buf);
    return r;
}
