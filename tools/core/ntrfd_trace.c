/*
 * ntrfd_trace.c - NTRFD dumps as GX traces, and dumps written from a trace replay (ntrfd.h).
 *
 * Dump -> trace follows what ndsframereplay's replayer does on hardware (source/main.c:
 * initGlobals, initVram, initFrameState, runGX), expressed as bus writes:
 *   - POWCNT1 and DISPCNT as the reference traces set them (3D on, BG0 = 3D);
 *   - the latched rendering registers (status bits 12-13 of DISP3DCNT are acknowledge bits,
 *     not configuration, and are not written back);
 *   - each saved VRAM bank: mapped to LCDC, written through the LCDC window (non-zero runs
 *     only: banks are zero after reset), then given its saved VRAMCNT;
 *   - the initial state through geometry commands, in the replayer's order: 1-dot depth (not
 *     when 0: melonDS's writer records 0 for "never written", see emit_initial_state),
 *     viewport, colour, material, shininess, lights (vector matrix identity, since the dump
 *     holds already transformed directions), texture coordinates (texture matrix identity, the
 *     dump holds final coordinates), texture parameters, the matrix stacks (LOAD_4X4 +
 *     STORE per entry; all-zero entries are skipped since the stacks are zero after reset),
 *     the current matrices, the matrix mode;
 *   - when the saved SWAP_BUFFERS parameter (the previous frame's: melonDS's writer saves
 *     FlushAttributes when the frame starts) selects W-buffering, a SWAP_BUFFERS with it and a
 *     VBlank that draws nothing (TRACE_VBLANK), as the replayer's GFX_FLUSH + VBlank wait: its
 *     W bit is the depth mode of the frame's polygons (gx/swap.c). Without it a dump of a
 *     frame that follows a W-buffered swap replayed in Z mode;
 *   - the command stream through the command ports (04000400 + 4 * id); 1-dot-depth entries
 *     as DISP_1DOT_DEPTH writes; a SWAP_BUFFERS with the saved parameter if the stream has none;
 *   - one `frame`.
 * Deviation from the replayer (a guess at the better trade-off): the replayer draws a whole
 * polygon from the saved last vertex to seed the vertex state and then swaps, showing one extra
 * frame. We emit that seed polygon only when the stream needs it (a vertex before any
 * BEGIN_VTXS, or a relative vertex before any absolute one), with both render-side bits of its
 * attributes cleared so the engine culls it, and without the extra swap: one dump, one frame.
 * Position stack entry 31 is stored only when non-zero (a store there sets the stack error
 * flag, which is then acknowledged through GXSTAT).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/core/ntrfd.h"
#include "tools/core/system.h"

#define REG_DISPCNT        0x04000000u
#define REG_DISP3DCNT      0x04000060u
#define REG_VRAMCNT_A      0x04000240u
#define REG_POWCNT1        0x04000304u
#define REG_EDGE_COLOR     0x04000330u
#define REG_ALPHA_TEST_REF 0x04000340u
#define REG_CLEAR_COLOR    0x04000350u
#define REG_CLEAR_DEPTH    0x04000354u
#define REG_FOG_COLOR      0x04000358u
#define REG_FOG_OFFSET     0x0400035Cu
#define REG_FOG_TABLE      0x04000360u
#define REG_TOON_TABLE     0x04000380u
#define REG_GXFIFO         0x04000400u
#define REG_GXSTAT         0x04000600u
#define REG_1DOT_DEPTH     0x04000610u
#define VRAM_LCDC          0x06800000u

#define DISP3DCNT_STATUS_BITS 0x3000u /* bits 12-13: underflow / RAM overflow, write 1 to ack */

