/*
 * test_raster_postpass.c - the clear plane and the final pass (raster/clearplane.c, fog.c,
 * postpass.c): clear depth expansion, plain and bitmap rear plane, fog density and blend, edge
 * marking neighbour rules, anti-aliasing blend.
 *
 * Worked values follow GBATEK "DS 3D Rear-Plane" / "DS 3D Toon, Edge, Fog, Alpha-Blending,
 * Anti-Aliasing" in the integer form of melonDS GPU3D_Soft.cpp (ClearBuffers,
 * CalculateFogDensity, ScanlineFinalPass): 5-bit colours widen to c ? 2c+1 : 0; depth
 * d15 * 0x200 + 0x1FF; fog step 0x80000 >> shift in depth units, 17-bit interpolation;
 * fog blend (f*d + c*(128-d)) >> 7; AA blend (t*(c+1) + b*(31-c)) >> 5.
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
#include "raster/postpass_internal.h"
#include "raster/raster_internal.h"

typedef struct fixture {
    raster_engine *r;
    gx_frame *in;
    uint8_t *tex;
    dsgx_frame out;
} fixture;

#define PX(r, g, b, a)                                                                             \
    ((uint32_t)(r) | (uint32_t)(g) << 8 | (uint32_t)(b) << 16 | (uint32_t)(a) << 24)
#define RGB(r, g, b) ((uint32_t)((r) | (g) << 5 | (b) << 10))
#define ID(n)        ((uint32_t)(n) << 24)

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f) return -1;
    f->r = raster_create();
    f->in = calloc(1, sizeof *f->in);
    f->tex = calloc(1, GX_TEX_VRAM_SIZE);
    if (!f->r || !f->in || !f->tex) return -1;
    f->in->tex_vram = f->tex;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    raster_destroy(f->r);
    free(f->in);
    free(f->tex);
    free(f);
    return 0;
}

static void put16(uint8_t *m, uint32_t addr, uint32_t val)
{
    m[addr] = (uint8_t)(val & 0xFF);
    m[addr + 1] = (uint8_t)(val >> 8);
}

/* xorshift32: a fixed, portable sequence (the randomized comparisons below) */
static uint32_t xs32(uint32_t *st)
{
    uint32_t x = *st;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *st = x;
}

/* ---- clear plane ---- */

static void test_clear_depth_expansion(void **state)
{
    (void)state;
    assert_int_equal(raster_clear_depth(0x7FFF), 0xFFFFFF); /* farthest */
    assert_int_equal(raster_clear_depth(0), 0x1FF);
    assert_int_equal(raster_clear_depth(0x4000), 0x8001FF);
    assert_int_equal(raster_clear_depth(0xFFFF), 0xFFFFFF); /* bit 15 ignored */
}

static void test_clear_plain(void **state)
{
    fixture *f = *state;
    gx_render_regs *g = &f->in->regs;
    /* red 31, blue 16, fog, alpha 20, polygon ID 5 */
    g->clear_color = RGB(31, 0, 16) | 0x8000u | (20u << 16) | ID(5);
    g->clear_depth = 0x1234;
    raster_postpass_clear(f->r, f->in);

    uint32_t i = raster_addr(17, 33);
    assert_int_equal(f->r->color[i], PX(63, 0, 33, 20));
    assert_int_equal(f->r->depth[i], 0x1234u * 0x200u + 0x1FFu);
    assert_int_equal(f->r->attr[i], ID(5) | RASTER_ATTR_FOG);
    /* the border: colour 0, clear depth, clear ID, no fog */
    uint32_t left = raster_addr(-1, 33), below = raster_addr(17, 192);
    assert_int_equal(f->r->color[left], 0);
    assert_int_equal(f->r->depth[left], 0x1234u * 0x200u + 0x1FFu);
    assert_int_equal(f->r->attr[left], ID(5));
    assert_int_equal(f->r->attr[below], ID(5));
    assert_int_equal(f->r->attr[raster_addr(256, 191)], ID(5));
    /* the lower layer is cleared too */
    assert_int_equal(f->r->color[i + RASTER_BUF_SIZE], PX(63, 0, 33, 20));

    raster_postpass_finish(f->r, f->in, &f->out);
    assert_int_equal(f->out.px[33 * 256 + 17], PX(63, 0, 33, 20));
}

static void test_clear_bitmap_with_offset(void **state)
{
    fixture *f = *state;
    gx_render_regs *g = &f->in->regs;
    g->disp3dcnt = 1u << 14;
    g->clear_color = RGB(31, 31, 31) | (31u << 16) | ID(9); /* colour unused, ID used */
    g->clear_depth = 0x7FFF;
    g->clear_offset = 250u | (255u << 8); /* column 250, row 255 */

    /* screen (10, 1) reads bitmap column (250 + 10) & 255 = 4, row (255 + 1) & 255 = 0 */
    put16(f->tex, 0x40000 + 0 * 512 + 4 * 2, 0x8000u | RGB(1, 2, 3));
    put16(f->tex, 0x60000 + 0 * 512 + 4 * 2, 0x8000u | 0x1234u);
    /* screen (0, 0) reads column 250, row 255: opaque bit clear, fog bit clear */
    put16(f->tex, 0x40000 + 255 * 512 + 250 * 2, RGB(31, 0, 0));
    put16(f->tex, 0x60000 + 255 * 512 + 250 * 2, 0x0010u);

    raster_postpass_clear(f->r, f->in);
    uint32_t i = raster_addr(10, 1);
    assert_int_equal(f->r->color[i], PX(3, 5, 7, 31));
    assert_int_equal(f->r->depth[i], 0x1234u * 0x200u + 0x1FFu);
    assert_int_equal(f->r->attr[i], ID(9) | RASTER_ATTR_FOG);
    i = raster_addr(0, 0);
    assert_int_equal(f->r->color[i], PX(63, 0, 0, 0));
    assert_int_equal(f->r->depth[i], 0x10u * 0x200u + 0x1FFu);
    assert_int_equal(f->r->attr[i], ID(9));
    /* the border still holds CLEAR_DEPTH and the clear ID */
    assert_int_equal(f->r->depth[raster_addr(-1, 0)], 0xFFFFFF);
    assert_int_equal(f->r->attr[raster_addr(-1, 0)], ID(9));
}

