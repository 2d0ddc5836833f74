/*
 * sprite.c - reading libdragon `.sprite` files (the parser and texel access; the DS conversion
 * is in sprite_ds.c).
 *
 * Format notes (facts from DragonMinded/libdragon; no code taken):
 * - include/sprite.h sprite_t: width u16, height u16, a deprecated bit-depth byte, the flags
 *   byte (bits 0-4 tex_format_t, 0x20 "owned buffer" runtime flag, 0x40 "no data", 0x80 "ext"),
 *   hslices u8, vslices u8; the main image follows at byte 8. Everything big-endian (the files
 *   are built for the N64's MIPS CPU; tools/mksprite writes them with w16/w32 big-endian).
 * - include/surface.h: tex_format_t = (RDP format << 2) | RDP size; bits per texel
 *   4 << (code & 3); a row is TEX_FORMAT_PIX2BYTES(fmt, width) = ceil(width * bits / 8) bytes
 *   (surface_make_linear), 4-bit texels with the first texel in the high nibble
 *   (mksprite.c: (ix0 << 4) | ix1, odd rows padded with a zero nibble).
 * - src/sprite.c __sprite_ext: with flag 0x80 the extended header sits at
 *   8 + ROUND_UP(row_bytes * height, 8), or right after the 8-byte header when flag 0x40 is
 *   set (the pixels are then at ext.data_ptr). __sprite_upgrade: a flags byte of 0 is a sprite
 *   from before the format field: bit depth byte 2 means RGBA16, otherwise RGBA32.
 * - src/sprite_internal.h sprite_ext_t and tools/mksprite/mksprite.c spritemaker_write: size
 *   u16, version u16, pal_file_pos u32 (v1: 16-bit in one header revision, see below), seven
 *   LOD entries {width u16, height u16, fmt_file_pos u32 = format << 24 | absolute offset},
 *   then (v4+) flags u16 at +64 (bits 0-2 LOD count, 0x10 detail texture present, then in
 *   lods[6])... Sizes: v1 64, v4 124, v6 128 (adds pal_used_colors at +66, data_ptr at +124).
 *   v2 and v3 were development layouts (v3: eight LOD slots, 104 bytes) and are refused; v5
 *   is read as v4/v6, whose fields we use are identical. The palette is the last thing in the file:
 *   RGBA5551 big-endian entries (mksprite writes as many as the source palette had, padded to
 *   8 bytes), so the entry count is not stored before v6 and is taken from the file's end.
 * - sprite_load_buf: "LSPR" files are lossy sprites; asset.h ASSET_MAGIC "DCA" marks a
 *   compressed asset; sprite_internal.h: "\0\0\0\0H264" / "\0\0\0\0BC1Q" lossy files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "t3dm/sprite.h"
#include "t3dm/sprite_internal.h"

/* flags byte (libdragon include/sprite.h SPRITE_FLAGS_*) */
#define SPR_FLAG_FORMAT 0x1Fu
#define SPR_FLAG_NODATA 0x40u
#define SPR_FLAG_EXT    0x80u
/* extended header flags (src/sprite_internal.h SPRITE_FLAG_*) */
#define SPR_EXT_HAS_DETAIL 0x10u

const char *t3dm_sprite_format_name(unsigned format)
{
    switch (format) {
    case T3DM_SPRITE_RGBA16: return "RGBA16";
    case T3DM_SPRITE_RGBA32: return "RGBA32";
    case T3DM_SPRITE_YUV16: return "YUV16";
    case T3DM_SPRITE_CI4: return "CI4";
    case T3DM_SPRITE_CI8: return "CI8";
    case T3DM_SPRITE_IA4: return "IA4";
    case T3DM_SPRITE_IA8: return "IA8";
    case T3DM_SPRITE_IA16: return "IA16";
    case T3DM_SPRITE_I4: return "I4";
    case T3DM_SPRITE_I8: return "I8";
    default: return "unknown";
    }
}

unsigned t3dm_sprite_format_bits(unsigned format)
{
    return 4u << (format & 3u);
}

