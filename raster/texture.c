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

#include "gx/gx_frame.h"
#include "gx/regs.h"

#define TEX_ADDR_MASK 0x7FFFFu /* melonDS ReadVRAM_Texture: flat 512 KiB */
#define PAL_ADDR_MASK 0x1FFFFu /* melonDS ReadVRAM_TexPal: flat 128 KiB */

static inline uint32_t tex_read8(const raster_tex *tx, uint32_t addr)
{
    return tx->tex_vram[addr & TEX_ADDR_MASK];
}

static inline uint32_t tex_read16(const raster_tex *tx, uint32_t addr)
{
    return tx->tex_vram[addr & TEX_ADDR_MASK] |
           ((uint32_t)tx->tex_vram[(addr + 1) & TEX_ADDR_MASK] << 8);
}

/* Palette entries are halfword aligned (every caller adds even offsets to an even base). */
static inline uint32_t pal_read16(const raster_tex *tx, uint32_t addr)
{
    addr &= PAL_ADDR_MASK;
    if (addr >= GX_PAL_VRAM_SIZE) return 0; /* slots 6-7 do not exist */
    return tx->pal_vram[addr] | ((uint32_t)tx->pal_vram[addr + 1] << 8);
}

/* Index of texel (s, t) in a linear texture, after wrapping. */
static inline uint32_t texel_index(const raster_tex *tx, int32_t s, int32_t t, uint32_t *su)
{
    uint32_t ws = raster_tex_wrap(&tx->ax_s, s);
    uint32_t wt = raster_tex_wrap(&tx->ax_t, t);
    *su = ws;
    return (wt << tx->width_log2) + ws;
}

static void sample_none(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                        uint8_t *alpha5)
{
    (void)tx, (void)s, (void)t;
    *color = 0;
    *alpha5 = 31;
}

/* A3I5: byte = index (bits 0-4) | alpha (bits 5-7); alpha expanded a*4 + a/2 (GBATEK). */
static void sample_a3i5(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                        uint8_t *alpha5)
{
    uint32_t su;
    uint32_t px = tex_read8(tx, tx->base + texel_index(tx, s, t, &su));
    uint32_t a3 = px >> 5;
    *color = (uint16_t)(pal_read16(tx, tx->pal_base + (px & 0x1Fu) * 2) & 0x7FFFu);
    *alpha5 = (uint8_t)(a3 * 4 + a3 / 2);
}

/* 4-colour: 2 bits per texel, leftmost texel in the low bits. */
static void sample_pal4(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                        uint8_t *alpha5)
{
    uint32_t su;
    uint32_t i = texel_index(tx, s, t, &su);
    uint32_t px = (tex_read8(tx, tx->base + (i >> 2)) >> ((su & 3u) * 2)) & 3u;
    *color = (uint16_t)(pal_read16(tx, tx->pal_base + px * 2) & 0x7FFFu);
    *alpha5 = px ? 31 : tx->alpha0;
}

/* 16-colour: 4 bits per texel, leftmost texel in the low nibble. */
static void sample_pal16(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                         uint8_t *alpha5)
{
    uint32_t su;
    uint32_t i = texel_index(tx, s, t, &su);
    uint32_t px = (tex_read8(tx, tx->base + (i >> 1)) >> ((su & 1u) * 4)) & 0xFu;
    *color = (uint16_t)(pal_read16(tx, tx->pal_base + px * 2) & 0x7FFFu);
    *alpha5 = px ? 31 : tx->alpha0;
}

static void sample_pal256(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                          uint8_t *alpha5)
{
    uint32_t su;
    uint32_t px = tex_read8(tx, tx->base + texel_index(tx, s, t, &su));
    *color = (uint16_t)(pal_read16(tx, tx->pal_base + px * 2) & 0x7FFFu);
    *alpha5 = px ? 31 : tx->alpha0;
}

