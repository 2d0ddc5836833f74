/*
 * input.c - format detection for replayable inputs (see input.h).
 */
#include "tools/core/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dsgx_input_load(const char *path, dsgx_trace *t, char *err, size_t errlen)
{
    uint8_t *buf;
    size_t n;
    if (dsgx_read_file(path, &buf, &n, err, errlen)) return -1;
    int r;
    if (n >= 5 && !memcmp(buf, "NTRFD", 5)) {
        snprintf(err, errlen, "%s: NTRFD frame dumps are not supported by this build", path);
        r = -1;
    } else if (n >= 8 && !memcmp(buf, "\x89PNG", 4)) {
        snprintf(err, errlen, "%s: PNG frame dumps are not supported by this build", path);
        r = -1;
    } else {
        r = dsgx_trace_parse(t, path, (const char *)buf, n, err, errlen);
    }
    free(buf);
    return r;
}
