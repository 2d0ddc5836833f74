/*
 * render_util.h - pieces both sides of `dsgx render` share (cmd_render.c for Nitro models,
 * t3dm_render.c for Tiny3D models): the GX bus writer that also records a trace, and the frame
 * numbers and output-name patterns of --frame/--frames.
 */
#ifndef DSGX_TOOLS_RENDER_UTIL_H
#define DSGX_TOOLS_RENDER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gx/gx.h"
#include "raster/frame.h"
#include "tools/sheet.h"

/** Frame numbers are below this (--frame, --frames). */
#define RENDER_MAX_FRAMES 100000L

/** The options both sides of `dsgx render` take (Nitro models add --tex and --anim FILE,
 *  T3DM models --tex-dir and --anim NAME). */
typedef struct render_options {
    const char *model;  /**< the positional model file */
    const char *select; /**< --model NAME|INDEX (a Nitro model, a T3DM object) */
    const char *out, *trace, *sheet, *frame, *frames, *shard;
    render_camera cam; /**< --eye/--at, --orbit, --fov, --near/--far */
    unsigned scale, clear_rgb, clear_alpha;
    bool edge, fog, aa, all;
    render_light lights[4];
} render_options;

/** Defaults: fov 30, scale 1, everything else off. */
void render_options_init(render_options *o);
/** Read the option at argv[i] if it is one of render_options (or the first positional
 *  argument). @return how many arguments it took (0: not one of these), or -1 after printing
 *  why it is malformed. */
int render_options_parse(render_options *o, int argc, char **argv, int i);

/** A bus writer (nitro_gx_sink user) that forwards to the engine and, when f is set, writes
 *  the trace text of tools/core/trace.h: w8/w32 lines, runs of LCDC VRAM stores as `data`. */
typedef struct render_tracer {
    gx_engine *gx;
    FILE *f;                    /**< NULL: no trace */
    uint32_t run_addr, run_len; /* pending `data` run in the LCDC window */
    uint8_t run[4096];
} render_tracer;

/** nitro_gx_sink.write / .read for a render_tracer. */
void render_tracer_write(void *tracer, uint32_t addr, uint32_t val, unsigned bytes);
uint32_t render_tracer_read(void *tracer, uint32_t addr);
/** Write out the pending `data` run (before `frame` and at the end). */
void render_tracer_flush(render_tracer *t);
/** A nitro_gx_sink.write that drops everything (placement passes). */
void render_null_write(void *user, uint32_t addr, uint32_t val, unsigned bytes);

/** A non-negative decimal frame number below RENDER_MAX_FRAMES, the whole of [s, end). */
bool render_parse_frame(const char *s, const char *end, long *out);
/** "A..B" or "A..B:STEP" with A <= B, STEP >= 1 (--frames). */
bool render_parse_range(const char *s, long *a, long *b, long *step);
/** The %d conversions of an output pattern (%d or %0Nd with N < 10; %% is a '%'), or -1 when
 *  the pattern holds another conversion. */
int render_pattern_convs(const char *pattern);
/** The pattern with its conversion replaced by v (formatted by hand, never by printf). */
void render_pattern_format(const char *pattern, long v, char *out, size_t size);
/** Check and read the frame options: --frame and --frames exclude each other, a sequence's -o
 *  holds one %d conversion (none is allowed for a single frame), --sheet needs --frames,
 *  --trace records one frame. Prints the reason ("dsgx render: ...").
 *  @return 0 with [*a, *b] by *step (a == b for one frame), or 2 (bad options). */
int render_frame_options(const char *frame, const char *frames, const char *out, const char *sheet,
                         const char *trace, long *a, long *b, long *step);

/** One cell of a run: draws cell @p k into @p out and names it in @p label.
 *  @return 0, or 1 with the reason in @p err (left empty: out of memory); the run stops. */
typedef int (*render_cell_fn)(void *user, unsigned k, dsgx_frame *out, char *label, size_t size,
                              char *err, size_t errlen);

typedef struct render_cells_job {
    unsigned count; /**< cells 0..count-1 */
    render_cell_fn cell;
    void *user;
    const char *unit;     /**< the progress line's unit ("frames") */
    const char *item;     /**< the sheet line's unit, singular ("frame") */
    const char *sheet;    /**< the contact sheet's path, or NULL */
    unsigned sheet_scale; /**< its cells' scale (1..16) */
    bool label_first;     /**< print "LABEL HASH" (else "HASH LABEL") per cell */
    const char *tail;     /**< appended to the sheet line, or NULL */
} render_cells_job;

/** Draw the cells in order: one line per cell with its frame hash, the cells on a contact
 *  sheet (every k-th when more than 64, said on stderr), a progress line on a terminal for long
 *  runs, the sheet's path, size and cell count last. @return the exit status. */
int render_cells(const render_cells_job *job);

/** Draws frame @p frame into @p out; false when out of memory. */
typedef bool (*render_draw_fn)(void *user, long frame, dsgx_frame *out);
/** A --frames sequence: frames a..b by step drawn by @p draw, each written to the pattern
 *  (when set, scaled by @p scale) and/or put on a contact sheet labelled with the frame numbers
 *  (every k-th frame when more than 64), `frame N xxh3` printed per frame, a progress line on a
 *  terminal for long runs. @return the exit status. */
int render_sequence(render_draw_fn draw, void *user, long a, long b, long step, const char *pattern,
                    const char *sheet, unsigned scale);

/** A side's own options: @return how many arguments at argv[i] it took (0: not its own),
 *  or -1 after printing why it is malformed. */
typedef int (*render_extra_fn)(void *user, int argc, char **argv, int i);
/** Read the whole command line: render_options, then the side's own options, --help.
 *  @return -1 (go on), 0 (--help printed) or 2 (bad options; usage on stderr). */
int render_options_read(render_options *o, int argc, char **argv, render_extra_fn extra, void *user,
                        void (*usage)(FILE *));

/** Create the directories of an output path (out/frame000.png -> out/), as a user expects. */
void render_make_parent_dirs(const char *path);

#endif
