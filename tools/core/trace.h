/*
 * trace.h - GX trace files (specs/trace.md, "dsgx-trace 1"): reader and writer.
 *
 * A parsed trace is a list of bus operations. Parsing stops at the first malformed line; the
 * operations before it are kept (a replayer executes them, then reports the error, since
 * "nothing after a malformed line is executed").
 */
#ifndef DSGX_TRACE_H
#define DSGX_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../dsgx_api.h"

DSGX_BEGIN_DECLS

/** TRACE_VBLANK is not a directive of the text format: a VBlank that latches what a pending
 *  SWAP_BUFFERS built and draws nothing. Frame-dump conversion uses it to apply a dump's saved
 *  SWAP_BUFFERS parameter (ntrfd_trace.c); written as text, it becomes a `frame` (the extra
 *  frame a replayer on hardware shows too), after a comment saying so. */
enum dsgx_trace_op { TRACE_W32, TRACE_W16, TRACE_W8, TRACE_DATA, TRACE_FRAME, TRACE_VBLANK };

typedef struct dsgx_trace_item {
    uint8_t op;        /**< enum dsgx_trace_op */
    uint32_t line;     /**< source line (1-based), 0 if not from a file */
    uint32_t addr;     /**< bus address (w*, data) */
    uint32_t value;    /**< value (w*) */
    uint32_t data_off; /**< TRACE_DATA: offset of the bytes in dsgx_trace.data */
    uint32_t data_len; /**< TRACE_DATA: byte count (multiple of 4) */
} dsgx_trace_item;

typedef struct dsgx_trace {
    dsgx_trace_item *items;
    size_t n, cap;
    uint8_t *data; /**< bytes of all `data` directives */
    size_t data_len, data_cap;
    unsigned nframes; /**< number of `frame` directives */
} dsgx_trace;

/** Parse trace text. @p name is used in messages. @return 0, or -1 with "name:line: reason"
 *  in err (the operations before the bad line stay in t). */
int dsgx_trace_parse(dsgx_trace *t, const char *name, const char *text, size_t len, char *err,
                     size_t errlen);
/** Read and parse a trace file. */
int dsgx_trace_load(dsgx_trace *t, const char *path, char *err, size_t errlen);
void dsgx_trace_free(dsgx_trace *t);

/** Builders (for writers of traces: NTRFD conversion, the Nitro runtime's --trace). */
int dsgx_trace_add(dsgx_trace *t, uint8_t op, uint32_t addr, uint32_t value);
int dsgx_trace_add_data(dsgx_trace *t, uint32_t addr, const uint8_t *bytes, size_t len);

/** Write a trace in the text format (comments omitted, but for the one before a
 *  TRACE_VBLANK's `frame`). @return 0 or -1 on I/O error. */
int dsgx_trace_write(const dsgx_trace *t, FILE *out);

/** Read a whole file into memory (NUL-terminated). @return 0 or -1 with message. */
int dsgx_read_file(const char *path, uint8_t **data, size_t *size, char *err, size_t errlen);

DSGX_END_DECLS

#endif
