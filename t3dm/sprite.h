/*
 * sprite.h - libdragon `.sprite` images (the textures T3DM materials reference as
 * `rom:/name.fmt.sprite`): parsed from memory, and converted to a DS texture (TEXIMAGE_PARAM
 * format, power-of-two size, texels in the DS layout, RGB15 palette).
 *
 * The file format (facts from DragonMinded/libdragon: include/sprite.h sprite_t and the
 * SPRITE_FLAGS_* bits, include/surface.h tex_format_t and TEX_FORMAT_PIX2BYTES,
 * src/sprite_internal.h sprite_ext_t, src/sprite.c __sprite_ext / __sprite_upgrade /
 * sprite_get_palette / sprite_get_lod_pixels, tools/mksprite/mksprite.c): an 8-byte big-endian
 * header (width, height, legacy bit depth, flags = format | 0x80 "ext", hslices, vslices), the
 * main image rows, then (when flag 0x80 is set) an extended header with the LOD table and the
 * palette position; CI4/CI8 palettes are big-endian RGBA5551. Layout details, versions and
 * the DS mapping table: t3dm/sprite.md.
 *
 * The parser never allocates and BORROWS the input buffer: every pixel and palette pointer in a
 * t3dm_sprite points into it, so the buffer must outlive the struct. The conversion allocates
 * the DS texture (free it with t3dm_ds_texture_free).
 */
#ifndef DSGX_T3DM_SPRITE_H
#define DSGX_T3DM_SPRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"

DSGX_BEGIN_DECLS

/** libdragon tex_format_t codes (surface.h: (rdp_format << 2) | rdp_size). */
typedef enum t3dm_sprite_format {
    T3DM_SPRITE_NONE = 0,
    T3DM_SPRITE_RGBA16 = 2, /**< RGBA 5551, 16 bpp, big-endian */
    T3DM_SPRITE_RGBA32 = 3, /**< RGBA 8888, 32 bpp, bytes R G B A */
    T3DM_SPRITE_YUV16 = 6,  /**< not supported (refused by the parser) */
    T3DM_SPRITE_CI4 = 8,    /**< 4-bit palette index, first texel in the high nibble */
    T3DM_SPRITE_CI8 = 9,    /**< 8-bit palette index */
    T3DM_SPRITE_IA4 = 12,   /**< 3-bit intensity + 1-bit alpha per nibble (IIIA) */
    T3DM_SPRITE_IA8 = 13,   /**< 4-bit intensity (high nibble) + 4-bit alpha (low) */
    T3DM_SPRITE_IA16 = 14,  /**< 8-bit intensity byte, then 8-bit alpha byte */
    T3DM_SPRITE_I4 = 16,    /**< 4-bit intensity, first texel in the high nibble */
    T3DM_SPRITE_I8 = 17,    /**< 8-bit intensity */
} t3dm_sprite_format;

/** Name of a format ("RGBA16", "CI4"...), "unknown" for other codes. */
const char *t3dm_sprite_format_name(unsigned format);

/** Bits per texel of a format code (4 << (code & 3), as surface.h TEX_FORMAT_BITDEPTH). */
unsigned t3dm_sprite_format_bits(unsigned format);

/** The first problem found by the parser or the conversion. */
typedef struct t3dm_sprite_error {
    size_t offset;    /**< byte offset in the sprite file of the offending field or data */
    char reason[120]; /**< e.g. "truncated: image needs 2048 bytes at 0x8, 100 left" */
} t3dm_sprite_error;

/** Format "FILE: sprite at offset 0xNN: reason" (no newline) into buf. */
void t3dm_sprite_error_format(const t3dm_sprite_error *err, const char *file, char *buf,
                              size_t buf_size);

/** One image level (the main image or a LOD) as a view into the parsed buffer. */
typedef struct t3dm_sprite_image {
    uint16_t width, height;
    uint8_t format;        /**< t3dm_sprite_format (a LOD carries its own code) */
    uint32_t offset;       /**< byte offset of the first row in the file */
    uint32_t stride;       /**< bytes per row: ceil(width * bits / 8), no other padding */
    const uint8_t *pixels; /**< data + offset; stride * height bytes, all inside the buffer */
} t3dm_sprite_image;

