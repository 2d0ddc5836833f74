/*
 * timing.c - the rendering engine's scanline time budget (see timing.h for the call protocol).
 *
 * Hardware notes. What this models is Jaklyy's melonDS `RDLines` branch as researched in
 * test/data/rdlines/MODEL.md (constants fitted by that author to polyrastertest's hardware
 * timing scenes); it is a model, not a capture. Facts used, all from MODEL.md:
 *   - one unit = 2 system clocks, a scanline lasts 1065 units; display line i is read from the
 *     line buffer at SLRead[i] = 52440 + 1065 i;
 *   - lines are rasterized in pairs, each line with its own counter starting at FirstPolyDelay
 *     (4) when any polygon touches either line of the pair, else 0; per polygon a bottom line
 *     costs EmptyPolyScanline (4), a covered line PerPolyScanline (12) and every span pixel
 *     after the first NumFreePixels (4) costs PerPixelTiming (1), counted before clamping to
 *     the screen;
 *   - a polygon may not start when its 12 would leave fewer than MinToStartPoly (2) units
 *     before the deadline; a span is truncated exactly where the time runs out; either aborts
 *     the rest of the line;
 *   - a pair costs max(even, odd, FinalPassLen 500) plus min(12, time left to the deadline);
 *     deadlines are SLRead[y-2] for pair y >= 2 and 53501 for pair 0;
 *   - the 48-line buffer stalls the rasterizer at 47 waiting lines until the next read;
 *     RDLINES_COUNT is the lowest count of a second buffer counter that drops at
 *     SLRead[i] - 39 - (i even); the underflow flag arms at VCount y - 1 when pair y reaches
 *     its deadline including the padding.
 * Calibrated here against the 65 frames of test/data/rdlines/manifest.tsv (all 65 match in
 * frame hash, RDLINES_COUNT and underflow bit through `dsgx replay`):
 *   - a polygon's 12 units are spent before the start test, also when it then may not start
 *     (the line may end past the deadline; the pair's padding is then 0 and the next pair
 *     starts late): without this, span_width_sweep 6, the band traces and density_gradient 4
 *     differ;
 *   - the final pass of lines y-3 and y-2 is counted into the buffer when pair y STARTS
 *     (pair 2 adds 1 line, later pairs 2); the stall test uses the count before that;
 *   - the RDLINES minimum is sampled at each counter decrement, from the start of pair 2 up to
 *     the end of the last pair (190); counts below 0 read 0.
 * Guesses: a bottom-line charge aborts the line when it passes the deadline (the reference
 * frames cannot tell 0 from 2 units of margin there).
 */
#include "raster/timing.h"

#include <string.h>

#include "gx/fixed.h"

/* Constants (MODEL.md sections 1-3). */
enum {
    T_LINE = 1065,                               /* units per scanline */
    T_FIRST_READ = 52440,                        /* SLRead[0] */
    T_FIRST_DEADLINE = 53501,                    /* pair 0 (TEMP in the branch: SLRead[2] - 1069) */
    T_FIRST_POLY = 4,                            /* FirstPolyDelay */
    T_EMPTY_LINE = RASTER_TIMING_EMPTY_LINE,     /* EmptyPolyScanline (4) */
    T_PER_POLY = RASTER_TIMING_PER_POLY,         /* PerPolyScanline (12) */
    T_FREE_PIXELS = RASTER_TIMING_FREE_PIXELS,   /* NumFreePixels (4) */
    T_MIN_TO_START = RASTER_TIMING_MIN_TO_START, /* MinToStartPoly (2) */
    T_FINAL_PASS = 500,                          /* FinalPassLen */
    T_PAD = 12,                                  /* padding after a pair */
    T_RD_OFFSET = 39,   /* RDLINES counter drops at SLRead[i] - 39 - (i even) */
    T_STALL_LINES = 47, /* waiting lines at which the rasterizer stalls */
};

static int32_t sl_read(int32_t i)
{
    return T_FIRST_READ + T_LINE * i;
}

static int32_t rd_time(int32_t i)
{
    return sl_read(i) - T_RD_OFFSET - ((i & 1) == 0 ? 1 : 0);
}

static int32_t pair_deadline(int y)
{
    return y == 0 ? T_FIRST_DEADLINE : sl_read(y - 2);
}

void raster_timing_init(raster_timing *t)
{
    memset(t, 0, sizeof *t);
    t->rdlines_reg = RASTER_TIMING_RDLINES_POWER_ON;
    t->underflow_vcount = -1;
}

void raster_timing_power_on(raster_timing *t)
{
    raster_timing_init(t);
}

/* Lines any rendered polygon touches (YTop <= y <= YBottom), folded into pairs. Degenerate
 * polygons are not in the render list (melonDS GPU3D_Soft.cpp RenderPolygons skips them). */
