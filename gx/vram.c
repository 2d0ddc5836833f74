/*
 * vram.c - VRAM banks, VRAMCNT, LCDC window and the 3D engine's texture/palette views.
 * Hardware notes: see vram.h.
 *
 * Performance: the views are rebuilt at the first render after any VRAM change. A full rebuild
 * (clear 608 KiB, OR every mapped bank in) costs more than rendering a small scene, so each bank
 * records the byte range written since it was last cleared (the rest of it is zero) and each
 * view the range last composed into it: a rebuild clears only that range and ORs only the
 * written ranges in. The views hold the same bytes as after a full rebuild.
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

uint32_t gx_vram_bank_size(unsigned bank)
{
    return bank < VRAM_NBANKS ? bank_size[bank] : 0;
}

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
    /* all zero: nothing used (memset above left every range empty) */
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
        if (v->used_lo[i] < v->used_hi[i])
            memset(v->bank[i] + v->used_lo[i], 0, v->used_hi[i] - v->used_lo[i]);
        v->used_lo[i] = v->used_hi[i] = 0;
        v->cnt[i] = 0;
    }
    v->dirty = true;
}

static bool enabled(const gx_vram *v, unsigned bank)
{
    return (v->cnt[bank] & 0x80) != 0;
}
/* MST is 2 bits for A/B, 3 bits for C-I (GBATEK) */
static unsigned mst(const gx_vram *v, unsigned bank)
{
    return v->cnt[bank] & (bank <= VRAM_B ? 3u : 7u);
}
static unsigned ofs(const gx_vram *v, unsigned bank)
{
    return (v->cnt[bank] >> 3) & 3u;
}

void gx_vram_set_cnt(gx_vram *v, unsigned bank, uint8_t val)
{
    if (bank >= VRAM_NBANKS) return;
    v->cnt[bank] = val;
    v->dirty = true;
}

static uint8_t *lcdc_locate(const gx_vram *v, uint32_t addr, unsigned *bank)
{
    uint32_t off = addr - REG_VRAM_LCDC_BASE;
    for (unsigned i = 0; i < VRAM_NBANKS; i++) {
        if (off >= lcdc_base[i] && off < lcdc_base[i] + bank_size[i]) {
            if (!enabled(v, i) || mst(v, i) != 0) return NULL;
            *bank = i;
            return v->bank[i] + (off - lcdc_base[i]);
        }
    }
    return NULL;
}

void gx_vram_lcdc_write8(gx_vram *v, uint32_t addr, uint8_t val)
{
    gx_vram_lcdc_write32(v, addr & ~3u, (uint32_t)val << ((addr & 3u) * 8),
                         0xFFu << ((addr & 3u) * 8));
}

/* Widen bank b's used range to [lo, hi). */
static void mark_used(gx_vram *v, unsigned b, uint32_t lo, uint32_t hi)
{
    if (v->used_lo[b] >= v->used_hi[b]) {
        v->used_lo[b] = lo, v->used_hi[b] = hi;
    } else {
        if (lo < v->used_lo[b]) v->used_lo[b] = lo;
        if (hi > v->used_hi[b]) v->used_hi[b] = hi;
    }
}

void gx_vram_lcdc_write32(gx_vram *v, uint32_t addr, uint32_t val, uint32_t mask)
{
    /* banks are whole multiples of 4 bytes: the word lies in one bank (located once) */
    unsigned b;
    uint8_t *p = lcdc_locate(v, addr & ~3u, &b);
    if (!p) return;
    for (unsigned k = 0; k < 4; k++)
        if ((mask >> (k * 8)) & 0xFFu) p[k] = (uint8_t)(val >> (k * 8));
    v->dirty = true;
    uint32_t off = (uint32_t)(p - v->bank[b]);
    mark_used(v, b, off, off + 4u); /* conservative by up to 3 bytes: those are zero or data */
}

void gx_vram_lcdc_write_block(gx_vram *v, uint32_t addr, const uint8_t *bytes, uint32_t n)
{
    /* the banks' LCDC ranges tile the window: a piece ends where the data or its bank ends */
    uint32_t off = addr - REG_VRAM_LCDC_BASE;
    for (unsigned i = 0; i < VRAM_NBANKS && n; i++) {
        uint32_t end = lcdc_base[i] + bank_size[i];
        if (off >= end) continue;
        uint32_t len = end - off < n ? end - off : n;
        if (enabled(v, i) && mst(v, i) == 0) {
            uint32_t at = off - lcdc_base[i];
            memcpy(v->bank[i] + at, bytes, len);
            v->dirty = true;
            mark_used(v, i, at, at + len);
        }
        off += len, bytes += len, n -= len;
    }
}

uint8_t gx_vram_lcdc_read8(const gx_vram *v, uint32_t addr)
{
    unsigned b;
    const uint8_t *p = lcdc_locate(v, addr, &b);
    return p ? *p : 0;
}

/* OR bank b's written bytes into view + at (the bank's image starts there); widens the view's
 * used range [*lo, *hi). */
static void or_bank(const gx_vram *v, unsigned b, uint8_t *view, uint32_t at, uint32_t *lo,
                    uint32_t *hi)
{
    uint32_t blo = v->used_lo[b], bhi = v->used_hi[b];
    if (blo >= bhi) return;
    if (*lo >= *hi || at + bhi <= *lo || at + blo >= *hi) /* the view is still zero there */
        memcpy(view + at + blo, v->bank[b] + blo, bhi - blo);
    else
        for (uint32_t i = blo; i < bhi; i++) view[at + i] |= v->bank[b][i];
    if (*lo >= *hi) {
        *lo = at + blo, *hi = at + bhi;
    } else {
        if (at + blo < *lo) *lo = at + blo;
        if (at + bhi > *hi) *hi = at + bhi;
    }
}

void gx_vram_views(gx_vram *v, const uint8_t **tex, const uint8_t **pal)
{
    if (v->dirty) {
        /* clear what the last rebuild wrote: the rest of each view is still zero */
        if (v->tex_lo < v->tex_hi) memset(v->tex_view + v->tex_lo, 0, v->tex_hi - v->tex_lo);
        if (v->pal_lo < v->pal_hi) memset(v->pal_view + v->pal_lo, 0, v->pal_hi - v->pal_lo);
        v->tex_lo = v->tex_hi = v->pal_lo = v->pal_hi = 0;
        for (unsigned b = VRAM_A; b <= VRAM_D; b++)
            if (enabled(v, b) && mst(v, b) == 3)
                or_bank(v, b, v->tex_view, ofs(v, b) * 0x20000u, &v->tex_lo, &v->tex_hi);
        if (enabled(v, VRAM_E) && mst(v, VRAM_E) == 3)
            or_bank(v, VRAM_E, v->pal_view, 0, &v->pal_lo, &v->pal_hi);
        for (unsigned b = VRAM_F; b <= VRAM_G; b++) {
            if (!enabled(v, b) || mst(v, b) != 3) continue;
            unsigned o = ofs(v, b);
            unsigned slot = (o & 1u) + (o >> 1) * 4u;
            or_bank(v, b, v->pal_view, slot * 0x4000u, &v->pal_lo, &v->pal_hi);
        }
        v->dirty = false;
    }
    *tex = v->tex_view;
    *pal = v->pal_view;
}
