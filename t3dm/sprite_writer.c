/*
 * sprite_writer.c - libdragon `.sprite` files for fixtures (see sprite_writer.h). Field order
 * and values follow tools/mksprite/mksprite.c spritemaker_write (facts only): big-endian
 * fields, the deprecated bit-depth byte written 0, flags = format | 0x80, rows packed with the
 * first 4-bit texel in the high nibble and odd rows padded, extended header v4: size 124,
 * version, palette position, seven {width, height, format << 24 | position} entries, flags
 * (LOD count in bits 0-2, 0x10 detail), texture parameters (translate 0.0, repeats 1.0,
 * scale 0, mirror 0 for S and T; the detail's likewise), blend factor, use-main byte.
 */
#include <stdlib.h>
#include <string.h>

#include "t3dm/sprite_internal.h"
#include "t3dm/sprite_writer.h"

typedef struct wbuf {
    uint8_t *data;
    size_t size, cap;
    bool oom;
} wbuf;

static void w8(wbuf *b, uint8_t v)
{
    if (b->oom) return;
    if (b->size == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        uint8_t *p = realloc(b->data, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    b->data[b->size++] = v;
}
static void w16(wbuf *b, uint16_t v)
{
    w8(b, (uint8_t)(v >> 8));
    w8(b, (uint8_t)v);
}
static void w32(wbuf *b, uint32_t v)
{
    w16(b, (uint16_t)(v >> 16));
    w16(b, (uint16_t)v);
}
static void put32(wbuf *b, size_t at, uint32_t v)
{
    if (b->oom || at + 4 > b->size) return;
    for (unsigned i = 0; i < 4; i++) b->data[at + i] = (uint8_t)(v >> (24 - 8 * i));
}
static void walign(wbuf *b, size_t a)
{
    while (b->size % a) w8(b, 0);
}

static void write_level(wbuf *b, unsigned fmt, const t3dm_sprite_spec_level *l)
{
    unsigned bits = t3dm_sprite_format_bits(fmt);
    for (unsigned y = 0; y < l->height; y++)
        for (unsigned x = 0; x < l->width; x++) {
            uint32_t v = l->texels[(size_t)y * l->width + x];
            switch (bits) {
            case 4:
                if (x & 1u) break; /* written with its left neighbour */
                w8(b, (uint8_t)(((v & 15u) << 4) |
                                (x + 1 < l->width ? l->texels[(size_t)y * l->width + x + 1] & 15u
                                                  : 0u)));
                break;
            case 8: w8(b, (uint8_t)v); break;
            case 16: w16(b, (uint16_t)v); break;
            default: w32(b, v); break;
            }
        }
}

/* one S or T texparms record: translate f32, repeats f32, scale_log s16, mirror u8, pad u8 */
static void write_texparms(wbuf *b)
{
    w32(b, 0x00000000u); /* 0.0f */
    w32(b, 0x3F800000u); /* 1.0f */
    w16(b, 0);
    w8(b, 0);
    w8(b, 0);
}

int t3dm_sprite_write(const t3dm_sprite_spec *spec, uint8_t **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    unsigned v = spec->ext_version, fmt = spec->format;
    if (v != 0 && v != 1 && v != 4 && v != 6) return -1;
    if (spec->legacy && (v != 0 || (fmt != T3DM_SPRITE_RGBA16 && fmt != T3DM_SPRITE_RGBA32)))
        return -1;
    if (spec->lod_count > T3DM_SPRITE_MAX_LODS || !spec->image.texels) return -1;
    wbuf b = {0};
    w16(&b, spec->image.width);
    w16(&b, spec->image.height);
    w8(&b, spec->legacy ? (uint8_t)(fmt == T3DM_SPRITE_RGBA16 ? 2 : 4) : 0);
    w8(&b, spec->legacy ? 0 : (uint8_t)(fmt | (v ? 0x80u : 0u)));
    w8(&b, spec->hslices);
    w8(&b, spec->vslices);
    write_level(&b, fmt, &spec->image);
    walign(&b, 8);

    size_t palpos_at = 0, lodpos_at[T3DM_SPRITE_MAX_LODS] = {0};
    if (v) {
        size_t ext_at = b.size;
        unsigned size = v == 1 ? 64u : v == 4 ? 124u : 128u;
        w16(&b, (uint16_t)size);
        w16(&b, (uint16_t)v);
        palpos_at = b.size;
        w32(&b, 0);
        for (unsigned i = 0; i < T3DM_SPRITE_MAX_LODS; i++) {
            const t3dm_sprite_spec_level *l = i < spec->lod_count ? &spec->lods[i] : NULL;
            w16(&b, l ? l->width : 0);
            w16(&b, l ? l->height : 0);
            lodpos_at[i] = b.size;
            w32(&b, 0);
        }
        if (v >= 4) {
            w16(&b, (uint16_t)((spec->lod_count & 7u) | (spec->detail ? 0x10u : 0u)));
            w8(&b, v == 6 ? (uint8_t)spec->palette_colors : 0); /* pal_used_colors (v6) */
            w8(&b, 0);
            for (unsigned k = 0; k < 4; k++) write_texparms(&b); /* main S, T; detail S, T */
            w32(&b, 0);                                          /* detail blend factor 0.0f */
            w8(&b, 0);                                           /* use main texture */
            w8(&b, 0);
            w8(&b, 0);
            w8(&b, 0);
            if (v == 6) w32(&b, 0); /* data_ptr */
        }
        if (!b.oom && b.size - ext_at != size) {
            free(b.data);
            return -1; /* our own layout table is wrong */
        }
        walign(&b, 8);
    }
    for (unsigned i = 0; i < spec->lod_count && v; i++) {
        if (!spec->lods[i].texels) continue;
        put32(&b, lodpos_at[i], (uint32_t)b.size | ((uint32_t)fmt << 24));
        write_level(&b, fmt, &spec->lods[i]);
        walign(&b, 8);
    }
    if (spec->palette && spec->palette_colors && v) {
        put32(&b, palpos_at, (uint32_t)b.size);
        for (unsigned i = 0; i < spec->palette_colors; i++) w16(&b, spec->palette[i]);
        walign(&b, 8);
    }
    if (b.oom) {
        free(b.data);
        return -1;
    }
    *out = b.data;
    *out_size = b.size;
    return 0;
}
