/*
 * cycles.c - the geometry engine's cycle model: what each FIFO entry costs, with the overlap of
 * the vertex, normal and polygon pipelines.
 *
 * Hardware notes. The model is melonDS's (GPU3D.cpp AddCycles, NextVertexSlot,
 * StallPolygonPipeline, VertexPipelineCmdDelayed4/6/8, VertexPipelineSubmitCmd, SubmitVertex,
 * SubmitPolygon, CalculateLighting), described in test/data/cycles/MODEL.md section 3.
 * Our figures are checked per frame against melonds_cycles.tsv (test_gx_cycles.c). Cycles are
 * ARM9 bus cycles at 33.51 MHz with the FIFO always fed: the tails only drain through cycles
 * charged to later commands, never through idle time (there is none in trace replay).
 * - Every entry costs at least 1. A command's first entry pays its issue wait (below); each
 *   further parameter entry costs 1; the work cost is added when the command runs.
 * - Vertex tail VP: a vertex sets VP = 7, then spends 3 cycles. "6-cycle" commands pay
 *   (VP - 2) + 1 when VP > 2, "8-cycle" commands VP + 1 when VP > 0; otherwise NP + 1.
 * - Normal tail NP: NORMAL sets NP = 7 and costs max(1, lights enabled). The next issue pays
 *   NP + 1 (unless a vertex-tail wait applies) and clears NP; a vertex clears it for free.
 *   Busy cycles never count NP down (melonDS: only FinishWork does).
 * - Polygon pipeline PP: set when a vertex completes a polygon: 8 with one slot taken when
 *   the polygon is rejected, 35 for 4 vertices after clipping, 26 otherwise. Vertex slots open
 *   on a 9-cycle grid (slot masks below); a vertex finding no free slot waits for the next one.
 * - BEGIN_VTXS, LIGHT_VECTOR and BOX_TEST stall for the whole PP plus 1, 9 and 11.
 * - SWAP_BUFFERS: the outstanding count becomes 325 and every pipeline is dropped.
 * What is a guess: everything melonDS marks as one (MODEL.md section 5), notably the rejected
 * polygon's single slot and the swap dropping the pipelines.
 */
#include "gx/gx_internal.h"

/* Vertex-slot masks at polygon submission (melonDS SubmitPolygon): bit n = a slot is free n
 * grid steps after the submission. Strips (prim types 2, 3) free fewer slots. */
enum {
    SLOTS_REJECTED = 0x1E,   /* 0b11110, PP 8 */
    SLOTS_QUAD = 0x1E,       /* 0b11110, PP 35 (4 vertices, separate) */
    SLOTS_QUAD_STRIP = 0x1C, /* 0b11100, PP 35 (4 vertices, strip) */
    SLOTS_TRI = 0x0E,        /* 0b1110,  PP 26 */
    SLOTS_TRI_STRIP = 0x08,  /* 0b1000,  PP 26 (strip) */
    SLOT_STEP = 9,
    PP_REJECTED = 8,
    PP_QUAD = 35,
    PP_OTHER = 26,
    VP_VERTEX = 7,
    NP_NORMAL = 7,
    VERTEX_WORK = 3,
};

void gx_cycles_reset(gx_engine *gx)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    c->vp = 0;
    c->np = 0;
    c->pp = 0;
    c->slot_counter = 0;
    c->slots_free = 1;
    c->charged = 0;
}

static void pp_idle(gx_cycle_state *c)
{
    c->pp = 0;
    c->slot_counter = 0;
    c->slots_free = 1;
}

/* @p n cycles pass, busy or idle: the vertex tail and the polygon pipeline count down. */
static inline void pipelines_run(gx_cycle_state *c, int64_t n)
{
    if (c->vp > 0) c->vp = c->vp > n ? c->vp - (int32_t)n : 0;
    if (c->pp > 0) {
        if (c->pp > n) {
            c->pp -= (int32_t)n;
            c->slot_counter += (int32_t)n;
            /* melonDS AddCycles: strictly greater than one step */
            while (c->slot_counter > SLOT_STEP) {
                c->slot_counter -= SLOT_STEP;
                c->slots_free >>= 1;
            }
        } else {
            pp_idle(c);
        }
    }
}

void gx_cycles_add(gx_engine *gx, int64_t n)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    c->charged += n;
    pipelines_run(c, n);
}

/* Wait for the next free vertex slot, in whole grid steps (melonDS NextVertexSlot). */
static void next_vertex_slot(gx_cycle_state *c)
{
    int32_t n = (SLOT_STEP - c->slot_counter) + 1;
    for (;;) {
        c->charged += n;
        if (c->vp > 0) c->vp = c->vp > n ? c->vp - n : 0;
        if (c->pp <= 0) break; /* cannot happen: we only wait while PP runs */
        if (c->pp > n) {
            c->pp -= n;
            c->slot_counter = 1;
            c->slots_free >>= 1;
            if (c->slots_free & 1u) {
                c->slots_free &= ~1u;
                break;
            }
            n = SLOT_STEP;
        } else {
            pp_idle(c);
            break;
        }
    }
}