/* The clear (each buffer word written once; the bitmap eight pixels at a time with SSE2)
 * against raster_postpass_clear_ref: random clear registers and offsets, plain and bitmap,
 * random texture VRAM (and none), over buffers left with different garbage; every word of
 * both layers of the three buffers compared. */
static void test_clear_matches_ref(void **state)
{
    fixture *f = *state;
    raster_engine *ref = raster_create();
    assert_non_null(ref);
    gx_render_regs *g = &f->in->regs;
    uint32_t st = 0xC1EA2u;
    for (int round = 0; round < 24; round++) {
        for (uint32_t i = 0; i < GX_TEX_VRAM_SIZE; i++) f->tex[i] = (uint8_t)xs32(&st);
        g->clear_color = xs32(&st);
        g->clear_depth = (uint16_t)xs32(&st);
        g->clear_offset = (uint16_t)xs32(&st);
        g->disp3dcnt = (uint16_t)(round & 1 ? 1u << 14 : xs32(&st) & ~(1u << 14));
        f->in->tex_vram = round % 6 == 5 ? NULL : f->tex;
        for (uint32_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
            f->r->color[i] = xs32(&st), ref->color[i] = ~f->r->color[i];
            f->r->depth[i] = xs32(&st), ref->depth[i] = ~f->r->depth[i];
            f->r->attr[i] = xs32(&st), ref->attr[i] = ~f->r->attr[i];
        }
        raster_postpass_clear(f->r, f->in);
        raster_postpass_clear_ref(ref, f->in);
        for (uint32_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
            if (f->r->color[i] != ref->color[i] || f->r->depth[i] != ref->depth[i] ||
                f->r->attr[i] != ref->attr[i])
                fail_msg("round %d word %u: %08x %08x %08x, reference %08x %08x %08x", round, i,
                         f->r->color[i], f->r->depth[i], f->r->attr[i], ref->color[i],
                         ref->depth[i], ref->attr[i]);
        }
    }
    f->in->tex_vram = f->tex;
    raster_destroy(ref);
}

/* The lazy clear (raster_lazy_clear: AVX2 eight words a store where the engine has it) and the
 * output conversion (raster_output_line: the drawn run copied eight pixels at a time) against
 * the scalar form (span_isa scalar): random clear words, random runs of random lines widening
 * each line's valid range (empty, one pixel, short runs of 1-23 pixels at every alignment, around
 * the AVX2 form's eight-word overlapping first and last stores, whole lines, both sides), over
 * random buffers; every word of the three top layers, the valid ranges and every output pixel
 * compared. */
static void test_lazy_clear_and_output_forms(void **state)
{
    (void)state;
    raster_engine *a = raster_create(), *b = raster_create();
    dsgx_frame *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(fa);
    assert_non_null(fb);
    b->span_isa = RASTER_SPAN_ISA_SCALAR;
    uint32_t st = 0x5EEDu;
    for (int round = 0; round < 20; round++) {
        for (uint32_t i = 0; i < RASTER_BUF_SIZE; i++) {
            a->color[i] = b->color[i] = xs32(&st);
            a->depth[i] = b->depth[i] = xs32(&st);
            a->attr[i] = b->attr[i] = xs32(&st);
        }
        for (int k = 0; k < 3; k++) a->clear_px[k] = b->clear_px[k] = xs32(&st);
        a->lazy_clear = b->lazy_clear = true;
        for (int y = 0; y < 192; y++) a->valid_lo[y] = b->valid_lo[y] = 256, a->valid_hi[y] = 0;
        memcpy(b->valid_hi, a->valid_hi, sizeof a->valid_hi);
        for (int k = 0; k < 600; k++) {
            int32_t y = (int32_t)(xs32(&st) % 192u);
            int32_t x0 = (int32_t)(xs32(&st) % 257u), x1 = (int32_t)(xs32(&st) % 257u);
            if ((k & 7) == 0) x0 = 0, x1 = 256;
            if ((k & 7) == 1) x1 = x0 + (int32_t)(xs32(&st) % 24u), x1 = x1 > 256 ? 256 : x1;
            if (x0 > x1) {
                int32_t t = x0;
                x0 = x1, x1 = t;
            }
            raster_lazy_clear(a, y, x0, x1);
            raster_lazy_clear(b, y, x0, x1);
        }
        assert_memory_equal(a->color, b->color, RASTER_BUF_SIZE * sizeof a->color[0]);
        assert_memory_equal(a->depth, b->depth, RASTER_BUF_SIZE * sizeof a->depth[0]);
        assert_memory_equal(a->attr, b->attr, RASTER_BUF_SIZE * sizeof a->attr[0]);
        assert_memory_equal(a->valid_lo, b->valid_lo, sizeof a->valid_lo);
        assert_memory_equal(a->valid_hi, b->valid_hi, sizeof a->valid_hi);
        for (int32_t y = 0; y < 192; y++) {
            raster_output_line(a, y, &fa->px[y * DSGX_FRAME_W]);
            raster_output_line(b, y, &fb->px[y * DSGX_FRAME_W]);
        }
        assert_memory_equal(fa->px, fb->px, sizeof fa->px);
    }
    free(fa);
    free(fb);
    raster_destroy(a);
    raster_destroy(b);
}

/* raster_postpass_rows' conversion into the output frame (eight pixels at a time with AVX2)
 * against the scalar form: random colour words of random line ranges, no pass enabled. */
static void test_postpass_output_forms(void **state)
{
    fixture *f = *state;
    dsgx_frame *ref = malloc(sizeof *ref);
    assert_non_null(ref);
    const uint8_t best = f->r->span_isa;
    uint32_t st = 0xF00Du;
    f->in->regs.disp3dcnt = 0;
    for (int round = 0; round < 10; round++) {
        for (uint32_t i = 0; i < RASTER_BUF_SIZE; i++) f->r->color[i] = xs32(&st);
        for (uint32_t i = 0; i < DSGX_FRAME_PIXELS; i++) f->out.px[i] = ref->px[i] = xs32(&st);
        int y0 = (int)(xs32(&st) % 192u), y1 = y0 + 1 + (int)(xs32(&st) % (uint32_t)(192 - y0));
        f->r->span_isa = RASTER_SPAN_ISA_SCALAR;
        raster_postpass_rows(f->r, f->in, ref, y0, y1);
        f->r->span_isa = best;
        raster_postpass_rows(f->r, f->in, &f->out, y0, y1);
        assert_memory_equal(f->out.px, ref->px, sizeof ref->px);
    }
    free(ref);
}

/* ---- fog ---- */

static void fog_regs(gx_render_regs *g, uint32_t shift, uint32_t offset)
{
    for (int i = 0; i < 32; i++) g->fog_table[i] = (uint8_t)(i * 4); /* 0, 4, .., 124 */
    g->fog_offset = (uint16_t)offset;
    g->disp3dcnt = (uint16_t)((1u << 7) | (shift << 8));
    g->fog_color = RGB(31, 0, 0) | (31u << 16);
}

static void test_fog_density(void **state)
{
    fixture *f = *state;
    raster_fog fog;
    fog_regs(&f->in->regs, 2, 0x100); /* offset 0x100 * 0x200 = 0x20000; step 0x80000>>2 */
    raster_fog_setup(&fog, &f->in->regs);

    /* in front of the offset: entry 0 */
    assert_int_equal(raster_fog_density(&fog, 0x1FFFF), 0);
    /* (z - off) = 0x70000: index 3, fraction half: entries 2 and 3 -> (8 + 12) / 2 */
    assert_int_equal(raster_fog_density(&fog, 0x20000 + 0x70000), 10);
    /* (z - off) = 0x28000: index 1, quarter of the way from entry 0 (0) to entry 1 (4) */
    assert_int_equal(raster_fog_density(&fog, 0x20000 + 0x28000), 1);
    /* exactly on index 5: entry 4 = 16 */
    assert_int_equal(raster_fog_density(&fog, 0x20000 + 0xA0000), 16);
    /* far beyond the table: the last entry (124) */
    assert_int_equal(raster_fog_density(&fog, 0xFFFFFF), 124);

    /* shift 0: the step is 0x80000, so 0x80000 past the offset is index 1 */
    fog_regs(&f->in->regs, 0, 0);
    raster_fog_setup(&fog, &f->in->regs);
    assert_int_equal(raster_fog_density(&fog, 0x100000), 4); /* index 2: entry 1 */

    /* 0xFFFFFF at shift 0: index 31, fraction 0x1FFFF of the way from entry 30 to entry 31:
     * (120 * 1 + 127 * 0x1FFFF) >> 17 = 126 */
    f->in->regs.fog_table[31] = 127;
    raster_fog_setup(&fog, &f->in->regs);
    assert_int_equal(raster_fog_density(&fog, 0xFFFFFF), 126);
    /* 127 or more means full fog (128) */
    f->in->regs.fog_table[30] = 127;
    raster_fog_setup(&fog, &f->in->regs);
    assert_int_equal(raster_fog_density(&fog, 0xFFFFFF), 128);

    /* shift 15 wraps at 32 bits: 0x800000 >> 2 << 15 = 2^36 -> 0 -> entry 0 again */
    fog_regs(&f->in->regs, 15, 0);
    raster_fog_setup(&fog, &f->in->regs);
    assert_int_equal(raster_fog_density(&fog, 0x800000), 0);
    assert_int_equal(raster_fog_density(&fog, 0x7FFFFC), 124);
}

static void test_fog_blend(void **state)
{
    fixture *f = *state;
    raster_fog fog;
    fog_regs(&f->in->regs, 0, 0);
    raster_fog_setup(&fog, &f->in->regs);
    /* fog red 63, alpha 31; half density: (63*64 + 0*64) >> 7 = 31, alpha (31*64) >> 7 = 15 */
    assert_int_equal(raster_fog_blend(&fog, PX(0, 40, 0, 0), 64), PX(31, 20, 0, 15));
    assert_int_equal(raster_fog_blend(&fog, PX(0, 40, 0, 0), 128), PX(63, 0, 0, 31));
    assert_int_equal(raster_fog_blend(&fog, PX(0, 40, 0, 0), 0), PX(0, 40, 0, 0));
    /* alpha-only mode leaves the colour */
    f->in->regs.disp3dcnt |= 1u << 6;
    raster_fog_setup(&fog, &f->in->regs);
    assert_int_equal(raster_fog_blend(&fog, PX(0, 40, 0, 0), 64), PX(0, 40, 0, 15));
}

