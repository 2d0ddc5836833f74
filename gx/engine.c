/*
 * engine.c - the geometry engine instance and its bus interface.
 *
 * Hardware notes (GBATEK "DS 3D I/O Map", "DS Memory Control - VRAM"; melonDS GPU3D.cpp
 * Read/Write8/16/32, GPU.cpp).
 * - Byte lanes: an 8- or 16-bit write to a 3D register changes only its bytes (GBATEK: the
 *   ARM9 I/O bus has byte strobes). melonDS drops 8-bit writes to CLEAR_*, FOG_COLOR,
 *   FOG_OFFSET and DISP_1DOT_DEPTH; no reference trace makes one. GXFIFO and the command
 *   ports take 32-bit writes only (GBATEK; melonDS ignores narrower ones).
 * - POWCNT1 (04000304): with bit 2 (rendering engine) clear, writes to 04000320..040003FF are
 *   ignored; with bit 3 (geometry engine) clear, writes to 04000400..040006FF are ignored
 *   (melonDS GPU3D::Write*). Reset value 820Fh: the state a program finds at entry after the
 *   firmware boot (melonDS direct boot), so an engine works without a POWCNT1 write.
 * - DISP3DCNT (04000060): bits 0-11 and 14 are written; bits 12 (line-buffer underflow) and 13
 *   (polygon/vertex RAM overflow) are status bits cleared by writing 1 (GBATEK; melonDS).
 * - RDLINES_COUNT (04000320) reads the rendering engine's last report, 46 after reset (melonDS
 *   returns a constant 46). Other 3D registers in 0330..03BF are write-only and read 0.
 * - Result registers (GBATEK): POS_RESULT 0620..062F (4 x 32 bits), VEC_RESULT 0630..0635
 *   (3 x 16 bits; a 32-bit read returns two of them), CLIPMTX_RESULT 0640..067F (the 4x4 clip
 *   matrix, row-major), VECMTX_RESULT 0680..06A3 (the 3x3 part of the vector matrix).
 *   RAM_COUNT (0604): polygons bits 0-11, vertices bits 16-28 of the RAM being built.
 * - VRAMCNT_A..G (04000240..46), _H/_I (48, 49) route to vram.c; 04000247 (WRAMCNT) is not ours.
 * Guess: none; byte-lane behaviour beyond what melonDS does is GBATEK's general I/O rule.
 */
#include "gx/gx_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    DISP3DCNT_WRITABLE = 0x4FFF,
    DISP3DCNT_STATUS = 0x3000,
    POWCNT1_RENDER = 1u << 2,
    POWCNT1_GEOMETRY = 1u << 3,
    POWCNT1_RESET = 0x820F,
    RDLINES_RESET = 46,
    CLEAR_COLOR_RESET = 0x3F000000, /* melonDS Reset: ClearAttr1 */
    CLEAR_DEPTH_RESET = 0x7FFF,     /* melonDS Reset: ClearAttr2 */
};

void gx_log(gx_engine *gx, enum dsgx_log_level level, const char *fmt, ...)
{
    if (!gx->log) return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    gx->log(gx->log_user, level, buf);
}

gx_engine *gx_create(void)
{
    gx_engine *gx = calloc(1, sizeof(*gx));
    if (!gx) return NULL;
    gx->build = calloc(1, sizeof(gx_frame));
    gx->render = calloc(1, sizeof(gx_frame));
    if (!gx->build || !gx->render || !gx_vram_init(&gx->vram)) {
        free(gx->build);
        free(gx->render);
        free(gx);
        return NULL;
    }
    gx_reset(gx);
    return gx;
}

void gx_destroy(gx_engine *gx)
{
    if (!gx) return;
    gx_cmd_free(gx);
    gx_vram_free(&gx->vram);
    free(gx->build);
    free(gx->render);
    free(gx->idle);
    free(gx->spare[0]);
    free(gx->spare[1]);
    free(gx);
}

static void reset_regs(gx_render_regs *r)
{
    memset(r, 0, sizeof(*r));
    r->clear_color = CLEAR_COLOR_RESET;
    r->clear_depth = CLEAR_DEPTH_RESET;
}

