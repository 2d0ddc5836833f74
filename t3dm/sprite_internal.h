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

/** Image level 0 (main) or 1..7 (lods[level - 1]); NULL when absent. */
const t3dm_sprite_image *t3dm_sprite_level(const t3dm_sprite *s, unsigned level);

/** Expand one raw texel value of `format` to RGBA8888 (o[0..3]) as the RDP widens it. */
void t3dm_sprite_texel_rgba8(const t3dm_sprite *s, unsigned format, uint32_t v, uint8_t *o);

#endif
