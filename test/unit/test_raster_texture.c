/*
 * test_raster_texture.c - texel lookup: the seven formats, colour-0 transparency, wrap modes,
 * addressing across slots and palette base units.
 *
 * Expected values are worked by hand from GBATEK "DS 3D Texture Formats" / "DS 3D Texture
 * Attributes" (and melonDS GPU3D_Soft.cpp TextureLookup where GBATEK leaves details open:
 * 512 KiB address wrap, palette reads beyond slot 5).
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
#include "raster/texture.h"

typedef struct vram {
    uint8_t *tex;
    uint8_t *pal;
} vram;

static int setup(void **state)
{
    vram *v = calloc(1, sizeof *v);
    if (!v) return -1;
    v->tex = calloc(1, GX_TEX_VRAM_SIZE);
    v->pal = calloc(1, GX_PAL_VRAM_SIZE);
    if (!v->tex || !v->pal) return -1;
    *state = v;
    return 0;
}

static int teardown(void **state)
{
    vram *v = *state;
    free(v->tex);
    free(v->pal);
    free(v);
    return 0;
}

static void put16(uint8_t *m, uint32_t addr, uint16_t val)
{
    m[addr] = (uint8_t)(val & 0xFF);
    m[addr + 1] = (uint8_t)(val >> 8);
}

/* TEXIMAGE_PARAM from its fields (GBATEK bit layout). */
static uint32_t teximage(uint32_t offset8, unsigned sizes, unsigned sizet, unsigned fmt,
                         unsigned rs, unsigned rt, unsigned fs, unsigned ft, unsigned c0)
{
    return offset8 | (rs << 16) | (rt << 17) | (fs << 18) | (ft << 19) | (sizes << 20) |
           (sizet << 23) | (fmt << 26) | (c0 << 29);
}

/* 1.11.4 coordinate of the texel centre-ish (texel * 16 + 8). */
#define TX(n) ((int32_t)(n)*16 + 8)

static void sample(const raster_tex *tx, int32_t s, int32_t t, uint16_t *c, uint8_t *a)
{
    raster_tex_sample(tx, s, t, c, a);
}

static void test_a3i5(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 8x8 at address 0, palette base 1 -> byte 16. Texel (1,0) = alpha 7 index 3,
     * texel (2,0) = alpha 2 index 5, texel (3,0) = alpha 0 index 3. */
    v->tex[1] = 0xE3;
    v->tex[2] = 0x45;
    v->tex[3] = 0x03;
    put16(v->pal, 16 + 3 * 2, 0x7C1F);
    put16(v->pal, 16 + 5 * 2, 0x03E0);
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_A3I5, 1, 1, 0, 0, 1), 1, v->tex, v->pal);
    sample(&tx, TX(1), TX(0), &c, &a);
    assert_int_equal(c, 0x7C1F);
    assert_int_equal(a, 31); /* 7*4 + 7/2 */
    sample(&tx, TX(2), TX(0), &c, &a);
    assert_int_equal(c, 0x03E0);
    assert_int_equal(a, 9); /* 2*4 + 2/2 */
    sample(&tx, TX(3), TX(0), &c, &a);
    assert_int_equal(c, 0x7C1F);
    assert_int_equal(a, 0); /* alpha field 0; colour 0 transparency does not apply */
}

static void test_pal4(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 8x8 at offset 1 (byte 8); texel (2,1) is texel number 10: byte 8 + 2, bits 4-5. */
    v->tex[8 + 2] = 0x30;
    /* palette base 3 in 8-byte units = byte 24 */
    put16(v->pal, 24 + 0, 0x1234);
    put16(v->pal, 24 + 3 * 2, 0x0421);
    raster_tex_setup(&tx, teximage(1, 0, 0, TEXFMT_PAL4, 0, 0, 0, 0, 1), 3, v->tex, v->pal);
    sample(&tx, TX(2), TX(1), &c, &a);
    assert_int_equal(c, 0x0421);
    assert_int_equal(a, 31);
    sample(&tx, TX(3), TX(1), &c, &a); /* index 0, colour 0 transparent */
    assert_int_equal(c, 0x1234);
    assert_int_equal(a, 0);
    raster_tex_setup(&tx, teximage(1, 0, 0, TEXFMT_PAL4, 0, 0, 0, 0, 0), 3, v->tex, v->pal);
    sample(&tx, TX(3), TX(1), &c, &a); /* colour 0 opaque */
    assert_int_equal(c, 0x1234);
    assert_int_equal(a, 31);
}

