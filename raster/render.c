/*
 * render.c - the rendering engine's frame: latch the frame state, clear, draw every polygon
 * scanline by scanline (with the timing model), then the final pass.
 *
 * Hardware notes: the order clear -> polygons (opaque, then translucent, per scanline) -> edge
 * marking / fog / anti-aliasing follows melonDS GPU3D_Soft.cpp RenderFrame/RenderPolygons. melonDS
 * runs the final pass of line y-1 after drawing line y; drawing line y+1 never touches lines
 * <= y, so running the final pass after all lines gives the same pixels. The alpha-test
 * reference is 0 when DISP3DCNT bit 2 is off (melonDS GPU3D.cpp: AlphaRef = bit 2 ? value : 0).
 * State kept across frames as melonDS keeps it: the shadow stencil and its "previous polygon
 * was a shadow mask" flag; the timing model's registers.
 */
#include <stdlib.h>

#include "gx/regs.h"
#include "raster/raster_internal.h"

raster_engine *raster_create(void)
{
    raster_engine *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    raster_timing_init(&r->timing);
    return r;
}

void raster_destroy(raster_engine *r)
{
    free(r);
}

void raster_set_melonds_gaps(raster_engine *r, bool on)
{
    r->melonds_gaps = on;
}

static void latch_frame_state(raster_engine *r, const gx_frame *in)
{
    uint32_t cnt = in->regs.disp3dcnt;
    r->disp3dcnt = (uint16_t)cnt;
    r->alpha_ref = disp3dcnt_alpha_test(cnt) ? (uint8_t)(in->regs.alpha_ref & 0x1Fu) : 0;
    r->fill_all_edges = disp3dcnt_antialias(cnt) || disp3dcnt_edge_marking(cnt);
    raster_pixel_frame_setup(&r->pixel, &in->regs);
}

void raster_render(raster_engine *r, const gx_frame *in, dsgx_frame *out, raster_result *res)
{
    latch_frame_state(r, in);
    raster_postpass_clear(r, in);
    raster_setup_frame(r, in);

    raster_timing_frame_begin(&r->timing, in);
    for (int32_t y = 0; y < 192; y++) raster_draw_scanline(r, y);
    raster_timing_frame_end(&r->timing, res);

    raster_postpass_finish(r, in, out);
}
