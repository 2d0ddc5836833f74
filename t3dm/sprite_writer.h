/*
 * sprite_writer.h - builds libdragon `.sprite` files from in-memory descriptions, for test
 * fixtures and fuzz seeds. The layout is the one tools/mksprite/mksprite.c writes
 * (DragonMinded/libdragon, spritemaker_write): header, main image rows, 8-byte alignment,
 * extended header, 8-byte alignment, each LOD 8-byte aligned, palette last, 8-byte aligned.
 */
#ifndef DSGX_T3DM_SPRITE_WRITER_H
#define DSGX_T3DM_SPRITE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "t3dm/sprite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One image level: width * height raw texel values, row-major, in the file's own encoding:
 *  RGBA16 the RGBA5551 word, RGBA32 0xRRGGBBAA, CI4/CI8 the index, I4/I8 the intensity, IA4
 *  the IIIA nibble, IA8 the IIIIAAAA byte, IA16 0xIIAA. */
typedef struct t3dm_sprite_spec_level {
    uint16_t width, height;
    const uint32_t *texels;
} t3dm_sprite_spec_level;

typedef struct t3dm_sprite_spec {
    t3dm_sprite_spec_level image;
    uint8_t format; /**< t3dm_sprite_format of every level */
    uint8_t hslices, vslices;
    /** 0: no extended header (with legacy: flags byte 0 and the bit-depth byte 2 or 4,
     *  RGBA16/RGBA32 only; without: the format in the flags byte, no 0x80); 1, 4 or 6: an
     *  extended header of that version (mksprite writes 4 or 6 today, 1 in early 2023). */
    unsigned ext_version;
    bool legacy;
    const uint16_t *palette; /**< RGBA5551 entries (CI4/CI8), written after everything */
    unsigned palette_colors;
    unsigned lod_count; /**< levels in lods[] (up to 7) */
    t3dm_sprite_spec_level lods[T3DM_SPRITE_MAX_LODS];
    bool detail; /**< lods[6] is a detail texture (ext flag 0x10) */
} t3dm_sprite_spec;

/** Build the file. @param out malloc'd bytes (free()) @return 0, or -1 on a spec the format
 *  cannot hold (bad version, legacy with another format) or out of memory. */
int t3dm_sprite_write(const t3dm_sprite_spec *spec, uint8_t **out, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif
