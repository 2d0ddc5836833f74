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

/* ---- "The Curse of Edge Marking" (raster/curse.c): overlapping same-ID edges with edge
 * marking on. First the v1.0.2-b scenes (golden/hw prt037-prt043: the white test polygon at
 * z 0 and the red one at z -16/4096 after it, one polygon ID, edge colour green), as dingbat
 * docs, "Overlapping edges with edge marking" (round 7), reports the console's colours. ---- */

static uint32_t rgb6(const frame_runs *fr, int x, int y)
{
    return fr->px[y * DSGX_FRAME_W + x] & 0x3F3F3Fu;
}
#define RED6   0x00003Fu
#define WHITE6 0x3F3F3Fu

static int count6(const frame_runs *fr, uint32_t c)
{
    int n = 0;
    for (int i = 0; i < DSGX_FRAME_PIXELS; i++) n += (fr->px[i] & 0x3F3F3Fu) == c;
    return n;
}

/* #037 "Edge Marking + overlapping edges": the white triangle (96,63) (160,63) (160,111)'s left
 * edge runs right (X-major, 4/3: a bottom edge), the red band's right edge is the same line
 * going right (a top edge), and the red band is drawn after it: red shows on the white run's
 * 64 dots (2, 1, 1, 2, ... per row: x 97-98 on row 64, 99 on 65, 100 on 66, 101-102 on 67),
 * except the two at its ends (row 63 and 110), which edge marking colours green. 62 red dots
 * of the band's own plus those 62; melonDS (the depth test) keeps them white. #038 mirrors it
 * (a right edge going left, a left edge going left). */
static void test_curse_top_run_over_bottom_run(void **state)
{
    (void)state;
    replay("prt037_curse_overlap", &g_fr);
    assert_int_equal(rgb6(&g_fr, 97, 64), RED6);
    assert_int_equal(rgb6(&g_fr, 98, 64), RED6);
    assert_int_equal(rgb6(&g_fr, 99, 64), WHITE6);
    assert_int_equal(rgb6(&g_fr, 99, 65), RED6);
    assert_int_equal(rgb6(&g_fr, 100, 66), RED6);
    assert_int_equal(rgb6(&g_fr, 101, 67), RED6);
    assert_int_equal(rgb6(&g_fr, 102, 67), RED6);
    assert_int_equal(rgb6(&g_fr, 103, 67), WHITE6);
    assert_int_equal(count6(&g_fr, RED6), 62 + 62);
    replay("prt038_curse_mirrored", &g_fr);
    assert_int_equal(rgb6(&g_fr, 158, 64), RED6); /* (the mirror image: x -> 255 - x) */
    assert_int_equal(rgb6(&g_fr, 157, 64), RED6);
    assert_int_equal(rgb6(&g_fr, 156, 64), WHITE6);
    assert_int_equal(count6(&g_fr, RED6), 62 + 62);
}

/* The scenes where white stays (the console's colours): #039 white's top run (a left edge going
 * left) over red's bottom run, #040 red's bottom run crossing white's top run and inside, #041
 * red's right diagonal over white's bottom run (different kinds: the depth test), #043 red's
 * bottom run under white's top line: red shows only where white is not. */
static void expect_white_stays(void)
{
    static const struct {
        const char *name;
        int red; /* red dots: the red polygon's own, outside the white one */
    } sc[] = {{"prt039_curse_swapped", 62},
              {"prt040_curse_both_fill", 31},
              {"prt041_curse_neither", 65},
              {"prt043_curse_top", 3999}};
    for (unsigned i = 0; i < sizeof sc / sizeof sc[0]; i++) {
        replay(sc[i].name, &g_fr);
        assert_int_equal(count6(&g_fr, RED6), sc[i].red);
    }
    replay("prt041_curse_neither", &g_fr);
    assert_int_equal(rgb6(&g_fr, 98, 64), WHITE6); /* white's run under red's diagonal */
    assert_int_equal(rgb6(&g_fr, 99, 65), WHITE6);
}

/* #042 "Bottom? - Yes": the red quad's top edge (96,61)-(160,63) is X-major going right (a
 * top edge): its run on row 61 (x 96-127) lies on the white rectangle's inside, its run on row
 * 62 (x 128-159) on the white rectangle's bottom line. Red shows on the bottom line's inside (x
 * 128-158: x 159 is the white right edge's dot, which edge marking colours green), white on row
 * 61. The red quad's own inside on row 62 (x 97-127: no role, behind) stays white. */
