/*
 * savestate.c - the save-state blob: header, the units' sections, checksum.
 *
 *   offset 0   "DSGXSAVE"                       magic
 *          8   u32 format version               DSGX_STATE_VERSION
 *         12   u32 byte-order mark 0x01020304   written in the host's order (the POD sections
 *                                               are host-order structs)
 *         16   u32 library version              DSGX_VERSION_NUMBER (information)
 *         20   u32 flags                        bit 0: the trailer holds a checksum
 *         24   u32 section count
 *         28   sections: u32 tag, u32 size, size bytes (tags: gx/savestate.c,
 *              raster/savestate.c)
 *       end-8  u64 XXH3-64 of every byte before it (0 without the checksum flag)
 * All u32/u64 of the framing are little-endian. The reader goes through the blob with explicit
 * bounds checks and refuses it (offset and reason) before changing any engine.
 */
#include "tools/core/savestate.h"

#include <xxhash.h>
#ifdef DSGX_HAVE_XXH3_DISPATCH
/* XXH3_64bits becomes xxHash's run-time dispatcher: the same hash with the CPU's widest vector
 * unit (AVX2 / AVX-512 instead of SSE2: 617 KB in ~16 us instead of ~38 here) */
#include <xxh_x86dispatch.h>
#endif

#include "gx/state_io.h"

static const uint8_t magic[8] = {'D', 'S', 'G', 'X', 'S', 'A', 'V', 'E'};
enum { HEADER = 28, TRAILER = 8, MAX_SECTIONS = 64, BOM = 0x01020304, FLAG_SUM = 1 };

static void write_blob(const gx_engine *gx, const raster_engine *r, dsgx_state_out *o,
                       unsigned flags)
{
    bool sum = (flags & DSGX_STATE_CHECKSUM) != 0;
    dsgx_state_put(o, magic, sizeof magic);
    dsgx_state_put_u32(o, DSGX_STATE_VERSION);
    uint32_t bom = BOM;
    dsgx_state_put(o, &bom, 4);
    dsgx_state_put_u32(o, DSGX_VERSION_NUMBER);
    dsgx_state_put_u32(o, sum ? FLAG_SUM : 0);
    size_t count_at = o->pos;
    dsgx_state_put_u32(o, 0);
    size_t start = o->pos;
    gx_state_write(gx, o);
    raster_state_write(r, o);
    /* count the sections just written (the units do not report their number) */
    if (o->buf && o->pos <= o->cap) {
        uint32_t n = 0;
        for (size_t p = start; p + 8 <= o->pos; n++) p += 8 + dsgx_state_get_u32(o->buf + p + 4);
        for (unsigned i = 0; i < 4; i++) o->buf[count_at + i] = (uint8_t)(n >> (8 * i));
        XXH64_hash_t h = sum ? XXH3_64bits(o->buf, o->pos) : 0;
        uint8_t b[8];
        for (unsigned i = 0; i < 8; i++) b[i] = (uint8_t)(h >> (8 * i));
        dsgx_state_put(o, b, 8);
    } else {
        o->pos += TRAILER;
    }
}

size_t dsgx_state_size(const gx_engine *gx, const raster_engine *r)
{
    dsgx_state_out o = {0};
    write_blob(gx, r, &o, 0);
    return o.pos;
}

size_t dsgx_state_save(const gx_engine *gx, const raster_engine *r, uint8_t *buf, size_t cap,
                       unsigned flags)
{
    dsgx_state_out o = {buf, cap, 0};
    write_blob(gx, r, &o, flags);
    return o.pos <= cap ? o.pos : 0;
}

