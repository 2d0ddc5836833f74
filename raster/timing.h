/*
 * timing.h - the rendering engine's scanline time budget: per-line polygon/pixel costs, line
 * truncation, the 48-line buffer, RDLINES_COUNT and the DISP3DCNT underflow bit.
 *
 * Model: Jaklyy's melonDS `RDLines` branch as described in test/data/rdlines/MODEL.md (a model
 * fitted to hardware tests, not a hardware capture). Upstream melonDS (our main reference)
 * models none of this; on every frame that stays within budget the two agree pixel for pixel,
 * so the rasterizer always runs through this API.
 *
 * =========================== HOW THE SCANLINE LOOP CALLS THIS (H3) ===========================
 * The raster_engine owns one `raster_timing` (persisting across frames; raster_timing_init()
 * once in raster_create()). In raster_render():
 *
 *   raster_timing_frame_begin(&t, in);            // once, before line 0 (computes which line
 *                                                  // pairs any non-degenerate polygon touches)
 *   for (y = 0; y < 192; y++) {                    // lines strictly in order 0..191
 *       raster_timing_line_begin(&t, y);
 *       for (each polygon p of the render list, in list order) {   // opaque Y-sorted, then
 *                                                                  // translucent
 *           if (y < p.ytop || y > p.ybottom) continue;             // not on this line: free
 *           if (y == p.ybottom && p.ytop != p.ybottom) {            // bottom ("empty") line:
 *               raster_timing_poly_bottom(&t, y);                   // charge 4, never drawn
 *               continue;
 *           }
 *           ...step the polygon's edges for line y exactly as when drawing...
 *           if (raster_timing_line_aborted(&t, y)) continue;       // edges stepped, no draw
 *           int32_t xlim = raster_timing_poly_span(&t, y, xl, xr, count_pixels);
 *           if (xlim < 0) continue;                                // not started (aborted)
 *           ...draw only the pixels with x < xlim (left edge, interior and right edge alike)...
 *       }
 *       raster_timing_line_end(&t, y);           // closes the pair after an odd y
 *   }
 *   raster_timing_frame_end(&t, res);             // fills res->rdlines/underflow/lines_cut
 *
 * xl, xr: the span's first and last pixel on this line INCLUDING both edges, unclamped (xl may
 * be negative, xr may exceed 255; melonDS's xstart/xend after the vertical-right-edge
 * adjustment and the swap of crossed edges, before clamping to the screen).
 * raster_timing_poly_span() charges the polygon's 12 units even when it then returns
 * RASTER_TIMING_SKIP (calibrated against the reference frames, see timing.c). count_pixels: true,
 * except false for a shadow-mask polygon (mode 3, ID 0) that fails the alpha-ref test (MODEL.md 2:
 * it has no pixel cost). The shadow-mask scanline path calls raster_timing_poly_span() the same
 * way. raster_timing_line_aborted() after raster_timing_poly_bottom() also reports a bottom-line
 * abort; once a line is aborted every later polygon on it is skipped (edges still stepped).
 * ==============================================================================================
 *
 * Activation (MODEL.md 4) and how it is reconciled with the upstream references: on the branch
 * the first SWAP_BUFFERS after 3D power-on renders nothing. Our main reference frames come from
 * upstream melonDS, which renders that swap, so here EVERY frame is rendered, but the first
 * frame after raster_timing_init()/raster_timing_power_on() is untimed (never cut) and reports
 * RDLINES_COUNT 63 (the power-on value); timing applies from the second frame on (the first
 * "timed frame", the second swap after power-on), exactly the frames the branch times.
 *
 * Underflow: res->underflow is true when THIS frame's render armed the underflow flag (a pair
 * reached its deadline, including the 12-unit padding). DISP3DCNT bit 12 is sticky on hardware
 * (cleared by writing 1); OR this into the register in the owner of DISP3DCNT.
 */
#ifndef DSGX_RASTER_TIMING_H
#define DSGX_RASTER_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx_frame.h"
#include "raster/raster.h"

