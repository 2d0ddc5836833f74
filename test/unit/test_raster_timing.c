/*
 * test_raster_timing.c - the scanline time budget (raster/timing.c), driven through the call
 * protocol of timing.h exactly as the scanline loop drives it.
 *
 * Worked values from test/data/rdlines/MODEL.md: a scanline is 1065 units, display line i is
 * read at 52440 + 1065 i; a pair costs max(even, odd, 500) + min(12, time to the deadline);
 * per line 4 (any polygon on the pair) + per polygon 12 + 1 per span pixel after the first 4.
 * A full-screen layer (256 px) costs 12 + 252 = 264 units. Frame-level expectations (RDLINES,
 * underflow, which lines are cut) are the values of the RDLines reference set
 * (test/data/rdlines/manifest.tsv, opaque_layers_ramp).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_frame.h"
#include "raster/timing.h"

typedef struct fixture {
    gx_frame *frame;
    raster_timing t;
    int32_t cut_x[192]; /* per line: x limit the last cut polygon got, or -1 */
    int cut_layer[192]; /* per line: index of the layer that was cut or not started, or -1 */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || !(f->frame = calloc(1, sizeof *f->frame))) return -1;
    raster_timing_init(&f->t);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->frame);
    free(f);
    return 0;
}

/* k polygons covering the whole screen (lines 0..191, bottom line 192 off screen). */
static void fullscreen_layers(gx_frame *fr, uint32_t k)
{
    memset(fr->polys, 0, sizeof fr->polys);
    fr->npolys = k;
    for (uint32_t i = 0; i < k; i++) {
        fr->polys[i].ytop = 0;
        fr->polys[i].ybottom = 192;
        fr->polys[i].nverts = 4;
    }
}

/* One frame of k full-screen layers through the scanline-loop protocol (spans 0..255). */
static void run_layers(fixture *f, uint32_t k, raster_result *res)
{
    fullscreen_layers(f->frame, k);
    raster_timing_frame_begin(&f->t, f->frame);
    for (int y = 0; y < 192; y++) {
        f->cut_x[y] = -1;
        f->cut_layer[y] = -1;
        raster_timing_line_begin(&f->t, y);
        for (uint32_t i = 0; i < k; i++) {
            if (raster_timing_line_aborted(&f->t, y)) continue;
            int32_t lim = raster_timing_poly_span(&f->t, y, 0, 255, true);
            if (lim != RASTER_TIMING_NO_LIMIT && f->cut_layer[y] < 0) {
                f->cut_x[y] = lim;
                f->cut_layer[y] = (int)i;
            }
        }
        raster_timing_line_end(&f->t, y);
    }
    raster_timing_frame_end(&f->t, res);
}

/* The first frame after power-on is untimed and reports RDLINES_COUNT 63; never cut. */
static void test_power_on_frame_untimed(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 24, &res);
    assert_int_equal(res.rdlines, 63);
    assert_false(res.underflow);
    assert_int_equal(res.lines_cut, 0);
    for (int y = 0; y < 192; y++) assert_int_equal(f->cut_layer[y], -1);
}

/* A light pair: 4 + 12 + 0 per line < 500, so 500 + 12 = 512 units; an empty pair too. */
static void test_light_pair_costs_512(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res); /* power-on frame */

    fullscreen_layers(f->frame, 1);
    raster_timing_frame_begin(&f->t, f->frame);
    assert_true(f->t.timed);
    for (int y = 0; y < 2; y++) {
        raster_timing_line_begin(&f->t, y);
        assert_int_equal(raster_timing_poly_span(&f->t, y, 10, 13, true), RASTER_TIMING_NO_LIMIT);
        raster_timing_line_end(&f->t, y);
    }
    assert_int_equal(f->t.clock, 512);

    /* no polygon at all: counters start at 0, the pair still takes 500 + 12 */
    fullscreen_layers(f->frame, 0);
    raster_timing_frame_begin(&f->t, f->frame);
    raster_timing_line_begin(&f->t, 0);
    raster_timing_line_end(&f->t, 0);
    raster_timing_line_begin(&f->t, 1);
    raster_timing_line_end(&f->t, 1);
    assert_int_equal(f->t.clock, 512);
}