/* raster_fog_blend packs two channels per 32-bit word: compared with the per-channel
 * formula (fog * d + c * (128 - d)) >> 7 on random colours, fog colours and densities. */
static void test_fog_blend_channels(void **state)
{
    fixture *f = *state;
    raster_fog fog;
    uint32_t seed = 0x2545F491u;
    for (int n = 0; n < 200000; n++) {
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        uint32_t color = seed & 0x1F3F3F3Fu;
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        uint32_t density = n < 129 ? (uint32_t)n : seed % 129u;
        if (n % 1000 == 0) {
            fog_regs(&f->in->regs, 0, 0);
            f->in->regs.fog_color = (seed >> 8) & 0x1F7FFFu;
            if (n % 3000 == 0) f->in->regs.disp3dcnt |= 1u << 6; /* alpha only */
            raster_fog_setup(&fog, &f->in->regs);
        }
        uint32_t fc = fog.color6 | (fog.alpha << 24), want = 0;
        for (int sh = 0; sh < 32; sh += 8) {
            uint32_t c = (color >> sh) & 0x3Fu, fv = (fc >> sh) & 0x3Fu;
            want |= ((fv * density + c * (128u - density)) >> 7) << sh;
        }
        if (fog.alpha_only) want = (color & 0x003F3F3Fu) | (want & 0x1F000000u);
        assert_int_equal(raster_fog_blend(&fog, color, density), want);
    }
}

static void test_fog_pass_bits(void **state)
{
    fixture *f = *state;
    gx_render_regs *g = &f->in->regs;
    g->clear_color = RGB(0, 0, 0) | (31u << 16); /* clear without fog */
    g->clear_depth = 0x7FFF;
    raster_postpass_clear(f->r, f->in);
    fog_regs(g, 0, 0);
    for (int i = 0; i < 32; i++) g->fog_table[i] = 127; /* full fog everywhere */

    uint32_t a = raster_addr(5, 5), b = raster_addr(6, 5), c = raster_addr(7, 5);
    f->r->attr[a] |= RASTER_ATTR_FOG; /* fogged */
    /* an edge pixel without fog (coverage 31: anti-aliasing keeps it) ... */
    f->r->attr[c] |= RASTER_ATTR_EDGE_LEFT | RASTER_ATTR_COV_MASK;
    f->r->attr[c + RASTER_BUF_SIZE] |= RASTER_ATTR_FOG; /* ... over a fogged pixel */
    g->disp3dcnt |= 1u << 4; /* (anti-aliasing: the only reader of the lower layer's fog) */
    raster_postpass_finish(f->r, f->in, &f->out);
    assert_int_equal(f->r->color[a], PX(63, 0, 0, 31));
    assert_int_equal(f->r->color[b], PX(0, 0, 0, 31));
    assert_int_equal(f->r->color[c], PX(0, 0, 0, 31));
    assert_int_equal(f->r->color[c + RASTER_BUF_SIZE], PX(63, 0, 0, 31));
    assert_int_equal(f->out.px[5 * 256 + 5], PX(63, 0, 0, 31));
}

#ifdef RASTER_POSTPASS_AVX2
/* raster_fog_density8 and raster_fog_blend8 on @p z and @p c, @p d (eight lanes each) */
static __attribute__((target("avx2"))) void fog_kernels8(const raster_fog *fog, const uint32_t z[8],
                                                         const uint32_t c[8], const uint32_t d[8],
                                                         uint32_t dens[8], uint32_t out[8])
{
    _mm256_storeu_si256((__m256i *)dens,
                        raster_fog_density8(fog, _mm256_loadu_si256((const __m256i *)z)));
    _mm256_storeu_si256((__m256i *)out,
                        raster_fog_blend8(fog, _mm256_loadu_si256((const __m256i *)c),
                                          _mm256_loadu_si256((const __m256i *)d)));
}
#endif

/* The eight-lane fog kernels lane by lane against raster_fog_density / raster_fog_blend: random
 * fog registers (tables rising or random, up to 127: full fog; every shift; offsets; colours;
 * alpha-only), depths over the whole 24-bit range (and beyond: W-buffer values), at and around the
 * offset and at every table index's boundary (the byte shuffles' two halves, index 0 and 32),
 * colours with random high bits and every density 0..128. The pass test below reaches them only
 * where its buffers do. */
static void test_fog_kernels8(void **state)
{
#ifdef RASTER_POSTPASS_AVX2
    fixture *f = *state;
    if (raster_span_isa_best() < RASTER_SPAN_ISA_AVX2) skip();
    gx_render_regs *g = &f->in->regs;
    uint32_t st = 0xF06F06u;
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++)
            g->fog_table[i] = (uint8_t)(round % 2 ? xs32(&st) & 0x7Fu : i * 4 + (xs32(&st) & 7u));
        g->fog_offset = (uint16_t)(round % 5 == 0 ? 0 : xs32(&st) & 0x7FFFu);
        g->fog_color = xs32(&st) & 0x1F7FFFu;
        g->disp3dcnt =
            (uint16_t)((1u << 7) | ((uint32_t)(round % 16) << 8) | (round % 3 == 0 ? 1u << 6 : 0u));
        raster_fog fog;
        raster_fog_setup(&fog, g);
        for (int n = 0; n < 512; n++) {
            uint32_t z[8], c[8], d[8], dens[8], out[8];
            for (int k = 0; k < 8; k++) {
                uint32_t r = xs32(&st), step = 0x80000u >> fog.shift;
                switch (r & 3u) {
                case 0: z[k] = xs32(&st) & 0xFFFFFFu; break;
                case 1: z[k] = fog.offset + (xs32(&st) % 9u) - 4u; break;
                default:
                    z[k] = fog.offset + (xs32(&st) % 34u) * (step ? step : 1u) + (r >> 30) - 2u;
                }
                if ((r >> 2 & 15u) != 0) z[k] &= 0xFFFFFFu; /* (else any 32-bit depth) */
                c[k] = xs32(&st);
                d[k] = (uint32_t)(n * 8 + k) % 129u;
            }
            fog_kernels8(&fog, z, c, d, dens, out);
            for (int k = 0; k < 8; k++) {
                if (dens[k] != raster_fog_density(&fog, z[k]))
                    fail_msg("round %d depth %06x: density %u, reference %u", round, z[k], dens[k],
                             raster_fog_density(&fog, z[k]));
                if (out[k] != raster_fog_blend(&fog, c[k], d[k]))
                    fail_msg("round %d colour %08x density %u: %08x, reference %08x", round, c[k],
                             d[k], out[k], raster_fog_blend(&fog, c[k], d[k]));
            }
        }
    }
