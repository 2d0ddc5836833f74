/*
 * test_gx_reset.c - gx_reset clears only the polygon/vertex RAM entries used since the last
 * reset (engine.c clear_frame); both RAMs must still end up byte for byte as a freshly
 * created engine has them, whatever was drawn before (strips, clipped polygons with copied
 * shared vertices, several frames, RAM overflow).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

enum {
    OP_MTX_MODE = 0x10,
    OP_MTX_IDENTITY = 0x15,
    OP_COLOR = 0x20,
    OP_VTX_16 = 0x23,
    OP_ATTR = 0x29,
    OP_BEGIN = 0x40,
    OP_SWAP = 0x50,
};

static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* @p n vertices of primitive @p prim at random positions, some far outside the view volume
 * (clipped: new vertices, and strips storing copies of their shared vertices) */
static void draw(gx_engine *gx, uint32_t *seed, unsigned prim, unsigned n)
{
    cmd(gx, OP_ATTR, 0x001F00C0u); /* both faces, opaque */
    cmd(gx, OP_BEGIN, prim);
    for (unsigned i = 0; i < n; i++) {
        cmd(gx, OP_COLOR, rnd(seed) & 0x7FFFu);
        uint32_t range = (rnd(seed) & 7u) == 0 ? 0xFFFFu : 0x1FFFu;
        uint32_t x = rnd(seed) & range, y = rnd(seed) & range, z = rnd(seed) & range;
        cmd(gx, OP_VTX_16, ((x - range / 2) & 0xFFFFu) | ((y - range / 2) & 0xFFFFu) << 16);
        cmd(gx, OP_VTX_16, (z - range / 2) & 0xFFFFu);
    }
}

static void assert_like_fresh(gx_engine *gx)
{
    gx_engine *fresh = gx_create();
    assert_non_null(fresh);
    assert_memory_equal(gx->build, fresh->build, sizeof(gx_frame));
    assert_memory_equal(gx->render, fresh->render, sizeof(gx_frame));
    assert_int_equal(gx->ram_used_polys, 0);
    assert_int_equal(gx->ram_used_verts, 0);
    gx_destroy(fresh);
}

static void test_reset_after_frames(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint32_t seed = 7;
    for (int round = 0; round < 3; round++) {
        cmd(gx, OP_MTX_MODE, 0);
        cmd(gx, OP_MTX_IDENTITY, 0);
        for (unsigned prim = 0; prim < 4; prim++) draw(gx, &seed, prim, 60 + 40 * (unsigned)round);
        cmd(gx, OP_SWAP, 0);
        assert_true(gx_vblank(gx));
        draw(gx, &seed, 2, 30); /* a frame being built at the reset */
        assert_true(gx->ram_used_polys > 0);
        assert_true(gx->ram_used_verts > gx->ram_used_polys);
        gx_reset(gx);
        assert_like_fresh(gx);
    }
    gx_destroy(gx);
}

/* Polygon and vertex RAM filled to overflow in both buffers, then reset. */
static void test_reset_after_overflow(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint32_t seed = 99;
    for (int f = 0; f < 2; f++) {
        draw(gx, &seed, 0, 3 * 2100);
        cmd(gx, OP_SWAP, 0);
        assert_true(gx_vblank(gx));
    }
    assert_true(gx->ram_used_polys > 1000);
    gx_reset(gx);
    assert_like_fresh(gx);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_after_frames),
        cmocka_unit_test(test_reset_after_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
