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
 * Allocation: NitroSystem's default frame VRAM managers as NNS_G3dResDefaultSetup drives them
 * (pret/pokeplatinum lib/NitroSystem/asm/g3d/util_nnsg3d.s NNS_G3dResDefaultSetup: texel block
 * with is4x4 = FALSE, then the 4x4 block with TRUE, then the palettes with b4Pltt = bit 15 of
 * the halfword at TEX0 + 0x20 (the 4x4 info's flag, as the assembly reads it), each only when its
 * size is non-zero; then NNS_G3dTexLoad, NNS_G3dPlttLoad and NNS_G3dBindMdlSet). Texture manager
 * (asm/gfd/gfd_frametexvramman.s NNS_GfdInitFrmTexVramManager / NNS_GfdAllocFrmTexVram; region
 * table as decoded in the decompiled frame manager): five regions, slot 0, the two 64 KiB halves of
 * slot 1, slot 2, slot 3; sizes rounded up to 16; 4x4 texels from the low end of slot 0 then slot
 * 2, with half the size from the low end of the matching slot-1 half; other texels from the high
 * end of slot 3, slot 2, slot 0, upper slot 1, lower slot 1 (the search order for 3 or 4 slots; we
 * map all four). Palette manager (gfd_frameplttvramman.s NNS_GfdAllocFrmPlttVram, from the
 * high end as opt 0 asks): size rounded up to 8, the start aligned down to 16 bytes (8 for
 * 4-colour), 4-colour palettes must lie below 0x10000; we give it the whole of bank E.
 * Binding (NNS_G3dBindMdlTex / NNS_G3dBindMdlPltt, bindMdlTex_Internal_ and
 * bindMdlPltt_Internal_ in the pret NitroSystem asm): TEXIMAGE_PARAM |= the texture's stored
 * parameter + (key address >> 3); magW/magH from the texture's original size (see material.c);
 * PLTT_BASE = (palette offset >> 3) + (key address >> 3), both halved unless the palette's
 * dictionary flag bit 0 (4-colour) is set.
 */
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/runtime_internal.h"

#define TEXKEY_MAX  0x7fff0u /* NNS_GFD_TEXSIZE_MAX */
#define PLTTKEY_MAX 0x7fff8u
#define PLTT_SIZE   0x10000u /* bank E */
#define LCDC_A      0x06800000u
#define LCDC_E      0x06880000u

enum { R_SLOT0, R_SLOT1_LO, R_SLOT1_HI, R_SLOT2, R_SLOT3 };

void nitro_texvram_init(nitro_texvram *v)
{
    static const uint32_t base[5] = {0x00000u, 0x20000u, 0x30000u, 0x40000u, 0x60000u};
    memset(v, 0, sizeof *v);
    for (unsigned i = 0; i < 5; i++) {
        v->region[i].base = base[i];
        v->region[i].lo = 0;
        v->region[i].hi = (i == R_SLOT1_LO || i == R_SLOT1_HI) ? 0x10000u : 0x20000u;
        v->region[i].active = true; /* 4 slots: every region */
    }
    v->pltt_lo = 0;
    v->pltt_hi = PLTT_SIZE;
}

bool nitro_texvram_alloc_tex(nitro_texvram *v, uint32_t size, bool is4x4, uint32_t *addr)
{
    uint32_t sz = size == 0 ? 16u : (size + 15u) & ~15u;
    if (size > TEXKEY_MAX || sz >= TEXKEY_MAX) return false;
    if (is4x4) {
        static const unsigned order[2] = {R_SLOT0, R_SLOT2};
        for (unsigned i = 0; i < 2; i++) {
            nitro_vram_region *r = &v->region[order[i]];
            nitro_vram_region *p = &v->region[order[i] == R_SLOT0 ? R_SLOT1_LO : R_SLOT1_HI];
            if (!r->active || r->hi - r->lo < sz) continue;
            if (!p->active || p->hi - p->lo < sz / 2) continue;
            *addr = r->lo + r->base;
            r->lo += sz;
            p->lo += sz / 2;
            return true;
        }
        return false;
    }
    static const unsigned order[5] = {R_SLOT3, R_SLOT2, R_SLOT0, R_SLOT1_HI, R_SLOT1_LO};
    for (unsigned i = 0; i < 5; i++) {
        nitro_vram_region *r = &v->region[order[i]];
        if (!r->active || r->hi - r->lo < sz) continue;
        r->hi -= sz;
        *addr = r->hi + r->base;
        return true;
    }
    return false;
}

bool nitro_texvram_alloc_pltt(nitro_texvram *v, uint32_t size, bool pltt4, uint32_t *addr)
{
    uint32_t sz = size == 0 ? 8u : (size + 7u) & ~7u;
    if (size > PLTTKEY_MAX || sz >= PLTTKEY_MAX) return false;
    uint32_t hi = v->pltt_hi;
    if (hi < sz) return false;
    uint32_t pad = (hi - sz) & (pltt4 ? 7u : 15u);
    uint32_t need = sz + pad;
    if (hi - v->pltt_lo < need) return false;
    if (pltt4 && hi > 0x10000u) return false;
    v->pltt_hi = hi - need;
    *addr = v->pltt_hi;
    return true;
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

/* GX_COMP4x4_PLTT_IDX: where the palette-index data of 4x4 texels at addr lives (GBATEK "DS 3D
 * Texture Formats": slot 1, first half for slot 0, second half for slot 2). */
static uint32_t pidx_addr(uint32_t addr)
{
    return 0x20000u + ((addr & 0x1ffffu) >> 1) + ((addr & 0x40000u) >> 2);
}

bool nitro_texvram_upload(nitro_texvram *v, const nitro_tex0 *tex, const uint8_t *data,
                          const nitro_gx_sink *sink)
{
    if (v->nsets >= NITRO_MAX_TEX_SETS) return false;
    uint32_t tsz = tex->tex_data.size, qsz = tex->tex4x4_data.size, psz = tex->pltt_data.size;
    uint32_t t = 0, q = 0, p = 0;
    nitro_texvram saved = *v;
    bool ok = (!tsz || nitro_texvram_alloc_tex(v, tsz, false, &t)) &&
              (!qsz || nitro_texvram_alloc_tex(v, qsz, true, &q)) &&
              (!psz || nitro_texvram_alloc_pltt(v, psz, (tex->tex4x4_flags & 0x8000u) != 0, &p));
    if (!ok) {
        *v = saved;
        return false;
    }
    for (unsigned b = 0; b < 5; b++) vramcnt(sink, b, 0x80); /* A-E to the LCDC */
    put(sink, LCDC_A + t, data + tex->tex_data.offset, tsz);
    put(sink, LCDC_A + q, data + tex->tex4x4_data.offset, qsz);
    put(sink, LCDC_A + pidx_addr(q), data + tex->tex4x4_pidx.offset, tex->tex4x4_pidx.size);
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
    return true;
}

/* FX_Div(size << 12, orig << 12) unless equal (bindMdlTex_Internal_). */
static fx32 mag(uint32_t size, uint32_t orig)
{
    if (size == orig) return FX32_ONE;
    return nitro_fx_div(dsgx_shl32((int32_t)size, 12), dsgx_shl32((int32_t)orig, 12));
}

bool nitro_texvram_bind_tex(const nitro_texvram *v, const char *name, uint16_t orig_w,
                            uint16_t orig_h, nitro_mat_bind *b)
{
    for (unsigned s = 0; v && s < v->nsets; s++) {
        const nitro_tex_place *pl = &v->sets[s];
        int k = nitro_find_texture(pl->tex, name);
        if (k < 0) continue;
        const nitro_texture *tx = &pl->tex->textures[k];
        uint32_t base = tx->format == NITRO_TEX_4X4 ? pl->tex4x4_base : pl->tex_base;
        b->bound = true;
        b->teximage = tx->teximage_param + ((base >> 3) & 0xffffu);
        b->has_mag = true;
        b->mag_w = mag(tx->extra & 0x7ffu, orig_w);
        b->mag_h = mag((tx->extra >> 11) & 0x7ffu, orig_h);
        return true;
    }
    return false;
}

bool nitro_texvram_bind_pltt(const nitro_texvram *v, const char *name, nitro_mat_bind *b)
{
    for (unsigned s = 0; v && s < v->nsets; s++) {
        const nitro_tex_place *pl = &v->sets[s];
        int k = nitro_find_palette(pl->tex, name);
        if (k < 0) continue;
        const nitro_palette *pa = &pl->tex->palettes[k];
        /* Each part is halved on its own (bindMdlPltt_Internal_, and SetPlttParamaters_ in
         * pret/pokeplatinum lib/NitroSystem/src/g3d/anm/nsbtp.c): an odd 8-byte offset loses
         * its low bit, it is not rounded with the key. */
        uint32_t off = pa->offset_raw, key = (pl->pltt_base >> 3) & 0xffffu;
        if (!(pa->flags & 1u)) {
            off >>= 1;
            key >>= 1;
        }
        b->pltt_bound = true;
        b->pltt_base = (uint16_t)(off + key);
        return true;
    }
    return false;
}

unsigned nitro_bind_textures(const nitro_texvram *v, const nitro_model *m,
                             nitro_mat_bind binds[NITRO_MAX_MATERIALS])
{
    unsigned missing = 0;
    memset(binds, 0, sizeof(nitro_mat_bind) * NITRO_MAX_MATERIALS);
    for (unsigned i = 0; i < m->num_materials && i < NITRO_MAX_MATERIALS; i++) {
        const nitro_material *mat = &m->materials[i];
        if (mat->has_texture && !nitro_texvram_bind_tex(v, mat->texture_name.s, mat->orig_width,
                                                        mat->orig_height, &binds[i]))
            missing++;
        if (mat->has_palette) nitro_texvram_bind_pltt(v, mat->palette_name.s, &binds[i]);
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