/* Pair deadlines: pair 0 53501 (SLRead[2] - 1069), pair y >= 2 SLRead[y-2] = 52440 + 1065(y-2). */
static void test_deadlines(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    fullscreen_layers(f->frame, 0);
    raster_timing_frame_begin(&f->t, f->frame);
    for (int y = 0; y < 192; y++) {
        raster_timing_line_begin(&f->t, y);
        if (y == 0)
            assert_int_equal(f->t.deadline, 53501);
        else if (y == 2)
            assert_int_equal(f->t.deadline, 52440);
        else if (y == 100)
            assert_int_equal(f->t.deadline, 52440 + 1065 * 98);
        else if (y == 190)
            assert_int_equal(f->t.deadline, 52440 + 1065 * 188);
        raster_timing_line_end(&f->t, y);
    }
}

/* Light frames read RDLINES 46 (upstream melonDS's constant); no underflow. */
static void test_light_frame_rdlines_46(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    run_layers(f, 4, &res);
    assert_int_equal(res.rdlines, 46);
    assert_false(res.underflow);
    assert_int_equal(res.lines_cut, 0);
}

/* 9 layers: 4 + 9 * 264 = 2380 per line, 2392 per pair, slower than the 2130 of two reads but
 * never late for a deadline: the buffer drains to 22 (opaque_layers_ramp frame 3). */
static void test_nine_layers_drain_buffer(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    run_layers(f, 9, &res);
    assert_int_equal(res.rdlines, 22);
    assert_false(res.underflow);
    assert_int_equal(res.lines_cut, 0);
}

/* 10 layers: pair y ends at 1328 y + 2656 against its deadline 1065 y + 50310, late from
 * pair 182 on: lines 182..191 are cut, the flag is armed, RDLINES reads 0 (frame 4). */
static void test_ten_layers_underflow(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    run_layers(f, 10, &res);
    assert_true(res.underflow);
    assert_int_equal(res.rdlines, 0);
    assert_int_equal(res.lines_cut, 10);
    assert_int_equal(f->cut_layer[181], -1);
    for (int y = 182; y < 192; y++) assert_int_not_equal(f->cut_layer[y], -1);
    assert_int_equal(f->t.underflow_vcount, 181); /* pair 182 is the first late one: 182 - 1 */
}

/* 12 layers under sustained overload: every pair starts at the previous pair's deadline and
 * has 2130 units; 8 layers take 4 + 8 * 264 = 2116, the 9th starts at 2128 (2 units left, just
 * MinToStartPoly) and is cut after 4 free + 2 paid = 6 pixels (250 of its 256 are lost);
 * layers 10-12 are not drawn. Lines 90..191 are cut (opaque_layers_ramp frame 6). */
static void test_twelve_layers_cut_after_6_pixels(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    run_layers(f, 12, &res);
    assert_true(res.underflow);
    assert_int_equal(res.lines_cut, 102);
    assert_int_equal(f->cut_layer[89], -1);
    for (int y = 90; y < 192; y++) assert_int_not_equal(f->cut_layer[y], -1);
    for (int y = 120; y < 192; y++) {
        assert_int_equal(f->cut_layer[y], 8);
        assert_int_equal(f->cut_x[y], 6);
    }
}

/* Line 190's pair starts exactly at pair 188's deadline under overload. */
static void test_overload_pair_starts_at_previous_deadline(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    fullscreen_layers(f->frame, 12);
    raster_timing_frame_begin(&f->t, f->frame);
    for (int y = 0; y < 191; y++) {
        raster_timing_line_begin(&f->t, y);
        if (y == 190) assert_int_equal(f->t.clock, 52440 + 1065 * 186);
        for (int i = 0; i < 12 && !raster_timing_line_aborted(&f->t, y); i++)
            (void)raster_timing_poly_span(&f->t, y, 0, 255, true);
        raster_timing_line_end(&f->t, y);
    }
}

/* Bottom-line charges (4 each) abort a line too: 2046 polygons ending on a line cost
 * 4 + 2046 * 4 = 8188 units > the 2130 left, so the polygons after them never start. */
static void test_bottom_line_charges_abort(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    fullscreen_layers(f->frame, 1);
    raster_timing_frame_begin(&f->t, f->frame);
    /* put the clock under overload: pair 100 starts at pair 98's deadline */
    for (int y = 0; y < 100; y++) {
        raster_timing_line_begin(&f->t, y);
        raster_timing_line_end(&f->t, y);
    }
    f->t.clock = 52440 + 1065 * 96;
    raster_timing_line_begin(&f->t, 100);
    assert_false(raster_timing_line_aborted(&f->t, 100));
    int i;
    for (i = 0; i < 2046 && !raster_timing_line_aborted(&f->t, 100); i++)
        raster_timing_poly_bottom(&f->t, 100);
    /* 4 + 4 n > 2130 first for n = 532 */
    assert_int_equal(i, 532);
    assert_int_equal(raster_timing_poly_span(&f->t, 100, 0, 255, true), RASTER_TIMING_SKIP);
}