#define RASTER_TIMING_LINES 192
#define RASTER_TIMING_PAIRS (RASTER_TIMING_LINES / 2)
/** raster_timing_poly_span() result: the polygon is not drawn on this line. */
#define RASTER_TIMING_SKIP (-1)
/** raster_timing_poly_span() result when nothing is cut (larger than any x). */
#define RASTER_TIMING_NO_LIMIT INT32_MAX
/** RDLINES_COUNT before the first timed frame (MODEL.md 3). */
#define RASTER_TIMING_RDLINES_POWER_ON 63

/** One line's cost as a recording timing model saw it (raster_timing_record): what its
 *  polygons added to the line's counter, and the most the line needed to have left at its
 *  start for none of them to be skipped or cut (see raster_timing_replay_line). */
typedef struct raster_timing_line {
    int64_t time, need; /**< (64-bit: no overflow on any span width) */
} raster_timing_line;

typedef struct raster_timing {
    /** recording instead of timing (raster_timing_record): nothing is ever cut; each line's
     *  cost goes to rec_lines[y] */
    bool recording;
    raster_timing_line rec_cur;    /**< the line being recorded */
    raster_timing_line *rec_lines; /**< RASTER_TIMING_LINES entries */

    /* persistent across frames */
    uint32_t frames_since_power_on; /**< frames begun since power-on (first one is untimed) */
    uint8_t rdlines_reg;            /**< RDLINES_COUNT as the register reads now */

    /* per frame */
    bool timed;                             /**< this frame is subject to the budget */
    bool pair_touched[RASTER_TIMING_PAIRS]; /**< some polygon touches the pair's lines */
    int32_t clock;                          /**< time at the start of the current pair */
    int32_t deadline;                       /**< the current pair's deadline */
    int32_t line_time[2];                   /**< cycle counter of each line of the pair */
    bool line_aborted[2];                   /**< the line gave up on the rest of its list */
    bool line_cut[2];                       /**< the line lost (part of) a polygon */
    int32_t buffered;                       /**< lines waiting in the 48-line buffer */
    int32_t next_read;                      /**< next display line the 2D engine reads */
    int32_t rd_buffered;                    /**< RDLINES's own count of buffered lines */
    int32_t rd_next;                        /**< next line whose read lowers rd_buffered */
    int32_t rdlines_min;                    /**< lowest rd_buffered this frame (63 start) */
    int32_t underflow_vcount;               /**< -1, or the VCount arming DISP3DCNT bit 12 */
    uint32_t lines_cut;                     /**< lines that lost polygons this frame */
} raster_timing;

/**
 * Multi-threaded frames (raster/README.md "Threads"): the lines are drawn by several threads
 * at once, each against its own recording model, which never cuts anything and records every
 * line's cost into @p lines; the engine's model then replays the lines in order
 * (raster_timing_replay_line). When no line would have been cut, the replay leaves the model
 * exactly as the per-polygon calls would have (same clock, RDLINES_COUNT, underflow), and the
 * frame drawn without cuts is the frame; otherwise the frame is drawn again on one thread.
 */
void raster_timing_record(raster_timing *t, raster_timing_line *lines);
/**
 * Replay line @p y (between raster_timing_line_begin and _end, lines in order) from its
 * recorded cost. @return false when the live model would have skipped or cut a polygon on
 * it (the model is then left in an unspecified state: restart the frame).
 */
bool raster_timing_replay_line(raster_timing *t, int y, raster_timing_line rec);

/** The model's constants the inline functions below need (MODEL.md 2; timing.c names them
 *  T_EMPTY_LINE, T_PER_POLY, T_FREE_PIXELS, T_MIN_TO_START). */
#define RASTER_TIMING_EMPTY_LINE   4
#define RASTER_TIMING_PER_POLY     12
#define RASTER_TIMING_FREE_PIXELS  4
#define RASTER_TIMING_MIN_TO_START 2

/**
 * Recording for polygon-major drawing (span.c raster_draw_band_pmajor): the charges of line y
 * go straight to its entry @p rec of the recorded lines, with the same result as the recording
 * model's (raster_timing_poly_bottom / raster_timing_poly_span): a line's polygons come in
 * list order when the polygons are drawn in list order, whatever order the lines come in.
 * raster_timing_rec_start first (what raster_timing_line_begin starts a recorded line with).
 * The need of a line is that of its last charge: a charge adds at least 4 units and asks for at
 * most 2 after it, so each charge's need (time after it + what must be left) exceeds every
 * earlier one's; the functions below store it instead of taking the maximum.
 */
