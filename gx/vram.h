/*
 * vram.h - VRAM banks A-I, VRAMCNT mapping, and the texture/palette view of the 3D engine.
 *
 * Hardware notes (GBATEK "DS Memory Control - VRAM"): banks A-D (128 KiB) map to texture image
 * slots 0-3 with MST=3 (OFS = slot); bank E (64 KiB) maps to texture palette slots 0-3 with MST=3;
 * banks F and G (16 KiB) map to palette slot (OFS.0 + OFS.1 * 4) with MST=3. MST=0 maps a bank
 * into the LCDC window (06800000 + bank offset), where the CPU writes it. Banks mapped to the
 * same slot are read ORed together (as melonDS and GBATEK describe for overlapping mappings);
 * an empty slot reads as zero. H and I have no 3D use but are kept for the LCDC window.
 * Verified: the reference traces upload textures this way. Guess: none.
 */
#ifndef DSGX_VRAM_H
#define DSGX_VRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx_frame.h"
#include "gx/regs.h"

enum { VRAM_A, VRAM_B, VRAM_C, VRAM_D, VRAM_E, VRAM_F, VRAM_G, VRAM_H, VRAM_I, VRAM_NBANKS };

typedef struct gx_vram {
    uint8_t *bank[VRAM_NBANKS]; /* bank memory */
    uint8_t cnt[VRAM_NBANKS];   /* VRAMCNT values */
    bool dirty;                 /* the 3D view must be rebuilt */
    uint8_t *tex_view;          /* GX_TEX_VRAM_SIZE bytes */
    uint8_t *pal_view;          /* GX_PAL_VRAM_SIZE bytes */
    /* Bytes that may be non-zero (vram.c keeps the view rebuild proportional to the data):
     * bank b in [used_lo[b], used_hi[b]) since its last clear, the views in the ranges last
     * composed into them (empty: lo >= hi). */
    uint32_t used_lo[VRAM_NBANKS], used_hi[VRAM_NBANKS];
    uint32_t tex_lo, tex_hi, pal_lo, pal_hi;
} gx_vram;

/** Allocate bank memory (all zero, all banks unmapped). @return false when out of memory. */
bool gx_vram_init(gx_vram *v);
void gx_vram_free(gx_vram *v);
void gx_vram_reset(gx_vram *v);

/** VRAMCNT write for bank index (VRAM_A..VRAM_I). */
void gx_vram_set_cnt(gx_vram *v, unsigned bank, uint8_t val);
/** Byte access through the LCDC window (addr 06800000..068A3FFF); only LCDC-mapped banks. */
void gx_vram_lcdc_write8(gx_vram *v, uint32_t addr, uint8_t val);
/** The bytes of @p val selected by @p mask (0xFF per byte lane) at word address @p addr. */
void gx_vram_lcdc_write32(gx_vram *v, uint32_t addr, uint32_t val, uint32_t mask);
/** @p n bytes at @p addr (4-byte aligned, the whole range in the LCDC window), copied into the
 *  banks mapped there as gx_vram_lcdc_write32 would word by word (n a multiple of 4; bytes
 *  over unmapped banks are dropped). */
void gx_vram_lcdc_write_block(gx_vram *v, uint32_t addr, const uint8_t *bytes, uint32_t n);
uint8_t gx_vram_lcdc_read8(const gx_vram *v, uint32_t addr);

/** Size of a bank in bytes. */
uint32_t gx_vram_bank_size(unsigned bank);

/** Rebuild (if needed) and return the texture and palette views the rendering engine reads. */
void gx_vram_views(gx_vram *v, const uint8_t **tex, const uint8_t **pal);

#endif