static void test_curse_top_run_over_bottom_line(void **state)
{
    (void)state;
    replay("prt042_curse_bottom", &g_fr);
    for (int x = 128; x <= 158; x++) assert_int_equal(rgb6(&g_fr, x, 62), RED6);
    for (int x = 97; x <= 127; x++) assert_int_equal(rgb6(&g_fr, x, 62), WHITE6);
    for (int x = 97; x <= 158; x++) assert_int_equal(rgb6(&g_fr, x, 61), WHITE6);
    assert_int_equal(count6(&g_fr, RED6), 3999 + 31); /* the red quad's own + those 31 */
    expect_white_stays();
}

/* The rule itself (raster_curse_verdict): a winning role over the role it wins over replaces,
 * the losing role over the role it loses to leaves the pixel, anything else (other kinds, no
 * role, another polygon ID) is the depth test's. */
static void test_curse_verdict(void **state)
{
    (void)state;
    const uint32_t id3 = 3u << RASTER_ATTR_OPAQUE_ID_SHIFT, id4 = 4u << RASTER_ATTR_OPAQUE_ID_SHIFT;
    const uint32_t L = RASTER_ATTR_ROLE_LEFT, R = RASTER_ATTR_ROLE_RIGHT;
    const uint32_t T = RASTER_ATTR_ROLE_TOP, B = RASTER_ATTR_ROLE_BOTTOM;
    assert_int_equal(raster_curse_verdict(id3 | R, id3, L), 1);
    assert_int_equal(raster_curse_verdict(id3 | B, id3, T), 1);
    assert_int_equal(raster_curse_verdict(id3 | L, id3, R), -1);
    assert_int_equal(raster_curse_verdict(id3 | T, id3, B), -1);
    /* the same role, another kind, no role */
    assert_int_equal(raster_curse_verdict(id3 | T, id3, T), 0);
    assert_int_equal(raster_curse_verdict(id3 | R, id3, R), 0);
    assert_int_equal(raster_curse_verdict(id3 | B, id3, R), 0);
    assert_int_equal(raster_curse_verdict(id3 | R, id3, T), 0);
    assert_int_equal(raster_curse_verdict(id3 | L, id3, B), 0);
    assert_int_equal(raster_curse_verdict(id3 | B, id3, 0), 0);
    assert_int_equal(raster_curse_verdict(id3, id3, T), 0);
    /* the neighbouring attribute bits (back-facing, coverage, fog) are no roles */
    assert_int_equal(raster_curse_verdict(id3 | RASTER_ATTR_BACKFACE | RASTER_ATTR_FOG |
                                              RASTER_ATTR_COV_MASK | RASTER_ATTR_EDGE_MASK,
                                          id3, L | 0),
                     0);
    assert_int_equal(raster_curse_verdict(id3 | RASTER_ATTR_FOG, id3, B), 0);
    assert_int_equal(raster_curse_verdict(id3 | RASTER_ATTR_COV_MASK, id3, T), 0);
    /* another polygon ID */
    assert_int_equal(raster_curse_verdict(id4 | B, id3, T), 0);
    assert_int_equal(raster_curse_verdict(id4 | L, id3, R), 0);
}

/* ---- the same rule on hand-built screen polygons (no final pass: the colour buffer) ---- */

#define CUR_A dsgx_pixel(63, 0, 0, 31) /* the polygon drawn first */
#define CUR_B dsgx_pixel(0, 0, 63, 31) /* the polygon drawn second */

/* Two polygons in one frame with DISP3DCNT @p disp, A (red) submitted and drawn first, B (blue)
 * second (the same Y-sort key, or A's smaller). */
static void curse_pair(scene *s, uint16_t disp, int na, const int *a, uint32_t attr_a, int32_t za,
                       int nb, const int *b, uint32_t attr_b, int32_t zb)
{
    scene_init(s, disp);
    scene_poly(s, na, a, attr_a, za, true, 31, 0, 0);
    scene_poly(s, nb, b, attr_b, zb, true, 0, 0, 31);
    scene_draw(s, false, 0x7FFFFF);
}

/* DISP3DCNT bits (gx/regs.h disp3dcnt_*) */
#define EDGE_MARK 0x20u
#define AA        0x10u
#define BLEND     0x08u
#define OPAQUE0   attr_make(31, 0, 0)