enum { T3DM_SPRITE_MAX_LODS = 7 };

/** A parsed sprite. Everything is checked to lie inside the input buffer. */
typedef struct t3dm_sprite {
    uint16_t width, height; /**< of the main image, both >= 1 */
    uint8_t format;         /**< t3dm_sprite_format of the main image */
    uint8_t bits;           /**< bits per texel of the main image: 4, 8, 16 or 32 */
    uint8_t flags;          /**< the header's flags byte as stored (format | 0x80 ext...) */
    uint8_t hslices, vslices;
    bool legacy;             /**< flags byte 0: pre-format sprite, format from the bit depth */
    uint16_t ext_version;    /**< extended header version, 0 when the sprite has none */
    uint16_t ext_flags;      /**< the extended header's flags (0 when absent or version 1) */
    t3dm_sprite_image image; /**< the main image (LOD 0) */
    unsigned lod_count;      /**< extra LOD levels present in lods[] (detail texture excluded) */
    t3dm_sprite_image lods[T3DM_SPRITE_MAX_LODS]; /**< lods[0] = LOD 1 (half size)... */
    bool has_detail;                              /**< ext flag 0x10: lods[6] is a detail */
    /* palette (CI4 / CI8 only; NULL otherwise) */
    const uint8_t *palette;  /**< big-endian RGBA5551 entries, palette_colors of them */
    uint32_t palette_offset; /**< byte offset of the palette in the file */
    unsigned palette_colors; /**< entries in the file up to its end, at most 16 (CI4) or 256
                                  (CI8); every texel index is below it */
} t3dm_sprite;

/** Parse a `.sprite` file held in memory.
 *  Refused with an error: truncated data, a zero width or height, an unknown or unsupported
 *  format code (YUV16), image/LOD/palette ranges outside the buffer, a CI4/CI8 sprite without a
 *  palette, an unknown extended-header version, libdragon-compressed ("DCA") or lossy ("LSPR")
 *  files.
 *  @param out filled on success (zeroed on failure)
 *  @param err filled on failure (may be NULL)
 *  @return 0 on success, -1 on error. */
int t3dm_sprite_parse(const uint8_t *data, size_t size, t3dm_sprite *out, t3dm_sprite_error *err);

/** Palette entry i (0 <= i < palette_colors) as RGBA5551 (R in bits 15-11, alpha bit 0). */
uint16_t t3dm_sprite_palette_entry(const t3dm_sprite *s, unsigned i);

/** The raw texel value at (x, y) of an image (index, intensity, packed colour...). */
uint32_t t3dm_sprite_texel(const t3dm_sprite_image *img, unsigned x, unsigned y);

/** Decode an image level to RGBA8888 (4 bytes per texel, row-major) the way the RDP expands
 *  texels: 5-bit channels v -> (v << 3) | (v >> 2); I formats give R=G=B=A=I; IA formats give
 *  R=G=B=I; bit-replicated widening. level 0 = main image, 1..7 = lods[level-1].
 *  @param out width * height * 4 bytes of that level
 *  @return 0, or -1 if the level does not exist or a CI sprite has no palette. */
int t3dm_sprite_decode_rgba8(const t3dm_sprite *s, unsigned level, uint8_t *out);

/* ---------------------------------------------------------------------------------------------
 * DS texture conversion
 * ------------------------------------------------------------------------------------------- */

/** TEXIMAGE_PARAM texture formats (GBATEK "DS 3D Texture Attributes"). */
enum {
    T3DM_DS_A3I5 = 1,
    T3DM_DS_PAL4 = 2,
    T3DM_DS_PAL16 = 3,
    T3DM_DS_PAL256 = 4,
    T3DM_DS_A5I3 = 6,
    T3DM_DS_DIRECT = 7,
};