bool t3dm_sprite_format_supported(unsigned format)
{
    switch (format) {
    case T3DM_SPRITE_RGBA16:
    case T3DM_SPRITE_RGBA32:
    case T3DM_SPRITE_CI4:
    case T3DM_SPRITE_CI8:
    case T3DM_SPRITE_IA4:
    case T3DM_SPRITE_IA8:
    case T3DM_SPRITE_IA16:
    case T3DM_SPRITE_I4:
    case T3DM_SPRITE_I8: return true;
    default: return false;
    }
}

uint32_t t3dm_sprite_row_bytes(unsigned format, unsigned width)
{
    return (uint32_t)(((uint64_t)width * t3dm_sprite_format_bits(format) + 7u) / 8u);
}

void t3dm_sprite_error_format(const t3dm_sprite_error *err, const char *file, char *buf,
                              size_t buf_size)
{
    snprintf(buf, buf_size, "%s: sprite at offset 0x%zX: %s", file ? file : "(buffer)", err->offset,
             err->reason);
}

/* ---- the bounds-checked reader: every byte the parser looks at goes through need() ---- */

typedef struct spr_reader {
    const uint8_t *data;
    size_t size;
    t3dm_sprite_error *err;
    bool failed;
} spr_reader;

static bool spr_fail(spr_reader *r, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool spr_fail(spr_reader *r, size_t at, const char *fmt, ...)
{
    if (r->failed) return false;
    r->failed = true;
    if (r->err) {
        r->err->offset = at;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err->reason, sizeof r->err->reason, fmt, ap);
        va_end(ap);
    }
    return false;
}

/** True if [at, at + n) lies inside the buffer; otherwise records "truncated: WHAT...". */
static bool spr_need(spr_reader *r, uint64_t at, uint64_t n, const char *what)
{
    if (r->failed) return false;
    if (at > r->size || n > r->size - at)
        return spr_fail(r, at < r->size ? (size_t)at : r->size,
                        "truncated: %s needs %llu bytes at 0x%llx, file is 0x%zx bytes", what,
                        (unsigned long long)n, (unsigned long long)at, r->size);
    return true;
}

/* unchecked big-endian loads; callers have checked the range with spr_need */
static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}
static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* ---- parse ---- */

/** Fill an image view and check that its rows lie inside the buffer. */
static bool spr_image(spr_reader *r, t3dm_sprite_image *img, unsigned w, unsigned h, unsigned fmt,
                      uint64_t offset, size_t field_at, const char *what)
{
    if (!t3dm_sprite_format_supported(fmt))
        return spr_fail(r, field_at, "%s: unsupported texture format %u (%s)", what, fmt,
                        t3dm_sprite_format_name(fmt));
    if (w == 0 || h == 0) return spr_fail(r, field_at, "%s: size %ux%u", what, w, h);
    uint32_t stride = t3dm_sprite_row_bytes(fmt, w);
    uint64_t bytes = (uint64_t)stride * h;
    if (!spr_need(r, offset, bytes, what)) return false;
    img->width = (uint16_t)w;
    img->height = (uint16_t)h;
    img->format = (uint8_t)fmt;
    img->offset = (uint32_t)offset;
    img->stride = stride;
    img->pixels = r->data + offset;
    return true;
}

static bool spr_magic(spr_reader *r)
{
    const uint8_t *d = r->data;
    if (r->size >= 3 && memcmp(d, "DCA", 3) == 0)
        return spr_fail(r, 0, "compressed libdragon asset (\"DCA\" header): decompress it first");
    if (r->size >= 4 && memcmp(d, "LSPR", 4) == 0)
        return spr_fail(r, 0, "lossy sprite (\"LSPR\"): not supported");
    if (r->size >= 8 && memcmp(d, "\0\0\0\0", 4) == 0 &&
        (memcmp(d + 4, "H264", 4) == 0 || memcmp(d + 4, "BC1Q", 4) == 0))
        return spr_fail(r, 4, "lossy sprite (\"%.4s\"): not supported", (const char *)d + 4);
    return true;
}

/** Layout facts of one extended-header version. */
typedef struct ext_layout {
    unsigned min_size; /* bytes we read */
    bool has_flags;    /* flags u16 at +64, after the seven LOD entries */
    bool has_data_ptr; /* data_ptr u32 at +124 */
} ext_layout;