/* Framing checks; fills s[] with the sections. @return the count, or -1. */
static int parse(const uint8_t *data, size_t size, dsgx_state_section *s, char *err, size_t errlen)
{
    if (!data || size < HEADER + TRAILER)
        return dsgx_state_fail(err, errlen, 0, "%zu bytes: too short for a save state", size);
    if (memcmp(data, magic, sizeof magic))
        return dsgx_state_fail(err, errlen, 0, "not a dsgx save state (bad magic)");
    uint32_t version = dsgx_state_get_u32(data + 8);
    if (version != DSGX_STATE_VERSION)
        return dsgx_state_fail(err, errlen, 8, "format version %u, this library reads %u", version,
                               DSGX_STATE_VERSION);
    uint32_t bom;
    memcpy(&bom, data + 12, 4);
    if (bom != BOM)
        return dsgx_state_fail(err, errlen, 12, "written on a machine of the other byte order");
    uint32_t flags = dsgx_state_get_u32(data + 20);
    if (flags & ~(uint32_t)FLAG_SUM)
        return dsgx_state_fail(err, errlen, 20, "unknown flags %X", flags);
    uint32_t n = dsgx_state_get_u32(data + 24);
    if (n > MAX_SECTIONS)
        return dsgx_state_fail(err, errlen, 24, "%u sections: more than %u", n, MAX_SECTIONS);
    size_t end = size - TRAILER, pos = HEADER;
    for (uint32_t i = 0; i < n; i++) {
        if (end - pos < 8)
            return dsgx_state_fail(err, errlen, pos, "section %u header truncated", i);
        uint32_t len = dsgx_state_get_u32(data + pos + 4);
        if (end - pos - 8 < len)
            return dsgx_state_fail(err, errlen, pos, "section %u (%u bytes) runs past the end", i,
                                   len);
        s[i].tag = dsgx_state_get_u32(data + pos);
        s[i].data = data + pos + 8;
        s[i].size = len;
        s[i].offset = pos + 8;
        uint8_t unit = (uint8_t)s[i].tag;
        if (unit != 'G' && unit != 'R')
            return dsgx_state_fail(err, errlen, pos, "section %u: unknown unit", i);
        pos += 8 + (size_t)len;
    }
    if (pos != end)
        return dsgx_state_fail(err, errlen, pos, "%zu stray bytes after the sections", end - pos);
    uint64_t want = 0;
    for (unsigned i = 0; i < 8; i++) want |= (uint64_t)data[end + i] << (8 * i);
    if ((flags & FLAG_SUM) && XXH3_64bits(data, end) != want)
        return dsgx_state_fail(err, errlen, end, "checksum mismatch (the blob is damaged)");
    return (int)n;
}

static int check(const uint8_t *data, size_t size, dsgx_state_section *s, char *err, size_t errlen)
{
    int n = parse(data, size, s, err, errlen);
    if (n < 0) return -1;
    if (gx_state_load(NULL, s, (size_t)n, err, errlen)) return -1;
    if (raster_state_load(NULL, s, (size_t)n, err, errlen)) return -1;
    return n;
}

int dsgx_state_check(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    dsgx_state_section s[MAX_SECTIONS];
    return check(data, size, s, err, errlen) < 0 ? -1 : 0;
}

int dsgx_state_restore(gx_engine *gx, raster_engine *r, const uint8_t *data, size_t size, char *err,
                       size_t errlen)
{
    if (!gx || !r) return dsgx_state_fail(err, errlen, 0, "no engine to restore into");
    dsgx_state_section s[MAX_SECTIONS];
    int n = parse(data, size, s, err, errlen);
    if (n < 0) return -1;
    /* the rendering engine's section checked, then the geometry engine's checked and applied
     * (all or nothing), then the rendering engine's applied (cannot fail once checked) */
    if (raster_state_load(NULL, s, (size_t)n, err, errlen)) return -1;
    if (gx_state_load(gx, s, (size_t)n, err, errlen)) return -1;
    if (raster_state_load(r, s, (size_t)n, err, errlen)) return -1;
    /* a line-at-a-time frame that was open: its lines so far drawn again from the latched
     * frame, so that the next raster_lines_read continues it (raster/savestate.c RLIN) */
    raster_lines_resume(r, gx_render_frame(gx));
    return 0;
}
