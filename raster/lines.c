/*
 * lines.c - a frame drawn one scanline at a time, for emulators that compose the 3D layer line
 * by line with their 2D engine (raster_lines_begin / _read / _end; docs/cycle.md).
 *
 * Hardware notes: the rendering engine draws lines in order into a 48-line buffer the 2D engine
 * reads from (GBATEK "DS 3D Rendering Engine": RDLINES_COUNT; the timing model, timing.c and
 * golden/rdlines/MODEL.md). The line a reader gets is final: drawn (cut as the timing model
 * cuts it) and final-passed. The final pass of line y reads the depth and polygon IDs of lines
 * y - 1 and y + 1 (edge marking), so line y + 1 is drawn first, as melonDS runs the final pass
 * one line behind the rasterizer (GPU3D_Soft.cpp RenderPolygons / ScanlineFinalPass).
 * Same pixels, RDLINES_COUNT and underflow as raster_render: the lines run through the same
 * scanline loop (span.c) against the engine's live timing model, in the same order, which is
 * exactly raster_render's single-thread path (test_raster_lines.c checks every reference
 * trace). Lines are drawn on the calling thread (raster_set_threads does not apply).
 */
#include "raster/raster_internal.h"
#include "raster/threads.h"

#include <string.h>

enum { LINES = 192 };

void raster_lines_begin(raster_engine *r, const gx_frame *in)
{
    if (r->lines.active) raster_lines_end(r, NULL);
    r->lines.timing_at_begin = r->timing;
    r->lines.prev_shadow_mask_at_begin = r->prev_shadow_mask;
    raster_frame_prepare(r, in, in, NULL);
    raster_timing_frame_begin(&r->timing, in);
    if (r->final_pass && r->lazy_clear) raster_complete_clear_border(r);
    raster_band *b = r->band[0];
    b->y0 = 0;
    b->y1 = LINES;
    b->timing = &r->timing;
    raster_band_start(b);
    r->last_lines = RASTER_LINES_NOT_SPLIT;
    r->lines.active = true;
    r->lines.drawn = 0;
    r->lines.finished = 0;
}

/* Draw the lines up to (not including) @p end. */
static void draw_to(raster_engine *r, int end)
{
    raster_band *b = r->band[0];
    while (r->lines.drawn < end) {
        int y = r->lines.drawn++;
        raster_band_line(b, y);
        raster_lines_done(r, y, y + 1); /* (final pass: completes the line's lazy clear) */
    }
}

bool raster_lines_read(raster_engine *r, int y, uint32_t out[256])
{
    if (!r->lines.active || y < 0 || y >= LINES) return false;
    if (!r->final_pass) {
        draw_to(r, y + 1);
        raster_output_line(r, y, out);
        return true;
    }
    draw_to(r, y + 2 < LINES ? y + 2 : LINES);
    if (y >= r->lines.finished) { /* each line's final pass runs once */
        raster_postpass_rows(r, r->frame, NULL, r->lines.finished, y + 1);
        r->lines.finished = (int16_t)(y + 1);
    }
    const uint32_t *line = &r->color[raster_addr(0, y)];
    for (int x = 0; x < DSGX_FRAME_W; x++) out[x] = line[x] & 0x1F3F3F3Fu;
    return true;
}

void raster_lines_end(raster_engine *r, raster_result *res)
{
    if (!r->lines.active) { /* no frame open: the register as it reads */
        if (res) {
            memset(res, 0, sizeof(*res));
            res->rdlines = r->timing.rdlines_reg;
        }
        return;
    }
    draw_to(r, LINES);
    raster_band *b = r->band[0];
    if (b->drew) r->prev_shadow_mask = b->prev_mask;
    raster_timing_frame_end(&r->timing, res);
    r->lazy_clear = false; /* (as raster_render leaves it) */
    r->lines.active = false;
}

void raster_lines_resume(raster_engine *r, const gx_frame *in)
{
    if (!r->lines.active) return;
    int drawn = r->lines.drawn, finished = r->lines.finished;
    if (drawn < 0 || drawn > LINES || finished < 0 || finished > drawn) drawn = finished = 0;
    r->timing = r->lines.timing_at_begin;
    r->prev_shadow_mask = r->lines.prev_shadow_mask_at_begin;
    r->lines.active = false;
    raster_lines_begin(r, in);
    draw_to(r, drawn);
    if (r->final_pass && finished > 0) {
        raster_postpass_rows(r, r->frame, NULL, 0, finished);
        r->lines.finished = (int16_t)finished;
    }
}