/* Pixels off the left edge are not counted, pixels past x = 255 are: a span 0..299 costs
 * 12 + 296 units; a span -50..255 costs 12 + 252. */
static void test_span_pixel_counting(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    fullscreen_layers(f->frame, 1);
    raster_timing_frame_begin(&f->t, f->frame);
    raster_timing_line_begin(&f->t, 0);
    (void)raster_timing_poly_span(&f->t, 0, 0, 299, true);
    assert_int_equal(f->t.line_time[0], 4 + 12 + 296);
    (void)raster_timing_poly_span(&f->t, 0, -50, 255, true);
    assert_int_equal(f->t.line_time[0], 4 + 12 + 296 + 12 + 252);
    (void)raster_timing_poly_span(&f->t, 0, 7, 9, false); /* no pixel cost */
    assert_int_equal(f->t.line_time[0], 4 + 12 + 296 + 12 + 252 + 12);
}

/* A polygon whose 12 units leave fewer than 2 before the deadline is not drawn, but the 12 are
 * spent (calibrated against span_width_sweep frame 6, see timing.c); with 14 left it starts
 * and draws its 4 free pixels plus 2. */
static void test_failed_start_still_costs_12(void **state)
{
    fixture *f = *state;
    raster_result res;
    run_layers(f, 0, &res);
    fullscreen_layers(f->frame, 1);
    raster_timing_frame_begin(&f->t, f->frame);
    raster_timing_line_begin(&f->t, 0);
    f->t.line_time[0] = 53501 - 13; /* 13 units left before pair 0's deadline */
    assert_int_equal(raster_timing_poly_span(&f->t, 0, 0, 255, true), RASTER_TIMING_SKIP);
    assert_int_equal(f->t.line_time[0], 53501 - 1);
    assert_true(raster_timing_line_aborted(&f->t, 0));
    raster_timing_line_end(&f->t, 0);

    raster_timing_line_begin(&f->t, 1);
    f->t.line_time[1] = 53501 - 14;
    assert_int_equal(raster_timing_poly_span(&f->t, 1, 0, 255, true), 6);
    assert_int_equal(f->t.line_time[1], 53501);
    raster_timing_line_end(&f->t, 1);
    assert_int_equal(f->t.clock, 53501); /* pair cost 53501, no time left for padding */
}

/* The inline fast path (raster_timing_poly_span_px) gives the same limits and leaves the
 * same model state as raster_timing_poly_span on random frames of random spans, loads heavy
 * enough to cut, skip and abort lines. */
/* The records (timing.h raster_timing_rec_span, and the polygon-major loop's
 * raster_timing_prec_width for spans starting on screen, its need made by
 * raster_timing_prec_end) against the model's charge written
 * out (raster_timing_poly_span's recording: the 12 and the pixel cost, with the start test's 2
 * or the pixel cost, whichever is more, still needed after the 12): widths 1..600 at several
 * starts and line times. */
static void test_prec_width_matches_span(void **state)
{
    (void)state;
    const int64_t befores[] = {0, 1, 37, 499, (int64_t)1 << 40};
    const int32_t starts[] = {0, 1, 100, 255, 300};
    for (size_t i = 0; i < sizeof befores / sizeof befores[0]; i++) {
        for (size_t j = 0; j < sizeof starts / sizeof starts[0]; j++) {
            for (int32_t w = 1; w <= 600; w++) {
                const int64_t cost = w > 4 ? w - 4 : 0;
                const raster_timing_line want = {befores[i] + 12 + cost,
                                                 befores[i] + 12 + (cost > 2 ? cost : 2)};
                raster_timing_line a = {befores[i], 0}, b = a;
                raster_timing_prec_width(&a, w);
                raster_timing_prec_end(&a);
                raster_timing_rec_span(&b, starts[j], starts[j] + w - 1);
                assert_true(a.time == want.time && a.need == want.need);
                assert_true(b.time == want.time && b.need == want.need);
            }
        }
    }
}