size_t gx_memory_bytes(const gx_engine *gx)
{
    size_t n =
        sizeof(*gx) + (gx->idle ? 3u : 2u) * sizeof(gx_frame) + GX_TEX_VRAM_SIZE + GX_PAL_VRAM_SIZE;
    for (unsigned i = 0; i < VRAM_NBANKS; i++) n += gx_vram_bank_size(i);
    return n + gx->cmd.deferred_cap * sizeof(*gx->cmd.deferred);
}

/* Empty a polygon/vertex RAM: its latched registers and counts zero, no VRAM views. The entries
 * are left as they are: nothing reads an entry at or beyond the counts (the rendering engine,
 * save states, RAM_COUNT and the hooks all stop at them; gx_frame.h), and after every swap the
 * RAM being built holds the entries of the frame before last there anyway. Clearing them cost
 * g_heavy_1's bench ~1.2 MB of stores per reset (bench/README.md "frame2"). */
static void empty_frame(gx_frame *f)
{
    memset(f, 0, offsetof(gx_frame, polys));
    f->tex_vram = NULL;
    f->pal_vram = NULL;
}

bool gx_set_frame_rams(gx_engine *gx, unsigned n)
{
    if (n != 2 && n != 3) return false;
    if (n == 2) {
        free(gx->idle);
        gx->idle = NULL;
    } else if (!gx->idle) {
        gx->idle = calloc(1, sizeof(gx_frame));
        if (!gx->idle) return false;
    }
    return true;
}

unsigned gx_frame_rams(const gx_engine *gx)
{
    return gx->idle ? 3u : 2u;
}

void gx_reset(gx_engine *gx)
{
    gx_vram_reset(&gx->vram);
    empty_frame(gx->build);
    empty_frame(gx->render);
    if (gx->idle) empty_frame(gx->idle);
    reset_regs(&gx->regs);
    reset_regs(&gx->render->regs);
    gx->disp3dcnt_status = 0;
    gx->powcnt1 = POWCNT1_RESET;
    gx->dispcnt = 0;
    gx->rdlines = RDLINES_RESET;
    gx->disp_1dot_depth = 0;
    memset(&gx->last_stats, 0, sizeof(gx->last_stats));
    gx_cmd_reset(gx);
    gx_sched_reset(gx);
    gx_mtx_reset(gx);
    gx_geom_reset(gx);
    /* the colours remembered go too (the next batch empties the table), so that a reset engine
     * takes as long as a new one: dsgx bench measures every pass from a reset */
    gx->normals.valid = false;
}

void gx_set_log(gx_engine *gx, dsgx_log_fn fn, void *user)
{
    gx->log = fn;
    gx->log_user = user;
}

void gx_set_hooks(gx_engine *gx, const gx_hooks *hooks)
{
    if (hooks)
        gx->hooks = *hooks;
    else
        memset(&gx->hooks, 0, sizeof(gx->hooks));
}

void gx_get_matrix(gx_engine *gx, int which, int32_t out[16])
{
    const int32_t *m;
    switch (which) {
    case 0: m = gx->mtx.proj; break;
    case 1: m = gx->mtx.pos; break;
    case 2: m = gx->mtx.vec; break;
    case 3: m = gx->mtx.tex; break;
    default: m = gx_mtx_clip(gx); break;
    }
    memcpy(out, m, 16 * sizeof(int32_t));
}

void gx_report_render(gx_engine *gx, uint8_t rdlines, bool underflow)
{
    gx->rdlines = rdlines;
    if (underflow) gx->disp3dcnt_status |= 1u << 12;
}

/* ---- writes: every access becomes a masked write to the aligned 32-bit word ---- */

static uint32_t merge(uint32_t old, uint32_t val, uint32_t mask)
{
    return (old & ~mask) | (val & mask);
}

/* a 16-bit field at byte offset @p off of the word */
static bool lane16(uint32_t mask, unsigned off)
{
    return ((mask >> (off * 8)) & 0xFFFFu) != 0;
}
static uint16_t merge16(uint16_t old, uint32_t val, uint32_t mask, unsigned off)
{
    return (uint16_t)merge(old, val >> (off * 8), mask >> (off * 8));
}

