/*
 * test_raster_pixel.c - colour combination (modulate, decal, toon, highlight, shadow,
 * wireframe alpha) and the translucent blend.
 *
 * Worked values use the formulas of GBATEK "DS 3D Texture Blending" / "DS 3D Toon, Edge, Fog,
 * Alpha-Blending" in the exact integer form of melonDS GPU3D_Soft.cpp (RenderPixel,
 * AlphaBlend): 5-bit colours widen to c ? 2c+1 : 0, modulate ((a+1)*(b+1)-1) >> 6,
 * decal (t*ta + v*(31-ta)) >> 5, blend (s*(a+1) + d*(31-a)) >> 5.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_frame.h"
#include "gx/regs.h"
#include "raster/pixel.h"

typedef struct fixture {
    uint8_t *tex;
    uint8_t *pal;
    gx_render_regs regs;
    raster_pixel_frame pf;
    raster_shader sh;
} fixture;

static void put16(uint8_t *m, uint32_t addr, uint16_t val)
{
    m[addr] = (uint8_t)(val & 0xFF);
    m[addr + 1] = (uint8_t)(val >> 8);
}

/* Colour-buffer pixel r6 | g6 << 8 | b6 << 16 | a5 << 24 (pixel.h). */
#define PX(r, g, b, a)                                                                             \
    ((uint32_t)(r) | (uint32_t)(g) << 8 | (uint32_t)(b) << 16 | (uint32_t)(a) << 24)
#define PXA(p) ((p) >> 24)

#define RGB(r, g, b) ((uint16_t)((r) | (g) << 5 | (b) << 10))
#define TEXEL        RGB(16, 31, 0) /* widens to (33, 63, 0) */

/* Textures: direct colour 8x8 at 0 (texel 0 opaque TEXEL, texel 1 transparent TEXEL);
 * A5I3 8x8 at 0x100 (texel 0: alpha 20, index 1 -> TEXEL). */
#define TI_DIRECT ((uint32_t)TEXFMT_DIRECT << 26)
#define TI_A5I3   ((0x100u / 8) | (uint32_t)TEXFMT_A5I3 << 26)

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f) return -1;
    f->tex = calloc(1, GX_TEX_VRAM_SIZE);
    f->pal = calloc(1, GX_PAL_VRAM_SIZE);
    if (!f->tex || !f->pal) return -1;
    put16(f->tex, 0, 0x8000 | TEXEL);
    put16(f->tex, 2, TEXEL);
    f->tex[0x100] = (20 << 3) | 1;
    put16(f->pal, 2, TEXEL);
    f->regs.disp3dcnt = 1;                   /* texturing on */
    f->regs.toon_table[10] = RGB(5, 10, 31); /* widens to (11, 21, 63) */
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->tex);
    free(f->pal);
    free(f);
    return 0;
}

static uint32_t attr(unsigned mode, unsigned alpha)
{
    return (mode << 4) | (alpha << 16);
}

/* Vertex colour as the rasterizer holds it: 9 bits, (c5 << 4) | 0xF or 0. */
static uint32_t c9(unsigned c5)
{
    return c5 ? (c5 << 4) | 0xFu : 0;
}

/* Shade texel s (0 or 1, row 0) with vertex colour (vr, vg, vb) given in 5 bits. */
static uint32_t shade(fixture *f, uint32_t polyattr, uint32_t teximage, unsigned vr, unsigned vg,
                      unsigned vb, int texel)
{
    raster_pixel_frame_setup(&f->pf, &f->regs);
    raster_shader_setup(&f->sh, &f->pf, polyattr, teximage, 0, f->tex, f->pal);
    return raster_shade(&f->sh, c9(vr), c9(vg), c9(vb), texel * 16 + 8, 8);
}

static void test_untextured(void **state)
{
    fixture *f = *state;
    /* vertex (10, 31, 5) -> 6 bits (21, 63, 11); alpha = polygon alpha */
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 15), 0, 10, 31, 5, 0), PX(21, 63, 11, 15));
    assert_int_equal(shade(f, attr(POLYMODE_DECAL, 31), 0, 0, 1, 31, 0), PX(0, 3, 63, 31));
    /* texturing disabled in DISP3DCNT: the texture is ignored */
    f->regs.disp3dcnt = 0;
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 15), TI_DIRECT, 10, 31, 5, 0),
                     PX(21, 63, 11, 15));
}

static void test_modulate(void **state)
{
    fixture *f = *state;
    /* texel (33, 63, 0) x vertex (21, 63, 11): r (34*22-1)>>6 = 11, g (64*64-1)>>6 = 63,
     * b (1*12-1)>>6 = 0; alpha (32*16-1)>>5 = 15 */
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 15), TI_DIRECT, 10, 31, 5, 0),
                     PX(11, 63, 0, 15));
    /* A5I3 texel alpha 20, polygon alpha 10: (21*11-1)>>5 = 7 */
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 10), TI_A5I3, 10, 31, 5, 0),
                     PX(11, 63, 0, 7));
    /* transparent direct texel: alpha (1*32-1)>>5 = 0 */
    assert_int_equal(PXA(shade(f, attr(POLYMODE_MODULATE, 31), TI_DIRECT, 10, 31, 5, 1)), 0);
    /* white x white stays 63; black vertex gives 0 */
    put16(f->tex, 4, 0xFFFF);
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 31), TI_DIRECT, 31, 31, 31, 2),
                     PX(63, 63, 63, 31));
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 31), TI_DIRECT, 0, 0, 0, 2), PX(0, 0, 0, 31));
}