static inline void raster_timing_rec_start(raster_timing_line *rec)
{
    rec->time = 0;
    rec->need = INT64_MIN;
}
/** A polygon's bottom line: 4 units, nothing needed after them (raster_timing_poly_bottom). */
static inline void raster_timing_rec_bottom(raster_timing_line *rec)
{
    rec->time += RASTER_TIMING_EMPTY_LINE;
    rec->need = rec->time;
}

/**
 * Whether lines costing @p lines (RASTER_TIMING_LINES entries, as recorded) would all pass the
 * model as it is now (after raster_timing_frame_begin): the replay of raster_timing_replay_line
 * on a copy. Lines that cost no more (time and need) pass too: a pair's end clock, its
 * padding, the buffer's stalls and the next deadline's time left are monotonic in the lines'
 * costs.
 */
bool raster_timing_fits(const raster_timing *t, const raster_timing_line *lines);

/** Power-on state: RDLINES_COUNT 63, the next frame untimed. */
void raster_timing_init(raster_timing *t);
/** 3D rendering powered (re-)on in POWCNT1: same as init. */
void raster_timing_power_on(raster_timing *t);

/** Start a frame (before line 0). @p in gives the polygons (their ytop/ybottom, degenerate). */
void raster_timing_frame_begin(raster_timing *t, const gx_frame *in);
/** raster_timing_frame_begin with @p in's count of polygons and @p ram's entries
 *  (raster_render_ram). */
void raster_timing_frame_begin_ram(raster_timing *t, const gx_frame *in, const gx_frame *ram);
/** Start scanline @p y (0..191, in order). */
void raster_timing_line_begin(raster_timing *t, int y);
/** A polygon's bottom line (y == ybottom, ytop != ybottom): charge EmptyPolyScanline. */
void raster_timing_poly_bottom(raster_timing *t, int y);
/** True when line @p y gave up: skip the remaining polygons (still step their edges). Inline:
 *  asked once per polygon line. */
static inline bool raster_timing_line_aborted(const raster_timing *t, int y)
{
    return t->timed && y >= 0 && y < RASTER_TIMING_LINES && t->line_aborted[y & 1];
}
/**
 * A polygon covering line @p y with span xl..xr (inclusive, unclamped) wants to start.
 * @return RASTER_TIMING_SKIP (do not draw it), or the x limit: draw only pixels x < limit
 *         (RASTER_TIMING_NO_LIMIT when the whole span fits).
 */
int32_t raster_timing_poly_span(raster_timing *t, int y, int32_t xl, int32_t xr, bool count_pixels);

/** A polygon's span xl..xr on a recorded line (raster_timing_poly_span's recording): its 12
 *  units and pixel cost, after which the start test's 2 units must have been left (counted
 *  from the 12: the pixels they paid for count towards them). */
static inline void raster_timing_rec_span(raster_timing_line *rec, int32_t xl, int32_t xr)
{
    int32_t first = xl < 0 ? 0 : xl;
    int64_t over = (int64_t)xr + 1 - first - RASTER_TIMING_FREE_PIXELS; /* cost when > 0 */
    int64_t start = rec->time + RASTER_TIMING_PER_POLY, time = start + (over > 0 ? over : 0);
    rec->time = time;
    /* time + (cost < 2 ? 2 - cost : 0) = start + max(cost, 2) = max(time, start + 2) */
    rec->need =
        time > start + RASTER_TIMING_MIN_TO_START ? time : start + RASTER_TIMING_MIN_TO_START;
}

/*
 * The polygon-major loop's form of the records above (span.c band_pmajor; the same time and,
 * after raster_timing_prec_end, the same need): while a band draws, rec->need holds not the
 * need but what it follows from, m = max(w, 4) of the line's last charge (w: its width), 6 for
 * a bottom line; raster_timing_prec_end turns it into the need once the band's lines are
 * drawn. A charge of w pixels adds 12 + max(w - 4, 0) = 8 + m and needs time + max(6 - m, 0)
 * (2 units after the 12, the pixels' cost counted: m 4 or less, 5 or 6 or more: 2, 1, 0 more),
 * so the line loop's record is an add and two stores, its need's compare and select made once
 * a line in the band's end instead of once a polygon line. Start lines with
 * raster_timing_rec_start. (unit.test_raster_timing compares them with the records above.)
 */
