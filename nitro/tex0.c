/*
 * tex0.c - TEX0 blocks: texel, 4x4 texel, 4x4 palette-index and palette data blocks and the
 * texture and palette dictionaries.
 *
 * Layout (pret/pokeheartgold res_struct.h NNSG3dResTex/TexInfo/Tex4x4Info/PlttInfo; apicula
 * nsbmd docs "TEX"; MarioKartToolbox G3dTextureSet.cs):
 *   +0 "TEX0", +4 u32 size; texels: +8 u32 VRAM key, +0xC u16 size>>3, +0xE u16 texture dict
 *   offset, +0x10 u16 flags, +0x12 pad, +0x14 u32 data offset; 4x4 texels: +0x18 key, +0x1C
 *   u16 size>>3, +0x1E u16 dict offset (same dict), +0x20 flags, +0x22 pad, +0x24 u32 data
 *   offset, +0x28 u32 palette-index offset (the index block is half the 4x4 texel block);
 *   palettes: +0x2C key, +0x30 u16 size>>3, +0x32 u16 flags, +0x34 u16 palette dict offset,
 *   +0x36 pad, +0x38 u32 data offset. All offsets from the TEX0 block.
 *   texture dict entry: u32 TEXIMAGE_PARAM (offset>>3, size, format, colour 0), u32 extra
 *   (original width bits 0-10, height 11-21, bit 31 "same": MarioKartToolbox
 *   TextureDictionaryData.cs). 4x4 textures live in the 4x4 blocks at offset<<3 (texels) and
 *   offset<<2 (indices). palette dict entry: u16 offset>>3, u16 flags (bit 0: 4-colour palette).
 * Texel sizes per format: GBATEK "DS 3D Texture Formats" (bits per texel 8, 2, 4, 8, 2 (+1
 * index bit), 8, 16).
 */
#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "nitro/nitro_internal.h"

uint32_t nitro_texture_size(unsigned format, unsigned width, unsigned height)
{
    uint32_t texels = (uint32_t)width * height;
    switch (format) {
    case NITRO_TEX_A3I5:
    case NITRO_TEX_PLTT256:
    case NITRO_TEX_A5I3: return texels;
    case NITRO_TEX_PLTT4:
    case NITRO_TEX_4X4: return texels / 4;
    case NITRO_TEX_PLTT16: return texels / 2;
    case NITRO_TEX_DIRECT: return texels * 2;
    default: return 0;
    }
}

const char *nitro_tex_format_name(unsigned format)
{
    static const char *const names[8] = {"none",       "A3I5", "4-colour", "16-colour",
                                         "256-colour", "4x4",  "A5I3",     "direct"};
    return format < 8 ? names[format] : "invalid";
}

/* A data block: offset field at `ofs_at` (u32, from base), length in bytes. */
static nitro_slice read_block(nitro_cursor *c, size_t base, size_t ofs_at, uint32_t len,
                              const char *what)
{
    nitro_slice s = {0, 0};
    c->pos = ofs_at;
    uint32_t ofs = nitro_cur_u32(c);
    if (len == 0) return s; /* an empty block's offset is never used */
    size_t at = nitro_cur_range(c, ofs_at, base, ofs, len, what);
    s.offset = (uint32_t)at;
    s.size = len;
    return s;
}

static bool inside(nitro_slice block, uint64_t rel, uint64_t len)
{
    return rel <= block.size && len <= block.size - rel;
}

