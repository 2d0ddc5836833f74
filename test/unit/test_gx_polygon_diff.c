/*
 * test_gx_polygon_diff.c - randomized differential test of two polygon set-up shortcuts in
 * gx/polygon.c against the obviously-correct forms they replaced (kept here as the reference):
 * - W size: the smallest multiple of 4 bits holding every vertex's W as an unsigned 32-bit
 *   number, now the bit length of the ORed W values rounded up to 4; reference: the loop
 *   `while (wsize < 32 && (w >> wsize) != 0) wsize += 4` over the vertices;
 * - 9-bit rasterizer colour, now branch-free; reference: `c ? (c << 4) | 0xF : 0` of c5.
 * Random triangles, quads and strips through random projection matrices (W from tiny to the
 * full 32 bits, negative W clipped away), every polygon stored in RAM checked.
 * - Unclipped polygons: a polygon whose new vertices are all inside the view volume now goes
 *   straight from the vertex buffer into vertex RAM (polygon.c store_unclipped); reference: every
 *   polygon through gx_clip_polygon, gx_viewport_transform and the 9-bit colour, as all of them
 *   went before. Separate triangles and quads, each polygon's stored vertices compared field by
 *   field with the reference built from the vertices the vertex hook reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

#include <string.h>

enum {
    OP_MTX_MODE = 0x10,
    OP_MTX_LOAD_4x4 = 0x16,
    OP_COLOR = 0x20,
    OP_TEXCOORD = 0x22,
    OP_VTX_16 = 0x23,
    OP_ATTR = 0x29,
    OP_BEGIN = 0x40,
    OP_SWAP = 0x50,
    OP_VIEWPORT = 0x60,
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

/* ---- unclipped polygons vs the clipper ---- */

typedef struct clip_ctx {
    gx_vertex sub[4]; /* the last vertices submitted (vertex hook), oldest first */
    unsigned nsub;
    unsigned nverts_per_poly;
    bool far_clip;
    unsigned stored, clipped_away, unclipped, mismatches;
} clip_ctx;

static void on_vertex(void *user, gx_engine *gx, const int32_t clip[4], const int32_t color5[3],
                      const int16_t texcoord[2])
{
    (void)gx;
    clip_ctx *c = user;
    if (c->nsub == 4) {
        memmove(c->sub, c->sub + 1, 3 * sizeof(gx_vertex));
        c->nsub = 3;
    }
    gx_vertex *v = &c->sub[c->nsub++];
    memset(v, 0, sizeof(*v));
    memcpy(v->clip, clip, sizeof(v->clip));
    memcpy(v->color5, color5, sizeof(v->color5));
    memcpy(v->texcoord, texcoord, sizeof(v->texcoord));
}

static void on_polygon(void *user, gx_engine *gx, enum gx_poly_fate fate, const gx_polygon *poly,
                       const gx_vertex *verts)
{
    clip_ctx *c = user;
    unsigned n = c->nverts_per_poly;
    gx_vertex work[GX_MAX_POLY_VERTS];
    memcpy(work, c->sub + (c->nsub - n), n * sizeof(gx_vertex));
    bool inside = true;
    for (unsigned i = 0; i < n; i++) inside = inside && gx_clip_inside(&work[i]);
    int m = gx_clip_polygon(work, (int)n, 0, true, c->far_clip);
    for (int i = 0; i < m; i++) gx_viewport_transform(&gx->geom, &work[i]);

    if (fate == GX_POLY_CLIPPED_AWAY) {
        c->clipped_away++;
        if (m != 0) c->mismatches++;
        return;
    }
    if (fate != GX_POLY_STORED) return;
    c->stored++;
    c->unclipped += inside;
    if (m != poly->nverts) {
        c->mismatches++;
        return;
    }
    for (int i = 0; i < m; i++) {
        const gx_vertex *v = &verts[poly->vtx[i]];
        bool same = memcmp(v->clip, work[i].clip, sizeof(v->clip)) == 0 &&
                    memcmp(v->color5, work[i].color5, sizeof(v->color5)) == 0 &&
                    memcmp(v->texcoord, work[i].texcoord, sizeof(v->texcoord)) == 0 &&
                    v->clipped == work[i].clipped && v->sx == work[i].sx && v->sy == work[i].sy;
        for (int ch = 0; ch < 3; ch++)
            same = same && v->color[ch] == reference_color9(work[i].color5[ch]);
        if (!same) c->mismatches++;
    }
}

static void test_unclipped_store_matches_clipper(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    clip_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    gx_hooks h = {.user = &ctx, .vertex = on_vertex, .polygon = on_polygon};
    gx_set_hooks(gx, &h);
    uint64_t seed = 0x0DDC0FFEE15BADull;
    for (int round = 0; round < 1500; round++) {
        random_projection(gx, &seed);
        unsigned prim = rnd(&seed) & 1u; /* separate triangles or quads */
        ctx.nverts_per_poly = prim ? 4 : 3;
        ctx.far_clip = (rnd(&seed) & 1u) != 0;
        ctx.nsub = 0;
        /* both faces drawn, 1-dot polygons kept: every polygon is stored unless clipped away */
        cmd(gx, OP_ATTR, 0x001F20C0u | (ctx.far_clip ? 1u << 12 : 0u));
        if ((rnd(&seed) & 3u) == 0) /* a random viewport now and then */
            cmd(gx, OP_VIEWPORT, rnd(&seed));
        cmd(gx, OP_BEGIN, prim);
        for (int v = 0; v < 24; v++) {
            cmd(gx, OP_COLOR, rnd(&seed) & 0x7FFFu);
            cmd(gx, OP_TEXCOORD, rnd(&seed));
            /* mostly small coordinates (inside), some large (clipped) */
            unsigned sh = (rnd(&seed) & 1u) ? 4u + rnd(&seed) % 10u : rnd(&seed) % 4u;
            uint32_t x = (uint32_t)((int32_t)(int16_t)rnd(&seed) >> sh) & 0xFFFFu;
            uint32_t y = (uint32_t)((int32_t)(int16_t)rnd(&seed) >> sh) & 0xFFFFu;
            uint32_t z = (uint32_t)((int32_t)(int16_t)rnd(&seed) >> sh) & 0xFFFFu;
            cmd(gx, OP_VTX_16, x | y << 16);
            cmd(gx, OP_VTX_16, z);
        }
        cmd(gx, OP_SWAP, 0);
        assert_true(gx_vblank(gx));
    }
    print_message("stored %u (unclipped %u), clipped away %u\n", ctx.stored, ctx.unclipped,
                  ctx.clipped_away);
    assert_int_equal(ctx.mismatches, 0);
    assert_true(ctx.unclipped > 2000);              /* the fast path ran */
    assert_true(ctx.stored - ctx.unclipped > 1000); /* and so did the clipper */
    assert_true(ctx.clipped_away > 100);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_polygon_values_match_reference),
        cmocka_unit_test(test_unclipped_store_matches_clipper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