/* A5I3: byte = index (bits 0-2) | alpha (bits 3-7). */
static void sample_a5i3(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                        uint8_t *alpha5)
{
    uint32_t su;
    uint32_t px = tex_read8(tx, tx->base + texel_index(tx, s, t, &su));
    *color = (uint16_t)(pal_read16(tx, tx->pal_base + (px & 7u) * 2) & 0x7FFFu);
    *alpha5 = (uint8_t)(px >> 3);
}

/* Direct colour: BGR555 halfword, bit 15 = opaque. */
static void sample_direct(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                          uint8_t *alpha5)
{
    uint32_t su;
    uint32_t c = tex_read16(tx, tx->base + texel_index(tx, s, t, &su) * 2);
    *color = (uint16_t)(c & 0x7FFFu);
    *alpha5 = (c & 0x8000u) ? 31 : 0;
}

/* Per-channel mix (c0 * w0 + c1 * w1) >> sh of two BGR555 colours, each channel floored as
 * melonDS does it on the masked, unshifted fields (equivalent to flooring per 5-bit field). */
static inline uint32_t mix555(uint32_t c0, uint32_t c1, uint32_t w0, uint32_t w1, unsigned sh)
{
    uint32_t r = ((c0 & 0x001Fu) * w0 + (c1 & 0x001Fu) * w1) >> sh;
    uint32_t g = (((c0 & 0x03E0u) * w0 + (c1 & 0x03E0u) * w1) >> sh) & 0x03E0u;
    uint32_t b = (((c0 & 0x7C00u) * w0 + (c1 & 0x7C00u) * w1) >> sh) & 0x7C00u;
    return r | g | b;
}

/* 4x4-compressed (GBATEK "Texture Compression"): per 4x4 block a 32-bit word of 2-bit indices
 * (one byte per row, leftmost texel in the low bits) and a palette-info halfword in slot 1:
 * bits 0-13 palette offset in 4-byte units, bits 14-15 mode.
 *   index: 0      1      2                  3
 *   mode 0 col0   col1   col2               transparent
 *   mode 1 col0   col1   (col0+col1)/2      transparent
 *   mode 2 col0   col1   col2               col3
 *   mode 3 col0   col1   (col0*5+col1*3)/8  (col0*3+col1*5)/8
 * Transparent (alpha 0) texels ignore TEXIMAGE_PARAM bit 29. */
static void sample_4x4(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color, uint8_t *alpha5)
{
    uint32_t ws = raster_tex_wrap(&tx->ax_s, s);
    uint32_t wt = raster_tex_wrap(&tx->ax_t, t);
    uint32_t addr = tx->base + (wt & ~3u) * ((1u << tx->width_log2) >> 2) + (ws & ~3u) + (wt & 3u);
    uint32_t slot1 = 0x20000u + ((addr & 0x1FFFCu) >> 1) + (addr >= 0x40000u ? 0x10000u : 0u);

    uint32_t idx = (tex_read8(tx, addr) >> ((ws & 3u) * 2)) & 3u;
    uint32_t info = tex_read16(tx, slot1);
    uint32_t pal = tx->pal_base + (info & 0x3FFFu) * 4;
    uint32_t mode = info >> 14;

    uint32_t c;
    uint8_t a = 31;
    switch ((mode << 2) | idx) {
    case 0x0:
    case 0x4:
    case 0x8:
    case 0xC: c = pal_read16(tx, pal); break;
    case 0x1:
    case 0x5:
    case 0x9:
    case 0xD: c = pal_read16(tx, pal + 2); break;
    case 0x2:
    case 0xA: c = pal_read16(tx, pal + 4); break;
    case 0x6: c = mix555(pal_read16(tx, pal), pal_read16(tx, pal + 2), 1, 1, 1); break;
    case 0xE: c = mix555(pal_read16(tx, pal), pal_read16(tx, pal + 2), 5, 3, 3); break;
    case 0xB: c = pal_read16(tx, pal + 6); break;
    case 0xF: c = mix555(pal_read16(tx, pal), pal_read16(tx, pal + 2), 3, 5, 3); break;
    default: /* index 3 in modes 0 and 1 */
        c = 0;
        a = 0;
        break;
    }
    *color = (uint16_t)(c & 0x7FFFu);
    *alpha5 = a;
}

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