#else
    (void)state;
    skip();
#endif
}

/* The fog pass (eight pixels at a time with AVX2, four with SSE2: each form the build and the
 * machine have) against raster_fog_pass_ref (one pixel at a
 * time through raster_fog_density / raster_fog_blend): random buffers of both layers (depths
 * spread over the whole range, clustered near the offset and equal in runs; colours with
 * random high bits, also in runs; fog and edge bits in every combination) and random fog registers
 * (table, offset, every shift, colour, alpha-only, anti-aliasing on and off), both layers'
 * colours compared word for word. */
static void test_fog_pass_matches_ref(void **state)
{
    fixture *f = *state;
    raster_engine *ref = raster_create();
    assert_non_null(ref);
    gx_render_regs *g = &f->in->regs;
    uint32_t st = 0xC0FFEEu;
    const uint8_t best = f->r->span_isa;
    uint32_t *colors = malloc(sizeof ref->color);
    assert_non_null(colors);
    for (int round = 0; round < 60; round++) {
        for (int i = 0; i < 32; i++) g->fog_table[i] = (uint8_t)(xs32(&st) & 0x7Fu);
        if (round % 3 == 0) /* a rising table, as games use */
            for (int i = 0; i < 32; i++) g->fog_table[i] = (uint8_t)(i * 4 + (xs32(&st) & 3u));
        g->fog_offset = (uint16_t)(xs32(&st) & 0x7FFFu);
        g->fog_color = xs32(&st) & 0x1F7FFFu;
        /* (anti-aliasing on or off: the lower layer fogged or left) */
        g->disp3dcnt = (uint16_t)((1u << 7) | ((xs32(&st) & 15u) << 8) | (xs32(&st) & (1u << 6)) |
                                  (xs32(&st) & (1u << 4)));
        raster_fog fog;
        raster_fog_setup(&fog, g);
        uint32_t z = 0;
        for (uint32_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
            uint32_t k = xs32(&st);
            if ((k & 7u) == 0) z = xs32(&st) & 0xFFFFFFu;               /* anywhere */
            if ((k & 7u) == 1) z = fog.offset + (xs32(&st) & 0x3FFFFu); /* near the offset */
            if (z > 0xFFFFFFu) z = 0xFFFFFFu;
            f->r->depth[i] = z;
            /* (colours in runs too: the pass reuses results of equal pixels) */
            f->r->color[i] = (k & 0x30u) || i == 0 ? xs32(&st) : f->r->color[i - 1];
            f->r->attr[i] = xs32(&st) & (RASTER_ATTR_FOG | RASTER_ATTR_EDGE_MASK | 0xFF000000u);
        }
        memcpy(ref->depth, f->r->depth, sizeof ref->depth);
        memcpy(ref->color, f->r->color, sizeof ref->color);
        memcpy(ref->attr, f->r->attr, sizeof ref->attr);
        memcpy(colors, f->r->color, sizeof ref->color);
        int y0 = (int)(xs32(&st) % 192u), y1 = y0 + 1 + (int)(xs32(&st) % (uint32_t)(192 - y0));
        raster_fog_pass_ref(ref, &fog, y0, y1);
        /* every form this build and machine have: the widest, then the four-pixel one */
        for (uint8_t isa = best;; isa--) {
            memcpy(f->r->color, colors, sizeof ref->color);
            f->r->span_isa = isa;
            raster_fog_pass(f->r, &fog, y0, y1);
            for (uint32_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
                if (f->r->color[i] != ref->color[i])
                    fail_msg("round %d form %u pixel %u: %08x, reference %08x (depth %06x attr "
                             "%08x)",
                             round, isa, i, f->r->color[i], ref->color[i], ref->depth[i],
                             ref->attr[i]);
            }
            if (isa <= RASTER_SPAN_ISA_SSE2) break;
        }
    }
    f->r->span_isa = best;
    free(colors);
    raster_destroy(ref);
}

/* The anti-aliasing pass (edge flags tested four pixels at a time with SSE2, the pass eight
 * pixels at a time with AVX2: each form the build and machine have) against
 * raster_antialias_pass_ref: random colours of both layers, sparse edge flags (runs of
 * pixels without any), every coverage, with and without edge marking's marked pixels. */
