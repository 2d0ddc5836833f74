/*
 * test_gx_vram.c - VRAM banks through VRAMCNT: LCDC window writes, texture slots 0-3 from banks
 * A-D, palette slots from E (0-3) and F/G (OFS.0 + OFS.1*4), ORed overlaps, unmapped = 0
 * (GBATEK "DS Memory Control - VRAM").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gx/vram.h"

static void test_lcdc_and_texture_slots(void **state)
{
    (void)state;
    gx_vram v;
    assert_true(gx_vram_init(&v));
    const uint8_t *tex, *pal;
    /* unmapped banks ignore LCDC writes */
    gx_vram_lcdc_write8(&v, 0x06800010, 0xAA);
    assert_int_equal(gx_vram_lcdc_read8(&v, 0x06800010), 0);
    /* bank C to LCDC (MST 0, enable): 06840000 */
    gx_vram_set_cnt(&v, VRAM_C, 0x80);
    gx_vram_lcdc_write8(&v, 0x06840000 + 5, 0x5A);
    assert_int_equal(gx_vram_lcdc_read8(&v, 0x06840005), 0x5A);
    /* then to texture slot 2 (MST 3, OFS 2) */
    gx_vram_set_cnt(&v, VRAM_C, 0x80 | 3 | (2 << 3));
    gx_vram_views(&v, &tex, &pal);
    assert_int_equal(tex[0x40000 + 5], 0x5A);
    assert_int_equal(tex[5], 0);
    /* no longer in the LCDC window */
    assert_int_equal(gx_vram_lcdc_read8(&v, 0x06840005), 0);
    /* bank A also at slot 2: ORed */
    gx_vram_set_cnt(&v, VRAM_A, 0x80);
    gx_vram_lcdc_write8(&v, 0x06800005, 0x81);
    gx_vram_set_cnt(&v, VRAM_A, 0x80 | 3 | (2 << 3));
    gx_vram_views(&v, &tex, &pal);
    assert_int_equal(tex[0x40000 + 5], 0x5A | 0x81);
    /* disabled bank contributes nothing */
    gx_vram_set_cnt(&v, VRAM_A, 3 | (2 << 3));
    gx_vram_views(&v, &tex, &pal);
    assert_int_equal(tex[0x40000 + 5], 0x5A);
    gx_vram_free(&v);
}

static void test_palette_slots(void **state)
{
    (void)state;
    gx_vram v;
    assert_true(gx_vram_init(&v));
    const uint8_t *tex, *pal;
    gx_vram_set_cnt(&v, VRAM_E, 0x80);
    gx_vram_lcdc_write8(&v, 0x06880000 + 0x4000 * 3 + 1, 0x11); /* E offset in slot 3 */
    gx_vram_set_cnt(&v, VRAM_E, 0x83);
    gx_vram_set_cnt(&v, VRAM_F, 0x80);
    gx_vram_lcdc_write8(&v, 0x06890000 + 2, 0x22);
    gx_vram_set_cnt(&v, VRAM_F, 0x83 | (3 << 3)); /* OFS 3 -> slot 1 + 4 = 5 */
    gx_vram_set_cnt(&v, VRAM_G, 0x80);
    gx_vram_lcdc_write8(&v, 0x06894000 + 3, 0x33);
    gx_vram_set_cnt(&v, VRAM_G, 0x83 | (2 << 3)); /* OFS 2 -> slot 4 */
    gx_vram_views(&v, &tex, &pal);
    assert_int_equal(pal[0x4000 * 3 + 1], 0x11);
    assert_int_equal(pal[0x4000 * 5 + 2], 0x22);
    assert_int_equal(pal[0x4000 * 4 + 3], 0x33);
    assert_int_equal(pal[2], 0);
    gx_vram_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lcdc_and_texture_slots),
        cmocka_unit_test(test_palette_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
