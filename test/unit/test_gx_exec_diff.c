/*
 * test_gx_exec_diff.c - randomized differential test of the FIFO-entry executor's shortcut for
 * the entries of a lit, textured vertex (gx/exec_internal.h gx_exec_hot: COLOR, NORMAL,
 * TEXCOORD, VTX_16 with their table values as constants and direct handler calls) against the
 * generic executor that reads every value from the command table (gx_exec_generic, kept as the
 * reference). Two engines get the same random entry stream, one through gx_exec_entry, one
 * through gx_exec_generic: every entry must cost the same cycles, and the command, matrix and
 * geometry state and the polygon/vertex RAM must stay identical. The stream mixes the vertex
 * commands with multi-parameter commands (so that vertex entries arrive between another
 * command's parameters, which the executor must treat as melonDS does), polygon-pipeline stalls,
 * lights, unknown opcodes and NOPs.
 * Also checks that the table rows still hold what the shortcut assumes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/exec_internal.h"

static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

static void test_table_rows_match_shortcut(void **state)
{
    (void)state;
    const gx_cmd_info *t = gx_cmd_table;
    assert_int_equal(t[GX_OP_COLOR].nparams, 1);
    assert_int_equal(t[GX_OP_COLOR].wait, GX_WAIT_6);
    assert_int_equal(t[GX_OP_COLOR].cost_kind, GX_COST_FIXED);
    assert_int_equal(t[GX_OP_COLOR].work, 0);
    assert_ptr_equal(t[GX_OP_COLOR].fn, gx_cmd_color);
    assert_int_equal(t[GX_OP_NORMAL].nparams, 1);
    assert_int_equal(t[GX_OP_NORMAL].wait, GX_WAIT_4);
    assert_int_equal(t[GX_OP_NORMAL].cost_kind, GX_COST_NORMAL);
    assert_ptr_equal(t[GX_OP_NORMAL].fn, gx_cmd_normal);
    assert_int_equal(t[GX_OP_TEXCOORD].nparams, 1);
    assert_int_equal(t[GX_OP_TEXCOORD].wait, GX_WAIT_4);
    assert_int_equal(t[GX_OP_TEXCOORD].cost_kind, GX_COST_FIXED);
    assert_int_equal(t[GX_OP_TEXCOORD].work, 0);
    assert_ptr_equal(t[GX_OP_TEXCOORD].fn, gx_cmd_texcoord);
    assert_int_equal(t[GX_OP_VTX_16].nparams, 2);
    assert_int_equal(t[GX_OP_VTX_16].wait, GX_WAIT_VERTEX);
    assert_int_equal(t[GX_OP_VTX_16].cost_kind, GX_COST_VERTEX);
    assert_ptr_equal(t[GX_OP_VTX_16].fn, gx_cmd_vtx16);
    /* unknown opcodes: all-zero rows (no parameters, 4-cycle class, no work, no handler) */
    for (unsigned op = 0; op < 256; op++) {
        if (t[op].name) continue;
        assert_int_equal(t[op].nparams, 0);
        assert_int_equal(t[op].wait, GX_WAIT_4);
        assert_int_equal(t[op].cost_kind, GX_COST_FIXED);
        assert_int_equal(t[op].work, 0);
        assert_null(t[op].fn);
    }
}

/* A random parameter word for @p op that keeps the scene drawable now and then. */
static uint32_t param_for(uint8_t op, uint64_t *s)
{
    uint32_t r = rnd(s);
    switch (op) {
    case 0x10: return r & 3u; /* MTX_MODE */
    case 0x23: /* VTX_16: small coordinates mostly */ return (r & 1u) ? r & 0x0FFF0FFFu : r;
    case 0x29: return (r & 0xFFFFFFF0u) | 0xCFu; /* POLYGON_ATTR: all lights, both faces */
    case 0x40: return r & 3u;                    /* BEGIN_VTXS */
    default: return r;
    }
}

static void same_state(const gx_engine *a, const gx_engine *b)
{
    assert_memory_equal(&a->cmd.cyc, &b->cmd.cyc, sizeof(a->cmd.cyc));
    assert_int_equal(a->cmd.frame_cycles, b->cmd.frame_cycles);
    assert_int_equal(a->cmd.frame_commands, b->cmd.frame_commands);
    assert_int_equal(a->cmd.exec_count, b->cmd.exec_count);
    assert_int_equal(a->cmd.exec_op, b->cmd.exec_op);
    assert_int_equal(a->cmd.exec_cycles, b->cmd.exec_cycles);
    assert_memory_equal(a->cmd.exec_params, b->cmd.exec_params, sizeof(a->cmd.exec_params));
    assert_memory_equal(&a->mtx, &b->mtx, sizeof(a->mtx));
    assert_memory_equal(&a->geom, &b->geom, sizeof(a->geom));
    assert_int_equal(a->build->npolys, b->build->npolys);
    assert_int_equal(a->build->nverts, b->build->nverts);
    assert_memory_equal(a->build->polys, b->build->polys,
                        a->build->npolys * sizeof(a->build->polys[0]));
    assert_memory_equal(a->build->verts, b->build->verts,
                        a->build->nverts * sizeof(a->build->verts[0]));
}

static void test_shortcut_matches_generic(void **state)
{
    (void)state;
    /* the vertex commands weighted up, the rest of the command set around them */
    static const uint8_t ops[] = {
        0x20, 0x21, 0x22, 0x23, 0x20, 0x21, 0x22, 0x23, 0x21, 0x22, 0x23, 0x23, 0x23, 0x21,
        0x22, 0x23, 0x23, 0x23, 0x21, 0x22, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x10, 0x11,
        0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1B, 0x1C, 0x24, 0x28, 0x29, 0x2A, 0x30, 0x31,
        0x32, 0x33, 0x34, 0x40, 0x41, 0x60, 0x70, 0x71, 0x72, 0x00, 0x05, 0x9C,
    };
    gx_engine *a = gx_create(), *b = gx_create();
    assert_non_null(a);
    assert_non_null(b);
    uint64_t seed = 0x5EED0F0E11A5ull;
    unsigned hot = 0, interleaved = 0, polys = 0;
    for (int round = 0; round < 400; round++) {
        for (int i = 0; i < 500; i++) {
            uint8_t op = ops[rnd(&seed) % sizeof(ops)];
            uint32_t p = param_for(op, &seed);
            if (op >= 0x20 && op <= 0x23) {
                hot++;
                interleaved += a->cmd.exec_count > 0 && a->cmd.exec_op != op;
            }
            uint32_t ca = gx_exec_entry(a, op, p);
            uint32_t cb = gx_exec_generic(b, op, p);
            assert_int_equal(ca, cb);
        }
        same_state(a, b);
        /* a new frame now and then, so that polygon RAM does not stay full */
        if (round % 8 == 7) {
            polys += a->build->npolys;
            gx_exec_entry(a, 0x50, 0);
            gx_exec_generic(b, 0x50, 0);
            gx_vblank(a);
            gx_vblank(b);
            same_state(a, b);
        }
    }
    print_message("vertex-command entries %u, of which between another command's parameters %u, "
                  "polygons %u\n",
                  hot, interleaved, polys);
    assert_true(hot > 50000);
    assert_true(interleaved > 1000);
    assert_true(polys > 1000);
    gx_destroy(a);
    gx_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_rows_match_shortcut),
        cmocka_unit_test(test_shortcut_matches_generic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
