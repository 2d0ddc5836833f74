/*
 * lend.h - lending a thread to the frame another thread is drawing (threads.c). Internal to the
 * library (the pipelined replay, tools/core/system.c); not installed.
 *
 * A rendering engine set up with lent threads draws each frame in steps (its scanlines in
 * bands, then its final pass in pieces of lines) that any number of threads may join while a
 * step is open: the thread in raster_render, the engine's own workers, and up to `lent` other
 * threads calling raster_lend meanwhile. A lent thread comes when it has nothing else to do (a
 * pipelined replay's geometry thread, once the next frame's bus writes are done), so a frame
 * never has more runnable threads than raster_set_threads_lent's @p n. Who draws which band
 * changes nothing in the frame: bands are drawn bit-exactly on any thread (raster/README.md
 * "Threads").
 */
#ifndef DSGX_RASTER_LEND_H
#define DSGX_RASTER_LEND_H

#include <stdbool.h>

#include "raster/raster.h"

/**
 * Draw frames with up to @p n threads as raster_set_threads, of which @p lent (at most n - 1)
 * are not the engine's own: threads that call raster_lend while another draws the frame (their
 * band state is the engine's). The engine starts n - 1 - lent workers. @return the number of
 * threads a frame may be drawn on (the thread in raster_render, the workers, the lent ones).
 */
unsigned raster_set_threads_lent(raster_engine *r, unsigned n, unsigned lent);

/**
 * Help draw the frame that raster_render is drawing on another thread: join the step open now,
 * if any (and not joined yet), and draw pieces of it until none is left. May run during
 * raster_render on @p r, and only then or between calls; at most `lent` threads at once (more
 * return false). @return true when it joined a step (call again: another may open).
 */
bool raster_lend(raster_engine *r);

/**
 * Frames whose drawing opens no step any more: raster_render increments it once per frame,
 * when its last step (or its choice to draw on one thread) is behind it. A lent thread that
 * read it before the frame started may stop calling raster_lend once it has moved.
 */
unsigned raster_lend_frames(const raster_engine *r);

#endif
