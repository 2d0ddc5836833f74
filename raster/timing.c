/*
 * timing.c - skeleton (being written by H5).
 */
#include "raster/timing.h"

#include <string.h>

void raster_timing_init(raster_timing *t)
{
    memset(t, 0, sizeof *t);
    t->rdlines_reg = RASTER_TIMING_RDLINES_POWER_ON;
    t->underflow_vcount = -1;
}

void raster_timing_power_on(raster_timing *t) { raster_timing_init(t); }

void raster_timing_frame_begin(raster_timing *t, const gx_frame *in)
{
    (void)in;
    t->frames_since_power_on++;
    t->timed = false;
    t->lines_cut = 0;
    t->underflow_vcount = -1;
}

void raster_timing_line_begin(raster_timing *t, int y)
{
    t->line_aborted[y & 1] = false;
    t->line_cut[y & 1] = false;
}

void raster_timing_poly_bottom(raster_timing *t, int y) { (void)t, (void)y; }

bool raster_timing_line_aborted(const raster_timing *t, int y) { return t->line_aborted[y & 1]; }

int32_t raster_timing_poly_span(raster_timing *t, int y, int32_t xl, int32_t xr, bool count_pixels)
{
    (void)t, (void)y, (void)xl, (void)xr, (void)count_pixels;
    return RASTER_TIMING_NO_LIMIT;
}

void raster_timing_line_end(raster_timing *t, int y) { (void)t, (void)y; }

void raster_timing_frame_end(raster_timing *t, raster_result *res)
{
    if (res) {
        res->rdlines = t->rdlines_reg;
        res->underflow = false;
        res->lines_cut = t->lines_cut;
    }
}
