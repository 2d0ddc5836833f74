/*
 * test_raster_activate.c - the edge set-up of a polygon's activation (raster/edge.c) against its
 * plain reference, field for field on random edges:
 *  - raster_slope_setup_tab (the slope's cases folded into selects, reciprocals from the table)
 *    against raster_slope_setup (the formulas as melonDS GPU3D_Soft.h Slope::Setup states them,
 *    dividing);
 *  - raster_slope_setup_pair (both edges of a polygon at once; the attributes of both edges in
 *    one AVX2 pass where the machine has it, else one edge at a time) against, per edge,
 *    raster_slope_setup, raster_slope_attrs_ref (one attribute at a time), the lower vertex's
 *    X and raster_slope_depth: what setup.c did edge by edge before;
 *  - raster_slope_setup_pair_lin (a lin_line polygon's pair: all four W equal with bits 0-6
 *    clear, Z-buffered; the linear case known without its tests) against the same reference;
 *  - raster_slope_one (edge_setup.h: one edge, setup.c raster_poly_setup_left / _right, an edge
 *    that starts below the polygon's top) against the same reference, each edge of the pairs.
 * Every field of raster_slope is compared (both sides start from the same bytes, so a field
 * neither writes compares equal and one that only one side writes does not).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_frame.h"
#include "raster/edge.h"
#include "raster/edge_setup.h"
#include "test_rand.h"

/* Every field of two edges, equal. */
static void assert_slopes_equal(const raster_slope *a, const raster_slope *b)
{
    assert_int_equal(a->dx, b->dx);
    assert_int_equal(a->inc, b->inc);
    assert_int_equal(a->xbase, b->xbase);
    assert_int_equal(a->xsign, b->xsign);
    assert_int_equal(a->xmin, b->xmin);
    assert_int_equal(a->xmax, b->xmax);
    assert_int_equal(a->far_mask, b->far_mask);
    assert_int_equal(a->near_keep, b->near_keep);
    assert_int_equal(a->negative, b->negative);
    assert_int_equal(a->xmajor, b->xmajor);
    /* (span.c seg_x_step, on Y-major edges only, leaves far_mask out: it is 0 there) */
    if (!b->xmajor) assert_int_equal(b->far_mask, 0);
    assert_int_equal(a->side, b->side);
    assert_int_equal(a->attr_lin_fast, b->attr_lin_fast);
    assert_int_equal(a->fill_start, b->fill_start);
    assert_int_equal(a->fill_end, b->fill_end);
    assert_int_equal(a->zacc_on, b->zacc_on);
    assert_int_equal(a->zsh, b->zsh);
    assert_int_equal(a->zbase, b->zbase);
    assert_int_equal(a->z0, b->z0);
    assert_true(a->zacc == b->zacc);
    assert_true(a->zstep == b->zstep);
    for (int k = 0; k < RASTER_EDGE_ATTRS; k++) {
        assert_int_equal(a->attr_base[k], b->attr_base[k]);
        /* (@p a's d, sel and dr as the edge.h reader takes them: an attr_lin_fast edge of the
         * lin set-up does not store them; sel is read only where d != 0) */
        raster_attr_prep ap;
        const uint64_t dr = raster_slope_attr_prep(a, k, &ap);
        assert_int_equal(ap.base, b->attr_base[k]);
        assert_int_equal(ap.d, b->attr_d[k]);
        if (b->attr_d[k] != 0) assert_int_equal(ap.sel, b->attr_sel[k]);
        assert_true(dr == b->attr_dr[k]);
    }
    for (int k = 0; k < RASTER_EDGE_ATTRS - 1; k++) {
        assert_true(a->attr_acc[k] == b->attr_acc[k]);
        assert_true(a->attr_step[k] == b->attr_step[k]);
    }
    const raster_interp *p = &a->interp, *q = &b->interp;
    assert_int_equal(p->x0, q->x0);
    assert_int_equal(p->xdiff, q->xdiff);
    assert_int_equal(p->x, q->x);
    assert_int_equal(p->factor, q->factor);
    assert_int_equal(p->linear, q->linear);
    assert_int_equal(p->shift, q->shift);
    assert_int_equal(p->dir, q->dir);
    assert_int_equal(p->w0n, q->w0n);
    assert_int_equal(p->w0d, q->w0d);
    assert_int_equal(p->w1d, q->w1d);
    assert_int_equal(p->xrecip_z, q->xrecip_z);
    assert_true(p->lin_recip == q->lin_recip);
    assert_int_equal(a->z1, b->z1);
    assert_int_equal(a->x1, b->x1);
}