static void test_aa_pass_matches_ref(void **state)
{
    fixture *f = *state;
    raster_engine *ref = raster_create();
    assert_non_null(ref);
    uint32_t st = 0xA11A5u;
    const uint8_t best = f->r->span_isa;
    uint32_t *colors = malloc(sizeof ref->color);
    assert_non_null(colors);
    for (int round = 0; round < 40; round++) {
        for (uint32_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
            uint32_t k = xs32(&st);
            f->r->color[i] = xs32(&st);
            f->r->attr[i] = xs32(&st) & ~(k & 7u ? RASTER_ATTR_EDGE_MASK : 0u);
            if (i < RASTER_BUF_SIZE) f->r->edge_marked[i] = (uint8_t)(k >> 31);
        }
        memcpy(ref->color, f->r->color, sizeof ref->color);
        memcpy(ref->attr, f->r->attr, sizeof ref->attr);
        memcpy(ref->edge_marked, f->r->edge_marked, sizeof ref->edge_marked);
        memcpy(colors, f->r->color, sizeof ref->color);
        int y0 = (int)(xs32(&st) % 192u), y1 = y0 + 1 + (int)(xs32(&st) % (uint32_t)(192 - y0));
        bool marked = round & 1;
        raster_antialias_pass_ref(ref, y0, y1, marked);
        /* every form this build and machine have: the widest, then the four-pixel one */
        for (uint8_t isa = best;; isa--) {
            memcpy(f->r->color, colors, sizeof ref->color);
            f->r->span_isa = isa;
            raster_antialias_pass(f->r, y0, y1, marked);
            for (uint32_t i = 0; i < 2 * RASTER_BUF_SIZE; i++) {
                if (f->r->color[i] != ref->color[i])
                    fail_msg("round %d form %u pixel %u: %08x, reference %08x", round, isa, i,
                             f->r->color[i], ref->color[i]);
            }
            if (isa <= RASTER_SPAN_ISA_SSE2) break;
        }
    }
    f->r->span_isa = best;
    free(colors);
    raster_destroy(ref);
}

/* ---- edge marking ---- */

/* Edge marking (eight pixels at a time with AVX2, four with SSE2: each form the build and the
 * machine have) against raster_edge_mark_pass_ref: random buffers (few polygon IDs and depths from
 * a small set, so that equal IDs and equal depths next to each other are common; depths also with
 * the top bit set, for the unsigned compare; random edge flags and high attribute bits), random
 * edge colours, anti-aliasing on and off; the colours and edge_marked[] of the whole buffer
 * compared. */
static void test_edge_mark_pass_matches_ref(void **state)
{
    fixture *f = *state;
    raster_engine *ref = raster_create();
    assert_non_null(ref);
    gx_render_regs *g = &f->in->regs;
    uint32_t st = 0xBADC0DEu;
    const uint8_t best = f->r->span_isa;
    uint32_t *colors = malloc(sizeof ref->color);
    uint8_t *marked = malloc(sizeof ref->edge_marked);
    assert_non_null(colors);
    assert_non_null(marked);
    for (int round = 0; round < 60; round++) {
        for (int i = 0; i < 8; i++) g->edge_color[i] = (uint16_t)xs32(&st);
        /* (anti-aliasing on or off: edge_marked written or left) */
        g->disp3dcnt = (uint16_t)((1u << 5) | (round & 1 ? 1u << 4 : 0u));
        uint32_t zs[4] = {xs32(&st), xs32(&st) & 0xFFFFFFu, xs32(&st) & 0xFFFFFFu, 0x7FFFFFFFu};
        for (uint32_t i = 0; i < RASTER_BUF_SIZE; i++) {
            uint32_t k = xs32(&st);
            f->r->depth[i] = (k & 8u) ? zs[k & 3u] : xs32(&st);
            f->r->color[i] = xs32(&st);
            /* (IDs 0-7 << 3 | low bits: each of the eight edge colours, few IDs) */
            f->r->attr[i] = (((k >> 4) & 3u) << 27) | ((k >> 6) & 0x00FFFFFFu) |
                            ((k & 0x40000000u) ? 1u << 30 : 0u) | ((k & 0x80000000u) >> 2);
            f->r->edge_marked[i] = (uint8_t)(k >> 28 & 1u);
        }
        memcpy(ref->depth, f->r->depth, sizeof ref->depth);
        memcpy(ref->color, f->r->color, sizeof ref->color);
        memcpy(ref->attr, f->r->attr, sizeof ref->attr);
        memcpy(ref->edge_marked, f->r->edge_marked, sizeof ref->edge_marked);
        memcpy(colors, f->r->color, sizeof ref->color);
        memcpy(marked, f->r->edge_marked, sizeof ref->edge_marked);
        int y0 = (int)(xs32(&st) % 192u), y1 = y0 + 1 + (int)(xs32(&st) % (uint32_t)(192 - y0));
        raster_edge_mark_pass_ref(ref, g, y0, y1);
        /* every form this build and machine have: the widest, then the four-pixel one */
        for (uint8_t isa = best;; isa--) {
            memcpy(f->r->color, colors, sizeof ref->color);
            memcpy(f->r->edge_marked, marked, sizeof ref->edge_marked);
            f->r->span_isa = isa;
            raster_edge_mark_pass(f->r, g, y0, y1);
            for (uint32_t i = 0; i < RASTER_BUF_SIZE; i++) {
                if (f->r->color[i] != ref->color[i] || f->r->edge_marked[i] != ref->edge_marked[i])
                    fail_msg("round %d form %u pixel %u: %08x/%u, reference %08x/%u", round, isa, i,
                             f->r->color[i], f->r->edge_marked[i], ref->color[i],
                             ref->edge_marked[i]);
            }
            if (isa <= RASTER_SPAN_ISA_SSE2) break;
        }
    }
    f->r->span_isa = best;
    free(colors);
    free(marked);
    raster_destroy(ref);
}

/* Draw an opaque "polygon" block x0..x1, y0..y1 with ID id and depth z; its outline pixels
 * carry edge flags, the inside none. */
