/*
 * cycles.c - the geometry engine's cycle model: what each FIFO entry costs, with the overlap of
 * the vertex, normal and polygon pipelines. The per-entry charges are inline functions in
 * cycles_internal.h (the entry executor inlines them, the vertex-slot wait included: a
 * triangle list waits at almost every vertex); this file keeps the rare waits (polygon-pipeline
 * stalls) and idle time.
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
#include "gx/cycles_internal.h"

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

/* BEGIN_VTXS / LIGHT_VECTOR / BOX_TEST (melonDS StallPolygonPipeline): with the polygon
 * pipeline running, pay all of it plus @p delay and drain every pipeline; otherwise wait for
 * the vertex tail down to @p vp_limit, or pay the normal tail. NP is not cleared then.
 * @return the cycles charged */
int64_t gx_cycles_stall(gx_cycle_state *c, int32_t delay, int32_t vp_limit)
{
    if (c->pp > 0) {
        int64_t n = (int64_t)c->pp + delay;
        c->vp = 0;
        c->np = 0;
        gx_cyc_pp_idle(c);
        return n;
    }
    if (c->vp > vp_limit) return gx_cyc_add(c, (c->vp - vp_limit) + 1);
    return gx_cyc_add(c, c->np + 1);
}

/* Idle time (cycle mode only; trace replay has none): melonDS FinishWork lets the vertex tail
 * and the polygon pipeline run down as busy cycles do, and the normal tail too, without
 * charging any command. Draining a then b cycles equals draining a + b. */
bool gx_cycles_idle(gx_engine *gx, uint32_t n)
{
    gx_cycle_state *c = &gx->cmd.cyc;
    if ((c->vp | c->np | c->pp) == 0) return false;
    if (n) gx_cyc_run(c, n);
    c->np = c->np > (int64_t)n ? c->np - (int32_t)n : 0;
    return c->vp != 0 || c->np != 0 || c->pp != 0;
}