/* A random normalized W pair: half of them equal with the linear interpolator's low bits
 * clear, some equal with them set, some odd over even (the interpolator's correction). */
static void rnd_w(uint32_t *st, int32_t *w0, int32_t *w1)
{
    *w0 = rnd_in(st, 1, 0xFFFF);
    *w1 = rnd_in(st, 1, 0xFFFF);
    switch (rnd(st) & 7u) {
    case 0:
    case 1:
    case 2:
    case 3: *w1 = *w0 = (*w0 & ~0x7F) ? (*w0 & ~0x7F) : 0x80; break;
    case 4: *w1 = *w0; break;
    case 5: *w0 |= 1, *w1 &= ~1; break;
    default: break;
    }
}

/* An edge's length in lines: mostly short (the scenes' small polygons), some zero, some beyond
 * the reciprocal table (RASTER_RECIP_MAX) or long enough to fail the linear products' bound. */
static int32_t rnd_len(uint32_t *st)
{
    switch (rnd(st) & 15u) {
    case 0: return 0;
    case 1: return rnd_in(st, 900, 1100);
    case 2: return rnd_in(st, 1, 400);
    default: return rnd_in(st, 1, 12);
    }
}

static int32_t rnd_x(uint32_t *st)
{
    return rnd(st) & 3u ? rnd_in(st, -20, 280) : rnd_in(st, -600, 600);
}

static void test_slope_setup_matches_ref(void **state)
{
    (void)state;
    raster_recip *tab = malloc(sizeof *tab);
    assert_non_null(tab);
    raster_recip_init(tab);
    uint32_t st = 0x2545F491u;
    long checked = 0;
    for (int i = 0; i < 300000; i++) {
        int side = (int)(rnd(&st) & 1u);
        bool gaps = (rnd(&st) & 3u) != 0;
        int32_t y0 = rnd_in(&st, -8, 200), y1 = y0 + rnd_len(&st);
        int32_t x0 = rnd_x(&st), x1 = rnd(&st) & 7u ? rnd_x(&st) : x0;
        if ((rnd(&st) & 7u) == 0) x1 = x0 + (rnd(&st) & 1u ? 1 : -1) * (y1 - y0); /* 45 degrees */
        int32_t w0, w1;
        rnd_w(&st, &w0, &w1);
        int32_t y = rnd(&st) & 1u ? y0 : rnd_in(&st, y0 - 2, y1 + 2);
        raster_slope ref, fast;
        memset(&ref, 0x5A, sizeof ref);
        memset(&fast, 0x5A, sizeof fast);
        int32_t xr = raster_slope_setup(&ref, side, gaps, x0, x1, y0, y1, w0, w1, y);
        int32_t xf = raster_slope_setup_tab(&fast, side, gaps, x0, x1, y0, y1, w0, w1, y,
                                            (i & 3) ? tab : NULL);
        assert_int_equal(xf, xr);
        assert_slopes_equal(&fast, &ref);
        /* span.c seg_x_step (pmajor_lin_fast) and edge.h raster_slope_x_ymajor (span.c
         * seg_step_x, seg_step) step a Y-major edge's X without the clamps: on the edge's
         * lines from the set-up's on (y0 <= line < y1; edges of the screen's lengths), its X
         * unclamped lies in [xmin, xmax], so it is raster_slope_x's */
        if (!ref.xmajor && y >= y0 && y1 - y0 <= 256) {
            raster_slope s = ref;
            for (int32_t line = y; line < y1; line++) {
                const int32_t x = raster_slope_x_ymajor(&s);
                assert_true(x >= ref.xmin && x <= ref.xmax);
                assert_int_equal(x, raster_slope_x(&s));
                s.dx = (int32_t)((uint32_t)s.dx + (uint32_t)s.inc);
                checked++;
            }
        }
    }
    assert_true(checked > 100000);
    free(tab);
}

