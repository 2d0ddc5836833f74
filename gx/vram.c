/*
 * vram.c - VRAM banks, VRAMCNT, LCDC window and the 3D engine's texture/palette views.
 * Hardware notes: see vram.h.
 */
#include "gx/vram.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t bank_size[VRAM_NBANKS] = {
    0x20000, 0x20000, 0x20000, 0x20000, 0x10000, 0x4000, 0x4000, 0x8000, 0x4000,
};
/* offset of each bank in the LCDC window (GBATEK) */
static const uint32_t lcdc_base[VRAM_NBANKS] = {
    0x000000, 0x020000, 0x040000, 0x060000, 0x080000, 0x090000, 0x094000, 0x098000, 0x0A0000,
};

uint32_t gx_vram_bank_size(unsigned bank) { return bank < VRAM_NBANKS ? bank_size[bank] : 0; }

bool gx_vram_init(gx_vram *v)
{
    memset(v, 0, sizeof(*v));
    for (unsigned i = 0; i < VRAM_NBANKS; i++) {
        v->bank[i] = calloc(1, bank_size[i]);
        if (!v->bank[i]) goto fail;
    }
    v->tex_view = calloc(1, GX_TEX_VRAM_SIZE);
    v->pal_view = calloc(1, GX_PAL_VRAM_SIZE);
    if (!v->tex_view || !v->pal_view) goto fail;
    v->dirty = true;
    return true;
fail:
    gx_vram_free(v);
    return false;
}

void gx_vram_free(gx_vram *v)
{
    for (unsigned i = 0; i < VRAM_NBANKS; i++) free(v->bank[i]);
    free(v->tex_view);
    free(v->pal_view);
    memset(v, 0, sizeof(*v));
}

void gx_vram_reset(gx_vram *v)
{
    for (unsigned i = 0; i < VRAM_NBANKS; i++) {
        memset(v->bank[i], 0, bank_size[i]);
        v->cnt[i] = 0;
    }
    v->dirty = true;
}

static bool enabled(const gx_vram *v, unsigned bank) { return (v->cnt[bank] & 0x80) != 0; }
/* MST is 2 bits for A/B, 3 bits for C-I (GBATEK) */
static unsigned mst(const gx_vram *v, unsigned bank)
{
    return v->cnt[bank] & (bank <= VRAM_B ? 3u : 7u);
}
static unsigned ofs(const gx_vram *v, unsigned bank) { return (v->cnt[bank] >> 3) & 3u; }

void gx_vram_set_cnt(gx_vram *v, unsigned bank, uint8_t val)
{
    if (bank >= VRAM_NBANKS) return;
    v->cnt[bank] = val;
    v->dirty = true;
}

static uint8_t *lcdc_locate(const gx_vram *v, uint32_t addr)
{
    uint32_t off = addr - REG_VRAM_LCDC_BASE;
    for (unsigned i = 0; i < VRAM_NBANKS; i++) {
        if (off >= lcdc_base[i] && off < lcdc_base[i] + bank_size[i]) {
            if (!enabled(v, i) || mst(v, i) != 0) return NULL;
            return v->bank[i] + (off - lcdc_base[i]);
        }
    }
    return NULL;
}

void gx_vram_lcdc_write8(gx_vram *v, uint32_t addr, uint8_t val)
{
    uint8_t *p = lcdc_locate(v, addr);
    if (p) {
        *p = val;
        v->dirty = true;
    }
}

uint8_t gx_vram_lcdc_read8(const gx_vram *v, uint32_t addr)
{
    const uint8_t *p = lcdc_locate(v, addr);
    return p ? *p : 0;
}

static void or_into(uint8_t *dst, const uint8_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) dst[i] |= src[i];
}

void gx_vram_views(gx_vram *v, const uint8_t **tex, const uint8_t **pal)
{
    if (v->dirty) {
        memset(v->tex_view, 0, GX_TEX_VRAM_SIZE);
        memset(v->pal_view, 0, GX_PAL_VRAM_SIZE);
        for (unsigned b = VRAM_A; b <= VRAM_D; b++)
            if (enabled(v, b) && mst(v, b) == 3)
                or_into(v->tex_view + ofs(v, b) * 0x20000u, v->bank[b], bank_size[b]);
        if (enabled(v, VRAM_E) && mst(v, VRAM_E) == 3)
            or_into(v->pal_view, v->bank[VRAM_E], bank_size[VRAM_E]);
        for (unsigned b = VRAM_F; b <= VRAM_G; b++) {
            if (!enabled(v, b) || mst(v, b) != 3) continue;
            unsigned o = ofs(v, b);
            unsigned slot = (o & 1u) + (o >> 1) * 4u;
            or_into(v->pal_view + slot * 0x4000u, v->bank[b], bank_size[b]);
        }
        v->dirty = false;
    }
    *tex = v->tex_view;
    *pal = v->pal_view;
}