static void test_pal16(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 8x8 at 0; texel (3,0) is the high nibble of byte 1, texel (2,0) the low one. */
    v->tex[1] = 0xA0;
    /* palette base 1: 16 bytes (not 8 as for 4-colour) */
    put16(v->pal, 16 + 10 * 2, 0x2A2A);
    put16(v->pal, 16, 0x0001);
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL16, 0, 0, 0, 0, 1), 1, v->tex, v->pal);
    sample(&tx, TX(3), TX(0), &c, &a);
    assert_int_equal(c, 0x2A2A);
    assert_int_equal(a, 31);
    sample(&tx, TX(2), TX(0), &c, &a);
    assert_int_equal(c, 0x0001);
    assert_int_equal(a, 0);
}

static void test_pal256_and_bit15(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    v->tex[8 * 2 + 5] = 200;        /* texel (5,2) */
    put16(v->pal, 200 * 2, 0xFFFF); /* bit 15 of a palette entry is ignored */
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL256, 0, 0, 0, 0, 1), 0, v->tex, v->pal);
    sample(&tx, TX(5), TX(2), &c, &a);
    assert_int_equal(c, 0x7FFF);
    assert_int_equal(a, 31);
    sample(&tx, TX(4), TX(2), &c, &a);
    assert_int_equal(a, 0);
}

static void test_a5i3(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    v->tex[0] = (uint8_t)((20 << 3) | 6);
    v->tex[1] = 0; /* alpha 0 index 0 */
    put16(v->pal, 0x100 + 6 * 2, 0x5555);
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_A5I3, 0, 0, 0, 0, 0), 0x10, v->tex, v->pal);
    sample(&tx, TX(0), TX(0), &c, &a);
    assert_int_equal(c, 0x5555);
    assert_int_equal(a, 20);
    sample(&tx, TX(1), TX(0), &c, &a);
    assert_int_equal(a, 0);
}

static void test_direct(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 16x8 direct texture at byte 0x100: texel (3,1) = halfword 16 + 3 */
    put16(v->tex, 0x100 + (16 + 3) * 2, 0x8000 | 0x1234);
    put16(v->tex, 0x100 + (16 + 4) * 2, 0x1234);
    raster_tex_setup(&tx, teximage(0x100 / 8, 1, 0, TEXFMT_DIRECT, 0, 0, 0, 0, 1), 0, v->tex,
                     v->pal);
    sample(&tx, TX(3), TX(1), &c, &a);
    assert_int_equal(c, 0x1234);
    assert_int_equal(a, 31);
    sample(&tx, TX(4), TX(1), &c, &a);
    assert_int_equal(c, 0x1234);
    assert_int_equal(a, 0);
}

/* 4x4: c0 = (10,20,30), c1 = (31,0,5), c2, c3 plain. Row 0 of block 0 holds indices 0,1,2,3. */
#define C0 ((uint16_t)(10 | 20 << 5 | 30 << 10))
#define C1 ((uint16_t)(31 | 0 << 5 | 5 << 10))
#define C2 ((uint16_t)0x0C63)
#define C3 ((uint16_t)0x318C)

static void setup_4x4(vram *v, uint32_t block, uint32_t info_addr, uint16_t info)
{
    v->tex[block] = 0xE4; /* 0 | 1 << 2 | 2 << 4 | 3 << 6 */
    put16(v->tex, info_addr, info);
    uint32_t pal = 0x40 + (uint32_t)(info & 0x3FFF) * 4; /* palette base 4 = 0x40 bytes */
    put16(v->pal, pal + 0, C0);
    put16(v->pal, pal + 2, C1);
    put16(v->pal, pal + 4, C2);
    put16(v->pal, pal + 6, C3);
}

