/*
 * test_gx_cycles.c - the geometry engine's cycle model.
 *
 * 1. Hand-worked command sequences from MODEL.md section 3 (melonDS's model).
 * 2. Every frame of every reference trace against melonDS's figures
 *    (test/data/cycles/melonds_cycles.tsv): cycles, commands, polygons, vertices, exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx.h"
#include "tools/core/trace.h"

#define FIFO 0x04000400u

/* cycles charged to each command, captured through the command hook */
typedef struct cap {
    unsigned n;
    uint8_t op[128];
    uint32_t cyc[128];
} cap;

static void on_cmd(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    (void)gx;
    cap *c = user;
    if (c->n < 128) {
        c->op[c->n] = ev->opcode;
        c->cyc[c->n] = ev->cycles;
        c->n++;
    }
}

static gx_engine *make(cap *c)
{
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    memset(c, 0, sizeof(*c));
    gx_hooks h = {0};
    h.user = c;
    h.command = on_cmd;
    gx_set_hooks(gx, &h);
    return gx;
}

/* port addresses: 04000440 + 4 * (opcode - 10h) */
static uint32_t port(uint8_t op)
{
    return 0x04000400u + 4u * op;
}

static void setup_scene(gx_engine *gx, uint32_t polyattr)
{
    gx_write32(gx, port(0x10), 0);          /* MTX_MODE 0 */
    gx_write32(gx, port(0x15), 0);          /* IDENTITY */
    gx_write32(gx, port(0x10), 2);          /* MTX_MODE 2 */
    gx_write32(gx, port(0x15), 0);          /* IDENTITY */
    gx_write32(gx, port(0x60), 0xBFFF0000); /* VIEWPORT full screen */
    gx_write32(gx, port(0x29), polyattr);   /* POLYGON_ATTR */
}

static void vtx16(gx_engine *gx, int16_t x, int16_t y)
{
    gx_write32(gx, port(0x23), (uint32_t)(uint16_t)x | (uint32_t)(uint16_t)y << 16);
    gx_write32(gx, port(0x23), 0);
}

static uint32_t sum_from(const cap *c, unsigned from)
{
    uint32_t s = 0;
    for (unsigned i = from; i < c->n; i++) s += c->cyc[i];
    return s;
}

/* MODEL.md 3 "Work costs": matrix commands with idle pipelines. */
static void test_matrix_costs(void **state)
{
    (void)state;
    cap c;
    gx_engine *gx = make(&c);
    gx_write32(gx, port(0x10), 1);                              /* MTX_MODE: 1 */
    gx_write32(gx, port(0x11), 0);                              /* PUSH: 17 */
    gx_write32(gx, port(0x12), 1);                              /* POP: 36 */
    gx_write32(gx, port(0x13), 3);                              /* STORE: 17 */
    gx_write32(gx, port(0x14), 3);                              /* RESTORE: 36 */
    gx_write32(gx, port(0x15), 0);                              /* IDENTITY: 19 */
    for (int i = 0; i < 16; i++) gx_write32(gx, port(0x16), 0); /* LOAD_4x4: 34 */
    for (int i = 0; i < 12; i++) gx_write32(gx, port(0x17), 0); /* LOAD_4x3: 30 */
    for (int i = 0; i < 16; i++) gx_write32(gx, port(0x18), 0); /* MULT_4x4: 35 */
    for (int i = 0; i < 12; i++) gx_write32(gx, port(0x19), 0); /* MULT_4x3: 35 */
    for (int i = 0; i < 9; i++) gx_write32(gx, port(0x1A), 0);  /* MULT_3x3: 35 */
    for (int i = 0; i < 3; i++) gx_write32(gx, port(0x1B), 0);  /* SCALE: 35 */
    for (int i = 0; i < 3; i++) gx_write32(gx, port(0x1C), 0);  /* TRANS: 35 */
    const uint32_t mode1[] = {1, 17, 36, 17, 36, 19, 34, 30, 35, 35, 35, 35, 35};
    assert_int_equal(c.n, 13);
    for (unsigned i = 0; i < 13; i++) assert_int_equal(c.cyc[i], mode1[i]);

    c.n = 0;
    gx_write32(gx, port(0x10), 2);
    for (int i = 0; i < 16; i++) gx_write32(gx, port(0x18), 0); /* MULT_4x4 mode 2: 65 */
    for (int i = 0; i < 3; i++) gx_write32(gx, port(0x1B), 0);  /* SCALE mode 2: 35 */
    for (int i = 0; i < 3; i++) gx_write32(gx, port(0x1C), 0);  /* TRANS mode 2: 65 */
    gx_write32(gx, port(0x10), 3);
    gx_write32(gx, port(0x15), 0);                              /* IDENTITY tex: 1 */
    for (int i = 0; i < 16; i++) gx_write32(gx, port(0x16), 0); /* LOAD_4x4 tex: 26 */
    for (int i = 0; i < 12; i++) gx_write32(gx, port(0x17), 0); /* LOAD_4x3 tex: 19 */
    gx_write32(gx, port(0x12), 0);                              /* POP tex: 18 */
    for (int i = 0; i < 3; i++) gx_write32(gx, port(0x1C), 0);  /* TRANS tex: 33 */
    const uint32_t more[] = {1, 65, 35, 65, 1, 1, 26, 19, 18, 33};
    assert_int_equal(c.n, 10);
    for (unsigned i = 0; i < 10; i++) assert_int_equal(c.cyc[i], more[i]);
    gx_destroy(gx);
}