static void block(raster_engine *r, int x0, int y0, int x1, int y1, uint32_t id, uint32_t z)
{
    for (int y = y0; y <= y1; y++) {
        for (int x = x0; x <= x1; x++) {
            uint32_t i = raster_addr(x, y);
            uint32_t e =
                (x == x0 ? RASTER_ATTR_EDGE_LEFT : 0) | (x == x1 ? RASTER_ATTR_EDGE_RIGHT : 0) |
                (y == y0 ? RASTER_ATTR_EDGE_TOP : 0) | (y == y1 ? RASTER_ATTR_EDGE_BOTTOM : 0);
            r->color[i] = PX(10, 10, 10, 31);
            r->depth[i] = z;
            r->attr[i] = ID(id) | e | (31u << RASTER_ATTR_COV_SHIFT);
        }
    }
}

static void edge_regs(gx_render_regs *g, uint32_t clear_id, uint32_t clear_depth)
{
    memset(g, 0, sizeof *g);
    g->disp3dcnt = 1u << 5;
    g->clear_color = (31u << 16) | ID(clear_id);
    g->clear_depth = (uint16_t)clear_depth;
    for (int i = 0; i < 8; i++) g->edge_color[i] = (uint16_t)RGB(i, 0, 31 - i);
}

static void test_edge_marking_against_clear_plane(void **state)
{
    fixture *f = *state;
    edge_regs(&f->in->regs, 0, 0x7FFF);
    raster_postpass_clear(f->r, f->in);
    block(f->r, 20, 20, 29, 29, 8, 0x1000); /* ID 8: edge colour 1 */
    f->r->color[raster_addr(20, 25)] = PX(10, 10, 10, 17);
    raster_postpass_finish(f->r, f->in, &f->out);

    uint32_t edge1 = PX(3, 0, 61, 0); /* RGB(1, 0, 30) widened */
    /* left edge pixel next to the (farther, other-ID) clear plane: marked, alpha kept,
     * coverage broken to 0x10 */
    assert_int_equal(f->r->color[raster_addr(20, 25)], edge1 | (17u << 24));
    assert_int_equal(f->r->color[raster_addr(29, 20)], edge1 | (31u << 24));
    /* inside pixel (no edge flag): untouched */
    assert_int_equal(f->r->color[raster_addr(25, 25)], PX(10, 10, 10, 31));
    assert_int_equal(f->out.px[25 * 256 + 20], edge1 | (17u << 24));
    /* with anti-aliasing (edge_marked's only reader) the marked pixels' coverage is broken
     * to 0x10 */
    f->r->edge_marked[raster_addr(20, 25)] = 0;
    f->r->edge_marked[raster_addr(29, 20)] = 0;
    f->in->regs.disp3dcnt |= 1u << 4;
    raster_edge_mark_pass(f->r, &f->in->regs, 20, 26);
    assert_int_equal(f->r->edge_marked[raster_addr(20, 25)], 1);
    assert_int_equal(f->r->edge_marked[raster_addr(29, 20)], 1);
}

static void test_edge_marking_neighbour_rules(void **state)
{
    fixture *f = *state;
    edge_regs(&f->in->regs, 0, 0x7FFF);
    raster_postpass_clear(f->r, f->in);
    /* A: ID 8 at z 0x1000, x 40..49; B right next to it, x 50..59 */
    block(f->r, 40, 40, 49, 49, 8, 0x1000);
    block(f->r, 50, 40, 59, 49, 16, 0x2000); /* other ID, farther: A's right edge marks */
    block(f->r, 60, 40, 69, 49, 16, 0x0800); /* same ID as B, closer: B's right edge no */
    block(f->r, 40, 50, 49, 59, 8, 0x0100);  /* same ID as A below it, closer */
    raster_postpass_finish(f->r, f->in, &f->out);

    uint32_t e1 = PX(3, 0, 61, 31), e2 = PX(5, 0, 59, 31);
    assert_int_equal(f->r->color[raster_addr(49, 45)], e1); /* A right edge vs farther B */
    /* B left edge vs closer A (other ID, but nearer): not by that neighbour; its other
     * neighbours are B itself */
    assert_int_equal(f->r->color[raster_addr(50, 45)], PX(10, 10, 10, 31));
    /* B right edge vs the next block: same ID 16 -> not marked */
    assert_int_equal(f->r->color[raster_addr(59, 45)], PX(10, 10, 10, 31));
    /* the third block's left edge: neighbour B has the same ID -> not marked */
    assert_int_equal(f->r->color[raster_addr(60, 45)], PX(10, 10, 10, 31));
    /* the third block's right edge vs the clear plane: marked with colour 16 >> 3 = 2 */
    assert_int_equal(f->r->color[raster_addr(69, 45)], e2);
    /* A's bottom edge over the same-ID block below: not marked (x = 45, y = 49) */
    assert_int_equal(f->r->color[raster_addr(45, 49)], PX(10, 10, 10, 31));
}

