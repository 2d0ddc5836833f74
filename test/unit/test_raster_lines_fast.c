/*
 * test_raster_lines_fast.c - the specialised line set-up of the common polygon (span.c
 * line_setup_lin: Z-buffered, no anti-aliasing, no shadow, every vertex W equal with bits 0-6
 * clear) draws what the general line set-up draws (raster_engine.ref_lines forces the general
 * one on every line): two engines render the same random frames, one each way, every other
 * frame in the scanline order and the others in the polygon-major order, and must agree on
 * every buffer word (both layers), the output frame and the timing model's results. The same
 * frames check the line set-up of every other polygon but shadows and shadow masks (span.c
 * line_setup_persp: perspective polygons, W-buffered, anti-aliased, W with low bits set),
 * which raster_engine.ref_lines also turns off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raster_scene.h"
#include "test_rand.h"

/* A random frame of n polygons, most of them of the kind line_setup_lin takes (one W with
 * bits 0-6 clear), the rest perspective, W-buffered or with W bits 0-6 set; small and large,
 * convex or not, sometimes with a repeated vertex (line polygons), one or many colours,
 * opaque, translucent or wireframe, front- or back-facing, a quarter of them at one depth;
 * with texturing on (DISP3DCNT bit 0), half of them textured, with close or far-apart
 * texcoords. */
static void random_frame(gx_frame *f, uint32_t *seed, unsigned n, uint16_t disp3dcnt)
{
    const uint8_t *tex = f->tex_vram, *pal = f->pal_vram;
    memset(f, 0, sizeof *f);
    f->tex_vram = tex;
    f->pal_vram = pal;
    f->regs.disp3dcnt = disp3dcnt;
    f->regs.clear_depth = 0x7FFF;
    f->regs.clear_color = 0x001F0000u | (uint32_t)rnd_in(seed, 0, 0x7FFF);
    f->regs.alpha_ref = (uint8_t)rnd_in(seed, 0, 31);
    for (int i = 0; i < 8; i++) f->regs.edge_color[i] = (uint16_t)rnd(seed);
    scene s = {f, NULL};
    for (unsigned k = 0; k < n; k++) {
        int nv = rnd_in(seed, 3, 5);
        int xy[10];
        int cx = rnd_in(seed, -20, 275), cy = rnd_in(seed, -10, 200);
        int size = rnd(seed) % 5 == 0 ? 100 : (rnd(seed) % 2 ? 12 : 4);
        for (int i = 0; i < nv; i++) {
            xy[2 * i] = dsgx_clamp(cx + rnd_in(seed, -size, size), 0, 256);
            xy[2 * i + 1] = dsgx_clamp(cy + rnd_in(seed, -size, size), 0, 192);
        }
        if (rnd(seed) % 8 == 0) xy[2] = xy[0], xy[3] = xy[1]; /* a shared vertex */
        uint32_t alpha = rnd(seed) % 4 == 0 ? (uint32_t)rnd_in(seed, 0, 30) : 31u;
        uint32_t attr = attr_make(alpha, (unsigned)rnd_in(seed, 0, 63), 0) |
                        (rnd(seed) % 2 ? 1u << 15 : 0) |     /* fog */
                        (rnd(seed) % 8 == 0 ? 1u << 14 : 0); /* depth equal */
        gx_polygon *p = scene_poly(&s, nv, xy, attr, 0, rnd(seed) % 2 != 0, 31, 31, 31);
        p->wbuffer = rnd(seed) % 8 == 0;
        /* textured (modulate: every attribute read) half of the time, any format, small sizes
         * (decoded by the texture cache, so the polygon has linear span functions) */
        if (disp3dcnt & 1u && rnd(seed) % 2) {
            uint32_t fmt = (uint32_t)rnd_in(seed, 2, 7); /* (not the translucent A3I5) */
            if (fmt == TEXFMT_A5I3) fmt = TEXFMT_DIRECT;
            p->teximage = (rnd(seed) & 0xFFFFu) | (uint32_t)rnd_in(seed, 0, 3) << 20 |
                          (uint32_t)rnd_in(seed, 0, 3) << 23 | fmt << 26 | (rnd(seed) & 0xFu) << 16;
            p->pltt_base = rnd(seed) & 0x1FFFu;
        }
        /* texcoords: close (a few texels over the polygon) or up to the full 16-bit range */
        int32_t t0 = rnd_in(seed, -4096, 4096), tr = rnd(seed) % 2 ? 64 : 32767;
        uint32_t kind = rnd(seed) % 8;
        int32_t w = kind != 6 ? (int32_t)((rnd(seed) & 0xFF80u) | 0x80u) : 0x1000;
        bool one_color = rnd(seed) % 2;
        /* a quarter at one depth (screen-parallel: span.c's constant-depth lines) */
        int32_t z_one = rnd(seed) % 4 == 0 ? rnd_in(seed, 0, 0xFFFFFF) : -1;
        uint16_t col[3];
        for (int c = 0; c < 3; c++) col[c] = (uint16_t)rnd_in(seed, 0, 511);
        for (int i = 0; i < nv; i++) {
            gx_vertex *v = &f->verts[p->vtx[i]];
            for (int c = 0; c < 3; c++)
                v->color[c] = one_color ? col[c] : (uint16_t)rnd_in(seed, 0, 511);
            for (int c = 0; c < 2; c++)
                v->texcoord[c] = (int16_t)dsgx_clamp(t0 + rnd_in(seed, -tr, tr), -32768, 32767);
            p->z[i] = z_one >= 0 ? z_one : rnd_in(seed, 0, 0xFFFFFF);
            /* kinds 0-4: one W (bits 0-6 clear), 5-6: perspective (5: W near each other, half
             * of the vertices on one W, so that some edges are linear; 6: any), 7: one W with
             * low bits */
            int32_t wp = kind == 6 ? rnd_in(seed, 0x100, 0xFFFF)
                                   : w + (rnd(seed) % 2 ? rnd_in(seed, -0x7F, 0x7F) : 0);
            p->w[i] = kind == 5 || kind == 6 ? wp : (kind == 7 ? w | 0x41 : w);
        }
    }
}

