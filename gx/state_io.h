/*
 * state_io.h - the pieces of a save state shared by the units that write their sections
 * (gx/savestate.c, raster/savestate.c) and the container that frames them
 * (tools/core/savestate.c). Not part of the public API.
 *
 * A section is a 4-character tag (its first letter names the unit: 'G' geometry engine,
 * 'R' rendering engine), a little-endian u32 payload size, and the payload.
 */
#ifndef DSGX_STATE_IO_H
#define DSGX_STATE_IO_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gx/gx.h"
#include "raster/raster.h"

/** Output cursor: with buf == NULL (or once full) only counts the bytes (pos). */
typedef struct dsgx_state_out {
    uint8_t *buf;
    size_t cap, pos;
} dsgx_state_out;

static inline void dsgx_state_put(dsgx_state_out *o, const void *p, size_t n)
{
    if (o->buf && n <= o->cap && o->pos <= o->cap - n) memcpy(o->buf + o->pos, p, n);
    o->pos += n;
}
static inline void dsgx_state_put_u32(dsgx_state_out *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    dsgx_state_put(o, b, 4);
}
static inline uint32_t dsgx_state_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/** A tag from its four characters. */
#define DSGX_STATE_TAG(s)                                                                          \
    ((uint32_t)(s)[0] | (uint32_t)(s)[1] << 8 | (uint32_t)(s)[2] << 16 | (uint32_t)(s)[3] << 24)

/** Start a section: writes the tag and a size placeholder. @return where the size goes. */
static inline size_t dsgx_state_begin(dsgx_state_out *o, uint32_t tag)
{
    dsgx_state_put_u32(o, tag);
    size_t at = o->pos;
    dsgx_state_put_u32(o, 0);
    return at;
}
/** End the section begun at @p at: patch its payload size. */
static inline void dsgx_state_end(dsgx_state_out *o, size_t at)
{
    uint32_t size = (uint32_t)(o->pos - at - 4);
    if (o->buf && at + 4 <= o->cap) {
        for (unsigned i = 0; i < 4; i++) o->buf[at + i] = (uint8_t)(size >> (8 * i));
    }
}

/** One section of a blob being restored (bounds already checked by the container). */
typedef struct dsgx_state_section {
    uint32_t tag;
    const uint8_t *data;
    uint32_t size;
    size_t offset; /**< of the payload in the blob, for messages */
} dsgx_state_section;

/** Format the reason of a refusal. @return -1. */
static inline int dsgx_state_fail(char *err, size_t errlen, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int dsgx_state_fail(char *err, size_t errlen, size_t offset, const char *fmt, ...)
{
    if (err && errlen) {
        int n = snprintf(err, errlen, "offset %zu: ", offset);
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/** The byte at @p p as a bool field: 0 or 1, anything else is refused. */
static inline bool dsgx_state_bool_ok(const uint8_t *p)
{
    return *p <= 1;
}

/* ---- the units (gx/savestate.c, raster/savestate.c) ---- */
/** Append the geometry engine's sections. */
void gx_state_write(const gx_engine *gx, dsgx_state_out *o);
/** With @p gx NULL: check the 'G' sections among s[0..n) (each required one present once,
 *  sizes and values valid). With @p gx: apply them (after a successful check; fails only when
 *  memory runs out, before anything changed). @return 0, or -1 with the reason in err. */
int gx_state_load(gx_engine *gx, const dsgx_state_section *s, size_t n, char *err, size_t errlen);

void raster_state_write(const raster_engine *r, dsgx_state_out *o);
int raster_state_load(raster_engine *r, const dsgx_state_section *s, size_t n, char *err,
                      size_t errlen);

#endif