/* MODEL.md 3: COLOR straight after a vertex costs 3, END_VTXS after a vertex 5, VTX_16 5. */
static void test_vertex_tail(void **state)
{
    (void)state;
    cap c;
    gx_engine *gx = make(&c);
    setup_scene(gx, 0x001F00C0);
    gx_write32(gx, port(0x40), 0); /* BEGIN triangles: 1 */
    c.n = 0;
    vtx16(gx, 0, 0x800);              /* 5 */
    gx_write32(gx, port(0x20), 0x1F); /* COLOR after vertex: (7-3-2)+1 = 3 */
    vtx16(gx, -0x800, -0x800);        /* 5 */
    vtx16(gx, 0x800, -0x800);         /* 5, completes the triangle */
    gx_write32(gx, port(0x41), 0);    /* END after vertex: 4+1 = 5 */
    const uint32_t want[] = {5, 3, 5, 5, 5};
    assert_int_equal(c.n, 5);
    for (unsigned i = 0; i < 5; i++) assert_int_equal(c.cyc[i], want[i]);
    gx_destroy(gx);
}

/* MODEL.md 3: a separate lit triangle (TEXCOORD, NORMAL, VTX_16) x3 costs 28-29 once the
 * polygon pipeline is in its steady state. Worked by hand with one light, after a triangle was
 * completed (PP 26, slots 0b1110, slot counter 1, then the vertex's 3 cycles: PP 23, counter 4):
 *   TEXCOORD 1 (PP 22, c 5); NORMAL 1 + 1 = 2 (PP 20, c 7);
 *   VTX_16: slot bit 0 clear -> wait (9 - 7) + 1 = 3: PP 17, c 1, slots 0b111 -> take bit 0
 *           (0b110); +1 parameter, +3 work -> 7 (PP 13, c 5);
 *   TEXCOORD 1 (PP 12, c 6); NORMAL 2 (PP 10, c 8);
 *   VTX_16: wait (9 - 8) + 1 = 2: PP 8, c 1, slots 0b11 -> take (0b10); +1 +3 -> 6 (PP 4, c 5);
 *   TEXCOORD 1 (PP 3); NORMAL 2 (PP 1, c 8);
 *   VTX_16: wait 2 >= PP 1: the pipeline empties (slot free); +1 +3 -> 6, completes the next
 *           triangle (PP 26 again).
 * Per triangle: 1+2+7 + 1+2+6 + 1+2+6 = 28. */
