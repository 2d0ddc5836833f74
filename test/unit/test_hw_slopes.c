/*
 * test_hw_slopes.c - every frame of the nds-interp subset (300 slopes x 4 corners, recorded on
 * real DS hardware; test/data/nds-interp/PROVENANCE.md) must be drawn exactly as the hardware
 * drew it, compared the way the capture ROM recorded it: for each scanned row, the first lit
 * column and the last lit column before the first unlit one (check.py's "rom" comparison).
 * Prints "N passed, M failed" like the dataset's checker.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/core/system.h"

#define MAXROWS 200

typedef struct expect_frame {
    int frame, dx, dy, cx0, cx1;
    char origin[3];
    int nrows;
    int row[MAXROWS], first[MAXROWS], last[MAXROWS];
} expect_frame;

typedef struct ctx {
    FILE *exp;
    char line[128];
    bool have_line;
    unsigned passed, failed;
    unsigned gap_failed;
    char first_failure[256];
} ctx;

static bool next_line(ctx *c)
{
    if (c->have_line) return true;
    c->have_line = fgets(c->line, sizeof c->line, c->exp) != NULL;
    return c->have_line;
}

static bool read_expect(ctx *c, expect_frame *e)
{
    if (!next_line(c) || c->line[0] != 'F') return false;
    sscanf(c->line, "F %d %2s %d %d %d %d", &e->frame, e->origin, &e->dx, &e->dy, &e->cx0, &e->cx1);
    c->have_line = false;
    e->nrows = 0;
    while (next_line(c) && c->line[0] == 'R') {
        if (e->nrows < MAXROWS)
            sscanf(c->line, "R %d %d %d", &e->row[e->nrows], &e->first[e->nrows],
                   &e->last[e->nrows]);
        e->nrows++;
        c->have_line = false;
    }
    return true;
}

static bool lit(uint32_t p)
{
    /* the ROM tested the 15-bit colour: 6-bit channels >> 1 */
    return ((dsgx_pixel_r(p) >> 1) | (dsgx_pixel_g(p) >> 1) | (dsgx_pixel_b(p) >> 1)) != 0;
}

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    ctx *c = user;
    expect_frame e;
    if (!read_expect(c, &e) || (unsigned)e.frame != index) {
        c->failed++;
        return;
    }
    bool ok = true;
    for (int k = 0; k < e.nrows && ok; k++) {
        const uint32_t *row = &s->frame.px[e.row[k] * DSGX_FRAME_W];
        int first = -1, last = -1;
        for (int x = e.cx0; x <= e.cx1; x++) {
            if (lit(row[x])) {
                first = x;
                break;
            }
        }
        if (first >= 0) {
            last = e.cx1;
            for (int x = first; x <= e.cx1; x++) {
                if (!lit(row[x])) {
                    last = x - 1;
                    break;
                }
            }
        }
        if (first != e.first[k] || last != e.last[k]) {
            ok = false;
            if (!c->first_failure[0])
                snprintf(c->first_failure, sizeof c->first_failure,
                         "frame %d %s %dx%d row %d: hardware %d..%d, drawn %d..%d", e.frame,
                         e.origin, e.dx, e.dy, e.row[k], e.first[k], e.last[k], first, last);
        }
    }
    if (ok)
        c->passed++;
    else
        c->failed++;
}

static void test_subset300(void **state)
{
    (void)state;
    /* DSGX_HW_TRACE / DSGX_HW_EXPECTED select another set (the full 198,404-slope sweep, a
     * long check run by hand: see test/data/nds-interp/sweep.sh) */
    const char *trace_path = getenv("DSGX_HW_TRACE");
    const char *exp_path = getenv("DSGX_HW_EXPECTED");
    bool subset = !trace_path || !exp_path;
    if (subset) {
        trace_path = DSGX_TEST_DATA "/nds-interp/subset300.trace";
        exp_path = DSGX_TEST_DATA "/nds-interp/subset300.expected";
    }
    dsgx_trace t = {0};
    char err[512];
    int rc = dsgx_trace_load(&t, trace_path, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    unsigned nframes = t.nframes;
    if (subset) assert_int_equal(nframes, 1200);
    ctx c = {0};
    c.exp = fopen(exp_path, "r");
    assert_non_null(c.exp);
    dsgx_system *s = dsgx_system_create();
    assert_non_null(s);
    unsigned frames = dsgx_system_replay(s, &t, on_frame, &c);
    dsgx_system_destroy(s);
    fclose(c.exp);
    dsgx_trace_free(&t);
    assert_int_equal(frames, nframes);
    printf("nds-interp %s: %u passed, %u failed\n", subset ? "subset300" : trace_path, c.passed,
           c.failed);
    if (c.first_failure[0]) printf("first failure: %s\n", c.first_failure);
    assert_int_equal(c.passed, nframes);
    assert_int_equal(c.failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_subset300)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