static void write_render_reg(gx_engine *gx, uint32_t addr, uint32_t val, uint32_t mask)
{
    gx_render_regs *r = &gx->regs;
    if (addr >= REG_EDGE_COLOR && addr < REG_ALPHA_TEST_REF) {
        unsigned i = (addr - REG_EDGE_COLOR) / 2;
        for (unsigned h = 0; h < 2; h++)
            if (lane16(mask, h * 2))
                r->edge_color[i + h] = merge16(r->edge_color[i + h], val, mask, h * 2);
    } else if (addr == REG_ALPHA_TEST_REF) {
        if (mask & 0xFFu) r->alpha_ref = (uint8_t)(val & 0x1Fu);
    } else if (addr == REG_CLEAR_COLOR) {
        r->clear_color = merge(r->clear_color, val, mask);
    } else if (addr == REG_CLEAR_DEPTH) {
        if (lane16(mask, 0)) r->clear_depth = merge16(r->clear_depth, val, mask, 0) & 0x7FFFu;
        if (lane16(mask, 2)) r->clear_offset = merge16(r->clear_offset, val, mask, 2);
    } else if (addr == REG_FOG_COLOR) {
        r->fog_color = merge(r->fog_color, val, mask);
    } else if (addr == REG_FOG_OFFSET) {
        if (lane16(mask, 0)) r->fog_offset = merge16(r->fog_offset, val, mask, 0) & 0x7FFFu;
    } else if (addr >= REG_FOG_TABLE && addr < REG_TOON_TABLE) {
        for (unsigned b = 0; b < 4; b++)
            if ((mask >> (b * 8)) & 0xFFu)
                r->fog_table[addr - REG_FOG_TABLE + b] = (uint8_t)((val >> (b * 8)) & 0x7Fu);
    } else if (addr >= REG_TOON_TABLE && addr < REG_TOON_TABLE + 0x40u) { /* 32 entries */
        unsigned i = (addr - REG_TOON_TABLE) / 2;
        for (unsigned h = 0; h < 2; h++)
            if (lane16(mask, h * 2))
                r->toon_table[i + h] = merge16(r->toon_table[i + h], val, mask, h * 2);
    }
    /* RDLINES_COUNT (0320) and the unused addresses (e.g. 03C0..03FF) are read-only / ignored */
}

/* A 32-bit write to GXFIFO or a command port. A port write goes to the scheduler in cycle mode
 * and runs at once otherwise, decided here so that neither path pays for the other's frame. */
static inline void command_write(gx_engine *gx, uint32_t addr, uint32_t val)
{
    if (addr < REG_CMD_PORTS)
        gx_fifo_write(gx, val);
    else if (gx->sched.cycle_mode)
        gx_port_push(gx, addr, val);
    else
        gx_port_write(gx, addr, val);
}

static void write_geometry_reg(gx_engine *gx, uint32_t addr, uint32_t val, uint32_t mask)
{
    if (addr < REG_GXFIFO + 0x200u) { /* GXFIFO and the command ports */
        if (mask != 0xFFFFFFFFu) {
            gx_log(gx, DSGX_LOG_GAME, "narrow write to geometry port %08X ignored", addr);
            return;
        }
        command_write(gx, addr, val);
        return;
    }
    if (addr == REG_GXSTAT) {
        gx_gxstat_write(gx, val, mask);
    } else if (addr == REG_DISP_1DOT_DEPTH) {
        if (!lane16(mask, 0)) return;
        gx->disp_1dot_depth = merge16(gx->disp_1dot_depth, val, mask, 0) & 0x7FFFu;
        gx_geom_set_1dot_depth(gx, gx->disp_1dot_depth);
    }
}

static void write_vramcnt(gx_engine *gx, uint32_t addr, uint32_t val, uint32_t mask)
{
    for (unsigned b = 0; b < 4; b++) {
        if (!((mask >> (b * 8)) & 0xFFu)) continue;
        unsigned reg = addr - REG_VRAMCNT_A + b; /* 0..6 A-G, 7 WRAMCNT, 8 H, 9 I */
        if (reg == 7 || reg > 9) continue;
        unsigned bank = reg < 7 ? reg : reg - 1;
        gx_vram_set_cnt(&gx->vram, bank, (uint8_t)(val >> (b * 8)));
    }
}