/* X-major, slope exactly 4 (40 over 10 lines): A = (10,10) (50,20) (50,10), whose left edge
 * runs right (a bottom edge), near; B = (10,10) (10,20) (50,20), whose right edge is the same
 * line (a top edge), far, drawn after A. A's run on line 10 + k is x 10 + 4k .. 13 + 4k (its
 * own 4 dots per line). With edge marking, B's top run replaces A's bottom run on lines 11-19
 * and on x 11-13 of line 10; (10,10) is B's left (vertical) edge's dot, another kind: A keeps it
 * (nearer). With anti-aliasing, with another ID for B or a translucent B: the depth test, A
 * everywhere. A wireframe B draws its runs and takes part. (Without edge marking or
 * anti-aliasing A's bottom run is not drawn at all: the fill rules.) */
static const int XA[] = {10, 10, 50, 20, 50, 10}, XB[] = {10, 10, 10, 20, 50, 20};

static void expect_xmajor_run(const scene *s, uint32_t want)
{
    for (int k = 1; k < 10; k++)
        for (int x = 10 + 4 * k; x <= 13 + 4 * k; x++)
            assert_int_equal(scene_color(s, x, 10 + k), want);
    for (int x = 11; x <= 13; x++) assert_int_equal(scene_color(s, x, 10), want);
    assert_int_equal(scene_color(s, 10, 10), CUR_A);
    assert_int_equal(scene_color(s, 14 + 4 * 5, 15), CUR_A); /* A's inside: not B's */
}

static void test_curse_xmajor_top_wins(void **state)
{
    (void)state;
    scene s;
    curse_pair(&s, EDGE_MARK, 3, XA, OPAQUE0, 0x1000, 3, XB, OPAQUE0, 0x2000);
    expect_xmajor_run(&s, CUR_B);
    /* the replaced dots take B's depth and role */
    assert_int_equal(scene_depth(&s, 30, 15), 0x2000);
    assert_int_equal(scene_attr(&s, 30, 15) & (RASTER_ATTR_ROLE_WIN | RASTER_ATTR_ROLE_LOSE),
                     RASTER_ATTR_ROLE_TOP);
    scene_free(&s);
    /* wireframe B: its runs are edges */
    curse_pair(&s, EDGE_MARK, 3, XA, OPAQUE0, 0x1000, 3, XB, attr_make(0, 0, 0), 0x2000);
    expect_xmajor_run(&s, CUR_B);
    scene_free(&s);
    /* no rule */
    const struct {
        uint16_t disp;
        uint32_t attr_b;
    } off[] = {
        {EDGE_MARK | AA, OPAQUE0},                /* anti-aliasing */
        {EDGE_MARK, attr_make(31, 1, 0)},         /* another polygon ID */
        {EDGE_MARK | BLEND, attr_make(16, 0, 0)}, /* translucent */
    };
    for (unsigned i = 0; i < sizeof off / sizeof off[0]; i++) {
        curse_pair(&s, off[i].disp, 3, XA, OPAQUE0, 0x1000, 3, XB, off[i].attr_b, 0x2000);
        expect_xmajor_run(&s, CUR_A);
        scene_free(&s);
    }
    /* melonDS's mode (raster_set_melonds_gaps: its X-major run ends, the same here at slope
     * 4.0) has no such rule */
    scene_init(&s, EDGE_MARK);
    scene_poly(&s, 3, XA, OPAQUE0, 0x1000, true, 31, 0, 0);
    scene_poly(&s, 3, XB, OPAQUE0, 0x2000, true, 0, 0, 31);
    scene_draw(&s, true, 0x7FFFFF);
    expect_xmajor_run(&s, CUR_A);
    scene_free(&s);
}

/* The losing side: E = (50,10) (10,20) (50,20), whose left edge runs left (a top edge), far,
 * drawn first; N = (10,10) (10,20) (50,10), whose right edge is the same line going left (a
 * bottom edge), near, drawn after it. N's bottom run leaves E's top run alone although N is
 * nearer: E's colour on E's run, x 46 - 4k .. 49 - 4k on line 10 + k (the depth test: N's),
 * except (10,19), where N's left (vertical) edge is another kind: N's (nearer). */
