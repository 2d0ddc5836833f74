/*
 * test_gx_light.c - lighting (GBATEK "DS 3D Polygon Light Parameters"; bit-level arithmetic of
 * melonDS GPU3D.cpp CalculateLighting, see gx/light.c). Identity vector matrix throughout.
 *
 * Worked example used below: light vector (0, 0, -1.0) = z field 0x200 (-512). Through the
 * vector matrix: -512 * 0x1000 >> 12 = -512, negated: 512. Specular reciprocal:
 * 2^18 / (512 - (-512)) = 256. Normal (0, 0, 511/512): transformed z = 511.
 *   dot = (512 * 511) >> 9 = 511 (> 0); diffuse term = diffuse * light * 511.
 *   specular: s = sext11(511 + 511) = 1022; (1022 * 1022 >> 10) & 0x3FF = 1020;
 *   shine = (1020 * 256 >> 8) - 512 = 508.
 * Colour = accumulator >> 14, saturated at 31; the accumulator starts at emission << 14.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

enum {
    OP_COLOR = 0x20,
    OP_NORMAL = 0x21,
    OP_ATTR = 0x29,
    OP_DIF_AMB = 0x30,
    OP_SPE_EMI = 0x31,
    OP_LIGHT_VECTOR = 0x32,
    OP_LIGHT_COLOR = 0x33,
    OP_SHININESS = 0x34,
    OP_BEGIN = 0x40,
};
#define NRM_Z(v)     (((uint32_t)(v)&0x3FFu) << 20)
#define NRM_X(v)     ((uint32_t)(v)&0x3FFu)
#define LIGHT(l)     ((uint32_t)(l) << 30)
#define RGB(r, g, b) ((uint32_t)(r) | ((uint32_t)(g) << 5) | ((uint32_t)(b) << 10))

static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}

static gx_engine *setup(uint32_t lights)
{
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    cmd(gx, OP_ATTR, 0x001F00C0u | lights);
    cmd(gx, OP_BEGIN, 0);
    for (unsigned l = 0; l < 4; l++) {
        cmd(gx, OP_LIGHT_VECTOR, LIGHT(l) | NRM_Z(-512));
        cmd(gx, OP_LIGHT_COLOR, LIGHT(l) | RGB(31, 31, 31));
    }
    return gx;
}

static void assert_color(const gx_engine *gx, unsigned r, unsigned g, unsigned b)
{
    assert_int_equal(gx->geom.vtx_color[0], r);
    assert_int_equal(gx->geom.vtx_color[1], g);
    assert_int_equal(gx->geom.vtx_color[2], b);
}

static void test_light_vector_registers(void **state)
{
    (void)state;
    gx_engine *gx = setup(0);
    assert_int_equal(gx->geom.light_dir[2][0], 0);
    assert_int_equal(gx->geom.light_dir[2][2], 512);
    assert_int_equal(gx->geom.spec_recip[2], 256);
    /* light from +x: (1, 0, 0) = 511: direction -511, reciprocal 2^18 / 512 = 512 */
    cmd(gx, OP_LIGHT_VECTOR, LIGHT(1) | NRM_X(511));
    assert_int_equal(gx->geom.light_dir[1][0], -511);
    assert_int_equal(gx->geom.spec_recip[1], 512);
    gx_destroy(gx);
}

static void test_no_lights_gives_emission(void **state)
{
    (void)state;
    gx_engine *gx = setup(0);
    cmd(gx, OP_COLOR, RGB(1, 2, 3));
    cmd(gx, OP_DIF_AMB, RGB(31, 31, 31) | (RGB(31, 31, 31) << 16));
    cmd(gx, OP_SPE_EMI, RGB(31, 31, 31) | (RGB(5, 10, 20) << 16));
    cmd(gx, OP_NORMAL, NRM_Z(511));
    assert_color(gx, 5, 10, 20);
    gx_destroy(gx);
}

static void test_dif_amb_sets_vertex_colour(void **state)
{
    (void)state;
    gx_engine *gx = setup(0);
    cmd(gx, OP_COLOR, RGB(1, 2, 3));
    cmd(gx, OP_DIF_AMB, RGB(7, 8, 9));
    assert_color(gx, 1, 2, 3);
    cmd(gx, OP_DIF_AMB, RGB(7, 8, 9) | 0x8000u);
    assert_color(gx, 7, 8, 9);
    gx_destroy(gx);
}

