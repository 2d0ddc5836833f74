/*
 * test_gx_polygon_diff.c - randomized differential test of two polygon set-up shortcuts in
 * gx/polygon.c against the obviously-correct forms they replaced (kept here as the reference):
 * - W size: the smallest multiple of 4 bits holding every vertex's W as an unsigned 32-bit
 *   number, now the bit length of the ORed W values rounded up to 4; reference: the loop
 *   `while (wsize < 32 && (w >> wsize) != 0) wsize += 4` over the vertices;
 * - 9-bit rasterizer colour, now branch-free; reference: `c ? (c << 4) | 0xF : 0` of c5.
 * Random triangles, quads and strips through random projection matrices (W from tiny to the
 * full 32 bits, negative W clipped away), every polygon stored in RAM checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

enum {
    OP_MTX_MODE = 0x10,
    OP_MTX_LOAD_4x4 = 0x16,
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

static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint32_t reference_wsize(const gx_frame *f, const gx_polygon *p)
{
    uint32_t wsize = 0;
    for (unsigned i = 0; i < p->nverts; i++) {
        uint32_t w = (uint32_t)f->verts[p->vtx[i]].clip[3];
        while (wsize < 32 && (w >> wsize) != 0) wsize += 4;
    }
    return wsize;
}

static uint16_t reference_color9(int32_t color5)
{
    uint32_t c = (uint32_t)color5 >> 12;
    return (uint16_t)(c ? (c << 4) | 0xFu : 0u);
}

/* Projection: identity with a random W scale (the w column) and random small terms, so that
 * W spans many bit lengths; position matrix identity. */
static void random_projection(gx_engine *gx, uint64_t *s)
{
    cmd(gx, OP_MTX_MODE, 0);
    unsigned shift = rnd(s) % 28u;
    for (int i = 0; i < 16; i++) {
        uint32_t e = 0;
        if (i == 0 || i == 5 || i == 10) e = 0x1000;
        if (i == 11 || i == 15) /* W from z and the constant: 2^-12 .. 2^16 */
            e = shift < 12 ? (rnd(s) & 0x1FFFu) >> shift : (rnd(s) & 0x1FFFu) << (shift - 12);
        if ((rnd(s) & 7u) == 0) e += rnd(s) & 0xFFu;
        cmd(gx, OP_MTX_LOAD_4x4, e);
    }
}

static void test_polygon_values_match_reference(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint64_t seed = 0x1234567887654321ull;
    unsigned checked = 0, sizes_seen = 0;
    for (int round = 0; round < 600; round++) {
        random_projection(gx, &seed);
        cmd(gx, OP_ATTR, 0x001F00C0u | ((rnd(&seed) & 1u) << 13));
        cmd(gx, OP_BEGIN, rnd(&seed) & 3u);
        for (int v = 0; v < 24; v++) {
            uint32_t c = rnd(&seed) & 0x7FFFu;
            if ((rnd(&seed) & 3u) == 0) c &= 0x7C1Fu; /* some zero channels */
            cmd(gx, OP_COLOR, c);
            /* coordinates scaled down at random, so that some polygons of every W size
             * stay (partly) inside the view volume */
            unsigned sh = rnd(&seed) % 14u;
            uint32_t x = (uint32_t)((int32_t)(int16_t)rnd(&seed) >> sh) & 0xFFFFu;
            uint32_t y = (uint32_t)((int32_t)(int16_t)rnd(&seed) >> sh) & 0xFFFFu;
            uint32_t z = (uint32_t)((int32_t)(int16_t)rnd(&seed) >> sh) & 0xFFFFu;
            cmd(gx, OP_VTX_16, x | y << 16);
            cmd(gx, OP_VTX_16, z);
        }
        cmd(gx, OP_SWAP, 0);
        assert_true(gx_vblank(gx));
        const gx_frame *f = gx_render_frame(gx);
        for (uint32_t i = 0; i < f->npolys; i++) {
            const gx_polygon *p = &f->polys[i];
            assert_int_equal(p->wshift, reference_wsize(f, p));
            sizes_seen |= 1u << (p->wshift / 4);
            for (unsigned k = 0; k < p->nverts; k++) {
                const gx_vertex *v = &f->verts[p->vtx[k]];
                for (int ch = 0; ch < 3; ch++)
                    assert_int_equal(v->color[ch], reference_color9(v->color5[ch]));
            }
            checked++;
        }
    }
    print_message("checked %u sizes %x\n", checked, sizes_seen);
    assert_true(checked > 1000);
    assert_true(__builtin_popcount(sizes_seen) >= 5); /* W sizes 4..24 bits were exercised */
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_polygon_values_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
