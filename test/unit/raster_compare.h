/*
 * raster_compare.h - test helper: two rendering engines' frames compared whole (the output
 * and every colour, depth and attribute word of both buffer layers), the first differing
 * buffer word reported with its layer and position. The randomized differential tests of the
 * rasterizer's fast paths use it (a fast path against its reference). Include it after
 * cmocka.h.
 */
#ifndef DSGX_TEST_RASTER_COMPARE_H
#define DSGX_TEST_RASTER_COMPARE_H

#include <string.h>

#include "raster/raster_internal.h"

/* Fail unless the frames @p out_a / @p out_b and the buffers of @p a and @p b are equal;
 * @p names says which is which (e.g. "fast/reference"), @p what what differs. */
static inline void same_frame(const raster_engine *a, const raster_engine *b,
                              const dsgx_frame *out_a, const dsgx_frame *out_b, unsigned frame,
                              const char *names, const char *what)
{
    if (memcmp(out_a, out_b, sizeof *out_a) == 0 &&
        memcmp(a->color, b->color, sizeof a->color) == 0 &&
        memcmp(a->depth, b->depth, sizeof a->depth) == 0 &&
        memcmp(a->attr, b->attr, sizeof a->attr) == 0)
        return;
    for (size_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
        if (a->color[i] != b->color[i] || a->depth[i] != b->depth[i] || a->attr[i] != b->attr[i]) {
            print_error("frame %u: first difference at buffer word %zu (layer %zu, x %d, y %d): "
                        "colour %08x/%08x depth %08x/%08x attr %08x/%08x (%s)\n",
                        frame, i, i / RASTER_BUF_SIZE,
                        (int)(i % RASTER_BUF_SIZE % RASTER_SCANLINE_W) - 1,
                        (int)(i % RASTER_BUF_SIZE / RASTER_SCANLINE_W) - 1, a->color[i],
                        b->color[i], a->depth[i], b->depth[i], a->attr[i], b->attr[i], names);
            break;
        }
    }
    fail_msg("frame %u: %s", frame, what);
}

#endif