static void test_diffuse_one_to_four_lights(void **state)
{
    (void)state;
    /* diffuse 8, light 31: 8 * 31 * 511 = 126728 per light; >> 14 gives 7, 15, 23, 30 */
    static const unsigned expect[4] = {7, 15, 23, 30};
    for (unsigned n = 1; n <= 4; n++) {
        gx_engine *gx = setup((1u << n) - 1u);
        assert_int_equal(gx->geom.lights_enabled_count, n);
        cmd(gx, OP_DIF_AMB, RGB(8, 8, 0));
        cmd(gx, OP_SPE_EMI, 0);
        cmd(gx, OP_NORMAL, NRM_Z(511));
        assert_color(gx, expect[n - 1], expect[n - 1], 0);
        gx_destroy(gx);
    }
    /* 4 lights with diffuse 16: 4 * 253456 >> 14 = 61, saturated at 31 */
    gx_engine *gx = setup(0xF);
    cmd(gx, OP_DIF_AMB, RGB(16, 16, 16));
    cmd(gx, OP_SPE_EMI, 0);
    cmd(gx, OP_NORMAL, NRM_Z(511));
    assert_color(gx, 31, 31, 31);
    gx_destroy(gx);
}

static void test_light_colour_and_enable_bits(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x4); /* only light 2 */
    cmd(gx, OP_LIGHT_COLOR, LIGHT(2) | RGB(31, 0, 16));
    cmd(gx, OP_DIF_AMB, RGB(31, 31, 31));
    cmd(gx, OP_SPE_EMI, 0);
    cmd(gx, OP_NORMAL, NRM_Z(511));
    /* r: 31 * 31 * 511 = 491071 -> 29; b: 31 * 16 * 511 = 253456 -> 15 */
    assert_color(gx, 29, 0, 15);
    gx_destroy(gx);
}

static void test_back_lit_normal_gets_ambient_only(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x1);
    cmd(gx, OP_DIF_AMB, RGB(31, 31, 31) | (RGB(16, 0, 0) << 16));
    cmd(gx, OP_SPE_EMI, RGB(31, 31, 31));
    cmd(gx, OP_NORMAL, NRM_Z(-511)); /* dot = (512 * -511) >> 9 < 0 */
    /* ambient: (16 << 9) * 31 = 253952 -> 15 */
    assert_color(gx, 15, 0, 0);
    gx_destroy(gx);
}

static void test_specular(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x1);
    cmd(gx, OP_DIF_AMB, 0);
    cmd(gx, OP_SPE_EMI, RGB(16, 31, 0));
    cmd(gx, OP_NORMAL, NRM_Z(511));
    /* shine 508: 16 * 508 * 31 = 251968 -> 15; 31 * 508 * 31 = 488188 -> 29 */
    assert_color(gx, 15, 29, 0);
    gx_destroy(gx);
}

static void test_shininess_table(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x1);
    /* table entry 127 (= 508 >> 2) is 0x80; the others 0 */
    for (int i = 0; i < 32; i++) cmd(gx, OP_SHININESS, i == 31 ? 0x80000000u : 0u);
    assert_int_equal(gx->geom.shininess[127], 0x80);
    assert_int_equal(gx->geom.shininess[126], 0);
    cmd(gx, OP_DIF_AMB, 0);
    cmd(gx, OP_SPE_EMI, RGB(31, 0, 0) | 0x8000u);
    cmd(gx, OP_NORMAL, NRM_Z(511));
    /* shine = 0x80 << 1 = 256: 31 * 256 * 31 = 246016 -> 15 */
    assert_color(gx, 15, 0, 0);
    /* light from the side: dot 0, shine 0 -> table[0] = 0 */
    cmd(gx, OP_LIGHT_VECTOR, LIGHT(0) | NRM_X(511));
    cmd(gx, OP_NORMAL, NRM_Z(511));
    assert_color(gx, 0, 0, 0);
    gx_destroy(gx);
}

static void test_lights_latched_at_begin(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x1);
    cmd(gx, OP_DIF_AMB, RGB(8, 8, 8));
    cmd(gx, OP_SPE_EMI, 0);
    cmd(gx, OP_ATTR, 0x001F00C0u | 0x3); /* not yet in effect */
    cmd(gx, OP_NORMAL, NRM_Z(511));
    assert_color(gx, 7, 7, 7);
    cmd(gx, OP_BEGIN, 0);
    cmd(gx, OP_NORMAL, NRM_Z(511));
    assert_color(gx, 15, 15, 15);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_light_vector_registers),
        cmocka_unit_test(test_no_lights_gives_emission),
        cmocka_unit_test(test_dif_amb_sets_vertex_colour),
        cmocka_unit_test(test_diffuse_one_to_four_lights),
        cmocka_unit_test(test_light_colour_and_enable_bits),
        cmocka_unit_test(test_back_lit_normal_gets_ambient_only),
        cmocka_unit_test(test_specular),
        cmocka_unit_test(test_shininess_table),
        cmocka_unit_test(test_lights_latched_at_begin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
