/*
 * vram.c - putting a converted T3DM texture into DS VRAM (draw.h t3dm_upload_texture).
 *
 * Hardware notes (GBATEK "DS Memory Control - VRAM"): banks A-D become texture slots 0-3 and
 * bank E palette slots 0-3 with VRAMCNT MST=3; the CPU writes them while they are mapped to
 * the LCDC (MST=0) at 06800000 (A) .. 06880000 (E). Allocation reuses the Nitro frame VRAM
 * managers (nitro_texvram_alloc_tex / _pltt), so T3DM textures and Nitro TEX0 blocks share one
 * allocator state. PLTT_BASE counts 8 bytes for 4-colour palettes and 16 for the others
 * (GBATEK "DS 3D Texture Attributes").
 */
#include "gx/regs.h"
#include <stdio.h>
#include <string.h>

#include "t3dm/draw.h"
#include "t3dm/sprite.h"

#define LCDC_A 0x06800000u
#define LCDC_E 0x06880000u

static void vramcnt(const nitro_gx_sink *s, unsigned bank, uint8_t val)
{
    s->write(s->user, REG_VRAMCNT_A + bank, val, 1);
}

bool t3dm_upload_texture(nitro_texvram *v, const uint8_t *texels, uint32_t texel_bytes,
                         const uint16_t *palette, unsigned colors, bool pal4, uint32_t teximage,
                         const nitro_gx_sink *sink, t3dm_texbind *out)
{
    uint32_t t = 0, p = 0;
    nitro_texvram saved = *v;
    if (!nitro_texvram_alloc_tex(v, texel_bytes, false, &t) ||
        (colors && !nitro_texvram_alloc_pltt(v, colors * 2u, pal4, &p))) {
        *v = saved;
        return false;
    }
    for (unsigned b = 0; b < 5; b++) vramcnt(sink, b, 0x80); /* A-E to the LCDC */
    for (uint32_t i = 0; i < texel_bytes; i += 4) {
        uint32_t w = 0;
        for (uint32_t k = 0; k < 4 && i + k < texel_bytes; k++)
            w |= (uint32_t)texels[i + k] << (8 * k);
        sink->write(sink->user, LCDC_A + t + i, w, 4);
    }
    for (unsigned i = 0; i < colors; i += 2) {
        uint32_t w = palette[i] | (i + 1 < colors ? (uint32_t)palette[i + 1] << 16 : 0);
        sink->write(sink->user, LCDC_E + p + 2 * i, w, 4);
    }
    for (unsigned b = 0; b < 4; b++) vramcnt(sink, b, (uint8_t)(0x83u | (b << 3)));
    vramcnt(sink, 4, 0x83);
    out->bound = true;
    out->teximage = (teximage & ~0xFFFFu) | ((t >> 3) & 0xFFFFu);
    out->has_palette = colors > 0;
    out->pltt_base = pal4 ? p >> 3 : p >> 4;
    return true;
}

bool t3dm_upload_sprite(nitro_texvram *v, const uint8_t *data, size_t size,
                        const nitro_gx_sink *sink, t3dm_texbind *out, char *err, size_t err_size)
{
    t3dm_sprite sp;
    t3dm_sprite_error se;
    t3dm_ds_texture tex;
    memset(out, 0, sizeof *out);
    if (t3dm_sprite_parse(data, size, &sp, &se) || t3dm_sprite_to_ds(&sp, NULL, &tex, &se)) {
        snprintf(err, err_size, "sprite at offset 0x%zx: %s", se.offset, se.reason);
        return false;
    }
    uint32_t ti = t3dm_ds_teximage_param(&tex, 0, false, false, false, false, 0);
    bool ok = t3dm_upload_texture(v, tex.texels, (uint32_t)tex.texel_bytes, tex.palette,
                                  tex.palette_colors, tex.format == T3DM_DS_PAL4, ti, sink, out);
    if (!ok) snprintf(err, err_size, "%ux%u texture does not fit in VRAM", tex.width, tex.height);
    t3dm_ds_texture_free(&tex);
    return ok;
}