static void check4x4(const raster_tex *tx, int32_t s, uint16_t want_c, uint8_t want_a)
{
    uint16_t c;
    uint8_t a;
    sample(tx, TX(s), TX(0), &c, &a);
    assert_int_equal(c, want_c);
    assert_int_equal(a, want_a);
}

static void test_4x4_modes(void **state)
{
    vram *v = *state;
    raster_tex tx;
    /* 8x8 texture at 0 in slot 0: block 0 info at 0x20000 (slot 1). Colour-0 transparency on
     * must not matter: only index 3 in modes 0/1 is transparent. */
    uint32_t ti = teximage(0, 0, 0, TEXFMT_COMPRESSED, 0, 0, 0, 0, 1);

    setup_4x4(v, 0, 0x20000, (0u << 14) | 2);
    raster_tex_setup(&tx, ti, 4, v->tex, v->pal);
    check4x4(&tx, 0, C0, 31);
    check4x4(&tx, 1, C1, 31);
    check4x4(&tx, 2, C2, 31);
    check4x4(&tx, 3, 0, 0);

    setup_4x4(v, 0, 0x20000, (1u << 14) | 2);
    check4x4(&tx, 0, C0, 31);
    check4x4(&tx, 1, C1, 31);
    check4x4(&tx, 2, (uint16_t)(20 | 10 << 5 | 17 << 10), 31); /* (c0+c1)/2 */
    check4x4(&tx, 3, 0, 0);

    setup_4x4(v, 0, 0x20000, (2u << 14) | 2);
    check4x4(&tx, 2, C2, 31);
    check4x4(&tx, 3, C3, 31);

    setup_4x4(v, 0, 0x20000, (3u << 14) | 2);
    check4x4(&tx, 0, C0, 31);
    check4x4(&tx, 1, C1, 31);
    /* (5*c0 + 3*c1)/8: r (50+93)/8 = 17, g 100/8 = 12, b (150+15)/8 = 20 */
    check4x4(&tx, 2, (uint16_t)(17 | 12 << 5 | 20 << 10), 31);
    /* (3*c0 + 5*c1)/8: r (30+155)/8 = 23, g 60/8 = 7, b (90+25)/8 = 14 */
    check4x4(&tx, 3, (uint16_t)(23 | 7 << 5 | 14 << 10), 31);
}

static void test_4x4_blocks_and_slot2(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 8x8 at 0: block (1,1) is the 4th block, word at 12, row 2 at byte 14; its info halfword
     * at 0x20000 + 12/2. Texel (5,6) is column 1 of row 2: index bits 2-3. */
    v->tex[14] = 1 << 2;
    put16(v->tex, 0x20000 + 6, (2u << 14) | 1);
    put16(v->pal, 0x40 + 4 + 2, 0x1111); /* palette offset 1 (4 bytes): c1 */
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_COMPRESSED, 0, 0, 0, 0, 0), 4, v->tex, v->pal);
    sample(&tx, TX(5), TX(6), &c, &a);
    assert_int_equal(c, 0x1111);
    assert_int_equal(a, 31);

    /* 16x8: a block row is 4 blocks (16 bytes); block (1,1) word at 16 + 4 = 20, row 2 at
     * byte 22, info at 0x20000 + 20/2 = 0x2000A. */
    v->tex[22] = 2 << 2;
    put16(v->tex, 0x2000A, (0u << 14) | 3);
    put16(v->pal, 0x40 + 12 + 4, 0x3333); /* palette offset 3: c2 */
    raster_tex_setup(&tx, teximage(0, 1, 0, TEXFMT_COMPRESSED, 0, 0, 0, 0, 0), 4, v->tex, v->pal);
    sample(&tx, TX(5), TX(6), &c, &a);
    assert_int_equal(c, 0x3333);
    assert_int_equal(a, 31);

    /* Texture in slot 2 (byte 0x40008): info for the block at 0x40008 is at
     * 0x20000 + 0x10000 + 0x8/2 = 0x30004 (GBATEK: slot 2 data -> slot 1 upper half). */
    v->tex[0x40008] = 0xE4;
    put16(v->tex, 0x30004, (2u << 14) | 8);
    put16(v->pal, 0x40 + 32 + 6, 0x2222);
    raster_tex_setup(&tx, teximage(0x40008 / 8, 0, 0, TEXFMT_COMPRESSED, 0, 0, 0, 0, 0), 4, v->tex,
                     v->pal);
    sample(&tx, TX(3), TX(0), &c, &a);
    assert_int_equal(c, 0x2222);
    assert_int_equal(a, 31);
}