/* The polygon-major loop's scratch records (raster_timing_prec_*, the need made by
 * raster_timing_prec_end) against the records above: random sequences of charges (spans
 * starting on and off screen, widths 1..600, bottom lines, none) give the same time and need. */
static void test_prec_matches_rec(void **state)
{
    (void)state;
    uint32_t seed = 777;
    for (int run = 0; run < 20000; run++) {
        raster_timing_line a, b;
        raster_timing_rec_start(&a);
        raster_timing_rec_start(&b);
        seed = seed * 1103515245u + 12345u;
        const int n = (int)(seed >> 16) % 5; /* charges on the line (0: none) */
        for (int k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            const uint32_t v = seed >> 8;
            const int32_t w = 1 + (int32_t)(v % 600u), xl = (int32_t)((v >> 10) % 700u) - 350;
            switch ((v >> 20) % 3u) {
            case 0:
                raster_timing_rec_span(&a, 0, w - 1);
                raster_timing_prec_width(&b, w);
                break;
            case 1:
                raster_timing_rec_span(&a, xl, xl + w - 1);
                raster_timing_prec_span(&b, xl, xl + w - 1);
                break;
            default:
                raster_timing_rec_bottom(&a);
                raster_timing_prec_bottom(&b);
                break;
            }
        }
        raster_timing_prec_end(&b);
        assert_true(a.time == b.time && a.need == b.need);
    }
    /* every width's need, on its own and after another charge */
    for (int32_t w = 1; w <= 600; w++) {
        raster_timing_line a, b;
        raster_timing_rec_start(&a);
        raster_timing_rec_start(&b);
        raster_timing_rec_bottom(&a);
        raster_timing_prec_bottom(&b);
        raster_timing_rec_span(&a, 0, w - 1);
        raster_timing_prec_width(&b, w);
        raster_timing_prec_end(&b);
        assert_true(a.time == b.time && a.need == b.need);
    }
}

static void test_inline_span_matches(void **state)
{
    fixture *f = *state;
    raster_timing *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    int limited = 0, whole = 0;
    assert_non_null(a);
    assert_non_null(b);
    uint32_t seed = 12345;
    for (int frame = 0; frame < 40; frame++) {
        fullscreen_layers(f->frame, 1);
        if (frame == 0) raster_timing_init(a), raster_timing_init(b);
        raster_timing_frame_begin(a, f->frame);
        raster_timing_frame_begin(b, f->frame);
        int per_line = 1 + frame % 12;
        for (int y = 0; y < 192; y++) {
            raster_timing_line_begin(a, y);
            raster_timing_line_begin(b, y);
            for (int i = 0; i < per_line * 4; i++) {
                seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
                int32_t xl = (int32_t)(seed % 300u) - 40;
                int32_t xr = xl + (int32_t)((seed >> 9) % (frame % 3 == 0 ? 300u : 12u));
                assert_int_equal(raster_timing_line_aborted(a, y),
                                 raster_timing_line_aborted(b, y));
                if (raster_timing_line_aborted(a, y)) break;
                int32_t la = raster_timing_poly_span_px(a, y, xl, xr);
                int32_t lb = raster_timing_poly_span(b, y, xl, xr, true);
                assert_int_equal(la, lb);
                assert_memory_equal(a, b, sizeof *a);
                if (la == RASTER_TIMING_NO_LIMIT)
                    whole++;
                else
                    limited++;
            }
            raster_timing_line_end(a, y);
            raster_timing_line_end(b, y);
        }
        raster_result ra, rb;
        memset(&ra, 0, sizeof ra); /* (padding compared too) */
        memset(&rb, 0, sizeof rb);
        raster_timing_frame_end(a, &ra);
        raster_timing_frame_end(b, &rb);
        assert_memory_equal(&ra, &rb, sizeof ra);
        assert_memory_equal(a, b, sizeof *a);
    }
    assert_true(limited > 100 && whole > 100); /* both paths taken */
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_power_on_frame_untimed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inline_span_matches, setup, teardown),
        cmocka_unit_test(test_prec_width_matches_span),
        cmocka_unit_test(test_prec_matches_rec),
        cmocka_unit_test_setup_teardown(test_light_pair_costs_512, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deadlines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_light_frame_rdlines_46, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nine_layers_drain_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ten_layers_underflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_twelve_layers_cut_after_6_pixels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overload_pair_starts_at_previous_deadline, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bottom_line_charges_abort, setup, teardown),
        cmocka_unit_test_setup_teardown(test_span_pixel_counting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_start_still_costs_12, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