/* BEGIN_VTXS / LIGHT_VECTOR / BOX_TEST (melonDS StallPolygonPipeline): with the polygon
 * pipeline running, pay all of it plus @p delay and drain every pipeline; otherwise wait for
 * the vertex tail down to @p vp_limit, or pay the normal tail. NP is not cleared then. */
static void stall_polygon_pipeline(gx_engine *gx, int32_t delay, int32_t vp_limit)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    if (c->pp > 0) {
        c->charged += c->pp + delay;
        c->vp = 0;
        c->np = 0;
        pp_idle(c);
    } else if (c->vp > vp_limit) {
        gx_cycles_add(gx, (c->vp - vp_limit) + 1);
    } else {
        gx_cycles_add(gx, c->np + 1);
    }
}

/* The "N-cycle" issue classes (melonDS VertexPipelineCmdDelayed4/6/8): a command that can run
 * N cycles after a vertex waits until VP <= (8 - N), else pays the normal tail. */
static void vp_wait(gx_engine *gx, int32_t vp_limit)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    if (c->vp > vp_limit)
        gx_cycles_add(gx, (c->vp - vp_limit) + 1);
    else
        gx_cycles_add(gx, c->np + 1);
    c->np = 0;
}

void gx_cycles_issue(gx_engine *gx, const gx_cmd_info *info)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    unsigned wait = info ? info->wait : GX_WAIT_4; /* unknown opcodes: the 4-cycle class */
    switch (wait) {
    case GX_WAIT_4:
        gx_cycles_add(gx, c->np + 1);
        c->np = 0;
        break;
    case GX_WAIT_6: vp_wait(gx, 2); break;
    case GX_WAIT_8: vp_wait(gx, 0); break;
    case GX_WAIT_VERTEX:
        if (!(c->slots_free & 1u))
            next_vertex_slot(c);
        else
            gx_cycles_add(gx, 1);
        c->np = 0;
        break;
    case GX_WAIT_BEGIN: stall_polygon_pipeline(gx, 1, 0); break;
    case GX_WAIT_LIGHTVEC: stall_polygon_pipeline(gx, 8 + 1, 2); break;
    case GX_WAIT_BOX: stall_polygon_pipeline(gx, 10 + 1, 0); break;
    default: break;
    }
}

/* A vertex command ran: start the polygon pipeline if it completed a polygon (melonDS
 * SubmitPolygon), then the vertex tail and the vertex's own 3 cycles (SubmitVertex). */
static void vertex_work(gx_engine *gx)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    const gx_geom_state *g = &gx->geom;
    if (g->poly_completed) {
        bool strip = (g->prim_type & 2u) != 0;
        c->slot_counter = 1;
        if (g->poly_rejected) {
            c->pp = PP_REJECTED;
            c->slots_free = SLOTS_REJECTED;
        } else if (g->poly_nverts_clipped == 4) {
            c->pp = PP_QUAD;
            c->slots_free = strip ? SLOTS_QUAD_STRIP : SLOTS_QUAD;
        } else {
            c->pp = PP_OTHER;
            c->slots_free = strip ? SLOTS_TRI_STRIP : SLOTS_TRI;
        }
    }
    c->vp = VP_VERTEX;
    gx_cycles_add(gx, VERTEX_WORK);
}

static uint32_t mtx_work(const gx_engine *gx, const gx_cmd_info *info)
{
    switch (gx->mtx.mode) {
    case GX_MTX_MODE_TEX: return info->work_tex;
    case GX_MTX_MODE_POSVEC: return (uint32_t)info->work + info->work_mode2;
    default: return info->work;
    }
}

void gx_cycles_work(gx_engine *gx, const gx_cmd_info *info)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    if (!info) return;
    switch (info->cost_kind) {
    case GX_COST_FIXED:
        if (info->work) gx_cycles_add(gx, info->work);
        break;
    case GX_COST_MTX: {
        uint32_t w = mtx_work(gx, info);
        if (w) gx_cycles_add(gx, w);
        break;
    }
    case GX_COST_NORMAL: {
        uint32_t lights = gx->geom.lights_enabled_count;
        c->np = NP_NORMAL;
        gx_cycles_add(gx, lights < 1 ? 1 : lights);
        break;
    }
    case GX_COST_VERTEX: vertex_work(gx); break;
    case GX_COST_SWAP:
        /* melonDS: CycleCount = 325, all pipelines reset ("needs checked") */
        c->charged = GX_SWAP_CYCLES;
        c->vp = 0;
        c->np = 0;
        pp_idle(c);
        break;
    default: break;
    }
}

/* Idle time (cycle mode only; trace replay has none): melonDS FinishWork lets the vertex tail
 * and the polygon pipeline run down as busy cycles do, and the normal tail too, without
 * charging any command. Draining a then b cycles equals draining a + b. */
bool gx_cycles_idle(gx_engine *gx, uint32_t n)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    if ((c->vp | c->np | c->pp) == 0) return false;
    if (n) pipelines_run(c, n);
    c->np = c->np > (int64_t)n ? c->np - (int32_t)n : 0;
    return c->vp != 0 || c->np != 0 || c->pp != 0;
}