/* A random vertex: position, 9-bit colour (or any 16-bit value), texcoords. */
static void rnd_vertex(uint32_t *st, gx_vertex *v, int32_t sx, int32_t sy)
{
    memset(v, 0, sizeof *v);
    v->sx = sx;
    v->sy = sy;
    for (int c = 0; c < 3; c++)
        v->color[c] = (uint16_t)(rnd(st) & 7u ? rnd_in(st, 0, 511) : (int32_t)(rnd(st) & 0xFFFFu));
    for (int c = 0; c < 2; c++)
        v->texcoord[c] = (int16_t)(rnd(st) & 3u ? rnd_in(st, -4096, 4096)
                                                : (int32_t)(int16_t)(rnd(st) & 0xFFFFu));
}

/* An edge's ends; @p a: the upper vertex, shared by both edges of a polygon half of the time. */
static void rnd_ends(uint32_t *st, raster_edge_ends *e, const gx_vertex *a, gx_vertex *b)
{
    rnd_vertex(st, b, rnd_x(st), a->sy + rnd_len(st));
    if (rnd(st) & 7u) { /* (some share the upper vertex's attributes: d = 0) */
        memcpy(b->color, a->color, sizeof b->color);
        if (rnd(st) & 1u) memcpy(b->texcoord, a->texcoord, sizeof b->texcoord);
    }
    e->a = a;
    e->b = b;
    rnd_w(st, &e->wa, &e->wb);
    e->za = rnd_in(st, 0, 0xFFFFFF);
    e->zb = rnd(st) & 3u ? rnd_in(st, 0, 0xFFFFFF) : e->za;
}

/* The reference of one edge of raster_slope_setup_pair (setup.c's former per-edge set-up). */
static int32_t ref_edge(raster_slope *s, int side, bool gaps, const raster_edge_ends *e, bool wbuf,
                        int32_t y)
{
    const gx_vertex *a = e->a, *b = e->b;
    int32_t x = raster_slope_setup(s, side, gaps, a->sx, b->sx, a->sy, b->sy, e->wa, e->wb, y);
    const int32_t a0[RASTER_EDGE_ATTRS] = {e->wa,       a->color[0],    a->color[1],
                                           a->color[2], a->texcoord[0], a->texcoord[1]};
    const int32_t a1[RASTER_EDGE_ATTRS] = {e->wb,       b->color[0],    b->color[1],
                                           b->color[2], b->texcoord[0], b->texcoord[1]};
    raster_slope_attrs_ref(s, a0, a1);
    s->x1 = b->sx;
    raster_slope_depth(s, e->za, e->zb, wbuf);
    return x;
}

