/*
 * sprite_internal.h - helpers shared by the sprite reader (sprite.c), the DS conversion
 * (sprite_ds.c) and the fixture writer (sprite_writer.c). Not part of the public API.
 */
#ifndef DSGX_T3DM_SPRITE_INTERNAL_H
#define DSGX_T3DM_SPRITE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "t3dm/sprite.h"

/** The nine formats the reader accepts (not YUV16, not unknown codes). */
bool t3dm_sprite_format_supported(unsigned format);

/** Bytes of one row: ceil(width * bits / 8) (libdragon TEX_FORMAT_PIX2BYTES). */
uint32_t t3dm_sprite_row_bytes(unsigned format, unsigned width);

/** Texel x of a row of `bits`-bit texels (the first 4-bit texel in the high nibble). */
static inline uint32_t t3dm_sprite_row_texel(const uint8_t *row, unsigned bits, unsigned x)
{
    switch (bits) {
    case 4: return (x & 1u) ? row[x / 2] & 0x0Fu : (uint32_t)row[x / 2] >> 4;
    case 8: return row[x];
    case 16: return (uint32_t)row[2 * x] << 8 | row[2 * x + 1];
    default:
        return (uint32_t)row[4 * x] << 24 | (uint32_t)row[4 * x + 1] << 16 |
               (uint32_t)row[4 * x + 2] << 8 | row[4 * x + 3];
    }
}

/** Image level 0 (main) or 1..7 (lods[level - 1]); NULL when absent. */
const t3dm_sprite_image *t3dm_sprite_level(const t3dm_sprite *s, unsigned level);

/** Expand one raw texel value of `format` to RGBA8888 (o[0..3]) as the RDP widens it. */
void t3dm_sprite_texel_rgba8(const t3dm_sprite *s, unsigned format, uint32_t v, uint8_t *o);

#endif