static void mark_touched_pairs(raster_timing *t, const gx_frame *in, const gx_frame *ram)
{
    int32_t edge[RASTER_TIMING_LINES + 1];
    int32_t run = 0;

    memset(edge, 0, sizeof edge);
    memset(t->pair_touched, 0, sizeof t->pair_touched);
    for (uint32_t p = 0; in != NULL && p < in->npolys && p < GX_MAX_POLYGONS; p++) {
        const gx_polygon *poly = &ram->polys[p];
        if (poly->degenerate || poly->ybottom < 0 || poly->ytop > RASTER_TIMING_LINES - 1) continue;
        int32_t top = dsgx_clamp(poly->ytop, 0, RASTER_TIMING_LINES - 1);
        int32_t bot = dsgx_clamp(poly->ybottom, 0, RASTER_TIMING_LINES - 1);
        if (top > bot) continue;
        edge[top]++;
        edge[bot + 1]--;
    }
    for (int y = 0; y < RASTER_TIMING_LINES; y++) {
        run += edge[y];
        if (run > 0) t->pair_touched[y / 2] = true;
    }
}

void raster_timing_frame_begin(raster_timing *t, const gx_frame *in)
{
    raster_timing_frame_begin_ram(t, in, in);
}

void raster_timing_frame_begin_ram(raster_timing *t, const gx_frame *in, const gx_frame *ram)
{
    if (t->frames_since_power_on < 2) t->frames_since_power_on++; /* saturates */
    /* The first frame after power-on is rendered untimed (see timing.h). */
    t->timed = t->frames_since_power_on >= 2;
    t->clock = 0;
    t->deadline = 0;
    t->buffered = 0;
    t->next_read = 0;
    t->rd_buffered = 0;
    t->rd_next = 0;
    t->rdlines_min = RASTER_TIMING_RDLINES_POWER_ON;
    t->underflow_vcount = -1;
    t->lines_cut = 0;
    memset(t->line_time, 0, sizeof t->line_time);
    memset(t->line_aborted, 0, sizeof t->line_aborted);
    memset(t->line_cut, 0, sizeof t->line_cut);
    mark_touched_pairs(t, in, ram);
}

/* The 2D engine reads every display line whose read time has come. */
static void do_reads(raster_timing *t)
{
    while (t->next_read < RASTER_TIMING_LINES && sl_read(t->next_read) <= t->clock) {
        t->next_read++;
        t->buffered--;
    }
}

/* The RDLINES counter drops for every decrement time up to the clock; the minimum is sampled
 * at each drop when @p track. */
static void rd_advance(raster_timing *t, bool track)
{
    while (t->rd_next < RASTER_TIMING_LINES && rd_time(t->rd_next) <= t->clock) {
        t->rd_next++;
        t->rd_buffered--;
        if (track) {
            int32_t v = t->rd_buffered < 0 ? 0 : t->rd_buffered;
            if (v < t->rdlines_min) t->rdlines_min = v;
        }
    }
}

/* Start of pair y: reads, buffer stall, then the final pass of lines y-3 and y-2 enters the
 * buffer. RDLINES drops up to the start of pair 2 are not sampled. */
static void pair_begin(raster_timing *t, int y)
{
    do_reads(t);
    rd_advance(t, y > 2);
    while (t->buffered >= T_STALL_LINES && t->next_read < RASTER_TIMING_LINES) {
        int32_t next = sl_read(t->next_read);
        if (t->clock < next) t->clock = next;
        do_reads(t);
        rd_advance(t, y > 2);
    }
    int32_t added = y == 2 ? 1 : (y > 2 ? 2 : 0);
    t->buffered += added;
    t->rd_buffered += added;
    t->deadline = pair_deadline(y);
    t->line_time[0] = t->line_time[1] = t->pair_touched[y / 2] ? T_FIRST_POLY : 0;
}

void raster_timing_record(raster_timing *t, raster_timing_line *lines)
{
    memset(t, 0, sizeof *t);
    t->recording = true;
    t->rec_lines = lines;
}

void raster_timing_line_begin(raster_timing *t, int y)
{
    if (y < 0 || y >= RASTER_TIMING_LINES) return;
    if (t->recording) t->rec_cur = (raster_timing_line){0, INT64_MIN}; /* (no charge: no need) */
    if (t->timed && (y & 1) == 0) pair_begin(t, y);
    t->line_aborted[y & 1] = false;
    t->line_cut[y & 1] = false;
}

/* Time left on line y before the pair's deadline. */
static int32_t time_left(const raster_timing *t, int y)
{
    return t->deadline - t->clock - t->line_time[y & 1];
}

static void abort_line(raster_timing *t, int y)
{
    t->line_aborted[y & 1] = true;
    t->line_cut[y & 1] = true;
}

/* Recording: a charge of @p units with @p margin units that must still be left after it
 * (bottom line: 0, time_left < 0 aborts; polygon: max(2, pixel cost), the start test and the
 * pixels). The line needs time + units + margin at its start for this charge to pass; it is
 * the line's need once the charge is its last (timing.h raster_timing_rec_start: every charge
 * is at least 4 units, every margin at most 2). */
