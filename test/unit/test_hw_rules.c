/*
 * test_hw_rules.c - hardware rules that melonDS (the reference of golden/ref) does not follow,
 * each from a scene of Jaklyy's hardware test ROM polyrastertest v1.0.2-b (recorded on a
 * console; golden/hw/README.md): the traces in golden/hw replay the ROM's scenes, and the
 * expected pixels here are worked out by hand from the rule the ROM's source states.
 *
 * Screen positions of the ROM's vertices (its projection: x_clip = floor(x * 131586 / 4096)
 * + 16, w = 4096, viewport 0..255, sx = floor((x_clip + w) * 256 / 2w)): x -32 -> 96, 32 ->
 * 160, 48 -> 176, and -128 -> x_clip -4097 < -w: clipped to x = -w, sx 0. The horizontal
 * lines lie on row 95 and end one pixel left of their right vertex (the ROM's unclipped
 * 1-4 / 1-2 / 2-4 scenes, which melonDS already draws as the console does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raster_scene.h"
#include "tools/core/system.h"

#define HW_DIR DSGX_GOLDEN_DIR "/hw/"

typedef struct run {
    int y, x0, x1;
} run;

typedef struct frame_runs {
    int n;
    run r[1024];
    uint32_t px[DSGX_FRAME_PIXELS]; /* the frame itself */
} frame_runs;

static bool lit(uint32_t p)
{
    return (dsgx_pixel_r(p) | dsgx_pixel_g(p) | dsgx_pixel_b(p)) != 0;
}

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    frame_runs *fr = user;
    if (index != 1) return; /* frame 0: the empty warm-up frame (golden/hw/README.md) */
    memcpy(fr->px, s->frame.px, sizeof fr->px);
    for (int y = 0; y < DSGX_FRAME_H; y++) {
        const uint32_t *row = &s->frame.px[y * DSGX_FRAME_W];
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            if (!lit(row[x])) continue;
            int x0 = x;
            while (x + 1 < DSGX_FRAME_W && lit(row[x + 1])) x++;
            if (fr->n < 1024) fr->r[fr->n] = (run){y, x0, x};
            fr->n++;
        }
    }
}

/* The lit runs (row, first, last) of the scene (frame 1) of golden/hw/NAME.trace. */
static void replay(const char *name, frame_runs *fr)
{
    char path[512];
    snprintf(path, sizeof path, HW_DIR "%s.trace", name);
    dsgx_trace t = {0};
    char err[512];
    int rc = dsgx_trace_load(&t, path, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    memset(fr, 0, sizeof *fr);
    dsgx_system *s = dsgx_system_create();
    assert_non_null(s);
    assert_int_equal(dsgx_system_replay(s, &t, on_frame, fr), 2);
    dsgx_system_destroy(s);
    dsgx_trace_free(&t);
}

static void expect_one_run(const char *name, int y, int x0, int x1)
{
    static frame_runs fr;
    replay(name, &fr);
    if (fr.n != 1 || fr.r[0].y != y || fr.r[0].x0 != x0 || fr.r[0].x1 != x1)
        fail_msg("%s: expected row %d x %d..%d only; drawn %d runs, first row %d x %d..%d", name, y,
                 x0, x1, fr.n, fr.r[0].y, fr.r[0].x0, fr.r[0].x1);
}

/* "Horizontal line polygons always render 1-4, 1-2, or 2-4. 3 is never rendered": the line is
 * drawn between the leftmost and rightmost of vertices 0, 1 and last. */
static void test_hline_unclipped(void **state)
{
    (void)state;
    expect_one_run("prt073_hline_1_4", 95, 96, 159);
    expect_one_run("prt074_hline_1_2", 95, 96, 159);
    expect_one_run("prt075_hline_2_4", 95, 96, 159);
}

/* "Until the first vertex gets clipped.... (1-2)", "Then things start to get interesting...
 * (2-3)", "3-4": the point where vertex 0 is clipped against the last vertex becomes the last
 * vertex (gx/clip.c). melonDS draws 0..175 for the first two (80 and 16 pixels too many). */
static void test_hline_first_vertex_clipped(void **state)
{
    (void)state;
    expect_one_run("prt076_hline_clip_v1", 95, 0, 95);    /* 1-2: x(-128)..x(-32) */
    expect_one_run("prt077_hline_clip_v12", 95, 0, 159);  /* 2-3: x(-128)..x(32) */
    expect_one_run("prt079_hline_clip_v123", 95, 0, 175); /* 3-4: x(-128)..x(48) */
    expect_one_run("prt080_hline_clip_v14", 95, 0, 95);   /* 1-2 */
    expect_one_run("prt081_hline_clip_v124", 95, 0, 159); /* 2-3 */
}

/* "if you can see this you're doing something wrong - no fill": a collinear triangle with
 * three distinct vertices is no line polygon, its (zero-width) spans are edge runs that are
 * not filled, and nothing is drawn. melonDS draws 4 pixels. */
static void test_collinear_triangle_draws_nothing(void **state)
{
    (void)state;
    static frame_runs fr;
    replay("prt025_line_collinear", &fr);
    assert_int_equal(fr.n, 0);
}

/* "simple line polygon - fill": vertices 0 and 1 coincide, the line's edges are filled: 10
 * rows of 2 pixels along the 20x10 slope. */
static void test_shared_vertex_line_filled(void **state)
{
    (void)state;
    static frame_runs fr;
    replay("prt023_line_simple", &fr);
    assert_int_equal(fr.n, 10);
    for (int k = 0; k < 10; k++) {
        assert_int_equal(fr.r[k].y, 90 + k);
        assert_int_equal(fr.r[k].x1 - fr.r[k].x0, 1);
        assert_int_equal(fr.r[k].x0, 118 + 2 * k);
    }
}

/* The same rule on hand-built screen polygons (no projection): the collinear triangle with a
 * shared vertex is drawn, the one without draws nothing, wherever the shared pair is. */
static void test_line_rule_screen_space(void **state)
{
    (void)state;
    static const int shapes[4][8] = {
        {40, 20, 60, 30, 80, 40, 0, 0},   /* distinct: nothing */
        {40, 20, 40, 20, 80, 40, 0, 0},   /* 0 = 1 */
        {40, 20, 80, 40, 40, 20, 0, 0},   /* 0 = 2 */
        {40, 20, 60, 30, 80, 40, 60, 30}, /* quad, 1 = 3 */
    };
    static const int nv[4] = {3, 3, 3, 4};
    for (int k = 0; k < 4; k++) {
        scene s;
        scene_init(&s, 0);
        scene_poly(&s, nv[k], shapes[k], attr_make(31, 0, 0), 0x1000, true, 31, 31, 31);
        scene_draw(&s, false, 0x7FFFFF);
        int drawn = 0;
        for (int y = 0; y < 192; y++) {
            int f, l;
            scene_row_extent(&s, y, &f, &l);
            if (f >= 0) drawn += l - f + 1;
        }
        if (k == 0)
            assert_int_equal(drawn, 0);
        else
            assert_int_equal(drawn, 40); /* 20 rows x 2 pixels */
        scene_free(&s);
    }
}

/* ---- "Upper Limits": checked, dsgx already draws them as the ROM states ---- */

static frame_runs g_fr; /* (large: not on the stack) */

static int lit_count(const frame_runs *fr, int y0, int y1, int x0, int x1)
{
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) n += lit(fr->px[y * DSGX_FRAME_W + x]);
    return n;
}