static bool ext_layout_of(unsigned version, ext_layout *l)
{
    switch (version) {
    case 1: *l = (ext_layout){64, false, false}; return true;
    case 4:
    case 5: *l = (ext_layout){124, true, false}; return true;
    case 6: *l = (ext_layout){128, true, true}; return true;
    default: return false;
    }
}

/** v1's palette position: a 32-bit field in mksprite's writer, a 16-bit field followed by
 *  16 bits of padding in one header revision. The 32-bit reading wins when it lies in the file.
 */
static uint32_t ext_v1_palpos(const uint8_t *p, size_t file_size)
{
    uint32_t v = be32(p);
    if (v < file_size) return v;
    if ((v & 0xFFFFu) == 0) return v >> 16;
    return v;
}

static bool spr_palette(spr_reader *r, t3dm_sprite *s, uint32_t palpos, size_t field_at,
                        uint64_t ext_end)
{
    if (palpos == 0)
        return spr_fail(r, field_at, "%s sprite without a palette (palette position 0)",
                        t3dm_sprite_format_name(s->format));
    if (palpos < ext_end || palpos >= r->size)
        return spr_fail(r, field_at, "palette position 0x%x outside 0x%llx..0x%zx", palpos,
                        (unsigned long long)ext_end, r->size);
    size_t avail = (r->size - palpos) / 2;
    unsigned cap = s->format == T3DM_SPRITE_CI4 ? 16u : 256u;
    if (avail == 0) return spr_need(r, palpos, 2, "palette");
    s->palette = r->data + palpos;
    s->palette_offset = palpos;
    s->palette_colors = avail < cap ? (unsigned)avail : cap;
    return true;
}

/** Every colour index of a level must have a palette entry. */
static bool spr_check_indices(spr_reader *r, const t3dm_sprite *s, const t3dm_sprite_image *img)
{
    if (img->format != T3DM_SPRITE_CI4 && img->format != T3DM_SPRITE_CI8) return true;
    if (!s->palette) return spr_fail(r, img->offset, "colour-indexed level without a palette");
    if (s->palette_colors >= (img->format == T3DM_SPRITE_CI4 ? 16u : 256u)) return true;
    for (unsigned y = 0; y < img->height; y++)
        for (unsigned x = 0; x < img->width; x++) {
            uint32_t ix = t3dm_sprite_texel(img, x, y);
            if (ix >= s->palette_colors) {
                size_t at = img->offset + (size_t)y * img->stride +
                            (img->format == T3DM_SPRITE_CI4 ? x / 2 : x);
                return spr_fail(r, at, "texel (%u,%u) uses colour %u, palette has %u", x, y,
                                (unsigned)ix, s->palette_colors);
            }
        }
    return true;
}