static void test_lit_triangle_stream(void **state)
{
    (void)state;
    cap c;
    gx_engine *gx = make(&c);
    setup_scene(gx, 0x001F00C1); /* light 0 enabled */
    gx_write32(gx, port(0x40), 0);
    for (int t = 0; t < 40; t++) {
        for (int v = 0; v < 3; v++) {
            gx_write32(gx, port(0x22), 0);
            gx_write32(gx, port(0x21), 0x1FF << 20);
            vtx16(gx, (int16_t)(v == 1 ? -0x800 : 0x800), (int16_t)(v == 0 ? 0x800 : -0x800));
        }
        if (t == 29) c.n = 0; /* measure the last 10 triangles (steady state) */
    }
    assert_int_equal(c.n, 90);
    const uint32_t tri[9] = {1, 2, 7, 1, 2, 6, 1, 2, 6};
    for (unsigned i = 0; i < 90; i++) assert_int_equal(c.cyc[i], tri[i % 9]);
    assert_int_equal(sum_from(&c, 0), 280);
    gx_destroy(gx);
}

/* Polygon-pipeline stalls (MODEL.md 3): a quad starts PP 35 (slot counter 1) and its last
 * vertex's 3 cycles leave 32; END_VTXS pays VP + 1 = 5 (PP 27); BEGIN_VTXS pays PP + 1 = 28.
 * After a triangle (PP 26 - 3 = 23), LIGHT_VECTOR pays PP + 9 = 32, then its work 5: 37. */
static void test_pipeline_stalls(void **state)
{
    (void)state;
    cap c;
    gx_engine *gx = make(&c);
    setup_scene(gx, 0x001F00C0);
    gx_write32(gx, port(0x40), 1); /* quads */
    vtx16(gx, -0x800, 0x800);
    vtx16(gx, -0x800, -0x800);
    vtx16(gx, 0x800, -0x800);
    vtx16(gx, 0x800, 0x800);
    c.n = 0;
    gx_write32(gx, port(0x41), 0);
    gx_write32(gx, port(0x40), 0);
    assert_int_equal(c.cyc[0], 5);
    assert_int_equal(c.cyc[1], 28);
    vtx16(gx, 0, 0x800);
    vtx16(gx, -0x800, -0x800);
    vtx16(gx, 0x800, -0x800);
    c.n = 0;
    gx_write32(gx, port(0x32), 0);
    assert_int_equal(c.cyc[0], 37);
    gx_destroy(gx);
}

/* SWAP_BUFFERS: 325 regardless of what is outstanding; the frame total includes it. */
static void test_swap_cost(void **state)
{
    (void)state;
    cap c;
    gx_engine *gx = make(&c);
    gx_write32(gx, port(0x21), 0); /* NORMAL, no lights: 1 + 1 = 2, NP = 7 */
    gx_write32(gx, port(0x50), 0); /* SWAP: 325 (not NP + 1 + 325) */
    assert_int_equal(c.n, 2);
    assert_int_equal(c.cyc[0], 2);
    assert_int_equal(c.cyc[1], 325);
    assert_true(gx_vblank(gx));
    gx_frame_stats st;
    gx_last_frame_stats(gx, &st);
    assert_int_equal(st.cycles, 327);
    assert_int_equal(st.commands, 2);
    gx_destroy(gx);
}

/* NORMAL leaves a 7-cycle tail that the next non-vertex command pays (NP + 1 = 8). */
static void test_normal_tail(void **state)
{
    (void)state;
    cap c;
    gx_engine *gx = make(&c);
    gx_write32(gx, port(0x29), 0x001F00CF); /* 4 lights */
    gx_write32(gx, port(0x40), 0);          /* latch it */
    c.n = 0;
    gx_write32(gx, port(0x21), 0); /* 1 + 4 = 5 */
    gx_write32(gx, port(0x20), 0); /* COLOR pays NP: 8 */
    gx_write32(gx, port(0x20), 0); /* 1 */
    assert_int_equal(c.cyc[0], 5);
    assert_int_equal(c.cyc[1], 8);
    assert_int_equal(c.cyc[2], 1);
    gx_destroy(gx);
}