static bool parse_textures(nitro_cursor *c, nitro_tex0 *t, size_t dict_at)
{
    nitro_dict d;
    c->what = "texture dict";
    if (!nitro_dict_read(c, dict_at, 8, &d)) return false;
    t->textures = nitro_calloc(c, d.count, sizeof *t->textures);
    if (t->textures) t->num_textures = d.count;
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        nitro_texture *x = &t->textures[i];
        size_t at = d.data + (size_t)d.entry_size * i;
        c->pos = at;
        x->name = d.entries[i].name;
        x->teximage_param = nitro_cur_u32(c);
        x->extra = nitro_cur_u32(c);
        x->format = teximage_format(x->teximage_param);
        x->width = 8u << teximage_size_s(x->teximage_param);
        x->height = 8u << teximage_size_t(x->teximage_param);
        x->color0_transparent = teximage_color0_transparent(x->teximage_param);
        x->data_offset = teximage_vram_offset(x->teximage_param) << 3;
        uint32_t len = nitro_texture_size(x->format, x->width, x->height);
        nitro_slice block = x->format == NITRO_TEX_4X4 ? t->tex4x4_data : t->tex_data;
        if (!inside(block, x->data_offset, len)) {
            nitro_cur_fail(c, at,
                           "texture \"%s\" (0x%X bytes at 0x%X) outside its 0x%X-byte "
                           "data block",
                           x->name.s, len, x->data_offset, block.size);
            break;
        }
        x->data.offset = block.offset + x->data_offset;
        x->data.size = len;
        if (x->format == NITRO_TEX_4X4) {
            /* tex4x4_pidx is exactly half of tex4x4_data: the check above covers it */
            x->pidx.offset = t->tex4x4_pidx.offset + x->data_offset / 2;
            x->pidx.size = len / 2;
        }
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

static bool parse_palettes(nitro_cursor *c, nitro_tex0 *t, size_t dict_at)
{
    nitro_dict d;
    c->what = "palette dict";
    if (!nitro_dict_read(c, dict_at, 4, &d)) return false;
    t->palettes = nitro_calloc(c, d.count, sizeof *t->palettes);
    if (t->palettes) t->num_palettes = d.count;
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        nitro_palette *p = &t->palettes[i];
        size_t at = d.data + (size_t)d.entry_size * i;
        c->pos = at;
        p->name = d.entries[i].name;
        p->offset_raw = nitro_cur_u16(c);
        p->flags = nitro_cur_u16(c);
        p->data_offset = (uint32_t)p->offset_raw << 3;
        if (p->data_offset >= t->pltt_data.size) {
            nitro_cur_fail(c, at, "palette \"%s\" offset 0x%X outside the 0x%X-byte palette block",
                           p->name.s, p->data_offset, t->pltt_data.size);
            break;
        }
        p->data.offset = t->pltt_data.offset + p->data_offset;
        p->data.size = t->pltt_data.size - p->data_offset;
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

bool nitro_tex0_parse(nitro_cursor *c, nitro_tex0 *t)
{
    size_t base = c->lo;
    c->what = "TEX0 header";
    t->offset = (uint32_t)base;
    c->pos = base + 4;
    t->size = nitro_cur_u32(c);
    t->tex_vram_key = nitro_cur_u32(c);
    t->tex_size_raw = nitro_cur_u16(c);
    size_t tex_dict = nitro_cur_u16(c);
    t->tex_flags = nitro_cur_u16(c);
    c->pos = base + 0x18;
    t->tex4x4_vram_key = nitro_cur_u32(c);
    t->tex4x4_size_raw = nitro_cur_u16(c);
    (void)nitro_cur_u16(c); /* 4x4 dict offset: the same dictionary */
    t->tex4x4_flags = nitro_cur_u16(c);
    c->pos = base + 0x2C;
    t->pltt_vram_key = nitro_cur_u32(c);
    t->pltt_size_raw = nitro_cur_u16(c);
    t->pltt_flags = nitro_cur_u16(c);
    size_t pltt_dict = nitro_cur_u16(c);
    if (!nitro_cur_need(c, 6)) return false; /* pad + palette data offset */
    uint32_t tex_len = (uint32_t)t->tex_size_raw << 3;
    uint32_t t44_len = (uint32_t)t->tex4x4_size_raw << 3;
    uint32_t pltt_len = (uint32_t)t->pltt_size_raw << 3;
    t->tex_data = read_block(c, base, base + 0x14, tex_len, "texel data");
    t->tex4x4_data = read_block(c, base, base + 0x24, t44_len, "4x4 texel data");
    t->tex4x4_pidx = read_block(c, base, base + 0x28, t44_len / 2, "4x4 index data");
    t->pltt_data = read_block(c, base, base + 0x38, pltt_len, "palette data");
    if (!nitro_cur_ok(c)) return false;
    return parse_textures(c, t, base + tex_dict) && parse_palettes(c, t, base + pltt_dict);
}

void nitro_tex0_free(nitro_tex0 *t)
{
    free(t->textures);
    free(t->palettes);
    memset(t, 0, sizeof *t);
}