static void render(raster_engine *r, const gx_frame *f, dsgx_frame *out, raster_result *res)
{
    assert_int_equal(raster_set_threads(r, 1), 1);
    raster_render(r, f, out, res);
}

/* Polygons of the last frame that took line_setup_lin (their state slots still hold it: frames
 * drawn scanline by scanline, where each polygon on a line has a slot of its own). */
static unsigned lin_polys(const raster_engine *r)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < GX_MAX_POLYGONS; i++) n += r->band[0]->polys[i].lin_line;
    return n;
}

/* Polygons of the last frame that took line_setup_persp (as lin_polys; span.c line_persp_ok). */
static unsigned persp_polys(const raster_engine *r)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < GX_MAX_POLYGONS; i++) {
        const raster_poly *rp = &r->band[0]->polys[i];
        n += rp->poly && !rp->lin_line && !rp->flat && !rp->is_shadow && !rp->is_mask;
    }
    return n;
}

static void test_fast_lines_match_general(void **state)
{
    (void)state;
    gx_frame *f = calloc(1, sizeof *f);
    raster_engine *fast = raster_create(), *ref = raster_create();
    dsgx_frame *out_fast = calloc(1, sizeof *out_fast), *out_ref = calloc(1, sizeof *out_ref);
    assert_non_null(f);
    assert_non_null(fast);
    assert_non_null(ref);
    assert_non_null(out_fast);
    assert_non_null(out_ref);
    uint8_t *tex = malloc(GX_TEX_VRAM_SIZE), *pal = malloc(GX_PAL_VRAM_SIZE);
    assert_non_null(tex);
    assert_non_null(pal);
    uint32_t vseed = 0x5EEDu;
    for (uint32_t i = 0; i < GX_TEX_VRAM_SIZE; i++) tex[i] = (uint8_t)rnd(&vseed);
    for (uint32_t i = 0; i < GX_PAL_VRAM_SIZE; i++) pal[i] = (uint8_t)rnd(&vseed);
    f->tex_vram = tex;
    f->pal_vram = pal;
    ref->ref_lines = true;
    const uint8_t isa_best = fast->span_isa; /* (raster_span_isa_best) */
    uint32_t seed = 0xC0FFEEu;
    unsigned fast_polys = 0, persp = 0;
    /* DISP3DCNT: plain, alpha test, blending, edge marking, fog, anti-aliasing (which turns
     * the specialised set-up off: the frames must still agree), texturing (bit 0) */
    const uint16_t modes[] = {
        0,  1u << 2,       1u << 3, 1u << 5, (1u << 7) | (1u << 5), 1u << 4, (1u << 3) | (1u << 2),
        1u, 1u | (1u << 3)};
    for (int frame = 0; frame < 120; frame++) {
        unsigned n = frame % 10 == 9 ? 1500u : (unsigned)rnd_in(&seed, 1, 200);
        random_frame(f, &seed, n, modes[frame % 9]);
        /* every other frame polygon by polygon (span.c raster_draw_band_pmajor), the others
         * scanline by scanline: both orders draw through the two line set-ups */
        fast->scanline_order = ref->scanline_order = frame % 2 == 0;
        /* every other polygon-major frame with the engine's narrower forms: the polygon-major
         * loop's copy for other engines (span.c pmajor_poly_plain; the widest form takes
         * pmajor_poly_avx2 where the build and processor have AVX2) */
        fast->span_isa =
            frame % 4 == 3 && isa_best > 0 ? (uint8_t)(frame / 4 % isa_best) : isa_best;
        raster_result rf, rr;
        render(fast, f, out_fast, &rf);
        render(ref, f, out_ref, &rr);
        assert_memory_equal(fast->color, ref->color, sizeof fast->color);
        assert_memory_equal(fast->depth, ref->depth, sizeof fast->depth);
        assert_memory_equal(fast->attr, ref->attr, sizeof fast->attr);
        assert_memory_equal(out_fast->px, out_ref->px, sizeof out_fast->px);
        assert_int_equal(rf.rdlines, rr.rdlines);
        assert_int_equal(rf.underflow, rr.underflow);
        assert_int_equal(rf.lines_cut, rr.lines_cut);
        assert_int_equal(lin_polys(ref), 0);
        if (fast->scanline_order) fast_polys += lin_polys(fast), persp += persp_polys(fast);
    }
    assert_true(fast_polys > 500); /* the specialised set-ups did draw */
    assert_true(persp > 500);
    free(tex);
    free(pal);
    free(out_fast);
    free(out_ref);
    raster_destroy(fast);
    raster_destroy(ref);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_lines_match_general),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