enum {
    CMD_MTX_MODE = 0x10,
    CMD_MTX_STORE = 0x13,
    CMD_MTX_IDENTITY = 0x15,
    CMD_MTX_LOAD_4X4 = 0x16,
    CMD_COLOR = 0x20,
    CMD_TEXCOORD = 0x22,
    CMD_VTX_16 = 0x23,
    CMD_VTX_10 = 0x24,
    CMD_VTX_XY = 0x25,
    CMD_VTX_DIFF = 0x28,
    CMD_POLYGON_ATTR = 0x29,
    CMD_TEXIMAGE_PARAM = 0x2A,
    CMD_PLTT_BASE = 0x2B,
    CMD_DIF_AMB = 0x30,
    CMD_SPE_EMI = 0x31,
    CMD_LIGHT_VECTOR = 0x32,
    CMD_LIGHT_COLOR = 0x33,
    CMD_SHININESS = 0x34,
    CMD_BEGIN_VTXS = 0x40,
    CMD_SWAP_BUFFERS = 0x50,
    CMD_VIEWPORT = 0x60,
};

static uint32_t lcdc_base(unsigned bank)
{
    static const uint32_t off[NTRFD_NBANKS] = {0x00000, 0x20000, 0x40000, 0x60000,
                                               0x80000, 0x90000, 0x94000};
    return VRAM_LCDC + off[bank];
}

typedef struct emitter {
    dsgx_trace *t;
    int bad;
} emitter;

static void w32(emitter *e, uint32_t addr, uint32_t v)
{
    if (dsgx_trace_add(e->t, TRACE_W32, addr, v)) e->bad = -1;
}
static void w16(emitter *e, uint32_t addr, uint32_t v)
{
    if (dsgx_trace_add(e->t, TRACE_W16, addr, v & 0xFFFFu)) e->bad = -1;
}
static void w8(emitter *e, uint32_t addr, uint32_t v)
{
    if (dsgx_trace_add(e->t, TRACE_W8, addr, v & 0xFFu)) e->bad = -1;
}

/** A geometry command through its command port; zero-parameter commands take one dummy write. */
static void cmd(emitter *e, uint8_t id, const uint32_t *params, unsigned n)
{
    uint32_t port = REG_GXFIFO + 4u * id;
    if (n == 0) w32(e, port, 0);
    for (unsigned i = 0; i < n; i++) w32(e, port, params[i]);
}
static void cmd1(emitter *e, uint8_t id, uint32_t p)
{
    cmd(e, id, &p, 1);
}

static bool all_zero(const uint32_t *m, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (m[i]) return false;
    return true;
}

static void emit_registers(emitter *e, const dsgx_ntrfd *fd)
{
    w16(e, REG_POWCNT1, 0x820F); /* LCDs, 2D A/B, 3D render + geometry, display swap */
    w32(e, REG_DISPCNT, 0x00010108);
    w32(e, REG_DISP3DCNT, fd->disp3dcnt & ~DISP3DCNT_STATUS_BITS);
    for (unsigned i = 0; i < 8; i += 2)
        w32(e, REG_EDGE_COLOR + 2 * i,
            (uint32_t)fd->edge_color[i] | (uint32_t)fd->edge_color[i + 1] << 16);
    w16(e, REG_ALPHA_TEST_REF, fd->alpha_ref);
    w32(e, REG_CLEAR_COLOR, fd->clear_color);
    w32(e, REG_CLEAR_DEPTH, fd->clear_depth);
    w32(e, REG_FOG_COLOR, fd->fog_color);
    w16(e, REG_FOG_OFFSET, fd->fog_offset);
    for (unsigned i = 0; i < 32; i += 4)
        w32(e, REG_FOG_TABLE + i,
            (uint32_t)fd->fog_table[i] | (uint32_t)fd->fog_table[i + 1] << 8 |
                (uint32_t)fd->fog_table[i + 2] << 16 | (uint32_t)fd->fog_table[i + 3] << 24);
    for (unsigned i = 0; i < 32; i += 2)
        w32(e, REG_TOON_TABLE + 2 * i,
            (uint32_t)fd->toon_table[i] | (uint32_t)fd->toon_table[i + 1] << 16);
}