static void test_pair_matches_ref(void **state)
{
    (void)state;
    raster_recip *tab = malloc(sizeof *tab);
    assert_non_null(tab);
    raster_recip_init(tab);
    bool avx2 = false;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    avx2 = __builtin_cpu_supports("avx2");
#endif
    uint32_t st = 0x6C078965u;
    unsigned lin_fast = 0, slow = 0, lin_pairs = 0;
    for (int i = 0; i < 200000; i++) {
        gx_vertex top, al, bl, ar, br;
        rnd_vertex(&st, &top, rnd_x(&st), rnd_in(&st, -8, 200));
        raster_edge_ends el, er;
        bool shared = rnd(&st) & 1u;
        if (shared) {
            rnd_ends(&st, &el, &top, &bl);
            rnd_ends(&st, &er, &top, &br);
            if (rnd(&st) & 1u) er.wa = el.wa, er.za = el.za; /* (the same vertex's W and Z) */
        } else {
            rnd_vertex(&st, &al, rnd_x(&st), rnd_in(&st, -8, 200));
            rnd_vertex(&st, &ar, rnd_x(&st), rnd_in(&st, -8, 200));
            rnd_ends(&st, &el, &al, &bl);
            rnd_ends(&st, &er, &ar, &br);
        }
        /* (a quarter: a lin_line polygon's edges, every W equal with bits 0-6 clear) */
        const bool lin = (rnd(&st) & 3u) == 0;
        if (lin) el.wb = er.wa = er.wb = el.wa = (el.wa & ~0x7F) ? (el.wa & ~0x7F) : 0x80;
        bool gaps = (rnd(&st) & 3u) != 0, wbuf = !lin && (rnd(&st) & 7u) == 0;
        int32_t y = rnd(&st) & 1u ? el.a->sy : rnd_in(&st, el.a->sy - 2, el.b->sy + 2);
        raster_slope refl, refr;
        memset(&refl, 0xA5, sizeof refl);
        memset(&refr, 0xA5, sizeof refr);
        int32_t xl = ref_edge(&refl, RASTER_SIDE_LEFT, gaps, &el, wbuf, y);
        int32_t xr = ref_edge(&refr, RASTER_SIDE_RIGHT, gaps, &er, wbuf, y);
        lin_fast += refl.attr_lin_fast + refr.attr_lin_fast;
        slow += (refl.interp.linear && !refl.attr_lin_fast) +
                (refr.interp.linear && !refr.attr_lin_fast);
        {
            raster_slope fl, fr;
            memset(&fl, 0xA5, sizeof fl);
            memset(&fr, 0xA5, sizeof fr);
            const raster_recip *t = (i & 7) ? tab : NULL;
            assert_int_equal(raster_slope_one(&fl, RASTER_SIDE_LEFT, &el, gaps, wbuf, y, t), xl);
            assert_int_equal(raster_slope_one(&fr, RASTER_SIDE_RIGHT, &er, gaps, wbuf, y, t), xr);
            assert_slopes_equal(&fl, &refl);
            assert_slopes_equal(&fr, &refr);
        }
        for (int wide = 0; wide <= (int)avx2; wide++) {
            raster_slope fl, fr;
            memset(&fl, 0xA5, sizeof fl);
            memset(&fr, 0xA5, sizeof fr);
            int32_t x[2];
            raster_slope_setup_pair(&fl, &fr, &el, &er, gaps, wbuf, y, (i & 7) ? tab : NULL,
                                    wide != 0, x);
            assert_int_equal(x[0], xl);
            assert_int_equal(x[1], xr);
            assert_slopes_equal(&fl, &refl);
            assert_slopes_equal(&fr, &refr);
            if (!lin) continue;
            memset(&fl, 0xA5, sizeof fl);
            memset(&fr, 0xA5, sizeof fr);
            raster_slope_setup_pair_lin(&fl, &fr, &el, &er, gaps, y, (i & 7) ? tab : NULL,
                                        wide != 0, x);
            assert_int_equal(x[0], xl);
            assert_int_equal(x[1], xr);
            assert_slopes_equal(&fl, &refl);
            assert_slopes_equal(&fr, &refr);
            lin_pairs++;
        }
    }
    assert_true(lin_pairs > 40000u);
    /* both kinds of linear edge were met: with the products, and without them */
    assert_true(lin_fast > 50000u);
    assert_true(slow > 1000u);
    free(tab);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slope_setup_matches_ref),
        cmocka_unit_test(test_pair_matches_ref),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