static bool spr_ext(spr_reader *r, t3dm_sprite *s, uint64_t ext_at)
{
    if (!spr_need(r, ext_at, 4, "extended header")) return false;
    const uint8_t *e = r->data + ext_at;
    unsigned declared = be16(e), version = be16(e + 2);
    ext_layout l;
    if (!ext_layout_of(version, &l))
        return spr_fail(r, (size_t)ext_at + 2,
                        "extended header version %u not supported (read: 1, 4, 5, 6)", version);
    if (declared < l.min_size)
        return spr_fail(r, (size_t)ext_at, "extended header v%u size %u, expected >= %u", version,
                        declared, l.min_size);
    if (!spr_need(r, ext_at, declared, "extended header")) return false;
    s->ext_version = (uint16_t)version;
    uint64_t ext_end = ext_at + declared;
    if (l.has_flags) s->ext_flags = be16(e + 64);
    s->has_detail = (s->ext_flags & SPR_EXT_HAS_DETAIL) != 0;

    if (r->data[5] & SPR_FLAG_NODATA) {
        if (!l.has_data_ptr)
            return spr_fail(r, 5, "\"no data\" flag with extended header v%u (needs v6)", version);
        uint32_t ptr = be32(e + 124);
        if (ptr < ext_end)
            return spr_fail(r, (size_t)ext_at + 124, "data pointer 0x%x inside the headers", ptr);
        if (!spr_image(r, &s->image, s->width, s->height, s->format, ptr, (size_t)ext_at + 124,
                       "image"))
            return false;
    }

    for (unsigned i = 0; i < T3DM_SPRITE_MAX_LODS; i++) {
        const uint8_t *lod = e + 8 + 8 * i;
        unsigned w = be16(lod), h = be16(lod + 2);
        uint32_t fp = be32(lod + 4);
        if (w == 0) continue; /* absent level */
        char what[24];
        snprintf(what, sizeof what, "LOD %u", i + 1);
        if (!spr_image(r, &s->lods[i], w, h, fp >> 24, fp & 0xFFFFFFu, (size_t)(ext_at + 8 + 8 * i),
                       what))
            return false;
        if (s->lods[i].offset < ext_end)
            return spr_fail(r, (size_t)(ext_at + 12 + 8 * i), "%s at 0x%x inside the headers", what,
                            s->lods[i].offset);
    }
    unsigned n = 0;
    for (unsigned i = 0; i < T3DM_SPRITE_MAX_LODS; i++)
        if (s->lods[i].width && !(s->has_detail && i == 6)) n = i + 1;
    s->lod_count = n;

    if (s->format == T3DM_SPRITE_CI4 || s->format == T3DM_SPRITE_CI8) {
        uint32_t palpos = version == 1 ? ext_v1_palpos(e + 4, r->size) : be32(e + 4);
        if (!spr_palette(r, s, palpos, (size_t)ext_at + 4, ext_end)) return false;
    }
    return true;
}

int t3dm_sprite_parse(const uint8_t *data, size_t size, t3dm_sprite *out, t3dm_sprite_error *err)
{
    spr_reader r = {data, data ? size : 0, err, false};
    t3dm_sprite s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    if (err) memset(err, 0, sizeof *err);
    if (!spr_magic(&r) || !spr_need(&r, 0, 8, "header")) return -1;

    s.width = be16(data);
    s.height = be16(data + 2);
    s.flags = data[5];
    s.hslices = data[6];
    s.vslices = data[7];
    if (s.width == 0 || s.height == 0) {
        spr_fail(&r, 0, "image size %ux%u", s.width, s.height);
        return -1;
    }
    if (s.flags == 0) {
        /* a sprite from before the format field: the bit-depth byte decides */
        s.legacy = true;
        if (data[4] == 2)
            s.format = T3DM_SPRITE_RGBA16;
        else if (data[4] == 4)
            s.format = T3DM_SPRITE_RGBA32;
        else {
            spr_fail(&r, 4, "old sprite with bit depth %u bytes (expected 2 or 4)", data[4]);
            return -1;
        }
    } else {
        s.format = (uint8_t)(s.flags & SPR_FLAG_FORMAT);
    }
    s.bits = (uint8_t)t3dm_sprite_format_bits(s.format);
    if (!t3dm_sprite_format_supported(s.format)) {
        spr_fail(&r, 5, "unsupported texture format %u (%s)", s.format,
                 t3dm_sprite_format_name(s.format));
        return -1;
    }

    uint64_t ext_at;
    if (!s.legacy && (s.flags & SPR_FLAG_NODATA)) {
        if (!(s.flags & SPR_FLAG_EXT)) {
            spr_fail(&r, 5, "\"no data\" flag without an extended header");
            return -1;
        }
        ext_at = 8;
    } else {
        if (!spr_image(&r, &s.image, s.width, s.height, s.format, 8, 0, "image")) return -1;
        ext_at = 8 + (((uint64_t)s.image.stride * s.height + 7u) & ~(uint64_t)7u);
    }
    if (!s.legacy && (s.flags & SPR_FLAG_EXT)) {
        if (!spr_ext(&r, &s, ext_at)) return -1;
    } else if (s.format == T3DM_SPRITE_CI4 || s.format == T3DM_SPRITE_CI8) {
        spr_fail(&r, 5, "%s sprite without an extended header: no palette",
                 t3dm_sprite_format_name(s.format));
        return -1;
    }

    if (!spr_check_indices(&r, &s, &s.image)) return -1;
    for (unsigned i = 0; i < T3DM_SPRITE_MAX_LODS; i++)
        if (s.lods[i].width && !spr_check_indices(&r, &s, &s.lods[i])) return -1;
    *out = s;
    return 0;
}

