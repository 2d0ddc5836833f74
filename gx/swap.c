/*
 * swap.c - SWAP_BUFFERS, VBlank latching and the per-frame figures.
 *
 * Hardware notes (GBATEK "DS 3D Polygon/Vertex RAM, SWAP_BUFFERS"; melonDS GPU3D.cpp VBlank).
 * - SWAP_BUFFERS (50h) sets a swap request with its parameter (bit 0 manual translucent sort,
 *   bit 1 W-buffering) and halts command execution until VBlank.
 * - At VBlank, with a swap pending: the polygon/vertex RAM being built becomes the one the
 *   rendering engine draws (the two RAM banks swap), the rendering registers (DISP3DCNT,
 *   CLEAR_*, EDGE_COLOR, ALPHA_TEST_REF, FOG_*, TOON_TABLE) and the swap parameter are latched
 *   with it, the new build RAM is emptied, and execution resumes with the commands held
 *   meanwhile. The W-buffer bit applies to the polygons submitted after the swap, the sort bit
 *   to the frame being rendered (reference README; melonDS FlushAttributes).
 * - melonDS latches the rendering registers at every VBlank while the rendering engine is
 *   powered, swap or not, so a register written without a new swap changes the next render of
 *   the same polygon list; we do the same (the render frame's registers are refreshed).
 * - With the geometry engine powered off (POWCNT1 bit 3) VBlank does nothing (melonDS).
 * - Frame figures: cycles and commands from the first command after the previous swap through
 *   this swap (its 325 cycles included), polygons/vertices as RAM_COUNT reports at the swap.
 */
#include "gx/gx_internal.h"

#include <string.h>

enum { POWCNT1_RENDER = 1u << 2, POWCNT1_GEOMETRY = 1u << 3 };

void gx_cmd_nop(gx_engine *gx, const uint32_t *params)
{
    (void)gx;
    (void)params;
}

void gx_cmd_swap_buffers(gx_engine *gx, const uint32_t *params)
{
    gx->cmd.swap_pending = true;
    gx->cmd.swap_param = params[0] & 3u;
}

bool gx_swap_pending(const gx_engine *gx)
{
    return gx->cmd.swap_pending;
}

/* The rendering registers as the rendering engine latches them. */
static void latch_regs(const gx_engine *gx, gx_render_regs *out, uint32_t swap_param)
{
    *out = gx->regs;
    out->disp3dcnt = (uint16_t)(gx->regs.disp3dcnt | gx->disp3dcnt_status);
    out->swap_param = swap_param;
}

bool gx_vblank(gx_engine *gx)
{
    if (!(gx->powcnt1 & POWCNT1_GEOMETRY)) return false;
    bool rendering = (gx->powcnt1 & POWCNT1_RENDER) != 0;

    if (!gx->cmd.swap_pending) {
        if (rendering) latch_regs(gx, &gx->render->regs, gx->render->regs.swap_param);
        return false;
    }

    uint32_t param = gx->cmd.swap_param;
    gx_frame *done = gx->build;
    if (rendering)
        latch_regs(gx, &done->regs, param);
    else {
        done->regs = gx->render->regs;
        done->regs.swap_param = param;
    }
    gx->build = gx->render;
    gx->render = done;
    if (gx->idle) {
        /* three RAMs: build in the one drawn two frames ago, with the latched registers of
         * the one drawn last, as with two RAMs (a save state holds them) */
        gx_frame *drawn = gx->build;
        gx->build = gx->idle;
        gx->idle = drawn;
        gx->build->regs = drawn->regs;
    }

    gx->last_stats.cycles = gx->cmd.frame_cycles;
    gx->last_stats.commands = gx->cmd.frame_commands;
    gx->last_stats.polygons = done->npolys;
    gx->last_stats.vertices = done->nverts;
    gx->cmd.frame_cycles = 0;
    gx->cmd.frame_commands = 0;

    gx->cmd.swap_pending = false;
    if (gx->sched.cycle_mode) gx_sched_vblank(gx);
    gx_geom_on_vblank(gx, param);
    if (gx->hooks.vblank) gx->hooks.vblank(gx->hooks.user, gx);
    gx_fifo_run_deferred(gx);
    return true;
}

const gx_frame *gx_render_frame(gx_engine *gx)
{
    const uint8_t *tex = NULL, *pal = NULL;
    gx_vram_views(&gx->vram, &tex, &pal);
    gx->render->tex_vram = tex;
    gx->render->pal_vram = pal;
    return gx->render;
}

void gx_last_frame_stats(const gx_engine *gx, gx_frame_stats *out)
{
    *out = gx->last_stats;
}

void gx_current_frame_stats(const gx_engine *gx, gx_frame_stats *out)
{
    memset(out, 0, sizeof(*out));
    out->cycles = gx->cmd.frame_cycles;
    out->commands = gx->cmd.frame_commands;
    out->polygons = gx->build->npolys;
    out->vertices = gx->build->nverts;
}