static void write_masked(gx_engine *gx, uint32_t addr, uint32_t val, uint32_t mask)
{
    if (addr >= REG_VRAM_LCDC_BASE && addr < REG_VRAM_LCDC_END) {
        gx_vram_lcdc_write32(&gx->vram, addr, val, mask);
        return;
    }
    /* GXFIFO and the command ports next: nearly every other write of a frame (one range test) */
    if (addr - REG_GXFIFO < 0x200u && mask == 0xFFFFFFFFu) {
        if (!(gx->powcnt1 & POWCNT1_GEOMETRY)) return;
        command_write(gx, addr, val);
        return;
    }
    if (addr == REG_DISPCNT) {
        gx->dispcnt = merge(gx->dispcnt, val, mask);
    } else if (addr == REG_DISP3DCNT) {
        uint32_t cur = gx->regs.disp3dcnt;
        gx->regs.disp3dcnt = (uint16_t)(merge(cur, val, mask) & DISP3DCNT_WRITABLE);
        gx->disp3dcnt_status &= (uint16_t) ~(val & mask & DISP3DCNT_STATUS);
    } else if (addr >= REG_VRAMCNT_A && addr < REG_VRAMCNT_A + 12u) {
        write_vramcnt(gx, addr, val, mask);
    } else if (addr == REG_POWCNT1) {
        gx->powcnt1 = (uint16_t)merge(gx->powcnt1, val, mask & 0xFFFFu);
    } else if (addr >= REG_RDLINES_COUNT && addr < REG_GXFIFO) {
        if (gx->powcnt1 & POWCNT1_RENDER) write_render_reg(gx, addr, val, mask);
    } else if (addr >= REG_GXFIFO && addr < 0x04000700u) {
        if (gx->powcnt1 & POWCNT1_GEOMETRY) write_geometry_reg(gx, addr, val, mask);
    }
}

void gx_write32(gx_engine *gx, uint32_t addr, uint32_t val)
{
    addr &= ~3u;
    if (addr - REG_VRAM_LCDC_BASE < REG_VRAM_LCDC_END - REG_VRAM_LCDC_BASE) {
        /* VRAM uploads first, as in write_masked (texture and rear-plane data) */
        gx_vram_lcdc_write32(&gx->vram, addr, val, 0xFFFFFFFFu);
        return;
    }
    /* A command-port write, the bulk of a frame's writes: straight to the executor (run to
     * completion) or the scheduler (cycle-driven mode), without write_masked's decode. Both are
     * tail calls, so this function sets up no frame of its own. */
    if (addr - REG_CMD_PORTS < REG_CMD_PORTS_END - REG_CMD_PORTS &&
        (gx->powcnt1 & POWCNT1_GEOMETRY)) {
        uint8_t op = (uint8_t)((addr & 0x1FCu) >> 2);
        if (gx->sched.cycle_mode)
            gx_sched_push(gx, op, val);
        else
            gx_port_run(gx, op, val);
        return;
    }
    write_masked(gx, addr, val, 0xFFFFFFFFu);
}