/* ---- texel access ---- */

uint16_t t3dm_sprite_palette_entry(const t3dm_sprite *s, unsigned i)
{
    if (!s->palette || i >= s->palette_colors) return 0;
    return be16(s->palette + 2 * (size_t)i);
}

uint32_t t3dm_sprite_texel(const t3dm_sprite_image *img, unsigned x, unsigned y)
{
    if (!img->pixels || x >= img->width || y >= img->height) return 0;
    return t3dm_sprite_row_texel(img->pixels + (size_t)y * img->stride,
                                 t3dm_sprite_format_bits(img->format), x);
}

const t3dm_sprite_image *t3dm_sprite_level(const t3dm_sprite *s, unsigned level)
{
    const t3dm_sprite_image *img = level == 0                      ? &s->image
                                   : level <= T3DM_SPRITE_MAX_LODS ? &s->lods[level - 1]
                                                                   : NULL;
    return img && img->pixels ? img : NULL;
}

/* bit replication, as the RDP widens texel channels to 8 bits */
static uint8_t widen5(unsigned v)
{
    return (uint8_t)((v << 3) | (v >> 2));
}
static uint8_t widen4(unsigned v)
{
    return (uint8_t)(v * 17u);
}
static uint8_t widen3(unsigned v)
{
    return (uint8_t)((v << 5) | (v << 2) | (v >> 1));
}

static void rgba5551_to_8(uint16_t c, uint8_t *o)
{
    o[0] = widen5(c >> 11);
    o[1] = widen5((c >> 6) & 31u);
    o[2] = widen5((c >> 1) & 31u);
    o[3] = (c & 1u) ? 255 : 0;
}

void t3dm_sprite_texel_rgba8(const t3dm_sprite *s, unsigned format, uint32_t v, uint8_t *o)
{
    switch (format) {
    case T3DM_SPRITE_RGBA16: rgba5551_to_8((uint16_t)v, o); break;
    case T3DM_SPRITE_RGBA32:
        o[0] = (uint8_t)(v >> 24);
        o[1] = (uint8_t)(v >> 16);
        o[2] = (uint8_t)(v >> 8);
        o[3] = (uint8_t)v;
        break;
    case T3DM_SPRITE_CI4:
    case T3DM_SPRITE_CI8: rgba5551_to_8(t3dm_sprite_palette_entry(s, v), o); break;
    case T3DM_SPRITE_IA4:
        o[0] = o[1] = o[2] = widen3(v >> 1);
        o[3] = (v & 1u) ? 255 : 0;
        break;
    case T3DM_SPRITE_IA8:
        o[0] = o[1] = o[2] = widen4(v >> 4);
        o[3] = widen4(v & 15u);
        break;
    case T3DM_SPRITE_IA16:
        o[0] = o[1] = o[2] = (uint8_t)(v >> 8);
        o[3] = (uint8_t)v;
        break;
    case T3DM_SPRITE_I4: o[0] = o[1] = o[2] = o[3] = widen4(v); break;
    default: o[0] = o[1] = o[2] = o[3] = (uint8_t)v; break; /* I8 */
    }
}

int t3dm_sprite_decode_rgba8(const t3dm_sprite *s, unsigned level, uint8_t *out)
{
    const t3dm_sprite_image *img = t3dm_sprite_level(s, level);
    if (!img) return -1;
    if ((img->format == T3DM_SPRITE_CI4 || img->format == T3DM_SPRITE_CI8) && !s->palette)
        return -1;
    for (unsigned y = 0; y < img->height; y++)
        for (unsigned x = 0; x < img->width; x++)
            t3dm_sprite_texel_rgba8(s, img->format, t3dm_sprite_texel(img, x, y),
                                    out + 4 * ((size_t)y * img->width + x));
    return 0;
}