/** A span that starts on screen (xl >= 0), @p w pixels long (in 32 bits: span.c has @p w):
 *  raster_timing_rec_span(rec, xl, xl + w - 1) in this form. */
static inline void raster_timing_prec_width(raster_timing_line *rec, int32_t w)
{
    const int64_t m = w > RASTER_TIMING_FREE_PIXELS ? w : RASTER_TIMING_FREE_PIXELS;
    rec->time += RASTER_TIMING_PER_POLY - RASTER_TIMING_FREE_PIXELS + m;
    rec->need = m;
}
/** raster_timing_rec_span's charge in raster_timing_prec_width's form. */
static inline void raster_timing_prec_span(raster_timing_line *rec, int32_t xl, int32_t xr)
{
    int32_t first = xl < 0 ? 0 : xl;
    int64_t over = (int64_t)xr + 1 - first - RASTER_TIMING_FREE_PIXELS; /* cost when > 0 */
    int64_t cost = over > 0 ? over : 0;
    rec->time += RASTER_TIMING_PER_POLY + cost;
    /* (m: 4 + the cost, up to 6 where no more is needed) */
    rec->need = RASTER_TIMING_FREE_PIXELS +
                (cost < RASTER_TIMING_MIN_TO_START ? cost : RASTER_TIMING_MIN_TO_START);
}
/** raster_timing_rec_bottom in raster_timing_prec_width's form. */
static inline void raster_timing_prec_bottom(raster_timing_line *rec)
{
    rec->time += RASTER_TIMING_EMPTY_LINE;
    rec->need = RASTER_TIMING_FREE_PIXELS + RASTER_TIMING_MIN_TO_START;
}
/** The need of a line recorded by raster_timing_prec_*, in place (INT64_MIN when nothing was
 *  charged, as raster_timing_rec_start left it). */
static inline void raster_timing_prec_end(raster_timing_line *rec)
{
    const int64_t m = rec->need, six = RASTER_TIMING_FREE_PIXELS + RASTER_TIMING_MIN_TO_START;
    if (m != INT64_MIN) rec->need = rec->time + (m < six ? six - m : 0);
}

/**
 * raster_timing_poly_span(t, y, xl, xr, true), with the common case inline (the scanline loop
 * asks once per polygon line): a timed line that is not aborted and has time for the
 * polygon's 12 units, its start test and all its pixels is charged here; every other case
 * (untimed, recording, aborted, cut or not started) takes the out-of-line function. Same
 * result and model state either way (unit.test_raster_timing compares them).
 */
static inline int32_t raster_timing_poly_span_px(raster_timing *t, int y, int32_t xl, int32_t xr)
{
    if (t->timed && y >= 0 && y < RASTER_TIMING_LINES && !t->line_aborted[y & 1]) {
        int32_t first = xl < 0 ? 0 : xl;
        int64_t width = (int64_t)xr + 1 - first;
        int64_t cost = width > RASTER_TIMING_FREE_PIXELS ? width - RASTER_TIMING_FREE_PIXELS : 0;
        /* time left after the 12: the start test needs 2 of it, the pixels their cost */
        int32_t left = t->deadline - t->clock - t->line_time[y & 1] - RASTER_TIMING_PER_POLY;
        if (left >= RASTER_TIMING_MIN_TO_START && cost <= left) {
            t->line_time[y & 1] += RASTER_TIMING_PER_POLY + (int32_t)cost;
            return RASTER_TIMING_NO_LIMIT;
        }
    }
    return raster_timing_poly_span(t, y, xl, xr, true);
}

/** End scanline @p y; after an odd y this closes the pair (cost, deadline, buffer). */
void raster_timing_line_end(raster_timing *t, int y);
/** End the frame: RDLINES_COUNT latched at VBlank, underflow, lines cut. @p res may be NULL. */
void raster_timing_frame_end(raster_timing *t, raster_result *res);

#endif
