/*
 * t3dm_internal.h - the big-endian, bounds-checked cursor the T3DM parsers read through, and
 * helpers shared by parse.c, chunks.c and anim.c.
 *
 * A cursor reads from a window [lo, hi) of the buffer. The first failed read records a
 * t3dm_status (chunk, offset, reason) and makes every later read return 0, so a record can be
 * read whole and checked once. Offsets are compared with "n <= hi - pos", never summed.
 */
#ifndef DSGX_T3DM_INTERNAL_H
#define DSGX_T3DM_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "t3dm/t3dm.h"

typedef struct t3dm_cursor {
    const uint8_t *data;
    size_t lo, hi, pos;
    const char *chunk; /**< label copied into the status on failure */
    t3dm_status *st;
    /** without a label, the chunk table entry read (type 0: none), formatted on failure only */
    uint32_t chunk_no;
    char chunk_type;
} t3dm_cursor;

/** What a chunk type holds ("vertices", "object"...; parse.c). */
const char *t3dm_chunk_kind(char type);

static inline bool t3dm_fail(t3dm_cursor *c, size_t at, const char *fmt, ...)
{
    if (!c->st->ok) return false;
    c->st->ok = false;
    c->st->offset = at;
    if (!c->chunk && c->chunk_type)
        snprintf(c->st->chunk, sizeof c->st->chunk, "chunk %u '%c' (%s)", (unsigned)c->chunk_no,
                 c->chunk_type, t3dm_chunk_kind(c->chunk_type));
    else
        snprintf(c->st->chunk, sizeof c->st->chunk, "%s", c->chunk ? c->chunk : "data");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->st->reason, sizeof c->st->reason, fmt, ap);
    va_end(ap);
    return false;
}

static inline bool t3dm_need(t3dm_cursor *c, size_t n)
{
    if (!c->st->ok) return false;
    if (c->pos < c->lo || c->pos > c->hi || n > c->hi - c->pos)
        return t3dm_fail(c, c->pos, "truncated: need %zu bytes, %zu left", n,
                         c->pos <= c->hi && c->pos >= c->lo ? c->hi - c->pos : 0);
    return true;
}

static inline uint8_t t3dm_u8(t3dm_cursor *c)
{
    if (!t3dm_need(c, 1)) return 0;
    return c->data[c->pos++];
}

static inline uint16_t t3dm_u16(t3dm_cursor *c)
{
    if (!t3dm_need(c, 2)) return 0;
    const uint8_t *p = c->data + c->pos;
    c->pos += 2;
    return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t t3dm_u32(t3dm_cursor *c)
{
    if (!t3dm_need(c, 4)) return 0;
    const uint8_t *p = c->data + c->pos;
    c->pos += 4;
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline uint64_t t3dm_u64(t3dm_cursor *c)
{
    uint64_t hi = t3dm_u32(c);
    return (hi << 32) | t3dm_u32(c);
}

static inline int16_t t3dm_s16(t3dm_cursor *c)
{
    return (int16_t)t3dm_u16(c);
}

static inline float t3dm_f32(t3dm_cursor *c)
{
    uint32_t u = t3dm_u32(c);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline void t3dm_skip(t3dm_cursor *c, size_t n)
{
    if (t3dm_need(c, n)) c->pos += n;
}

/** Big-endian loads from a buffer already checked to hold them. */
static inline uint16_t t3dm_be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}
static inline uint32_t t3dm_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/** A float is usable (finite, |v| <= limit). */
static inline bool t3dm_float_ok(float v, float limit)
{
    return v == v && v <= limit && v >= -limit;
}

/* chunks.c: the chunk readers parse.c calls once the table is checked. */
bool t3dm_read_material(t3dm_model *m, t3dm_cursor *c, t3dm_material *out);
bool t3dm_read_object(t3dm_model *m, t3dm_cursor *c, t3dm_object *out, uint32_t *index_end);
bool t3dm_read_skeleton(t3dm_model *m, t3dm_cursor *c);
bool t3dm_read_anim(t3dm_model *m, t3dm_cursor *c, t3dm_anim *out);
bool t3dm_read_bvh(t3dm_model *m, t3dm_cursor *c);
/** A string at string-table offset rel, checked to end inside the table; NULL and a failure
 *  reported at `at` otherwise. */
const char *t3dm_string(t3dm_model *m, t3dm_cursor *c, size_t at, uint32_t rel);

#endif