static void test_wrap_modes(void **state)
{
    vram *v = *state;
    raster_tex tx;
    /* 8x8 (size 0) and 16 high (size 1). */
    raster_tex_setup(&tx, teximage(0, 0, 1, TEXFMT_PAL256, 1, 1, 0, 0, 0), 0, v->tex, v->pal);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(-1)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, -1), 7); /* -1/16 floors to texel -1 */
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(8)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(2047)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(-2048)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_t, TX(17)), 1);
    assert_int_equal(raster_tex_wrap(&tx.ax_t, TX(-3)), 13);

    /* repeat + flip: odd repetitions are mirrored */
    raster_tex_setup(&tx, teximage(0, 0, 1, TEXFMT_PAL256, 1, 1, 1, 1, 0), 0, v->tex, v->pal);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(0)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(7)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(8)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(9)), 6);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(16)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(-1)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(-8)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(-9)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(2047)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_t, TX(16)), 15);
    assert_int_equal(raster_tex_wrap(&tx.ax_t, TX(-1)), 0);

    /* flip without repeat does nothing: clamp */
    raster_tex_setup(&tx, teximage(0, 0, 1, TEXFMT_PAL256, 0, 0, 1, 1, 0), 0, v->tex, v->pal);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(-5)), 0);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(100)), 7);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, TX(6)), 6);
    assert_int_equal(raster_tex_wrap(&tx.ax_t, TX(2047)), 15);
    assert_int_equal(raster_tex_wrap(&tx.ax_t, TX(-2048)), 0);

    /* only the low 16 bits of the coordinate count (1.11.4 in 16 bits) */
    raster_tex_setup(&tx, teximage(0, 7, 7, TEXFMT_PAL256, 0, 0, 0, 0, 0), 0, v->tex, v->pal);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, 0x10010), 1);
    assert_int_equal(raster_tex_wrap(&tx.ax_s, 0xFFF0), 0); /* = -16 -> texel -1 -> clamp 0 */
    assert_int_equal(raster_tex_wrap(&tx.ax_s, 0x7FF0), 1023);
}

static void test_wrap_through_sampler(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    for (unsigned i = 0; i < 8; i++) v->tex[i] = (uint8_t)(i + 1); /* row 0: indices 1..8 */
    for (unsigned i = 1; i <= 8; i++) put16(v->pal, i * 2, (uint16_t)(i * 0x21));
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL256, 1, 0, 1, 0, 0), 0, v->tex, v->pal);
    sample(&tx, TX(-3), TX(-7), &c, &a); /* s mirrored: -3 -> 2; t clamped to 0 */
    assert_int_equal(c, 3 * 0x21);
    sample(&tx, TX(12), TX(0), &c, &a); /* 12 in the mirrored copy -> 3 */
    assert_int_equal(c, 4 * 0x21);
}

