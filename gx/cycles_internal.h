/*
 * cycles_internal.h - the cycle model's per-entry charges, inline for the entry executor
 * (exec_internal.h) so that an entry's issue wait and work cost are computed without a call.
 * Hardware notes and the rare paths (vertex-slot waits, polygon-pipeline stalls, idle time):
 * cycles.c. Each function returns the cycles it charged; the executor sums them per entry.
 */
#ifndef DSGX_CYCLES_INTERNAL_H
#define DSGX_CYCLES_INTERNAL_H

#include "gx/gx_internal.h"

enum {
    GX_SLOT_STEP = 9,
    GX_VP_VERTEX = 7, /* vertex tail set by a vertex */
    GX_NP_NORMAL = 7, /* normal tail set by NORMAL */
    GX_VERTEX_WORK = 3,
    GX_VP_AFTER_VERTEX = GX_VP_VERTEX - GX_VERTEX_WORK, /* the vertex tail after a vertex's work */
};

/** The polygon pipeline is idle: every vertex slot free. */
static inline void gx_cyc_pp_idle(gx_cycle_state *c)
{
    c->pp = 0;
    c->slot_counter = 0;
    c->slots_free = 1;
}

/** gx_cyc_run for the polygon pipeline alone (the vertex tail left as it is: batch.c's direct
 *  loop, where it is always set anew before it is read). */
static inline void gx_cyc_run_pp(gx_cycle_state *c, int64_t n)
{
    if (c->pp > 0) {
        if (c->pp > n) {
            c->pp -= (int32_t)n;
            c->slot_counter += (int32_t)n;
            /* melonDS AddCycles: strictly greater than one step */
            while (c->slot_counter > GX_SLOT_STEP) {
                c->slot_counter -= GX_SLOT_STEP;
                c->slots_free >>= 1;
            }
        } else {
            gx_cyc_pp_idle(c);
        }
    }
}

/** @p n cycles pass, busy or idle: the vertex tail and the polygon pipeline count down. */
static inline void gx_cyc_run(gx_cycle_state *c, int64_t n)
{
    if (c->vp > 0) c->vp = c->vp > n ? c->vp - (int32_t)n : 0;
    gx_cyc_run_pp(c, n);
}

/** Charge @p n busy cycles. @return n */
static inline int64_t gx_cyc_add(gx_cycle_state *c, int64_t n)
{
    gx_cyc_run(c, n);
    return n;
}

/* Wait for the next free vertex slot, in whole grid steps (melonDS NextVertexSlot); @p vtail:
 * the vertex tail counts down too (false: gx_cyc_run_pp's callers). @return the cycles waited
 * (the vertex command's issue charge) */
static GX_ALWAYS_INLINE int64_t gx_cyc_next_slot(gx_cycle_state *c, const bool vtail)
{
    int64_t charged = 0;
    int32_t n = (GX_SLOT_STEP - c->slot_counter) + 1;
    for (;;) {
        charged += n;
        if (vtail && c->vp > 0) c->vp = c->vp > n ? c->vp - n : 0;
        if (c->pp <= 0) break; /* cannot happen: we only wait while PP runs */
        if (c->pp > n) {
            c->pp -= n;
            c->slot_counter = 1;
            c->slots_free >>= 1;
            if (c->slots_free & 1u) {
                c->slots_free &= ~1u;
                break;
            }
            n = GX_SLOT_STEP;
        } else {
            gx_cyc_pp_idle(c);
            break;
        }
    }
    return charged;
}

/* gx_cyc_next_slot with the vertex tail. */
static inline int64_t gx_cycles_next_vertex_slot(gx_cycle_state *c)
{
    return gx_cyc_next_slot(c, true);
}

/* cycles.c: the rare waits, out of line */
int64_t gx_cycles_stall(gx_cycle_state *c, int32_t delay, int32_t vp_limit);

/* The "N-cycle" issue classes (melonDS VertexPipelineCmdDelayed4/6/8): a command that can run
 * N cycles after a vertex waits until VP <= (8 - N), else pays the normal tail. */