static void emit_vram(emitter *e, const dsgx_ntrfd *fd)
{
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) {
        if (!fd->vram[b] || !dsgx_ntrfd_bank_saved(b, fd->vramcnt[b])) continue;
        w8(e, REG_VRAMCNT_A + b, 0x80); /* enabled, MST 0: LCDC */
        uint32_t n = dsgx_ntrfd_bank_size(b);
        const uint8_t *m = fd->vram[b];
        uint32_t k = 0;
        while (k < n) {
            while (k < n && !(m[k] | m[k + 1] | m[k + 2] | m[k + 3])) k += 4;
            if (k >= n) break;
            /* a run of words, ending after 16 zero bytes in a row */
            uint32_t start = k, zeros = 0;
            while (k < n && zeros < 16) {
                zeros = (m[k] | m[k + 1] | m[k + 2] | m[k + 3]) ? 0 : zeros + 4;
                k += 4;
            }
            uint32_t end = k - zeros;
            if (dsgx_trace_add_data(e->t, lcdc_base(b) + start, m + start, end - start))
                e->bad = -1;
        }
    }
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) w8(e, REG_VRAMCNT_A + b, fd->vramcnt[b]);
}

/** Does the stream use the saved vertex state before setting its own? */
static bool needs_seed_polygon(const dsgx_ntrfd *fd)
{
    bool begun = false, absolute = false;
    for (uint32_t i = 0; i < fd->ncmds; i++) {
        uint8_t c = fd->cmds[i];
        if (c == CMD_BEGIN_VTXS) begun = true;
        if (c < CMD_VTX_16 || c > CMD_VTX_DIFF) continue;
        if (!begun) return true;
        if (c == CMD_VTX_16 || c == CMD_VTX_10)
            absolute = true;
        else if (!absolute)
            return true;
    }
    return false;
}

static void emit_initial_state(emitter *e, const dsgx_ntrfd *fd)
{
    /* 0 is what melonDS's writer records for its engine's reset W limit of 0 (FrameDump.cpp:
     * `ZeroDotWLimit == 0 ? 0 : ...`; every real dump in golden/ntrfd has it, from traces
     * that never write the register): it means "not written since reset", so the engine keeps
     * its own reset limit (0x7FFF), as the trace the dump came from did. A game's explicit 0
     * differs only for 1-dot polygons with W in 0x200..0xFFFFFF. */
    if (fd->zdot_depth != 0) w16(e, REG_1DOT_DEPTH, fd->zdot_depth);
    cmd1(e, CMD_VIEWPORT, fd->viewport);
    cmd1(e, CMD_COLOR, fd->vtx_color);
    cmd1(e, CMD_DIF_AMB, fd->dif_amb);
    cmd1(e, CMD_SPE_EMI, fd->spe_emi);
    cmd(e, CMD_SHININESS, fd->shininess, 32);
    cmd1(e, CMD_MTX_MODE, 2);
    cmd(e, CMD_MTX_IDENTITY, NULL, 0);
    for (unsigned i = 0; i < 4; i++) {
        cmd1(e, CMD_LIGHT_VECTOR, fd->light_vec[i]);
        cmd1(e, CMD_LIGHT_COLOR, fd->light_color[i]);
    }
    cmd1(e, CMD_MTX_MODE, 3);
    cmd(e, CMD_MTX_IDENTITY, NULL, 0);
    cmd1(e, CMD_TEXCOORD, fd->texcoord);
    cmd1(e, CMD_TEXIMAGE_PARAM, fd->teximage_param);
    cmd1(e, CMD_PLTT_BASE, fd->pltt_base);

    /* matrix stacks (MTX_MODE 2 loads both position and vector matrix; 1 then the position) */
    if (!all_zero(fd->proj_stack, 16)) {
        cmd1(e, CMD_MTX_MODE, 0);
        cmd(e, CMD_MTX_LOAD_4X4, fd->proj_stack, 16);
        cmd1(e, CMD_MTX_STORE, 0);
    }
    bool stack_error = false;
    for (unsigned j = 0; j < 32; j++) {
        if (all_zero(fd->pos_stack[j], 16) && all_zero(fd->vec_stack[j], 16)) continue;
        cmd1(e, CMD_MTX_MODE, 2);
        cmd(e, CMD_MTX_LOAD_4X4, fd->vec_stack[j], 16);
        cmd1(e, CMD_MTX_MODE, 1);
        cmd(e, CMD_MTX_LOAD_4X4, fd->pos_stack[j], 16);
        cmd1(e, CMD_MTX_STORE, j);
        stack_error |= j == 31;
    }
    if (!all_zero(fd->tex_stack, 16)) {
        cmd1(e, CMD_MTX_MODE, 3);
        cmd(e, CMD_MTX_LOAD_4X4, fd->tex_stack, 16);
        cmd1(e, CMD_MTX_STORE, 0);
    }
    if (stack_error) w32(e, REG_GXSTAT, 0x8000); /* acknowledge the stack error flag */

    cmd1(e, CMD_MTX_MODE, 0);
    cmd(e, CMD_MTX_LOAD_4X4, fd->proj_mtx, 16);
    cmd1(e, CMD_MTX_MODE, 2);
    cmd(e, CMD_MTX_LOAD_4X4, fd->vec_mtx, 16);
    cmd1(e, CMD_MTX_MODE, 1);
    cmd(e, CMD_MTX_LOAD_4X4, fd->pos_mtx, 16);
    cmd1(e, CMD_MTX_MODE, 3);
    cmd(e, CMD_MTX_LOAD_4X4, fd->tex_mtx, 16);
    cmd1(e, CMD_MTX_MODE, fd->mtx_mode & 3u);

    if (needs_seed_polygon(fd)) {
        /* POLYGON_ATTR bits 6-7 (render back / front surface) cleared: culled either way */
        cmd1(e, CMD_POLYGON_ATTR, fd->poly_attr & ~0xC0u);
        cmd1(e, CMD_BEGIN_VTXS, fd->polygon & 3u);
        unsigned nv = (fd->polygon & 1u) ? 4 : 3;
        for (unsigned i = 0; i < nv; i++) {
            uint32_t v[2] = {fd->vtx_xy, fd->vtx_z};
            cmd(e, CMD_VTX_16, v, 2);
        }
    }
    cmd1(e, CMD_POLYGON_ATTR, fd->poly_attr_unset);
}

