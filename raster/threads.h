/*
 * threads.h - drawing a frame's scanlines on several threads (threads.c). Internal to raster/.
 */
#ifndef DSGX_RASTER_THREADS_H
#define DSGX_RASTER_THREADS_H

#include <stdbool.h>
#include <stddef.h>

#include "raster/raster_internal.h"

/** Band 0 (raster_create). @return false when out of memory. */
bool raster_threads_init(raster_engine *r);
/** Stop the workers and free every band (raster_destroy). */
void raster_threads_free(raster_engine *r);
/** Bytes allocated for the bands and the worker pool (not the workers' stacks). */
size_t raster_threads_memory(const raster_engine *r);

typedef enum raster_lines_result {
    RASTER_LINES_NOT_SPLIT, /**< nothing drawn: one thread, a frame with shadows, or too small */
    RASTER_LINES_SPLIT,     /**< every line drawn by the bands; the timing model replayed */
    RASTER_LINES_CUT,       /**< drawn, but the timing model would have cut a line: the lines
                                 and the timing model must be restarted and drawn on one thread */
    RASTER_LINES_DRAWN,     /**< every line drawn on this thread in polygon-major order (span.c
                                 raster_draw_band_pmajor), each then done; the timing model
                                 replayed */
} raster_lines_result;

/** Draw lines 0..191 of the frame (after raster_setup_frame and raster_timing_frame_begin) in
 *  bands on the engine's threads, when that is possible and worth it; each band then calls
 *  raster_lines_done on its lines. Once per raster_render; with raster_postpass_split after it
 *  when the frame has a final pass (then that closes the frame for lent threads, else this:
 *  raster_lend_frames). */
raster_lines_result raster_draw_lines_split(raster_engine *r);

/** Band @p k's polygons in the last frame split in polygon-major order (threads.c
 *  plan_band_lists: render-list indices in list order), @p n their count; NULL when there is no
 *  such band or its bands walked the whole list. For the tests. */
const uint16_t *raster_band_polys(const raster_engine *r, unsigned k, uint32_t *n);

/** The final pass (raster_postpass_rows) over every line, in bands on the engine's threads
 *  when there are several. */
void raster_postpass_split(raster_engine *r, const gx_frame *in, dsgx_frame *out);

#endif