static inline int64_t gx_cyc_vp_wait(gx_cycle_state *c, int32_t vp_limit)
{
    int64_t n = c->vp > vp_limit ? (c->vp - vp_limit) + 1 : c->np + 1;
    gx_cyc_run(c, n);
    c->np = 0;
    return n;
}

/** The issue cost of a command's first entry, with its pipeline wait (wait class @p wait).
 *  @return the cycles charged */
static inline int64_t gx_cyc_issue(gx_cycle_state *c, unsigned wait)
{
    int64_t n;
    switch (wait) {
    case GX_WAIT_4:
        n = c->np + 1;
        gx_cyc_run(c, n);
        c->np = 0;
        return n;
    case GX_WAIT_6: return gx_cyc_vp_wait(c, 2);
    case GX_WAIT_8: return gx_cyc_vp_wait(c, 0);
    case GX_WAIT_VERTEX:
        if (c->slots_free & 1u) {
            n = 1;
            gx_cyc_run(c, 1);
        } else {
            n = gx_cycles_next_vertex_slot(c);
        }
        c->np = 0;
        return n;
    case GX_WAIT_BEGIN: return gx_cycles_stall(c, 1, 0);
    case GX_WAIT_LIGHTVEC: return gx_cycles_stall(c, 8 + 1, 2);
    case GX_WAIT_BOX: return gx_cycles_stall(c, 10 + 1, 0);
    default: return 0;
    }
}

/* Vertex-slot masks at polygon submission (melonDS SubmitPolygon): bit n = a slot is free n
 * grid steps after the submission. Strips (prim types 2, 3) free fewer slots. */
enum {
    GX_SLOTS_REJECTED = 0x1E,   /* 0b11110, PP 8 */
    GX_SLOTS_QUAD = 0x1E,       /* 0b11110, PP 35 (4 vertices, separate) */
    GX_SLOTS_QUAD_STRIP = 0x1C, /* 0b11100, PP 35 (4 vertices, strip) */
    GX_SLOTS_TRI = 0x0E,        /* 0b1110,  PP 26 */
    GX_SLOTS_TRI_STRIP = 0x08,  /* 0b1000,  PP 26 (strip) */
    GX_PP_REJECTED = 8,
    GX_PP_QUAD = 35,
    GX_PP_OTHER = 26,
};

/* A completed polygon starts the polygon pipeline (melonDS SubmitPolygon): @p rejected (culled,
 * clipped away, 1-dot or no room), else @p quad (4 vertices after clipping) or not, of a strip
 * (prim types 2, 3) or not. */
static inline void gx_cyc_polygon_start(gx_cycle_state *c, bool rejected, bool quad, bool strip)
{
    c->slot_counter = 1;
    if (rejected) {
        c->pp = GX_PP_REJECTED;
        c->slots_free = GX_SLOTS_REJECTED;
    } else if (quad) {
        c->pp = GX_PP_QUAD;
        c->slots_free = strip ? GX_SLOTS_QUAD_STRIP : GX_SLOTS_QUAD;
    } else {
        c->pp = GX_PP_OTHER;
        c->slots_free = strip ? GX_SLOTS_TRI_STRIP : GX_SLOTS_TRI;
    }
}

/* A vertex command ran: start the polygon pipeline if it completed a polygon (melonDS
 * SubmitPolygon), then the vertex tail and the vertex's own 3 cycles (SubmitVertex). */
static inline int64_t gx_cyc_vertex_work(gx_cycle_state *c, const gx_geom_state *g)
{
    if (g->poly_completed)
        gx_cyc_polygon_start(c, g->poly_rejected, g->poly_nverts_clipped == 4,
                             (g->prim_type & 2u) != 0);
    c->vp = GX_VP_VERTEX;
    gx_cyc_run(c, GX_VERTEX_WORK);
    return GX_VERTEX_WORK;
}