/* SWAP_BUFFERS bit 1: W-buffering for the polygons submitted after the swap's VBlank. */
static bool swap_wbuffer_bit(uint32_t param)
{
    return (param & 2u) != 0;
}

int dsgx_ntrfd_to_trace(const dsgx_ntrfd *fd, dsgx_trace *t)
{
    emitter e = {t, 0};
    emit_registers(&e, fd);
    emit_vram(&e, fd);
    emit_initial_state(&e, fd);
    if (swap_wbuffer_bit(fd->swap_param)) {
        /* The saved SWAP_BUFFERS parameter is the one of the frame before (melonDS FrameDump.cpp
         * StartFrameDump saves FlushAttributes), and its W-buffer bit is the depth mode of this
         * frame's polygons. Only a swap and a VBlank set it: the replayer sends it the same way
         * (initFrameState ends with GFX_FLUSH = swapbuffer, then waits for VBlank). */
        cmd1(&e, CMD_SWAP_BUFFERS, fd->swap_param);
        if (dsgx_trace_add(t, TRACE_VBLANK, 0, 0)) e.bad = -1;
    }
    bool swapped = false;
    uint32_t j = 0;
    for (uint32_t i = 0; i < fd->ncmds; i++) {
        uint8_t c = fd->cmds[i];
        int np = dsgx_ntrfd_cmd_params(c);
        if (np < 0 || (uint64_t)j + (unsigned)np > fd->nparams) return -1; /* not from the parser */
        if (c == NTRFD_CMD_1DOT_DEPTH || c == NTRFD_CMD_1DOT_DEPTH_ALT)
            w16(&e, REG_1DOT_DEPTH, fd->params[j]);
        else if (c != 0x00) /* NOP: nothing to execute */
            cmd(&e, c, fd->params + j, (unsigned)np);
        swapped |= c == CMD_SWAP_BUFFERS;
        j += (unsigned)np;
    }
    if (!swapped) cmd1(&e, CMD_SWAP_BUFFERS, fd->swap_param);
    if (dsgx_trace_add(t, TRACE_FRAME, 0, 0)) e.bad = -1;
    return e.bad;
}
