/*
 * texupload.c - putting TEX0 textures and palettes into VRAM and binding materials to them,
 * plus the sink that forwards the runtime's bus accesses to a gx_engine.
 *
 * Hardware notes: VRAM banks A-D (128 KiB each) become texture image slots 0-3 and bank E
 * (64 KiB) texture palette slots 0-3 with VRAMCNT MST=3 (GBATEK "DS Memory Control - VRAM");
 * the CPU writes them while they are mapped to the LCDC (MST=0) at 06800000 (A) .. 06880000 (E).
 * 4x4-compressed texels must sit in slot 0 or 2 with their palette-index data in slot 1 at
 * 0x20000 + texel_offset / 2 (slot 0) or 0x30000 + (texel_offset - 0x40000) / 2 (slot 2)
 * (GBATEK "DS 3D Texture Formats").
 * Allocation (ours, simpler than the NitroSystem VRAM managers, same constraints): 4x4 texels
 * from slot 0 upward (index data then lands in the first half of slot 1), other texels from
 * 0x40000 (slot 2) upward, palettes from palette address 0 upward; every block 8-byte aligned.
 * Binding (NNS_G3dBindMdlTex / NNS_G3dBindMdlPltt): TEXIMAGE_PARAM gets the texture's size,
 * format and colour-0 bits and its VRAM address >> 3; PLTT_BASE is the palette address >> 4,
 * or >> 3 for 4-colour textures (GBATEK PLTT_BASE).
 */
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/runtime_internal.h"

#define TEX4X4_BASE 0x00000u
#define TEX4X4_END  0x20000u
#define TEX_BASE    0x40000u
#define TEX_END     0x80000u
#define PLTT_END    0x10000u /* bank E */
#define LCDC_A      0x06800000u
#define LCDC_E      0x06880000u

void nitro_texvram_init(nitro_texvram *v)
{
    memset(v, 0, sizeof *v);
    v->tex_next = TEX_BASE;
    v->tex4x4_next = TEX4X4_BASE;
    v->pltt_next = 0;
}

static uint32_t align8(uint32_t x)
{
    return (x + 7u) & ~7u;
}

static void put(const nitro_gx_sink *s, uint32_t addr, const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i += 4) {
        uint32_t w = 0;
        for (uint32_t k = 0; k < 4 && i + k < n; k++) w |= (uint32_t)p[i + k] << (8 * k);
        nrt_w32(s, addr + i, w);
    }
}

static void vramcnt(const nitro_gx_sink *s, unsigned bank, uint8_t val)
{
    s->write(s->user, REG_VRAMCNT_A + bank, val, 1);
}

bool nitro_texvram_upload(nitro_texvram *v, const nitro_tex0 *tex, const uint8_t *data,
                          const nitro_gx_sink *sink)
{
    if (v->nsets >= NITRO_MAX_TEX_SETS) return false;
    uint32_t tsz = tex->tex_data.size, qsz = tex->tex4x4_data.size, psz = tex->pltt_data.size;
    uint32_t t = v->tex_next, q = v->tex4x4_next, p = v->pltt_next;
    if (t + tsz > TEX_END || q + qsz > TEX4X4_END || p + psz > PLTT_END) return false;
    for (unsigned b = 0; b < 5; b++) vramcnt(sink, b, 0x80); /* A-E to the LCDC */
    put(sink, LCDC_A + t, data + tex->tex_data.offset, tsz);
    put(sink, LCDC_A + q, data + tex->tex4x4_data.offset, qsz);
    put(sink, LCDC_A + 0x20000u + q / 2, data + tex->tex4x4_pidx.offset, tex->tex4x4_pidx.size);
    put(sink, LCDC_E + p, data + tex->pltt_data.offset, psz);
    /* A-D: MST=3, OFS = slot (bits 3-4); E: MST=3 (palette slots 0-3) */
    for (unsigned b = 0; b < 4; b++) vramcnt(sink, b, (uint8_t)(0x83u | (b << 3)));
    vramcnt(sink, 4, 0x83);
    nitro_tex_place *pl = &v->sets[v->nsets++];
    pl->tex = tex;
    pl->data = data;
    pl->tex_base = t;
    pl->tex4x4_base = q;
    pl->pltt_base = p;
    v->tex_next = align8(t + tsz);
    v->tex4x4_next = align8(q + qsz);
    v->pltt_next = align8(p + psz);
    return true;
}

unsigned nitro_bind_textures(const nitro_texvram *v, const nitro_model *m,
                             nitro_mat_bind binds[NITRO_MAX_MATERIALS])
{
    unsigned missing = 0;
    memset(binds, 0, sizeof(nitro_mat_bind) * NITRO_MAX_MATERIALS);
    for (unsigned i = 0; i < m->num_materials && i < NITRO_MAX_MATERIALS; i++) {
        const nitro_material *mat = &m->materials[i];
        unsigned fmt = 0;
        if (mat->has_texture) {
            bool found = false;
            for (unsigned s = 0; s < v->nsets && !found; s++) {
                const nitro_tex_place *pl = &v->sets[s];
                int k = nitro_find_texture(pl->tex, mat->texture_name.s);
                if (k < 0) continue;
                const nitro_texture *tx = &pl->tex->textures[k];
                fmt = tx->format;
                uint32_t base = fmt == NITRO_TEX_4X4 ? pl->tex4x4_base : pl->tex_base;
                uint32_t addr = base + tx->data_offset;
                binds[i].bound = true;
                binds[i].teximage = (tx->teximage_param & 0x3ff00000u) | ((addr >> 3) & 0xffffu);
                found = true;
            }
            if (!found) missing++;
        }
        if (mat->has_palette) {
            for (unsigned s = 0; s < v->nsets; s++) {
                const nitro_tex_place *pl = &v->sets[s];
                int k = nitro_find_palette(pl->tex, mat->palette_name.s);
                if (k < 0) continue;
                uint32_t addr = pl->pltt_base + pl->tex->palettes[k].data_offset;
                binds[i].pltt_bound = true;
                binds[i].pltt_base = (uint16_t)(fmt == NITRO_TEX_PLTT4 ? addr >> 3 : addr >> 4);
                break;
            }
        }
    }
    return missing;
}

/* ---- the gx_engine sink ---- */

static void gx_sink_write(void *user, uint32_t addr, uint32_t val, unsigned bytes)
{
    if (bytes == 1)
        gx_write8((gx_engine *)user, addr, (uint8_t)val);
    else
        gx_write32((gx_engine *)user, addr, val);
}

static uint32_t gx_sink_read(void *user, uint32_t addr)
{
    return gx_read32((gx_engine *)user, addr);
}

nitro_gx_sink nitro_gx_engine_sink(void *gx_engine_ptr)
{
    nitro_gx_sink s = {gx_engine_ptr, gx_sink_write, gx_sink_read};
    return s;
}
