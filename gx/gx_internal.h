/*
 * gx_internal.h - the geometry engine instance (private to gx/).
 *
 * The engine is composed of one state block per hardware unit; each block is declared in the
 * header of the unit that owns it:
 *   cmd_internal.h   GXFIFO / PIPE / command ports / packed-word decoding / cycle model / GXSTAT
 *   mtx_internal.h   matrix mode, matrices, stacks, clip matrix
 *   sched_internal.h the cycle-driven mode: engine clock, FIFO/PIPE in time, IRQ/DMA lines
 *   geom_internal.h  vertex attributes, lighting, texcoords, polygon assembly, clipping,
 *                    viewport, the polygon/vertex RAM being filled, BOX/POS/VEC test results
 *   vram.h           VRAM banks and the texture/palette views
 * Handlers take the whole engine (STYLE.md 1) and touch only their own block plus the
 * read-only accessors of the others.
 */
#ifndef DSGX_GX_INTERNAL_H
#define DSGX_GX_INTERNAL_H

#include <stdarg.h>

#include "gx/fixed.h"
#include "gx/gx.h"
#include "gx/regs.h"
#include "gx/vram.h"
#include "gx/cmd_internal.h"
#include "gx/mtx_internal.h"
#include "gx/geom_internal.h"
#include "gx/sched_internal.h"

#if defined(__GNUC__)
#define GX_LIKELY(x)     __builtin_expect(!!(x), 1)
#define GX_UNLIKELY(x)   __builtin_expect(!!(x), 0)
#define GX_ALWAYS_INLINE __attribute__((always_inline)) inline
#define GX_NOINLINE      __attribute__((noinline))
#else
#define GX_LIKELY(x)     (x)
#define GX_UNLIKELY(x)   (x)
#define GX_ALWAYS_INLINE inline
#define GX_NOINLINE
#endif

/* Every member is machine state saved by gx/savestate.c, except the host's settings (log,
 * hooks) and the derived `normals` cache: a new member needs a line in its `pods` table (plain
 * data) or its own section. */
struct gx_engine {
    dsgx_log_fn log;
    void *log_user;
    gx_hooks hooks;
    gx_line_fn line_fn; /* gx_set_line_callback */
    void *line_user;

    gx_vram vram;
    gx_cmd_state cmd;
    gx_mtx_state mtx;
    gx_geom_state geom;
    gx_sched_state sched; /* cycle-driven mode: clock, FIFO/PIPE, timed GXSTAT bits */

    /* 3D registers as last written; copied into the render frame at VBlank after a swap */
    gx_render_regs regs;
    uint16_t disp3dcnt_status; /* DISP3DCNT bits 12-13 (underflow, RAM overflow) */
    uint16_t powcnt1;
    uint32_t dispcnt;
    uint8_t rdlines;          /* RDLINES_COUNT as last reported by the rendering engine */
    uint16_t disp_1dot_depth; /* DISP_1DOT_DEPTH as written (for byte writes) */

    /* double-buffered polygon/vertex RAM: geometry fills *build, the renderer reads *render;
     * with three RAMs (gx_set_frame_rams) *idle is the one drawn before *render, built in next
     * (swap.c), else NULL */
    gx_frame *build;
    gx_frame *render;
    gx_frame *idle;
    /* save-state restore loads both frames here, checking them as it copies, then swaps them
     * with build/render (gx/savestate.c; allocated at the first restore) */
    gx_frame *spare[2];
    gx_frame_stats last_stats;

    /* derived state, not saved: NORMAL's colours remembered across vertex batches (batch.c) */
    gx_normal_cache normals;
};

/** printf-style logging through the engine's callback (no-op without one). */
void gx_log(gx_engine *gx, enum dsgx_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
