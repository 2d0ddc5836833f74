/*
 * test_gx_light_diff.c - randomized differential test of NORMAL's lighting (gx/light.c) against
 * the slow, obviously-correct formula it replaced (kept here as the reference): melonDS
 * CalculateLighting's arithmetic written out per light and channel, reading only the state the
 * commands set (material and light colours, light vectors, specular reciprocals, shininess
 * table, vector matrix). The fast path regroups the material x light colour products per light
 * (light.c light_products) and visits only the enabled lights; the colours must be identical.
 *
 * Random states: material, light colours and light vectors from commands, a random vector
 * matrix (MTX_LOAD_4x4 in matrix mode 2, including large entries that wrap), random light
 * masks, shininess table on or off; random normals, including the extreme 10-bit values.
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
    OP_NORMAL = 0x21,
    OP_ATTR = 0x29,
    OP_DIF_AMB = 0x30,
    OP_SPE_EMI = 0x31,
    OP_LIGHT_VECTOR = 0x32,
    OP_LIGHT_COLOR = 0x33,
    OP_SHININESS = 0x34,
    OP_BEGIN = 0x40,
};

static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}

/* xorshift64*: a fixed seed, the same cases every run */
static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

static int32_t sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (1u << bits) - 1u;
    return (int32_t)(v ^ m) - (int32_t)m;
}

/* The reference: every light of the latched POLYGON_ATTR, each channel's terms as in the
 * header comment of gx/light.c, products formed in the order written there. */
static void reference_color(const gx_engine *gx, uint32_t normal, uint8_t out[3])
{
    const gx_geom_state *g = &gx->geom;
    const int32_t *m = gx->mtx.vec;
    int32_t n[3], nt[3];
    uint32_t acc[3];
    for (int k = 0; k < 3; k++) n[k] = sext(normal >> (10 * k), 10);
    for (int k = 0; k < 3; k++) {
        int64_t sum = (int64_t)n[0] * m[k] + (int64_t)n[1] * m[4 + k] + (int64_t)n[2] * m[8 + k];
        nt[k] = sext((uint32_t)(uint64_t)sum >> 12, 11);
        acc[k] = (uint32_t)g->mat_emission[k] << 14;
    }
    for (int l = 0; l < 4; l++) {
        if (!((g->cur_polygon_attr >> l) & 1u)) continue;
        const int16_t *ld = g->light_dir[l];
        const uint8_t *lc = g->light_color[l];
        int32_t dot = ((ld[0] * nt[0]) >> 9) + ((ld[1] * nt[1]) >> 9) + ((ld[2] * nt[2]) >> 9);
        int32_t shine = 0;
        if (dot > 0) {
            int32_t diff = sext((uint32_t)dot, 11);
            for (int k = 0; k < 3; k++)
                acc[k] += (uint32_t)(g->mat_diffuse[k] * lc[k] * diff) & 0xFFFFFu;
            int32_t s = sext((uint32_t)(dot + nt[2]), 11);
            s = (s * s >> 10) & 0x3FF;
            shine = ((s * g->spec_recip[l]) >> 8) - 512;
            if (shine < 0)
                shine = 0;
            else {
                shine = sext((uint32_t)shine, 14);
                shine = shine < 0 ? 0 : (shine > 0x1FF ? 0x1FF : shine);
            }
        }
        if (g->shininess_enable) shine = g->shininess[shine >> 2] * 2;
        for (int k = 0; k < 3; k++)
            acc[k] += (uint32_t)((g->mat_specular[k] * shine + (g->mat_ambient[k] << 9)) * lc[k]);
    }
    for (int k = 0; k < 3; k++) out[k] = (uint8_t)((acc[k] >> 14) > 31 ? 31 : (acc[k] >> 14));
}

static uint32_t random_normal(uint64_t *s)
{
    static const uint32_t edge[] = {0x000, 0x1FF, 0x200, 0x3FF, 0x001, 0x100};
    uint32_t v = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t c = (rnd(s) & 3u) == 0 ? edge[rnd(s) % 6u] : rnd(s) & 0x3FFu;
        v |= c << (10 * k);
    }
    return v;
}

static void random_state(gx_engine *gx, uint64_t *s)
{
    cmd(gx, OP_MTX_MODE, 2); /* position and vector */
    for (int i = 0; i < 16; i++) {
        uint32_t e = rnd(s);
        /* mostly rotation-sized entries (|e| <= 1.0), sometimes anything */
        if (rnd(s) & 3u) e = (uint32_t)sext(e, 14);
        cmd(gx, OP_MTX_LOAD_4x4, e);
    }
    cmd(gx, OP_DIF_AMB, rnd(s) & 0x7FFF7FFFu); /* bit 15 (set vertex colour) either way */
    cmd(gx, OP_SPE_EMI, rnd(s) & 0x7FFF7FFFu);
    for (unsigned l = 0; l < 4; l++) {
        cmd(gx, OP_LIGHT_VECTOR, (uint32_t)l << 30 | random_normal(s));
        cmd(gx, OP_LIGHT_COLOR, (uint32_t)l << 30 | (rnd(s) & 0x7FFFu));
    }
    for (int i = 0; i < 32; i++) cmd(gx, OP_SHININESS, rnd(s));
    cmd(gx, OP_ATTR, 0x001F00C0u | (rnd(s) & 0xFu));
    cmd(gx, OP_BEGIN, 0);
}

static void test_normal_matches_reference(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned lit = 0, checked = 0;
    for (int round = 0; round < 2000; round++) {
        random_state(gx, &seed);
        for (int i = 0; i < 50; i++) {
            uint32_t nrm = random_normal(&seed);
            uint8_t want[3];
            reference_color(gx, nrm, want);
            cmd(gx, OP_NORMAL, nrm);
            for (int k = 0; k < 3; k++) {
                if (gx->geom.vtx_color[k] != want[k])
                    fail_msg("round %d normal %08X channel %d: %u, reference %u", round, nrm, k,
                             gx->geom.vtx_color[k], want[k]);
                lit += want[k] != 0;
            }
            checked++;
        }
    }
    assert_int_equal(checked, 100000);
    assert_true(lit > 10000); /* the cases are not all black */
    gx_destroy(gx);
}

/* The products follow later colour changes: a light colour written after the material, and
 * a material written after the light colour, both reach the next NORMAL. */
static void test_products_follow_changes(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint64_t seed = 12345;
    random_state(gx, &seed);
    uint8_t want[3];
    for (int i = 0; i < 200; i++) {
        switch (i % 3) {
        case 0: cmd(gx, OP_LIGHT_COLOR, (rnd(&seed) & 3u) << 30 | (rnd(&seed) & 0x7FFFu)); break;
        case 1: cmd(gx, OP_DIF_AMB, rnd(&seed) & 0x7FFF7FFFu); break;
        default: cmd(gx, OP_SPE_EMI, rnd(&seed) & 0x7FFF7FFFu); break;
        }
        uint32_t nrm = random_normal(&seed);
        reference_color(gx, nrm, want);
        cmd(gx, OP_NORMAL, nrm);
        assert_memory_equal(gx->geom.vtx_color, want, 3);
    }
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_matches_reference),
        cmocka_unit_test(test_products_follow_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