static void test_decal(void **state)
{
    fixture *f = *state;
    /* texel alpha 31: texel colour; alpha 0: vertex colour; alpha = polygon alpha */
    assert_int_equal(shade(f, attr(POLYMODE_DECAL, 12), TI_DIRECT, 10, 31, 5, 0),
                     PX(33, 63, 0, 12));
    assert_int_equal(shade(f, attr(POLYMODE_DECAL, 12), TI_DIRECT, 10, 31, 5, 1),
                     PX(21, 63, 11, 12));
    /* texel alpha 20: r (33*20 + 21*11)>>5 = 27, g (63*20 + 63*11)>>5 = 61,
     * b (0 + 11*11)>>5 = 3 */
    assert_int_equal(shade(f, attr(POLYMODE_DECAL, 31), TI_A5I3, 10, 31, 5, 0), PX(27, 61, 3, 31));
}

static void test_shadow_shades_as_decal(void **state)
{
    fixture *f = *state;
    assert_int_equal(shade(f, attr(POLYMODE_SHADOW, 20), TI_A5I3, 10, 31, 5, 0), PX(27, 61, 3, 20));
    assert_int_equal(shade(f, attr(POLYMODE_SHADOW, 20), 0, 10, 31, 5, 0), PX(21, 63, 11, 20));
}

static void test_toon(void **state)
{
    fixture *f = *state;
    /* vertex red 10 -> 6-bit 21 -> toon index 21 >> 1 = 10 -> (11, 21, 63) */
    assert_int_equal(shade(f, attr(POLYMODE_TOON, 31), 0, 10, 0, 0, 0), PX(11, 21, 63, 31));
    /* textured: toon colour modulated by the texel (33, 63, 0):
     * r (34*12-1)>>6 = 6, g (64*22-1)>>6 = 21, b (1*64-1)>>6 = 0 */
    assert_int_equal(shade(f, attr(POLYMODE_TOON, 31), TI_DIRECT, 10, 31, 31, 0), PX(6, 21, 0, 31));
}

static void test_highlight(void **state)
{
    fixture *f = *state;
    f->regs.disp3dcnt = 1 | 2;
    /* vertex becomes (21, 21, 21), + toon (11, 21, 63) -> (32, 42, 84 -> 63) */
    assert_int_equal(shade(f, attr(POLYMODE_TOON, 31), 0, 10, 3, 30, 0), PX(32, 42, 63, 31));
    /* textured: (21,21,21) x (33,63,0) = (11, 21, 0), + (11, 21, 63) = (22, 42, 63) */
    assert_int_equal(shade(f, attr(POLYMODE_TOON, 31), TI_DIRECT, 10, 3, 30, 0),
                     PX(22, 42, 63, 31));
    /* the highlight bit does not affect mode 0 */
    assert_int_equal(shade(f, attr(POLYMODE_MODULATE, 31), 0, 10, 3, 30, 0), PX(21, 7, 61, 31));
}

static void test_wireframe_alpha(void **state)
{
    fixture *f = *state;
    /* polygon alpha 0 (wireframe): the pixel is written with alpha 31 */
    assert_int_equal(PXA(shade(f, attr(POLYMODE_MODULATE, 0), 0, 10, 31, 5, 0)), 31);
    assert_int_equal(PXA(shade(f, attr(POLYMODE_MODULATE, 0), TI_A5I3, 10, 31, 5, 0)), 31);
    assert_int_equal(PXA(shade(f, attr(POLYMODE_DECAL, 0), TI_A5I3, 10, 31, 5, 0)), 31);
    f->regs.disp3dcnt = 3;
    assert_int_equal(PXA(shade(f, attr(POLYMODE_TOON, 0), TI_A5I3, 10, 31, 5, 0)), 31);
}

static void test_blend(void **state)
{
    (void)state;
    /* destination alpha 0: source as is */
    assert_int_equal(raster_pixel_blend(PX(1, 2, 3, 9), PX(40, 40, 40, 0), true), PX(1, 2, 3, 9));
    /* a = 15: (s*16 + d*16) >> 5: r 1008>>5 = 31, g 31, b (160+800)>>5 = 30; alpha max 31 */
    assert_int_equal(raster_pixel_blend(PX(63, 0, 10, 15), PX(0, 63, 50, 31), true),
                     PX(31, 31, 30, 31));
    /* a = 7: (10*8 + 50*24) >> 5 = 40; alpha max(7, 5) = 7 */
    assert_int_equal(raster_pixel_blend(PX(10, 0, 0, 7), PX(50, 0, 0, 5), true), PX(40, 0, 0, 7));
    /* blending off: source colour, alpha still the larger one */
    assert_int_equal(raster_pixel_blend(PX(10, 20, 30, 7), PX(50, 0, 0, 25), false),
                     PX(10, 20, 30, 25));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_untextured, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modulate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shadow_shades_as_decal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_toon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_highlight, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wireframe_alpha, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blend, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
