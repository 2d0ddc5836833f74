/*
 * texture.c - texel lookup for the seven DS texture formats.
 *
 * Hardware notes
 * - Models the rendering engine's texture unit as melonDS's software renderer does
 *   (melonDS GPU3D_Soft.cpp SoftRenderer::TextureLookup; GBATEK "DS 3D Texture Formats" and
 *   "DS 3D Texture Attributes"). Our reference frames come from that renderer, so its
 *   arithmetic is followed exactly; GBATEK agrees on every format detail used here.
 * - Addressing: texture addresses are byte offsets into the flat 512 KiB texture space
 *   (4 slots of 128 KiB) and wrap at 512 KiB (melonDS GPU3D_Soft.h ReadVRAM_Texture masks
 *   with 0x7FFFF), so a texture running past a slot boundary continues in the next slot.
 *   Palette addresses wrap at 128 KiB (ReadVRAM_TexPal masks with 0x1FFFF); the palette
 *   space only has 6 slots (96 KiB), the rest reads as 0 (melonDS never maps slots 6-7).
 * - 4x4-compressed: the 32-bit block for texel (s, t) is at base + (t/4)*(width/4)*4 +
 *   (s/4)*4, the row byte at + t%4; the 16-bit palette-info word for the block is in slot 1
 *   at 0x20000 + (block address & 0x1FFFC) / 2, plus 0x10000 when the block address is at or
 *   beyond slot 2 (0x40000; the address before wrapping, as melonDS computes it). GBATEK:
 *   "slot 0 data -> slot 1 at 0000h..FFFFh, slot 2 data -> slot 1 at 10000h..1FFFFh".
 * - Verified: unit tests against GBATEK's format descriptions; the reference traces
 *   tex_formats_paletted, tex_formats_4x4_direct, tex_sizes, tex_wrap and c_textured_quad
 *   hash-match melonDS through the full pipeline. Guesses: none beyond melonDS's (palette
 *   reads beyond slot 5 return 0 because melonDS never maps palette slots 6-7).
 */
#include "raster/texture.h"

#include "gx/regs.h"

/* The samplers the function-pointer table (raster_tex.sample) holds: the inline texel lookups
 * of texture.h (the pixel stage inlines those directly into its per-format shaders). */
#define SAMPLER(fmt)                                                                               \
    static void sample_##fmt(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,          \
                             uint8_t *alpha5)                                                      \
    {                                                                                              \
        raster_texel_##fmt(tx, s, t, color, alpha5);                                               \
    }
SAMPLER(none)
SAMPLER(a3i5)
SAMPLER(pal4)
SAMPLER(pal16)
SAMPLER(pal256)
SAMPLER(4x4)
SAMPLER(a5i3)
SAMPLER(direct)

static const raster_tex_sample_fn samplers[8] = {
    [TEXFMT_NONE] = sample_none,     [TEXFMT_A3I5] = sample_a3i5,
    [TEXFMT_PAL4] = sample_pal4,     [TEXFMT_PAL16] = sample_pal16,
    [TEXFMT_PAL256] = sample_pal256, [TEXFMT_COMPRESSED] = sample_4x4,
    [TEXFMT_A5I3] = sample_a5i3,     [TEXFMT_DIRECT] = sample_direct,
};

/* Repeat (bit 16/17), flip (18/19, only with repeat), else clamp to the edge texel
 * (melonDS TextureLookup; GBATEK TEXIMAGE_PARAM). */
static void axis_setup(raster_tex_axis *ax, uint32_t size, uint32_t repeat, uint32_t flip)
{
    ax->mask = size - 1;
    if (repeat) {
        ax->lo = INT32_MIN;
        ax->hi = INT32_MAX;
        ax->flip = flip ? size : 0;
    } else {
        ax->lo = 0;
        ax->hi = (int32_t)size - 1;
        ax->flip = 0;
    }
}

void raster_tex_setup(raster_tex *tx, uint32_t teximage, uint32_t pltt_base,
                      const uint8_t *tex_vram, const uint8_t *pal_vram)
{
    uint32_t fmt = teximage_format(teximage);
    uint32_t pal = pltt_base & 0x1FFFu; /* GBATEK PLTT_BASE: bits 0-12 */

    tx->tex_vram = tex_vram;
    tx->pal_vram = pal_vram;
    tx->format = (uint8_t)fmt;
    tx->sample = samplers[fmt];
    tx->base = teximage_vram_offset(teximage) * 8;
    /* GBATEK: palette base in 16-byte units, 8-byte units for 4-colour textures. */
    tx->pal_base = (fmt == TEXFMT_PAL4) ? pal * 8 : pal * 16;
    tx->width_log2 = 3 + teximage_size_s(teximage);
    tx->alpha0 = teximage_color0_transparent(teximage) ? 0 : 31;
    axis_setup(&tx->ax_s, 8u << teximage_size_s(teximage), teximage_repeat_s(teximage),
               teximage_flip_s(teximage));
    axis_setup(&tx->ax_t, 8u << teximage_size_t(teximage), teximage_repeat_t(teximage),
               teximage_flip_t(teximage));
}