/** What to do with a side that is not a power of two between 8 and 1024. */
typedef enum t3dm_ds_resize {
    /** Default. The DS side is the next power of two (at least 8); the sprite sits at texel
     *  (0, 0) unscaled and the rest is transparent texels. UVs in texels stay valid, only
     *  repeat/flip at the sprite's own edge cannot be reproduced. */
    T3DM_DS_PAD = 0,
    /** Nearest-neighbour resample to the next power of two (at least 8): repeat/flip stay
     *  right, UVs must be scaled by ds_size / sprite_size. */
    T3DM_DS_SCALE = 1,
} t3dm_ds_resize;

/** Conversion options; all-zero is the default. */
typedef struct t3dm_ds_options {
    t3dm_ds_resize resize;
    uint8_t alpha_threshold; /**< RGBA32 -> direct: alpha >= threshold is opaque; 0 = 128 */
    bool intensity_alpha;    /**< I4/I8: alpha = intensity as on the RDP (A5I3 or A3I5)
                                  instead of an opaque grey palette */
    unsigned level;          /**< image level to convert: 0 main image, 1..7 a LOD */
} t3dm_ds_options;

/** A texture ready for VRAM: texels and palette in the DS layout. */
typedef struct t3dm_ds_texture {
    uint8_t format;                 /**< T3DM_DS_* (TEXIMAGE_PARAM bits 26-28) */
    uint16_t width, height;         /**< DS size: powers of two, 8..1024 */
    uint8_t size_s, size_t_;        /**< TEXIMAGE_PARAM size fields: width = 8 << size_s */
    uint16_t src_width, src_height; /**< size of the converted sprite image */
    bool color0_transparent;        /**< TEXIMAGE_PARAM bit 29 */
    uint8_t source_format;          /**< t3dm_sprite_format converted */
    uint8_t *texels;                /**< texel_bytes bytes, rows of width texels */
    size_t texel_bytes;
    uint16_t *palette;       /**< RGB15 (R bits 0-4), palette_colors entries; NULL for
                                  direct */
    unsigned palette_colors; /**< 32 A3I5, 8 A5I3, 16 PAL16, 256 PAL256, 0 direct */
    bool lossy;              /**< some precision was lost (see t3dm/sprite.md) */
} t3dm_ds_texture;

/** Convert one image level of a parsed sprite to the closest DS texture (mapping table in
 *  t3dm/sprite.md). Deterministic integer arithmetic only.
 *  @param opt NULL for the defaults
 *  @param out filled on success (zeroed on failure); free with t3dm_ds_texture_free
 *  @param err filled on failure (sprite wider/taller than 1024, missing level, allocation)
 *  @return 0 on success, -1 on error. */
int t3dm_sprite_to_ds(const t3dm_sprite *s, const t3dm_ds_options *opt, t3dm_ds_texture *out,
                      t3dm_sprite_error *err);

/** Release what t3dm_sprite_to_ds allocated (safe on a zeroed struct). */
void t3dm_ds_texture_free(t3dm_ds_texture *tex);

/** TEXIMAGE_PARAM for this texture: size, format and colour-0 flag from tex, the rest from
 *  the caller. @param vram_offset byte offset of the texels in texture VRAM (multiple of 8)
 *  @param texgen 0 none, 1 texcoord, 2 normal, 3 vertex. */
uint32_t t3dm_ds_teximage_param(const t3dm_ds_texture *tex, uint32_t vram_offset, bool repeat_s,
                                bool repeat_t, bool flip_s, bool flip_t, unsigned texgen);

/** PLTT_BASE for this texture's palette at byte offset pltt_offset of palette VRAM: offset / 8
 *  for PAL4, offset / 16 for the other palette formats (GBATEK "DS 3D Texture Attributes"). */
uint32_t t3dm_ds_pltt_base(const t3dm_ds_texture *tex, uint32_t pltt_offset);

DSGX_END_DECLS

#endif
