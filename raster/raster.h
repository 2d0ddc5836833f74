/*
 * raster.h - the DS 3D rendering engine: gx_frame (polygon RAM, vertex RAM, latched registers,
 * texture VRAM) in, 256x192 frame out.
 *
 * One instance per engine (no global state). Rendering is deterministic and pixel-exact.
 *
 * Thread safety (docs/embedding.md "Thread safety"): calls on one engine must not overlap;
 * different engines are independent. raster_render reads the gx_frame it is given (for
 * gx_render_frame(gx): gx's RAM and VRAM views), so no call on that geometry engine may run
 * during it. raster_set_threads' workers belong to the engine and run only inside
 * raster_render.
 */
#ifndef DSGX_RASTER_H
#define DSGX_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"
#include "../gx/gx_frame.h"
#include "frame.h"

DSGX_BEGIN_DECLS

typedef struct raster_engine raster_engine;

typedef struct raster_result {
    uint8_t rdlines;    /**< RDLINES_COUNT after this frame: fewest lines the buffer held */
    bool underflow;     /**< the line buffer underflowed (DISP3DCNT bit 12) */
    uint32_t lines_cut; /**< scanlines on which the timing model cut or dropped polygons */
} raster_result;

raster_engine *raster_create(void);
void raster_destroy(raster_engine *r);

/**
 * Bytes the engine has allocated (its buffers, texel cache, reciprocal tables, one band of
 * polygon state per thread), not counting the worker threads' stacks. Pages never touched
 * (e.g. polygon-state slots beyond the most polygons a line ever had) are not resident, so
 * the resident size is smaller (bench/README.md "Memory").
 */
size_t raster_memory_bytes(const raster_engine *r);

/** Fill X-major edge gaps as melonDS does (true) instead of leaving the 1-pixel gaps real
 *  hardware leaves (false, the default; StrikerX3/nds-interp hardware captures). true also
 *  leaves out the overlapping-edge rule of edge marking, which melonDS lacks (raster/curse.c):
 *  the mode draws melonDS's frames. */
void raster_set_melonds_gaps(raster_engine *r, bool on);

/**
 * Select how X-major edges end their run on a scanline (takes effect from the next frame).
 * Default (false): the hardware rule, which leaves 1-pixel gaps in some slopes (e.g. 69x49;
 * StrikerX3/nds-interp captures). true: melonDS's rule (no gaps), which our reference frames use,
 * and no overlapping-edge rule with edge marking (raster/curse.c; melonDS has none either).
 */
void raster_set_melonds_gaps(raster_engine *r, bool on);

/** 3D rendering was powered on (POWCNT1 bit 2 going from 0 to 1): the next frame is the
 *  untimed first frame and RDLINES_COUNT reads its power-on value 63 until a timed frame
 *  (raster/README.md, the scanline timing model). */
void raster_power_on(raster_engine *r);

/**
 * Draw frames with up to @p n threads (1..8; default 1): a frame's scanlines are split into
 * bands drawn at once, with the same result bit for bit (raster/README.md "Threads"). Frames
 * with shadow polygons, and frames too small to gain, still use one thread. @return the number
 * of threads that will be used (fewer when threads cannot be created).
 */
unsigned raster_set_threads(raster_engine *r, unsigned n);
/** The number of threads set by raster_set_threads. */
unsigned raster_threads(const raster_engine *r);

/** Render one frame. @p res may be NULL. @p in must stay unchanged during the call. */
void raster_render(raster_engine *r, const gx_frame *in, dsgx_frame *out, raster_result *res);
/**
 * raster_render with the frame in two parts: @p in's registers, counts and VRAM views, and the
 * polygon and vertex RAM entries of @p ram (those below in's counts; ram's own counts and
 * registers are not read). For a caller that keeps a copy of the registers and views but
 * draws the polygon/vertex RAM in place (the pipelined replay, tools/core/system.c). Both must
 * stay unchanged during the call. raster_render(r, in, out, res) is
 * raster_render_ram(r, in, in, out, res).
 */
void raster_render_ram(raster_engine *r, const gx_frame *in, const gx_frame *ram, dsgx_frame *out,
                       raster_result *res);

/* ---- one scanline at a time, in step with the 2D engine (docs/cycle.md) ---- */

/**
 * Begin drawing @p in one scanline at a time, on the calling thread, instead of raster_render
 * (an open line frame is ended first). @p in (and its VRAM) must stay valid and unchanged until
 * raster_lines_end: gx_render_frame() is, until the next gx_vblank().
 */
void raster_lines_begin(raster_engine *r, const gx_frame *in);
/**
 * The finished line @p y (0..191) into @p out: 256 pixels r6 | g6 << 8 | b6 << 16 | a5 << 24
 * (dsgx_frame's pixel). Draws the lines up to y (and y + 1, which edge marking reads) if not
 * yet drawn; the timing model cuts them as it would in raster_render. Any order of y works; in
 * increasing order each line is drawn once. @return false (out untouched) when no line frame is
 * open or y is out of range.
 */
bool raster_lines_read(raster_engine *r, int y, uint32_t out[256]);
/** End the line frame: draws the lines not read yet (the timing model needs every line) and
 *  reports RDLINES_COUNT and the underflow bit as raster_render does. @p res may be NULL. */
void raster_lines_end(raster_engine *r, raster_result *res);
/** After restoring a save state taken while a line frame was open (raster_engine.lines): draw
 *  its lines so far again from @p in (the restored gx_render_frame()), so that the next reads
 *  continue it exactly. No effect when no line frame was open. */
void raster_lines_resume(raster_engine *r, const gx_frame *in);

DSGX_END_DECLS
#endif