static void test_edge_marking_screen_border(void **state)
{
    fixture *f = *state;
    /* the border holds the clear ID and depth: a polygon edge on the screen edge is marked
     * when the clear plane's ID differs and the clear depth is farther */
    edge_regs(&f->in->regs, 0, 0x7FFF);
    raster_postpass_clear(f->r, f->in);
    block(f->r, 0, 0, 255, 191, 8, 0x1000); /* whole screen */
    raster_postpass_finish(f->r, f->in, &f->out);
    assert_int_equal(f->r->color[raster_addr(0, 100)], PX(3, 0, 61, 31));
    assert_int_equal(f->r->color[raster_addr(255, 100)], PX(3, 0, 61, 31));
    assert_int_equal(f->r->color[raster_addr(100, 0)], PX(3, 0, 61, 31));
    assert_int_equal(f->r->color[raster_addr(100, 191)], PX(3, 0, 61, 31));

    /* same clear ID as the polygon: not marked */
    edge_regs(&f->in->regs, 8, 0x7FFF);
    raster_postpass_clear(f->r, f->in);
    block(f->r, 0, 0, 255, 191, 8, 0x1000);
    raster_postpass_finish(f->r, f->in, &f->out);
    assert_int_equal(f->r->color[raster_addr(0, 100)], PX(10, 10, 10, 31));

    /* clear depth nearer than the polygon (CLEAR_DEPTH 0 -> 0x1FF): not marked */
    edge_regs(&f->in->regs, 0, 0);
    raster_postpass_clear(f->r, f->in);
    block(f->r, 0, 0, 255, 191, 8, 0x1000);
    raster_postpass_finish(f->r, f->in, &f->out);
    assert_int_equal(f->r->color[raster_addr(0, 100)], PX(10, 10, 10, 31));
}

/* ---- anti-aliasing ---- */

static void test_aa_blend(void **state)
{
    (void)state;
    /* coverage 15 -> 16/32: (63 * 16) >> 5 = 31 */
    assert_int_equal(raster_aa_blend(PX(63, 0, 0, 31), PX(0, 63, 0, 31), 15), PX(31, 31, 0, 31));
    /* coverage 23 -> 24/32: r (63*24) >> 5 = 47, g (63*8) >> 5 = 15, a (31*24 + 0) >> 5 = 23 */
    assert_int_equal(raster_aa_blend(PX(63, 0, 0, 31), PX(0, 63, 0, 0), 23), PX(63, 0, 0, 23));
    assert_int_equal(raster_aa_blend(PX(63, 0, 0, 31), PX(0, 63, 0, 10), 23),
                     PX(47, 15, 0, (31 * 24 + 10 * 8) >> 5));
}

/* raster_aa_blend packs two channels per 32-bit word: compared with the per-channel formula
 * (melonDS: rgb blended only over a lower pixel with alpha, alpha always) on random pixels
 * (stray bits above each channel included) and every coverage. */
static void test_aa_blend_channels(void **state)
{
    (void)state;
    uint32_t seed = 0x9E3779B9u;
    for (int n = 0; n < 200000; n++) {
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        uint32_t top = seed;
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        uint32_t bottom = n % 4 == 0 ? seed & 0x00FFFFFFu : seed; /* alpha 0 often */
        uint32_t cov = (uint32_t)n % 31u;                         /* 0..30 */
        uint32_t c1 = cov + 1, ch[4];
        for (int k = 0; k < 4; k++) {
            uint32_t m = k == 3 ? 31u : 63u;
            uint32_t t = (top >> (8 * k)) & m, b = (bottom >> (8 * k)) & m;
            ch[k] = (t * c1 + b * (32u - c1)) >> 5;
            if (k < 3 && ((bottom >> 24) & 31u) == 0) ch[k] = t;
        }
        assert_int_equal(raster_aa_blend(top, bottom, cov), PX(ch[0], ch[1], ch[2], ch[3]));
    }
}

static void test_aa_pass(void **state)
{
    fixture *f = *state;
    gx_render_regs *g = &f->in->regs;
    g->disp3dcnt = 1u << 4;
    g->clear_color = RGB(0, 31, 0) | (31u << 16);
    g->clear_depth = 0x7FFF;
    raster_postpass_clear(f->r, f->in);
    uint32_t a = raster_addr(1, 1), b = raster_addr(2, 1), c = raster_addr(3, 1),
             d = raster_addr(4, 1);
    uint32_t red = PX(63, 0, 0, 31);
    f->r->color[a] = f->r->color[b] = f->r->color[c] = f->r->color[d] = red;
    f->r->attr[a] = RASTER_ATTR_EDGE_LEFT | (15u << RASTER_ATTR_COV_SHIFT); /* blended */
    f->r->attr[b] = RASTER_ATTR_EDGE_LEFT | (31u << RASTER_ATTR_COV_SHIFT); /* full */
    f->r->attr[c] = RASTER_ATTR_EDGE_LEFT;                                  /* none */
    f->r->attr[d] = 15u << RASTER_ATTR_COV_SHIFT; /* not an edge pixel: ignored */
    raster_postpass_finish(f->r, f->in, &f->out);
    assert_int_equal(f->out.px[1 * 256 + 1], PX(31, 31, 0, 31));
    assert_int_equal(f->out.px[1 * 256 + 2], red);
    assert_int_equal(f->out.px[1 * 256 + 3], PX(0, 63, 0, 31));
    assert_int_equal(f->out.px[1 * 256 + 4], red);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clear_depth_expansion),
        cmocka_unit_test_setup_teardown(test_clear_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clear_bitmap_with_offset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clear_matches_ref, setup, teardown),
        cmocka_unit_test(test_lazy_clear_and_output_forms),
        cmocka_unit_test_setup_teardown(test_postpass_output_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fog_density, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fog_blend, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fog_blend_channels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fog_pass_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fog_kernels8, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fog_pass_matches_ref, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edge_marking_against_clear_plane, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edge_mark_pass_matches_ref, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edge_marking_neighbour_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edge_marking_screen_border, setup, teardown),
        cmocka_unit_test(test_aa_blend),
        cmocka_unit_test(test_aa_blend_channels),
        cmocka_unit_test_setup_teardown(test_aa_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aa_pass_matches_ref, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