/** The polygon pipeline's part of gx_cyc_vertex_end (below), the vertex tail left as it is:
 *  batch.c's direct loop (gx_cyc_issue_vertex_pp), and gx_cyc_vertex_end itself. */
static GX_ALWAYS_INLINE void gx_cyc_vertex_end_pp(gx_cycle_state *c, bool completed, bool rejected,
                                                  bool quad, bool strip)
{
    if (completed) {
        gx_cyc_polygon_start(c, rejected, quad, strip);
        gx_cyc_run_pp(c, GX_VERTEX_WORK);
    } else {
        gx_cyc_run_pp(c, 1 + GX_VERTEX_WORK);
    }
}

/** gx_cyc_vertex_work for the last parameter entry of a vertex command, with that entry's own
 *  cycle (the 1 a parameter entry costs, not yet counted down) folded in, the polygon's outcome
 *  given (@p completed: the vertex completed a polygon, with gx_cyc_polygon_start's flags):
 *  draining is additive (cycles.c), and a completed polygon restarts the polygon pipeline and the
 *  vertex tail is set anew either way, so the entry's cycle only matters for a pipeline that
 *  keeps running. @return the work's 3 cycles (the caller adds the entry's 1) */
static inline int64_t gx_cyc_vertex_end(gx_cycle_state *c, bool completed, bool rejected, bool quad,
                                        bool strip)
{
    gx_cyc_vertex_end_pp(c, completed, rejected, quad, strip);
    c->vp = GX_VP_AFTER_VERTEX; /* (7 counted down by the work: 4, the polygon completed or not) */
    return GX_VERTEX_WORK;
}

/** A vertex command's issue (GX_WAIT_VERTEX) for the polygon pipeline alone, the vertex and
 *  normal tails left as they are: batch.c's direct loop reads neither between its vertices and
 *  sets them after its last one (VP 4, as gx_cyc_vertex_end leaves it; NP as the commands
 *  after it leave it). @return the issue's cycles */
static GX_ALWAYS_INLINE int64_t gx_cyc_issue_vertex_pp(gx_cycle_state *c)
{
    if (c->slots_free & 1u) {
        gx_cyc_run_pp(c, 1);
        return 1;
    }
    return gx_cyc_next_slot(c, false);
}

/** gx_cyc_vertex_end with the outcome as the geometry state gives it. */
static inline int64_t gx_cyc_vertex_work_after1(gx_cycle_state *c, const gx_geom_state *g)
{
    if (g->poly_completed) return gx_cyc_vertex_work(c, g);
    return gx_cyc_vertex_end(c, false, false, false, false);
}

/** A command's work after its handler ran. @p total: what the command's entry has been charged
 *  so far. @return the new total (SWAP_BUFFERS replaces it: melonDS sets CycleCount = 325) */
static inline int64_t gx_cyc_work(gx_engine *gx, const gx_cmd_info *info, int64_t total)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    switch (info->cost_kind) {
    case GX_COST_FIXED:
        if (info->work) total += gx_cyc_add(c, info->work);
        return total;
    case GX_COST_MTX: {
        uint32_t w = gx->mtx.mode == GX_MTX_MODE_TEX      ? info->work_tex
                     : gx->mtx.mode == GX_MTX_MODE_POSVEC ? (uint32_t)info->work + info->work_mode2
                                                          : info->work;
        if (w) total += gx_cyc_add(c, w);
        return total;
    }
    case GX_COST_NORMAL: {
        uint32_t lights = gx->geom.lights_enabled_count;
        c->np = GX_NP_NORMAL;
        return total + gx_cyc_add(c, lights < 1 ? 1 : lights);
    }
    case GX_COST_VERTEX: return total + gx_cyc_vertex_work(c, &gx->geom);
    case GX_COST_SWAP:
        /* melonDS: CycleCount = 325, all pipelines reset ("needs checked") */
        c->vp = 0;
        c->np = 0;
        gx_cyc_pp_idle(c);
        return GX_SWAP_CYCLES;
    default: return total;
    }
}

#endif