static void record(raster_timing *t, int64_t units, int64_t margin)
{
    t->rec_cur.time += units;
    t->rec_cur.need = t->rec_cur.time + margin;
}

void raster_timing_poly_bottom(raster_timing *t, int y)
{
    if (t->recording) raster_timing_rec_bottom(&t->rec_cur); /* (= record(t, T_EMPTY_LINE, 0)) */
    if (!t->timed || y < 0 || y >= RASTER_TIMING_LINES || t->line_aborted[y & 1]) return;
    t->line_time[y & 1] += T_EMPTY_LINE;
    if (time_left(t, y) < 0) abort_line(t, y);
}

/* A span's pixel cost: one unit per pixel after the free ones, counted from the first on-screen
 * pixel, past x = 255 too (MODEL.md 2.3). */
static int64_t pixel_cost(int32_t first, int32_t xr)
{
    int64_t width = (int64_t)xr + 1 - first;
    return width > T_FREE_PIXELS ? width - T_FREE_PIXELS : 0;
}

int32_t raster_timing_poly_span(raster_timing *t, int y, int32_t xl, int32_t xr, bool count_pixels)
{
    int32_t first = xl < 0 ? 0 : xl;
    if (!t->timed || y < 0 || y >= RASTER_TIMING_LINES) {
        /* the 12, then the start test (2 left) and the pixels (as below):
         * record(t, T_PER_POLY + cost, max(T_MIN_TO_START - cost, 0)) */
        if (t->recording && count_pixels) raster_timing_rec_span(&t->rec_cur, xl, xr);
        if (t->recording && !count_pixels) record(t, T_PER_POLY, T_MIN_TO_START);
        return RASTER_TIMING_NO_LIMIT;
    }
    if (t->line_aborted[y & 1]) return RASTER_TIMING_SKIP;
    /* The 12 are spent whether or not the polygon may start (calibrated, see the notes). */
    t->line_time[y & 1] += T_PER_POLY;
    if (time_left(t, y) < T_MIN_TO_START) {
        abort_line(t, y);
        return RASTER_TIMING_SKIP;
    }
    if (!count_pixels) return RASTER_TIMING_NO_LIMIT;

    int64_t cost = pixel_cost(first, xr);
    int32_t left = time_left(t, y);
    if (cost <= left) {
        t->line_time[y & 1] += (int32_t)cost;
        return RASTER_TIMING_NO_LIMIT;
    }
    /* Truncated where the time runs out: the free pixels plus one per unit left (left >= 2
     * here, the start test guarantees it). */
    t->line_time[y & 1] += left;
    abort_line(t, y);
    return first + T_FREE_PIXELS + left;
}

bool raster_timing_replay_line(raster_timing *t, int y, raster_timing_line rec)
{
    if (!t->timed || y < 0 || y >= RASTER_TIMING_LINES) return true;
    /* Every charge of the line passed its test iff the line had its greatest need left at its
     * start: time_left only falls along a line (charges are >= 0), and each test compares
     * what is left after a charge with that charge's margin (record()). */
    if (rec.need > time_left(t, y)) return false;
    t->line_time[y & 1] += (int32_t)rec.time; /* (<= need <= time left: fits) */
    return true;
}

bool raster_timing_fits(const raster_timing *t, const raster_timing_line *lines)
{
    if (!t->timed) return true;
    raster_timing m = *t;
    m.recording = false;
    for (int y = 0; y < RASTER_TIMING_LINES; y++) {
        raster_timing_line_begin(&m, y);
        if (!raster_timing_replay_line(&m, y, lines[y])) return false;
        raster_timing_line_end(&m, y);
    }
    return true;
}

void raster_timing_line_end(raster_timing *t, int y)
{
    if (t->recording && y >= 0 && y < RASTER_TIMING_LINES) t->rec_lines[y] = t->rec_cur;
    if (y < 0 || y >= RASTER_TIMING_LINES || !t->timed) return;
    if (t->line_cut[y & 1]) t->lines_cut++;
    if ((y & 1) == 0) return;

    int32_t cost = t->line_time[0] > t->line_time[1] ? t->line_time[0] : t->line_time[1];
    if (cost < T_FINAL_PASS) cost = T_FINAL_PASS;
    t->clock += cost;
    int32_t pad = t->deadline - t->clock;
    t->clock += pad < 0 ? 0 : (pad > T_PAD ? T_PAD : pad);

    int pair_y = y - 1;
    if (pair_y >= 2 && t->clock >= t->deadline && t->underflow_vcount < 0)
        t->underflow_vcount = pair_y - 1;
}

void raster_timing_frame_end(raster_timing *t, raster_result *res)
{
    if (t->timed) {
        rd_advance(t, true); /* drops up to the end of the last pair are still sampled */
        t->rdlines_reg = (uint8_t)t->rdlines_min;
    }
    if (res) {
        res->rdlines = t->rdlines_reg;
        res->underflow = t->timed && t->underflow_vcount >= 0;
        res->lines_cut = t->lines_cut;
    }
}