/* ---- reference traces ---- */

typedef struct row {
    char trace[64];
    unsigned frame;
    uint64_t cycles;
    uint32_t commands, polygons, vertices;
} row;

static size_t load_rows(row **out)
{
    FILE *f = fopen(DSGX_TEST_DATA "/cycles/melonds_cycles.tsv", "r");
    assert_non_null(f);
    size_t n = 0, cap_ = 128;
    row *rows = calloc(cap_, sizeof(*rows));
    char line[256];
    while (fgets(line, sizeof(line), f)) {
        char set[32];
        row r;
        unsigned long long cyc;
        if (sscanf(line, "%31s %63s %u %llu %u %u %u", set, r.trace, &r.frame, &cyc, &r.commands,
                   &r.polygons, &r.vertices) != 7)
            continue; /* header */
        r.cycles = cyc;
        if (n == cap_) rows = realloc(rows, (cap_ *= 2) * sizeof(*rows));
        rows[n++] = r;
    }
    fclose(f);
    *out = rows;
    return n;
}

static void replay_check(const char *name, const row *rows, size_t nrows, unsigned *fails,
                         unsigned *checked)
{
    char path[512], err[256];
    snprintf(path, sizeof(path), DSGX_GOLDEN_DIR "/ref/%s.trace", name);
    dsgx_trace t;
    memset(&t, 0, sizeof(t));
    assert_int_equal(dsgx_trace_load(&t, path, err, sizeof(err)), 0);
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    unsigned frame = 0;
    for (size_t i = 0; i < t.n; i++) {
        const dsgx_trace_item *it = &t.items[i];
        switch (it->op) {
        case TRACE_W32: gx_write32(gx, it->addr, it->value); break;
        case TRACE_W16: gx_write16(gx, it->addr, (uint16_t)it->value); break;
        case TRACE_W8: gx_write8(gx, it->addr, (uint8_t)it->value); break;
        case TRACE_DATA:
            for (uint32_t o = 0; o + 4 <= it->data_len; o += 4) {
                const uint8_t *b = t.data + it->data_off + o;
                gx_write32(gx, it->addr + o,
                           b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                               (uint32_t)b[3] << 24);
            }
            break;
        case TRACE_FRAME: {
            gx_vblank(gx);
            gx_frame_stats st;
            gx_last_frame_stats(gx, &st);
            for (size_t r = 0; r < nrows; r++) {
                if (strcmp(rows[r].trace, name) || rows[r].frame != frame) continue;
                (*checked)++;
                if (st.cycles != rows[r].cycles || st.commands != rows[r].commands ||
                    st.polygons != rows[r].polygons || st.vertices != rows[r].vertices) {
                    print_message("%s frame %u: got %llu cyc %u cmd %u poly %u vtx, melonDS "
                                  "%llu %u %u %u\n",
                                  name, frame, (unsigned long long)st.cycles, st.commands,
                                  st.polygons, st.vertices, (unsigned long long)rows[r].cycles,
                                  rows[r].commands, rows[r].polygons, rows[r].vertices);
                    (*fails)++;
                }
            }
            frame++;
            break;
        }
        default: break;
        }
    }
    gx_destroy(gx);
    dsgx_trace_free(&t);
}

static void test_reference_traces(void **state)
{
    (void)state;
    row *rows;
    size_t n = load_rows(&rows);
    assert_true(n >= 60);
    unsigned fails = 0, checked = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && !strcmp(rows[i].trace, rows[i - 1].trace)) continue;
        replay_check(rows[i].trace, rows, n, &fails, &checked);
    }
    free(rows);
    assert_int_equal(checked, n); /* every row was compared */
    /* every frame must match melonDS exactly (cycles, commands, RAM counts) */
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_costs),        cmocka_unit_test(test_vertex_tail),
        cmocka_unit_test(test_lit_triangle_stream), cmocka_unit_test(test_swap_cost),
        cmocka_unit_test(test_normal_tail),         cmocka_unit_test(test_pipeline_stalls),
        cmocka_unit_test(test_reference_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