static void test_sizes(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 1024x1024 256-colour at 0: texel (1023, 1) at 1024 + 1023; 8x1024 texel (7, 1023). */
    v->tex[1024 + 1023] = 9;
    v->tex[1023 * 8 + 7] = 10;
    put16(v->pal, 9 * 2, 0x0999);
    put16(v->pal, 10 * 2, 0x0AAA);
    raster_tex_setup(&tx, teximage(0, 7, 7, TEXFMT_PAL256, 0, 0, 0, 0, 0), 0, v->tex, v->pal);
    sample(&tx, TX(1023), TX(1), &c, &a);
    assert_int_equal(c, 0x0999);
    raster_tex_setup(&tx, teximage(0, 0, 7, TEXFMT_PAL256, 0, 0, 0, 0, 0), 0, v->tex, v->pal);
    sample(&tx, TX(7), TX(1023), &c, &a);
    assert_int_equal(c, 0x0AAA);
    sample(&tx, TX(50), TX(2000), &c, &a); /* clamped to (7, 1023) */
    assert_int_equal(c, 0x0AAA);
}

static void test_slot_boundaries(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    /* 8x8 256-colour starting 32 bytes before slot 1: rows 4..7 come from slot 1. */
    v->tex[0x20000 - 32 + 3] = 1;
    v->tex[0x20000 + 5] = 2;
    put16(v->pal, 2, 0x0101);
    put16(v->pal, 4, 0x0202);
    raster_tex_setup(&tx, teximage((0x20000 - 32) / 8, 0, 0, TEXFMT_PAL256, 0, 0, 0, 0, 0), 0,
                     v->tex, v->pal);
    sample(&tx, TX(3), TX(0), &c, &a);
    assert_int_equal(c, 0x0101);
    sample(&tx, TX(5), TX(4), &c, &a);
    assert_int_equal(c, 0x0202);

    /* texture at the last 8 bytes of slot 3: row 1 wraps to address 0 (512 KiB space) */
    v->tex[0x7FFF8 + 2] = 1;
    v->tex[0x00000 + 6] = 2;
    raster_tex_setup(&tx, teximage(0xFFFF, 0, 0, TEXFMT_PAL256, 0, 0, 0, 0, 0), 0, v->tex, v->pal);
    sample(&tx, TX(2), TX(0), &c, &a);
    assert_int_equal(c, 0x0101);
    sample(&tx, TX(6), TX(1), &c, &a);
    assert_int_equal(c, 0x0202);
}

static void test_palette_base_units(void **state)
{
    vram *v = *state;
    raster_tex tx;
    uint16_t c;
    uint8_t a;
    v->tex[0] = 0x01;                    /* 4-colour: texel 0 index 1; 16-colour: texel 0 index 1 */
    put16(v->pal, 0x5 * 8 + 2, 0x4444);  /* 4-colour base 5 -> 40 bytes */
    put16(v->pal, 0x5 * 16 + 2, 0x1616); /* 16-colour base 5 -> 80 bytes */
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL4, 0, 0, 0, 0, 0), 5, v->tex, v->pal);
    sample(&tx, TX(0), TX(0), &c, &a);
    assert_int_equal(c, 0x4444);
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL16, 0, 0, 0, 0, 0), 5, v->tex, v->pal);
    sample(&tx, TX(0), TX(0), &c, &a);
    assert_int_equal(c, 0x1616);

    /* last palette slot: base 0x17F0 -> byte 0x17F00 */
    put16(v->pal, 0x17F00 + 2, 0x5A5A);
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL16, 0, 0, 0, 0, 0), 0x17F0, v->tex, v->pal);
    sample(&tx, TX(0), TX(0), &c, &a);
    assert_int_equal(c, 0x5A5A);
    /* base 0x1800 -> byte 0x18000: beyond palette slot 5, reads 0 */
    raster_tex_setup(&tx, teximage(0, 0, 0, TEXFMT_PAL16, 0, 0, 0, 0, 0), 0x1800, v->tex, v->pal);
    sample(&tx, TX(0), TX(0), &c, &a);
    assert_int_equal(c, 0);
    assert_int_equal(a, 31);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a3i5, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pal4, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pal16, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pal256_and_bit15, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a5i3, setup, teardown),
        cmocka_unit_test_setup_teardown(test_direct, setup, teardown),
        cmocka_unit_test_setup_teardown(test_4x4_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_4x4_blocks_and_slot2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrap_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrap_through_sampler, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slot_boundaries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_palette_base_units, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