static bool is_white(const frame_runs *fr, int x, int y)
{
    uint32_t p = fr->px[y * DSGX_FRAME_W + x];
    return dsgx_pixel_r(p) == 63 && dsgx_pixel_g(p) == 63 && dsgx_pixel_b(p) == 63;
}

/* "There can only be 2048 polygons per frame": the test quad (x 64..95) + 2046 one-dot strip
 * triangles + the first extra quad (x 160..191) fill polygon RAM; the last quad (rows
 * 128..159) is not drawn. */
static void test_polygon_limit(void **state)
{
    (void)state;
    replay("prt082_poly_limit", &g_fr);
    assert_int_equal(lit_count(&g_fr, 40, 40, 64, 95), 32);
    assert_int_equal(lit_count(&g_fr, 40, 40, 160, 191), 32);
    assert_int_equal(lit_count(&g_fr, 100, 191, 0, 255), 0);
}

/* "There can only be 6144 vertices per frame": 1533 one-dot quads + 3 one-dot triangles
 * (6141 vertices) leave room for the diamond clipped at the right edge to 3 vertices; with a
 * 4th one-dot triangle it does not fit. */
static void test_vertex_limit(void **state)
{
    (void)state;
    replay("prt083_vtx_limit_fits", &g_fr);
    assert_true(lit_count(&g_fr, 0, 191, 200, 255) > 200);
    replay("prt084_vtx_limit_over", &g_fr);
    assert_int_equal(lit_count(&g_fr, 0, 191, 200, 255), 0);
}

/* "Scanline Rasterization Timings" (the scanline time budget, raster/timing.c): the white
 * background quad sorts after the yellow bars (larger bottom Y) and is lost where the bars
 * use up the lines' time. */
static void test_scanline_timing(void **state)
{
    (void)state;
    /* 94 bars 160 wide (x 48..207, rows 90..99): the background is lost beside them on the
     * band's last lines, drawn above and below */
    replay("prt085_timing_band", &g_fr);
    assert_true(is_white(&g_fr, 10, 89) && is_white(&g_fr, 250, 89));
    assert_false(lit(g_fr.px[99 * DSGX_FRAME_W + 10]) || lit(g_fr.px[99 * DSGX_FRAME_W + 250]));
    assert_int_equal(lit_count(&g_fr, 100, 100, 0, 255), 256);
    /* "the scanline *after* the polygon spam being partially aborted ... just num of polys":
     * 501 bars end on row 99, whose next row (their bottom line, 4 units each) keeps time for
     * only part of the background */
    replay("prt086_timing_next_line", &g_fr);
    int n100 = lit_count(&g_fr, 100, 100, 0, 255);
    assert_true(n100 > 0 && n100 < 256);
    assert_true(lit(g_fr.px[100 * DSGX_FRAME_W + 0]));
    assert_int_equal(lit_count(&g_fr, 101, 101, 0, 255), 256);
    /* "Here it is with a triangle": the triangle (x ~208..240) is lost on the bars' rows */
    replay("prt088_timing_triangle", &g_fr);
    assert_int_equal(lit_count(&g_fr, 96, 99, 100, 255), 0);
    assert_true(lit_count(&g_fr, 104, 104, 100, 255) > 0);
    /* "If we render the bg first, it does not fail to render" (its bottom Y 4 sorts it
     * before the bars): every pixel of its rows is drawn */
    replay("prt090_timing_bg_first", &g_fr);
    assert_int_equal(lit_count(&g_fr, 0, 98, 0, 255), 99 * 256);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hline_unclipped),
        cmocka_unit_test(test_hline_first_vertex_clipped),
        cmocka_unit_test(test_collinear_triangle_draws_nothing),
        cmocka_unit_test(test_shared_vertex_line_filled),
        cmocka_unit_test(test_line_rule_screen_space),
        cmocka_unit_test(test_polygon_limit),
        cmocka_unit_test(test_vertex_limit),
        cmocka_unit_test(test_scanline_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