static void test_curse_xmajor_bottom_loses(void **state)
{
    (void)state;
    static const int E[] = {50, 10, 10, 20, 50, 20}, N[] = {10, 10, 10, 20, 50, 10};
    scene s;
    curse_pair(&s, EDGE_MARK, 3, E, OPAQUE0, 0x2000, 3, N, OPAQUE0, 0x1000);
    for (int k = 0; k < 10; k++)
        for (int x = 46 - 4 * k; x <= 49 - 4 * k; x++)
            assert_int_equal(scene_color(&s, x, 10 + k), x == 10 ? CUR_B : CUR_A);
    assert_int_equal(scene_color(&s, 30, 12), CUR_B); /* N's inside */
    assert_int_equal(scene_depth(&s, 28, 15), 0x2000);
    scene_free(&s);
    /* with anti-aliasing (every run drawn too): the depth test, nearer N on the run */
    curse_pair(&s, EDGE_MARK | AA, 3, E, OPAQUE0, 0x2000, 3, N, OPAQUE0, 0x1000);
    for (int x = 26; x <= 29; x++) assert_int_equal(scene_color(&s, x, 15), CUR_B);
    scene_free(&s);
}

/* Top line over bottom line, and the kinds that do not mix: R1 = x 10-49, lines 10-19, near,
 * drawn first; R2 = x 20-39, lines 19-29, far. On line 19 (R1's bottom line, R2's top line)
 * R2's inside (x 21-38, top) replaces R1's inside (bottom); R2's left and right edges' dots (x
 * 20, 39: vertical edges) are another kind: R1's (nearer). Line 20 on (R2 over R1's nothing) is
 * R2's. */
static void test_curse_top_line_over_bottom_line(void **state)
{
    (void)state;
    static const int R1[] = {10, 10, 10, 20, 50, 20, 50, 10},
                     R2[] = {20, 19, 20, 30, 40, 30, 40, 19};
    scene s;
    curse_pair(&s, EDGE_MARK, 4, R1, OPAQUE0, 0x1000, 4, R2, OPAQUE0, 0x2000);
    for (int x = 21; x <= 38; x++) assert_int_equal(scene_color(&s, x, 19), CUR_B);
    assert_int_equal(scene_color(&s, 20, 19), CUR_A);
    assert_int_equal(scene_color(&s, 39, 19), CUR_A);
    assert_int_equal(scene_color(&s, 19, 19), CUR_A);
    assert_int_equal(scene_color(&s, 30, 18), CUR_A);
    scene_free(&s);
    curse_pair(&s, EDGE_MARK | AA, 4, R1, OPAQUE0, 0x1000, 4, R2, OPAQUE0, 0x2000);
    for (int x = 21; x <= 38; x++) assert_int_equal(scene_color(&s, x, 19), CUR_A);
    scene_free(&s);
}

/* Left over right (vertical edges): P = x 10-30, lines 10-19 (its right edge at x 31, drawn a
 * dot left: x 30), Q = x 30-49 (its left edge at x 30), one Y-sort key. Q drawn second and far:
 * its left edge replaces P's right edge on x 30. P drawn second and near: its right edge leaves
 * Q's left edge alone. The depth test would show P's dots in both. */
static void test_curse_left_over_right(void **state)
{
    (void)state;
    static const int P[] = {10, 10, 10, 20, 31, 20, 31, 10}, Q[] = {30, 10, 30, 20, 50, 20, 50, 10};
    scene s;
    curse_pair(&s, EDGE_MARK, 4, P, OPAQUE0, 0x1000, 4, Q, OPAQUE0, 0x2000);
    for (int y = 10; y < 20; y++) assert_int_equal(scene_color(&s, 30, y), CUR_B);
    assert_int_equal(scene_color(&s, 29, 15), CUR_A);
    scene_free(&s);
    curse_pair(&s, EDGE_MARK, 4, Q, OPAQUE0, 0x2000, 4, P, OPAQUE0, 0x1000);
    for (int y = 10; y < 20; y++) assert_int_equal(scene_color(&s, 30, y), CUR_A);
    assert_int_equal(scene_color(&s, 29, 15), CUR_B);
    scene_free(&s);
    /* without edge marking (both vertical edges are filled anyway): the depth test */
    curse_pair(&s, 0, 4, P, OPAQUE0, 0x1000, 4, Q, OPAQUE0, 0x2000);
    for (int y = 10; y < 20; y++) assert_int_equal(scene_color(&s, 30, y), CUR_A);
    scene_free(&s);
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
        cmocka_unit_test(test_curse_top_run_over_bottom_run),
        cmocka_unit_test(test_curse_top_run_over_bottom_line),
        cmocka_unit_test(test_curse_verdict),
        cmocka_unit_test(test_curse_xmajor_top_wins),
        cmocka_unit_test(test_curse_xmajor_bottom_loses),
        cmocka_unit_test(test_curse_top_line_over_bottom_line),
        cmocka_unit_test(test_curse_left_over_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
