/*
 * cursor.h - the one bounds-checked, overflow-safe reader every Nitro parser goes through.
 *
 * A cursor reads little-endian fields from a window [lo, hi) of the buffer at absolute
 * position pos. The first failed read or check records a nitro_status (structure, offset,
 * reason) and makes the cursor "failed": every later read returns 0 and changes nothing, so a
 * parser can read a whole record and test nitro_cur_ok() once. Arithmetic on offsets is done in
 * 64 bits or with explicit "n <= hi - pos" tests, so no sum can wrap.
 */
#ifndef DSGX_NITRO_CURSOR_H
#define DSGX_NITRO_CURSOR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nitro/nitro.h"

typedef struct nitro_cursor {
    const uint8_t *data; /**< the whole buffer */
    size_t size;
    size_t lo, hi;    /**< readable window, absolute */
    size_t pos;       /**< absolute read position */
    const char *what; /**< structure being read, for error messages */
    nitro_status *st; /**< shared status (sticky failure) */
} nitro_cursor;

static inline bool nitro_cur_ok(const nitro_cursor *c)
{
    return c->st->ok;
}

/** Record a failure at absolute offset `at` (only the first failure is kept). */
static inline bool nitro_cur_fail(nitro_cursor *c, size_t at, const char *fmt, ...)
{
    if (!c->st->ok) return false;
    c->st->ok = false;
    c->st->offset = at;
    snprintf(c->st->structure, sizeof c->st->structure, "%s", c->what ? c->what : "data");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->st->reason, sizeof c->st->reason, fmt, ap);
    va_end(ap);
    return false;
}

/** A cursor over the whole buffer; st must start with ok = true. */
static inline nitro_cursor nitro_cur_make(const uint8_t *data, size_t size, nitro_status *st,
                                          const char *what)
{
    nitro_cursor c = {data, size, 0, size, 0, what, st};
    return c;
}

/** A cursor over [start, start + len) of parent's window; fails (on parent's status) if that
 *  range is not inside parent's window. The child starts at `start`. */
static inline nitro_cursor nitro_cur_sub(nitro_cursor *parent, uint64_t start, uint64_t len,
                                         const char *what)
{
    nitro_cursor c = *parent;
    c.what = what;
    if (start < parent->lo || start > parent->hi || len > parent->hi - start) {
        nitro_cur_fail(&c, start < parent->size ? (size_t)start : parent->pos,
                       "range 0x%llx+0x%llx outside 0x%zx..0x%zx", (unsigned long long)start,
                       (unsigned long long)len, parent->lo, parent->hi);
        c.lo = c.hi = c.pos = parent->lo;
        return c;
    }
    c.lo = (size_t)start;
    c.hi = (size_t)(start + len);
    c.pos = c.lo;
    return c;
}

/** Move to absolute position `at`; fails if outside the window (at == hi is allowed). */
static inline bool nitro_cur_seek(nitro_cursor *c, uint64_t at)
{
    if (!c->st->ok) return false;
    if (at < c->lo || at > c->hi)
        return nitro_cur_fail(c, c->pos, "offset 0x%llx outside 0x%zx..0x%zx",
                              (unsigned long long)at, c->lo, c->hi);
    c->pos = (size_t)at;
    return true;
}

/** True if n bytes can be read at pos; otherwise fails with a truncation message. */
static inline bool nitro_cur_need(nitro_cursor *c, uint64_t n)
{
    if (!c->st->ok) return false;
    if (c->pos > c->hi || n > c->hi - c->pos)
        return nitro_cur_fail(c, c->pos <= c->hi ? c->pos : c->hi,
                              "truncated: need %llu bytes, %zu left", (unsigned long long)n,
                              c->pos <= c->hi ? c->hi - c->pos : 0);
    return true;
}

static inline bool nitro_cur_skip(nitro_cursor *c, uint64_t n)
{
    if (!nitro_cur_need(c, n)) return false;
    c->pos += (size_t)n;
    return true;
}

static inline uint8_t nitro_cur_u8(nitro_cursor *c)
{
    if (!nitro_cur_need(c, 1)) return 0;
    return c->data[c->pos++];
}

static inline uint16_t nitro_cur_u16(nitro_cursor *c)
{
    if (!nitro_cur_need(c, 2)) return 0;
    const uint8_t *p = c->data + c->pos;
    c->pos += 2;
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t nitro_cur_u32(nitro_cursor *c)
{
    if (!nitro_cur_need(c, 4)) return 0;
    const uint8_t *p = c->data + c->pos;
    c->pos += 4;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline int16_t nitro_cur_s16(nitro_cursor *c)
{
    return (int16_t)nitro_cur_u16(c);
}
static inline int32_t nitro_cur_s32(nitro_cursor *c)
{
    return (int32_t)nitro_cur_u32(c);
}

/** Copy n bytes (n small, fixed) into dst; zero-fills dst on failure. */
static inline bool nitro_cur_bytes(nitro_cursor *c, void *dst, size_t n)
{
    if (!nitro_cur_need(c, n)) {
        memset(dst, 0, n);
        return false;
    }
    memcpy(dst, c->data + c->pos, n);
    c->pos += n;
    return true;
}

/** Read a 16-byte resource name. */
static inline bool nitro_cur_name(nitro_cursor *c, nitro_name *out)
{
    memset(out, 0, sizeof *out);
    return nitro_cur_bytes(c, out->s, 16);
}

/** Checks that [base + rel, base + rel + len) lies in the window; on failure reports `field`
 *  at absolute offset `at` (where the offending field is stored).
 *  @return the absolute start (valid only when the cursor is still ok). */
static inline size_t nitro_cur_range(nitro_cursor *c, size_t at, uint64_t base, uint64_t rel,
                                     uint64_t len, const char *field)
{
    if (!c->st->ok) return 0;
    uint64_t start = base + rel; /* both < 2^33: no wrap */
    if (start < c->lo || start > c->hi || len > c->hi - start) {
        nitro_cur_fail(c, at, "%s 0x%llx (+0x%llx bytes) outside 0x%zx..0x%zx", field,
                       (unsigned long long)start, (unsigned long long)len, c->lo, c->hi);
        return 0;
    }
    return (size_t)start;
}

#endif
