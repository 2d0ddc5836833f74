/*
 * test_bus.c - bad input from a host behaves as the ARM9 bus does (docs/embedding.md "Bus
 * behaviour"): the whole engine state is compared through save-state blobs, so "no effect"
 * means no effect anywhere, not only on the registers a test reads back.
 *
 *  - writes outside the 3D engine's addresses change nothing, reads of them give 0;
 *  - a misaligned 32-bit access is the aligned word (address bits 0-1 ignored), a misaligned
 *    16-bit access the aligned halfword; rotation of misaligned loads is the CPU's business;
 *  - write-only registers (3D registers 0330..03BF, GXFIFO, command ports) read 0;
 *  - 8- and 16-bit writes to GXFIFO and the command ports are ignored (they take 32 bits).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/core/savestate.h"

typedef struct snap {
    uint8_t *b;
    size_t n;
} snap;

static snap take(gx_engine *gx, raster_engine *r)
{
    snap s;
    s.n = dsgx_state_size(gx, r);
    s.b = malloc(s.n);
    assert_non_null(s.b);
    assert_int_equal(dsgx_state_save(gx, r, s.b, s.n, 0), s.n);
    return s;
}

static void same(snap a, snap b)
{
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.b, b.b, a.n);
    free(a.b);
    free(b.b);
}

/* a state with something in every unit: a matrix, a polygon, VRAM, registers */
static void setup_scene(gx_engine *gx)
{
    gx_write32(gx, 0x04000240, 0x80808080); /* VRAMCNT A-D: LCDC */
    gx_write32(gx, 0x06800010, 0x12345678);
    gx_write32(gx, 0x04000350, 0x001F7FFF); /* CLEAR_COLOR */
    gx_write32(gx, 0x04000440, 1);          /* MTX_MODE position */
    gx_write32(gx, 0x04000470, 0x3000);     /* MTX_TRANS x */
    gx_write32(gx, 0x04000470, 0);
    gx_write32(gx, 0x04000470, 0);
    gx_write32(gx, 0x04000500, 0); /* BEGIN_VTXS triangles */
    gx_write32(gx, 0x0400048C, 0);
    gx_write32(gx, 0x0400048C, 0);
    gx_write32(gx, 0x0400048C, 0x1000);
    gx_write32(gx, 0x0400048C, 0);
    gx_write32(gx, 0x0400048C, 0x10001000);
    gx_write32(gx, 0x0400048C, 0);
}

static void test_outside_the_3d_range(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    raster_engine *r = raster_create();
    setup_scene(gx);
    snap before = take(gx, r);
    static const uint32_t outside[] = {
        0x00000000, 0x02000000, 0x03FFFFFC, 0x04000004, 0x04000008, 0x04000064,
        0x04000208, 0x04000247, 0x04000300, 0x04000308, 0x040003C0, 0x040003D0,
        0x040003E0, 0x040003FC, 0x04000700, 0x04001060, 0x04100000, 0x05000000,
        0x06000000, 0x067FFFFC, 0x068A4000, 0x06900000, 0x07000000, 0xFFFFFFFC,
    };
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        uint32_t a = outside[i];
        if (a != 0x04000247) { /* WRAMCNT: a byte inside the VRAMCNT word, not ours */
            gx_write32(gx, a, 0xFFFFFFFF);
            gx_write16(gx, a + 2, 0xFFFF);
            assert_int_equal(gx_read32(gx, a), 0);
            assert_int_equal(gx_read16(gx, a), 0);
        }
        gx_write8(gx, a + 3, 0xFF);
        assert_int_equal(gx_read8(gx, a + 3), 0);
    }
    same(before, take(gx, r));
    gx_destroy(gx);
    raster_destroy(r);
}

static void test_misaligned(void **state)
{
    (void)state;
    gx_engine *a = gx_create(), *b = gx_create();
    raster_engine *r = raster_create();
    /* a 32-bit store to addr+1..3 is the store to the aligned word */
    for (uint32_t off = 1; off < 4; off++) {
        gx_write32(a, 0x04000350, 0x00112233 + off);
        gx_write32(b, 0x04000350 + off, 0x00112233 + off);
        gx_write32(a, 0x04000440, 2);      /* MTX_MODE through the command port */
        gx_write32(b, 0x04000441 + 0, 2);  /* (misaligned port address) */
        gx_write16(a, 0x04000330, 0x7C1F); /* EDGE_COLOR 0 */
        gx_write16(b, 0x04000331, 0x7C1F); /* halfword store to an odd address */
        same(take(a, r), take(b, r));
    }
    /* loads: the aligned word / halfword, not rotated */
    gx_write32(a, 0x04000240, 0x80808080);
    gx_write32(a, 0x06800000, 0xAABBCCDD);
    assert_int_equal(gx_read32(a, 0x06800001), 0xAABBCCDD);
    assert_int_equal(gx_read32(a, 0x06800003), 0xAABBCCDD);
    assert_int_equal(gx_read16(a, 0x06800003), 0xAABB);
    assert_int_equal(gx_read16(a, 0x06800001), 0xCCDD);
    assert_int_equal(gx_read8(a, 0x06800002), 0xBB);
    gx_destroy(a);
    gx_destroy(b);
    raster_destroy(r);
}

static void test_write_only_reads_zero(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    setup_scene(gx);
    gx_write32(gx, 0x04000330, 0x7FFF7FFF); /* EDGE_COLOR */
    gx_write32(gx, 0x04000340, 0x1F);       /* ALPHA_TEST_REF */
    gx_write32(gx, 0x04000358, 0x001F7FFF); /* FOG_COLOR */
    gx_write32(gx, 0x04000380, 0x7FFF7FFF); /* TOON_TABLE */
    for (uint32_t a = 0x04000330; a < 0x040003C0; a += 4) assert_int_equal(gx_read32(gx, a), 0);
    for (uint32_t a = 0x04000400; a < 0x04000600; a += 4) {
        assert_int_equal(gx_read32(gx, a), 0);
        assert_int_equal(gx_read16(gx, a + 2), 0);
        assert_int_equal(gx_read8(gx, a + 1), 0);
    }
    gx_destroy(gx);
}

static void test_narrow_fifo_writes_ignored(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    raster_engine *r = raster_create();
    setup_scene(gx);
    snap before = take(gx, r);
    for (uint32_t a = 0x04000400; a < 0x04000600; a += 4) {
        gx_write16(gx, a, 0x1234);
        gx_write16(gx, a + 2, 0x1234);
        gx_write8(gx, a + 1, 0x11);
    }
    same(before, take(gx, r));
    gx_destroy(gx);
    raster_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outside_the_3d_range),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_write_only_reads_zero),
        cmocka_unit_test(test_narrow_fifo_writes_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
