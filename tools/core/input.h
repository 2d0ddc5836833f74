/*
 * input.h - open any replayable input as a trace: a GX trace (text), an NTRFD frame dump, or a
 * PNG carrying an NTRFD dump in an `ndSf` chunk (detected by content, not by name).
 */
#ifndef DSGX_INPUT_H
#define DSGX_INPUT_H

#include <stddef.h>

#include "tools/core/trace.h"

/** @return 0, or -1 with "FILE[:line|offset]: reason" in err. */
int dsgx_input_load(const char *path, dsgx_trace *t, char *err, size_t errlen);

#endif