void gx_write32_block(gx_engine *gx, uint32_t addr, const uint8_t *bytes, size_t n)
{
    n &= ~(size_t)3;
    const uint32_t window = REG_VRAM_LCDC_END - REG_VRAM_LCDC_BASE;
    for (size_t k = 0; k < n;) {
        uint32_t a = addr + (uint32_t)k, in = a - REG_VRAM_LCDC_BASE;
        if (!(a & 3u) && in < window) { /* (VRAM is neither timed nor seen by commands) */
            size_t len = window - in < n - k ? window - in : n - k;
            gx_vram_lcdc_write_block(&gx->vram, a, bytes + k, (uint32_t)len);
            k += len;
        } else {
            const uint8_t *b = bytes + k;
            gx_write32(gx, a,
                       (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                           (uint32_t)b[3] << 24);
            k += 4;
        }
    }
}

void gx_write_gxfifo(gx_engine *gx, const uint32_t *words, size_t n)
{
    /* write_masked's GXFIFO path for each word: POWCNT1 is not a command's to change */
    if (!(gx->powcnt1 & POWCNT1_GEOMETRY)) return;
    bool untimed = !gx->sched.cycle_mode;
    for (size_t i = 0; i < n; i++) {
        /* a packed word of vertex commands at a word boundary: a batch (batch.c) */
        if (untimed && gx->cmd.packed_left == 0 && (words[i] & 0xDCDCDCDCu) == 0) {
            size_t taken = gx_batch_packed_words(gx, words + i, n - i);
            if (taken) {
                i += taken - 1;
                continue;
            }
        }
        gx_fifo_write(gx, words[i]);
    }
}

void gx_write16(gx_engine *gx, uint32_t addr, uint16_t val)
{
    addr &= ~1u;
    unsigned sh = (addr & 2u) * 8;
    write_masked(gx, addr & ~3u, (uint32_t)val << sh, 0xFFFFu << sh);
}

void gx_write8(gx_engine *gx, uint32_t addr, uint8_t val)
{
    unsigned sh = (addr & 3u) * 8;
    write_masked(gx, addr & ~3u, (uint32_t)val << sh, 0xFFu << sh);
}

/* ---- reads: the aligned 32-bit word, narrowed by the caller ---- */

static uint32_t read_word(gx_engine *gx, uint32_t addr)
{
    if (addr >= REG_VRAM_LCDC_BASE && addr < REG_VRAM_LCDC_END) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; b++)
            v |= (uint32_t)gx_vram_lcdc_read8(&gx->vram, addr + b) << (b * 8);
        return v;
    }
    if (addr >= REG_CLIPMTX_RESULT && addr < REG_VECMTX_RESULT)
        return (uint32_t)gx_mtx_clip(gx)[(addr - REG_CLIPMTX_RESULT) / 4];
    if (addr >= REG_VECMTX_RESULT && addr < REG_VECMTX_RESULT + 36u) {
        unsigned i = (addr - REG_VECMTX_RESULT) / 4; /* 3x3: rows of three */
        return (uint32_t)gx->mtx.vec[(i / 3) * 4 + i % 3];
    }
    if (addr >= REG_POS_RESULT && addr < REG_VEC_RESULT)
        return (uint32_t)gx->geom.pos_result[(addr - REG_POS_RESULT) / 4];
    if (addr >= REG_VEC_RESULT && addr < REG_CLIPMTX_RESULT) {
        unsigned i = (addr - REG_VEC_RESULT) / 2;
        uint32_t lo = i < 3 ? (uint16_t)gx->geom.vec_result[i] : 0;
        uint32_t hi = i + 1 < 3 ? (uint16_t)gx->geom.vec_result[i + 1] : 0;
        return lo | hi << 16;
    }
    if (addr >= REG_VRAMCNT_A && addr < REG_VRAMCNT_A + 12u) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; b++) {
            unsigned reg = addr - REG_VRAMCNT_A + b;
            if (reg == 7 || reg > 9) continue;
            v |= (uint32_t)gx->vram.cnt[reg < 7 ? reg : reg - 1] << (b * 8);
        }
        return v;
    }
    switch (addr) {
    case REG_DISPCNT: return gx->dispcnt;
    case REG_DISP3DCNT: return (uint32_t)gx->regs.disp3dcnt | gx->disp3dcnt_status;
    case REG_POWCNT1: return gx->powcnt1;
    case REG_RDLINES_COUNT: return gx->rdlines;
    case REG_GXSTAT: return gx_gxstat(gx);
    case REG_RAM_COUNT: return (gx->build->npolys & 0xFFFu) | (gx->build->nverts & 0x1FFFu) << 16;
    default: return 0;
    }
}

uint32_t gx_read32(gx_engine *gx, uint32_t addr)
{
    return read_word(gx, addr & ~3u);
}

uint16_t gx_read16(gx_engine *gx, uint32_t addr)
{
    addr &= ~1u;
    return (uint16_t)(read_word(gx, addr & ~3u) >> ((addr & 2u) * 8));
}

uint8_t gx_read8(gx_engine *gx, uint32_t addr)
{
    return (uint8_t)(read_word(gx, addr & ~3u) >> ((addr & 3u) * 8));
}
