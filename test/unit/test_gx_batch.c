/*
 * test_gx_batch.c - the vertex batch (gx/batch.c: runs of COLOR, NORMAL, TEXCOORD and VTX_16
 * port writes executed three passes at a time by gx_write32_run) against the reference, the
 * executor entry by entry (gx_write32 word by word).
 * - The batch transform (gx_transform_batch and each of its forms: SSE4.1 signed products when
 *   the machine has SSE4.1, SSE2 unsigned products with biased operands, scalar) against
 *   gx_geom_transform (64-bit signed products) on random and extreme matrices and positions.
 * - Two engines get the same random vertex-heavy bus writes, one in random-sized runs through
 *   gx_write32_run, one word by word through gx_write32, and must end every run in the same
 *   saved state byte for byte (dsgx_state_save: the cycle model, the frame's cycles and
 *   commands, the executor's last command, matrices, lights, the polygon buffer, polygon/vertex
 *   RAM...). The stream: vertex groups (any subset and order of COLOR, NORMAL, TEXCOORD, then
 *   the two VTX_16 words), lone VTX_16 words (a pair split by other writes), every primitive
 *   type, culling and far-plane clipping, lights and materials, texgen modes 0-3 with texture
 *   matrices, projections and translations that put vertices outside the view volume, viewports,
 *   packed GXFIFO words, swaps (held entries), polygon RAM overflow, polygons on one pixel with
 *   DISP_1DOT_DEPTH (1-dot rejection: a position repeated), and now and then a
 *   polygon hook (the batch is then not taken). The ends of the runs (every observable point
 *   without a hook) fall anywhere, also inside a vertex group.
 * - Strips (the batch's strip path, gx_geom_store_strip) and frames that fill polygon or vertex
 *   RAM (the direct stores' hand-back), both modes: test_batch_strips,
 *   test_batch_direct_store_fills_ram.
 * - The direct store's 1-dot test on the DISP_1DOT_DEPTH limit exactly (W equal to it: kept):
 *   test_batch_one_dot_limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_internal.h"
#include "raster/raster.h"
#include "tools/core/savestate.h"
#include "gx_state_compare.h"

static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* A matrix entry: small, extreme or any 32-bit value. */
static int32_t random_entry(uint64_t *s)
{
    uint32_t r = rnd(s) % 8u, v = rnd(s);
    if (r == 0) return (int32_t)(v & 1u ? 0x7FFFFFFFu : 0x80000000u);
    if (r < 3) return (int32_t)v;
    return (int32_t)(v % 0x4001u) - 0x2000;
}

static void test_transform_batch_exact(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint64_t seed = 0x7A5F0E1Dull;
    unsigned ran[GX_PATH_SSE41 + 1] = {0, 0, 0};
    for (int round = 0; round < 2000; round++) {
        int32_t m[16];
        for (int k = 0; k < 16; k++) m[k] = random_entry(&seed);
        memcpy(gx->mtx.clip, m, sizeof(m));
        gx->mtx.clip_dirty = false;
        int16_t pos[32][3];
        int32_t out[32][4];
        size_t n = 1 + rnd(&seed) % 32u;
        for (size_t j = 0; j < n; j++) {
            for (int k = 0; k < 3; k++) {
                uint32_t r = rnd(&seed);
                pos[j][k] =
                    (int16_t)(uint16_t)((r & 7u) == 0 ? ((r & 8u) ? 0x8000u : 0x7FFFu) : (r >> 16));
            }
        }
        int64_t pos64[32][3];
        for (size_t j = 0; j < n; j++)
            for (int k = 0; k < 3; k++) pos64[j][k] = pos[j][k];
        /* the dispatching form (-1), then each form this build and machine have */
        for (int path = -1; path <= GX_PATH_SSE41; path++) {
            memset(out, 0x5A, sizeof(out));
            if (path < 0)
                gx_transform_batch(m, (const int64_t(*)[3])pos64, out, n);
            else if (!gx_transform_batch_path((enum gx_simd_path)path, m,
                                              (const int64_t(*)[3])pos64, out, n))
                continue;
            else
                ran[path]++;
            for (size_t j = 0; j < n; j++) {
                int32_t ref[4];
                gx_geom_transform(gx, pos[j], ref);
                assert_memory_equal(out[j], ref, sizeof(ref));
            }
        }
    }
    assert_int_equal(ran[GX_PATH_SCALAR], 2000);
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
    assert_int_equal(ran[GX_PATH_SSE2], 2000);
#endif
    print_message("forms compared: scalar %u, SSE2 %u, SSE4.1 %u rounds\n", ran[GX_PATH_SCALAR],
                  ran[GX_PATH_SSE2], ran[GX_PATH_SSE41]);
    gx_destroy(gx);
}

enum { PORT = 0x04000400u };

static void put(gx_bus_word *w, size_t *n, size_t cap, uint8_t op, uint32_t v)
{
    if (*n < cap) w[(*n)++] = (gx_bus_word){PORT + op * 4u, v};
}

/* A vertex position: mostly inside the view volume of the matrices below, now and then not. */
static uint32_t random_xy(uint64_t *s)
{
    uint32_t r = rnd(s);
    if ((r & 15u) == 0) return rnd(s);
    return ((r & 0x1FFFu) - 0x1000u) & 0xFFFFu;
}

/* Random vertex-heavy bus writes, up to cap; @p pure 1: vertex groups to the ports only, 2:
 * packed vertex groups only (long batches: more vertices and words than one batch takes). */
static size_t random_stream(uint64_t *s, gx_bus_word *w, size_t cap, int pure)
{
    size_t n = 0;
    uint32_t same_xy = 0, same_z = 0; /* a position repeated: polygons on one pixel (1-dot) */
    if (rnd(s) % 3u == 0) { /* now and then identity matrices: most polygons inside the view
                             * volume (gx_geom_store_direct rather than the clipper) */
        for (uint32_t mode = 0; mode < 4; mode += 2) {
            put(w, &n, cap, 0x10, mode);
            put(w, &n, cap, 0x15, 0);
        }
    }
    while (n < cap) {
        uint32_t r = rnd(s) % 100u, v = rnd(s);
        if (pure) r = pure == 1 ? r % 70u : 90u + r % 5u;
        if (r < 70) { /* a vertex group */
            uint8_t attrs[3] = {0x20, 0x21, 0x22};
            for (int k = 2; k > 0; k--) { /* shuffle, then take a prefix */
                int j = (int)(rnd(s) % (uint32_t)(k + 1));
                uint8_t t = attrs[k];
                attrs[k] = attrs[j];
                attrs[j] = t;
            }
            uint32_t take = rnd(s) % 4u;
            for (uint32_t k = 0; k < take; k++) {
                uint32_t a = rnd(s);
                if (attrs[k] == 0x21 && (a & 1u)) /* a normal from a few: seen again */
                    a = (0x1E1D6035u + (a & 0x60000006u) * 0x2111u) ^ (a & 0xC0000000u);
                put(w, &n, cap, attrs[k], a);
            }
            if ((v & 0x300u) != 0) { /* now and then the last position again */
                same_xy = random_xy(s) | random_xy(s) << 16;
                same_z = random_xy(s);
            }
            put(w, &n, cap, 0x23, same_xy);
            if ((v & 63u) == 0) continue; /* a lone first word: the pair is split */
            put(w, &n, cap, 0x23, same_z | (rnd(s) & 0xFFFF0000u));
        } else if (r < 74) { /* BEGIN_VTXS, any primitive */
            put(w, &n, cap, 0x40, v & 3u);
        } else if (r < 77) { /* POLYGON_ATTR: lights, culling, far-plane clipping, 1-dot */
            put(w, &n, cap, 0x29, (v & 0x000030CFu) | 0x001F0000u | ((v >> 8) & 0xC0u));
        } else if (r < 80) { /* lights and materials */
            static const uint8_t ops[] = {0x30, 0x31, 0x32, 0x33};
            put(w, &n, cap, ops[v % 4u], rnd(s));
        } else if (r < 82) { /* TEXIMAGE_PARAM: texgen modes 0-3 */
            put(w, &n, cap, 0x2A, rnd(s));
        } else if (r < 88) { /* matrices: mode, identity, scale, translation, 4x4 */
            put(w, &n, cap, 0x10, v & 3u);
            uint32_t kind = rnd(s) % 4u;
            if (kind == 0) {
                put(w, &n, cap, 0x15, 0);
            } else if (kind == 1) {
                for (int k = 0; k < 3; k++) put(w, &n, cap, 0x1B, 0x800u + (rnd(s) & 0x1FFFu));
            } else if (kind == 2) {
                for (int k = 0; k < 3; k++) put(w, &n, cap, 0x1C, (rnd(s) & 0x1FFFu) - 0x1000u);
            } else {
                for (int k = 0; k < 16; k++) put(w, &n, cap, 0x16, (uint32_t)random_entry(s));
            }
        } else if (r < 90) { /* VIEWPORT, now and then DISP_1DOT_DEPTH (1-dot polygons) */
            if ((v & 0x30000u) == 0 && n < cap)
                w[n++] = (gx_bus_word){0x04000610u, (v >> 20) & 3u};
            else
                put(w, &n, cap, 0x60, v);
        } else if (r < 95) { /* a packed GXFIFO word of vertex commands (NOP bytes too) and its
                              * parameters; now and then one short (the next writes complete it) */
            static const uint8_t ops[] = {0x00, 0x20, 0x21, 0x22, 0x23, 0x23, 0x22, 0x21};
            uint32_t word = 0;
            for (int k = 0; k < 4; k++) word |= (uint32_t)ops[rnd(s) % 8u] << (8 * k);
            if ((v & 31u) == 0) word = 0x23222120u | ((v >> 8) & 1u); /* an unknown opcode 01h */
            if (n < cap) w[n++] = (gx_bus_word){PORT, word};
            for (int k = 0; k < 4; k++) {
                uint32_t op = (word >> (8 * k)) & 0xFFu;
                if ((v & 0x3E0u) == 0x20u && k == 3) break; /* short */
                if (op == 0x23) {
                    if (n < cap) w[n++] = (gx_bus_word){PORT, random_xy(s) | random_xy(s) << 16};
                    if (n < cap) w[n++] = (gx_bus_word){PORT, random_xy(s)};
                } else if (op) {
                    uint32_t a = rnd(s);
                    if (op == 0x21 && (a & 1u)) a = 0x1E1D6035u + (a & 0x60000006u) * 0x2111u;
                    if (n < cap) w[n++] = (gx_bus_word){PORT + (rnd(s) & 0x3Cu), a};
                }
            }
        } else if (r < 96) { /* now and then SWAP_BUFFERS: later entries held until the VBlank */
            put(w, &n, cap, (v & 0x70u) == 0 ? 0x50 : 0x41, v & 3u);
        } else if (r < 98) { /* a vertex-port write at an unaligned address */
            if (n < cap) w[n++] = (gx_bus_word){PORT + 0x80u + (v & 0xFu), rnd(s)};
        } else { /* END_VTXS, a NOP-like unknown opcode */
            put(w, &n, cap, (v & 1u) ? 0x41 : 0x05, 0);
        }
    }
    return n;
}

static void count_polygon(void *user, gx_engine *gx, enum gx_poly_fate fate, const gx_polygon *p,
                          const gx_vertex *v)
{
    (void)gx;
    (void)p;
    (void)v;
    ((unsigned *)user)[fate == GX_POLY_STORED]++;
}

static void test_batch_matches_entries(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    uint64_t seed = 0xBA7C4ED1FFull;
    enum { CAP = 1600 };
    gx_bus_word w[CAP];
    unsigned words = 0, polys = 0, hooked[2] = {0, 0}, hooked_b[2] = {0, 0};
    for (int round = 0; round < 1200; round++) {
        bool hook = round % 10 == 9; /* hooks set: the batch must step aside */
        gx_hooks ha = {0}, hb = {0};
        if (hook) {
            ha = (gx_hooks){.user = hooked, .polygon = count_polygon};
            hb = (gx_hooks){.user = hooked_b, .polygon = count_polygon};
        }
        gx_set_hooks(a, &ha);
        gx_set_hooks(b, &hb);
        int pure = round % 8 == 1 ? 1 : round % 8 == 5 ? 2 : 0;
        size_t n = random_stream(&seed, w, pure ? CAP : 1 + rnd(&seed) % 400u, pure);
        for (size_t i = 0; i < n;) { /* runs of random length: their ends fall anywhere */
            size_t len = pure ? n : 1 + rnd(&seed) % 160u;
            if (len > n - i) len = n - i;
            gx_write32_run(a, w + i, len);
            for (size_t k = i; k < i + len; k++) gx_write32(b, w[k].addr, w[k].value);
            i += len;
            same_state(a, b, r);
        }
        words += (unsigned)n;
        if (round % 3 == 2) {
            polys += gx_read32(a, 0x04000604u) & 0xFFFu; /* RAM_COUNT */
            uint32_t wbuffer = round % 6 == 5 ? 2u : 0u; /* the next frame W-buffered */
            gx_write32(a, PORT + 0x50u * 4u, wbuffer);
            gx_write32(b, PORT + 0x50u * 4u, wbuffer);
            assert_int_equal(gx_vblank(a), gx_vblank(b));
            same_state(a, b, r);
        }
    }
    print_message("%u words, %u polygons stored at VBlank\n", words, polys);
    assert_true(polys > 5000);
    assert_memory_equal(hooked, hooked_b, sizeof(hooked));
    assert_true(hooked[1] > 100);
    engines_destroy(a, b, r);
}

/* The cycle-driven mode: gx_bus_write32_run (which takes the batch when the engine is idle
 * between writes and the slice is at least 64 cycles) against gx_bus_write32 and gx_run word by
 * word; the states must match after every run. */
static void test_batch_cycle_mode_matches_entries(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    assert_true(gx_set_cycle_mode(a, true));
    assert_true(gx_set_cycle_mode(b, true));
    uint64_t seed = 0xC1C1EBA7Cull;
    enum { CAP = 1600 };
    gx_bus_word w[CAP];
    unsigned polys = 0;
    for (int round = 0; round < 900; round++) {
        uint32_t slice = (uint32_t[]){7, 63, 64, 65, 100, 1000}[rnd(&seed) % 6u];
        int pure = round % 8 == 1 ? 1 : round % 8 == 5 ? 2 : 0;
        size_t n = random_stream(&seed, w, pure ? CAP : 1 + rnd(&seed) % 300u, pure);
        for (size_t i = 0; i < n;) {
            size_t len = pure ? n : 1 + rnd(&seed) % 120u;
            if (len > n - i) len = n - i;
            size_t end = i + len;
            size_t k = i;
            while (k < end) {
                uint32_t sa;
                k += gx_bus_write32_run(a, w + k, end - k, slice, &sa);
                if (k == end) break;
                assert_true(sa != 0);
                if (sa == GX_STALL_VBLANK) {
                    k = end; /* (both drop the rest of the run, see below) */
                    break;
                }
                gx_run(a, slice);
                k++;
            }
            for (k = i; k < end; k++) {
                uint32_t sb = gx_bus_write32(b, w[k].addr, w[k].value);
                if (sb == GX_STALL_VBLANK) break;
                gx_run(b, slice);
            }
            i = end;
            same_state(a, b, r);
            if (gx_stalled(a)) {
                assert_int_equal(gx_vblank(a), gx_vblank(b));
                gx_unstall(a);
                gx_unstall(b);
                same_state(a, b, r);
            }
        }
        if (round % 3 == 2) {
            polys += gx_read32(a, 0x04000604u) & 0xFFFu; /* RAM_COUNT */
            gx_bus_write32(a, PORT + 0x50u * 4u, 0);
            gx_bus_write32(b, PORT + 0x50u * 4u, 0);
            gx_run(a, 1000);
            gx_run(b, 1000);
            assert_int_equal(gx_vblank(a), gx_vblank(b));
            gx_unstall(a);
            gx_unstall(b);
            same_state(a, b, r);
        }
    }
    print_message("%u polygons stored at VBlank\n", polys);
    assert_true(polys > 3000);
    engines_destroy(a, b, r);
}

/* gx_write_gxfifo (plain GXFIFO words, the Nitro runtime's hand-over; the packed batch) against
 * gx_write32 to GXFIFO word by word. */
static void test_batch_gxfifo_words(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    uint64_t seed = 0x6F1F0BA7Cull;
    enum { CAP = 1600 };
    gx_bus_word w[CAP];
    uint32_t words[CAP];
    unsigned polys = 0;
    for (int round = 0; round < 600; round++) {
        size_t n = random_stream(&seed, w, round % 4 == 1 ? CAP : 1 + rnd(&seed) % 400u,
                                 round % 4 == 1 ? 2 : 0);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) /* the GXFIFO words only (ports would be other writes) */
            if (((w[i].addr & ~3u) - PORT) < 0x40u) words[m++] = w[i].value;
        for (size_t i = 0; i < m;) {
            size_t len = round % 4 == 1 ? m : 1 + rnd(&seed) % 160u;
            if (len > m - i) len = m - i;
            gx_write_gxfifo(a, words + i, len);
            for (size_t k = i; k < i + len; k++) gx_write32(b, PORT, words[k]);
            i += len;
            same_state(a, b, r);
        }
        if (round % 3 == 2) {
            polys += gx_read32(a, 0x04000604u) & 0xFFFu; /* RAM_COUNT */
            uint32_t wbuffer = round % 6 == 5 ? 2u : 0u; /* the next frame W-buffered */
            gx_write32(a, PORT + 0x50u * 4u, wbuffer);
            gx_write32(b, PORT + 0x50u * 4u, wbuffer);
            assert_int_equal(gx_vblank(a), gx_vblank(b));
            same_state(a, b, r);
        }
    }
    print_message("%u polygons stored at VBlank\n", polys);
    assert_true(polys > 1500);
    engines_destroy(a, b, r);
}

/* A strip vertex group (COLOR, TEXCOORD now and then, VTX_16) at zig-zag position @p k of a
 * strip: mostly inside the view volume of identity matrices, facing one way, now and then
 * jittered across (the polygon turns round: culled), off to a side (the strip leaves the view
 * volume: clipped polygons, broken chains), or at the last position again (1-dot polygons). */
static void strip_vertex(uint64_t *s, gx_bus_word *w, size_t *n, size_t cap, uint32_t k, int32_t x0,
                         int32_t y0, uint32_t *last)
{
    uint32_t r = rnd(s);
    if ((r & 3u) == 0) put(w, n, cap, 0x20, rnd(s));
    if ((r & 12u) == 0) put(w, n, cap, 0x22, rnd(s));
    int32_t x = x0 + (int32_t)(k / 2u) * 0x60 + (int32_t)(rnd(s) % 0x40u);
    int32_t y = y0 + (int32_t)(k & 1u) * 0x300 + (int32_t)(rnd(s) % 0x40u);
    uint32_t kind = rnd(s) % 64u;
    if (kind < 3) y = y0 + (int32_t)(rnd(s) % 0x400u);       /* jittered across: may turn round */
    if (kind == 3) x = 0x1100 + (int32_t)(rnd(s) % 0x800u);  /* beyond the right plane */
    if (kind == 4) y = -0x1100 - (int32_t)(rnd(s) % 0x800u); /* below the bottom plane */
    if (kind == 5) x = (int32_t)rnd(s);                      /* anywhere */
    uint32_t xy = ((uint32_t)x & 0xFFFFu) | ((uint32_t)y & 0xFFFFu) << 16;
    if (kind == 6) xy = *last; /* a position repeated: 1-dot polygons */
    *last = xy;
    put(w, n, cap, 0x23, xy);
    put(w, n, cap, 0x23, (0x800u + (rnd(s) & 0x3FFu)) & 0xFFFFu);
}

/* Triangle and quad strips through the batch's strip path (identity matrices: mostly inside
 * the view volume) against the executor entry by entry, run to completion (gx_write32_run) and
 * cycle-driven (gx_bus_write32_run at 64 to 1,000 cycles per write): strips inside, strips
 * leaving the view volume midway and coming back (a clipped polygon's vertex count changed, or
 * a shared vertex made by the clipper: the next polygon stores its shared vertices again),
 * culled polygons (both, one or no side drawn; polygons turning round), 1-dot polygons, strips
 * continued across batches and runs (the shared vertices from before the batch), longer than
 * one batch, and frames W-buffered. The states must match after every run. */
static void test_batch_strips(void **state)
{
    (void)state;
    uint64_t seed = 0x57A1B5EEDull;
    enum { CAP = 3000 };
    gx_bus_word *w = malloc(CAP * sizeof *w);
    assert_non_null(w);
    unsigned polys = 0;
    for (int cycle_mode = 0; cycle_mode < 2; cycle_mode++) {
        gx_engine *a = gx_create(), *b = gx_create();
        raster_engine *r = raster_create();
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(r);
        assert_true(gx_set_cycle_mode(a, cycle_mode != 0));
        assert_true(gx_set_cycle_mode(b, cycle_mode != 0));
        for (int round = 0; round < 160; round++) {
            size_t n = 0;
            uint32_t last = 0;
            for (uint32_t mode = 0; mode < 4; mode += 2) {
                put(w, &n, CAP, 0x10, mode);
                put(w, &n, CAP, 0x15, 0);
            }
            if (round % 8 == 7 && n < CAP) /* 1-dot polygons dropped beyond a W of 1.0 */
                w[n++] = (gx_bus_word){0x04000610u, 0x7u};
            while (n + 8 < CAP) {
                uint32_t v = rnd(&seed);
                /* POLYGON_ATTR: both sides, back only, front only or none; 1-dot kept or not */
                static const uint32_t sides[] = {0xC0u, 0xC0u, 0x80u, 0x40u, 0x00u};
                put(w, &n, CAP, 0x29, 0x001F0000u | sides[v % 5u] | (v & 0x2000u));
                put(w, &n, CAP, 0x40, 2u + ((v >> 4) & 1u));
                if ((v & 0x700u) == 0) put(w, &n, CAP, 0x21, rnd(&seed)); /* a light's colour */
                int32_t x0 = -0x1000 + (int32_t)(rnd(&seed) % 0x1000u);
                int32_t y0 = -0x1000 + (int32_t)(rnd(&seed) % 0x800u);
                uint32_t len = 1 + rnd(&seed) % ((v & 0x8000u) ? 300u : 40u);
                for (uint32_t k = 0; k < len; k++)
                    strip_vertex(&seed, w, &n, CAP - 8, k, x0, y0, &last);
            }
            uint32_t slice = (uint32_t[]){64, 65, 100, 1000}[rnd(&seed) % 4u];
            for (size_t i = 0; i < n;) { /* runs of random length: their ends fall anywhere */
                size_t len = 1 + rnd(&seed) % 700u;
                if (len > n - i) len = n - i;
                if (cycle_mode) {
                    uint32_t sa;
                    for (size_t k = i; k < i + len;) {
                        k += gx_bus_write32_run(a, w + k, i + len - k, slice, &sa);
                        if (k < i + len) {
                            gx_run(a, slice);
                            k++;
                        }
                    }
                    for (size_t k = i; k < i + len; k++) {
                        gx_bus_write32(b, w[k].addr, w[k].value);
                        gx_run(b, slice);
                    }
                } else {
                    gx_write32_run(a, w + i, len);
                    for (size_t k = i; k < i + len; k++) gx_write32(b, w[k].addr, w[k].value);
                }
                i += len;
                same_state(a, b, r);
            }
            polys += gx_read32(a, 0x04000604u) & 0xFFFu; /* RAM_COUNT */
            uint32_t wbuffer = round % 4 == 3 ? 2u : 0u; /* the next frame W-buffered */
            gx_write32(a, PORT + 0x50u * 4u, wbuffer);
            gx_write32(b, PORT + 0x50u * 4u, wbuffer);
            if (cycle_mode) {
                gx_run(a, 1000);
                gx_run(b, 1000);
            }
            assert_int_equal(gx_vblank(a), gx_vblank(b));
            if (cycle_mode) {
                gx_unstall(a);
                gx_unstall(b);
            }
            same_state(a, b, r);
        }
        gx_destroy(a);
        gx_destroy(b);
        raster_destroy(r);
    }
    print_message("%u strip polygons stored at VBlank\n", polys);
    assert_true(polys > 50000);
    free(w);
}

/* Frames of separate triangles, quads or strips wholly inside the view volume (identity
 * matrices: the batch's direct store), more than the RAMs hold: polygon RAM (2,048 entries)
 * fills with triangles and triangle strips, vertex RAM (6,144 entries) with quads and quad
 * strips restarted every one or two polygons (three or four vertices each), after an odd number
 * of strip polygons now and then; the batch hands the polygon that does not fit back to the
 * submit path. */
/* @p n words to @p a through the batch (run to completion, or cycle-driven at @p slice cycles
 * per write: gx_bus_write32_run) and to @p b entry by entry. */
static void feed_both(gx_engine *a, gx_engine *b, const gx_bus_word *w, size_t n, uint32_t slice)
{
    if (slice == 0) {
        gx_write32_run(a, w, n);
        for (size_t k = 0; k < n; k++) gx_write32(b, w[k].addr, w[k].value);
        return;
    }
    uint32_t sa;
    for (size_t k = 0; k < n;) {
        k += gx_bus_write32_run(a, w + k, n - k, slice, &sa);
        if (k < n) {
            gx_run(a, slice);
            k++;
        }
    }
    for (size_t k = 0; k < n; k++) {
        gx_bus_write32(b, w[k].addr, w[k].value);
        gx_run(b, slice);
    }
}

static void direct_store_fills_ram(bool cycle_mode)
{
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    assert_true(gx_set_cycle_mode(a, cycle_mode));
    assert_true(gx_set_cycle_mode(b, cycle_mode));
    uint64_t seed = 0xF111ED5EEDull;
    enum { CAP = 4096 };
    unsigned full_ram[2] = {0, 0}; /* frames that filled vertex RAM, polygon RAM */
    gx_bus_word *w = malloc(CAP * sizeof *w);
    assert_non_null(w);
    for (int frame = 0; frame < 48; frame++) {
        uint32_t prim = (uint32_t)frame % 4u; /* triangles, quads, triangle / quad strips */
        uint32_t slice = cycle_mode ? (uint32_t[]){64, 65, 100, 1000}[rnd(&seed) % 4u] : 0;
        size_t n = 0;
        for (uint32_t mode = 0; mode < 4; mode += 2) {
            put(w, &n, CAP, 0x10, mode);
            put(w, &n, CAP, 0x15, 0);
        }
        put(w, &n, CAP, 0x29, 0x001F00C0u); /* POLYGON_ATTR: both sides, opaque */
        if (frame % 8 >= 4) {               /* a strip first: the RAMs fill at another place */
            put(w, &n, CAP, 0x40, 2);
            for (uint32_t k = 0, len = 3 + rnd(&seed) % 40u; k < len; k++) {
                put(w, &n, CAP, 0x23, (rnd(&seed) & 0x07FFu) | (rnd(&seed) & 0x07FFu) << 16);
                put(w, &n, CAP, 0x23, rnd(&seed) & 0x07FFu);
            }
        }
        put(w, &n, CAP, 0x40, prim);
        /* past the limit of each RAM */
        unsigned polys = 0, need = prim == 1 ? 1600u : prim == 3 ? 2040u : 2100u;
        uint32_t nv = prim & 1u ? 4u : 3u, in_strip = 0, strip_len = 0;
        for (unsigned v = 0; polys < need; v++) {
            if (n + 6 > CAP) { /* hand the words over, then go on */
                feed_both(a, b, w, n, slice);
                same_state(a, b, r);
                n = 0;
            }
            if (prim >= 2 && in_strip == strip_len) { /* a new strip */
                put(w, &n, CAP, 0x40, prim);
                in_strip = 0;
                strip_len = prim == 3 ? 4u + 2u * (rnd(&seed) % 2u) : 3u + rnd(&seed) % 40u;
            }
            if (rnd(&seed) % 4u == 0) put(w, &n, CAP, 0x20, rnd(&seed));
            put(w, &n, CAP, 0x23, (rnd(&seed) & 0x07FFu) | (rnd(&seed) & 0x07FFu) << 16);
            put(w, &n, CAP, 0x23, rnd(&seed) & 0x07FFu);
            in_strip++;
            if (prim < 2 ? (v + 1) % nv == 0 : in_strip >= nv && (in_strip - nv) % (nv - 2u) == 0)
                polys++;
        }
        feed_both(a, b, w, n, slice);
        same_state(a, b, r);
        uint32_t count = gx_read32(a, 0x04000604u); /* RAM_COUNT: polygons, vertices */
        /* full: polygon RAM, or no room in vertex RAM for one more of them */
        uint32_t npolys = count & 0xFFFu, nverts = count >> 16 & 0x1FFFu;
        assert_true(npolys == 2048 || nverts > 6144u - nv);
        full_ram[npolys == 2048]++;
        assert_int_equal(count, gx_read32(b, 0x04000604u));
        gx_write32(a, PORT + 0x50u * 4u, 0);
        gx_write32(b, PORT + 0x50u * 4u, 0);
        if (cycle_mode) {
            gx_run(a, 1000);
            gx_run(b, 1000);
        }
        assert_int_equal(gx_vblank(a), gx_vblank(b));
        if (cycle_mode) {
            gx_unstall(a);
            gx_unstall(b);
        }
        same_state(a, b, r);
    }
    assert_true(full_ram[0] >= 4 && full_ram[1] >= 4);
    free(w);
    engines_destroy(a, b, r);
}

static void test_batch_direct_store_fills_ram(void **state)
{
    (void)state;
    direct_store_fills_ram(false);
}

/* The same frames cycle-driven (64 to 1,000 cycles per write): the cycle-driven direct loop
 * (batch.c batch_direct_cyc) and its hand-backs when a RAM is full. */
static void test_batch_direct_cycle_mode_fills_ram(void **state)
{
    (void)state;
    direct_store_fills_ram(true);
}

/* One change of what lighting reads (or of nothing) between two runs, the same on both engines:
 * materials, lights, the shininess table, the lights enabled (POLYGON_ATTR then BEGIN_VTXS),
 * the vector matrix (and matrices lighting does not read), texgen mode 2 and back. */
static size_t lighting_change(uint64_t *s, gx_bus_word *w, size_t cap)
{
    size_t n = 0;
    uint32_t v = rnd(s), kind = v % 12u;
    if (kind == 0) {
        put(w, &n, cap, 0x30, rnd(s)); /* DIF_AMB (bit 15: the vertex colour too) */
    } else if (kind == 1) {
        put(w, &n, cap, 0x31, rnd(s)); /* SPE_EMI: specular, emission, the table on or off */
    } else if (kind == 2) {
        put(w, &n, cap, 0x32, rnd(s)); /* LIGHT_VECTOR */
    } else if (kind == 3) {
        put(w, &n, cap, 0x33, rnd(s)); /* LIGHT_COLOR */
    } else if (kind == 4) {
        for (int k = 0; k < 32; k++) put(w, &n, cap, 0x34, rnd(s)); /* SHININESS */
    } else if (kind == 5) { /* the lights enabled, latched at BEGIN_VTXS */
        put(w, &n, cap, 0x29, (v >> 8 & 0xFu) | 0x001F00C0u);
        put(w, &n, cap, 0x40, v >> 16 & 1u);
    } else if (kind == 6) { /* the vector matrix: mode 2 scales only the position matrix */
        put(w, &n, cap, 0x10, (v >> 8 & 1u) ? 1u : 2u);
        for (int k = 0; k < 9; k++) put(w, &n, cap, 0x1A, (uint32_t)random_entry(s)); /* 3x3 */
    } else if (kind == 7) { /* mode 2 rotations through the stack */
        put(w, &n, cap, 0x10, 2);
        put(w, &n, cap, (v >> 8 & 1u) ? 0x11 : 0x12, (v >> 8 & 1u) ? 0u : 1u); /* PUSH / POP */
    } else if (kind == 8) {
        put(w, &n, cap, 0x10, 2);
        put(w, &n, cap, 0x1B, 0x800u + (rnd(s) & 0x1FFFu)); /* SCALE: not the vector matrix */
        put(w, &n, cap, 0x1B, 0x1000u);
        put(w, &n, cap, 0x1B, 0x1000u);
    } else if (kind == 9) { /* TEXIMAGE_PARAM: texgen mode 2 (NORMAL sets the coordinates) or 0 */
        put(w, &n, cap, 0x2A, (v >> 8 & 1u) ? 2u << 30 : 0u);
    }
    return n; /* (10, 11: nothing changes) */
}

/* NORMAL's colours remembered across batches (gx->normals): runs of vertex groups whose normals
 * come from a few values, with every input of lighting changed between runs now and then, and
 * save-state restores and resets of both engines (the batch's cache then holds colours of
 * another state): the batch engine must stay in the executor's state after every run. */
static void test_batch_normal_cache(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    uint64_t seed = 0xC0105EEDull;
    enum { CAP = 1024 };
    gx_bus_word w[CAP];
    static const uint32_t normals[] = {0x1E1D6035u, 0x3DFFFC00u, 0x000001FFu, 0x2005C5A5u,
                                       0x1FF7FDFFu, 0x00100401u, 0x3FFFFFFFu, 0x15555555u};
    size_t n = 0;
    put(w, &n, CAP, 0x29, 0x001F00CFu); /* four lights, both sides */
    for (int l = 0; l < 4; l++) {
        put(w, &n, CAP, 0x32, rnd(&seed) | (uint32_t)l << 30);
        put(w, &n, CAP, 0x33, 0x7FFFu | (uint32_t)l << 30);
    }
    put(w, &n, CAP, 0x40, 0);
    gx_write32_run(a, w, n);
    for (size_t k = 0; k < n; k++) gx_write32(b, w[k].addr, w[k].value);
    uint8_t *saved = NULL;
    size_t saved_n = 0;
    unsigned restores = 0, cached_runs = 0;
    for (int round = 0; round < 3000; round++) {
        n = lighting_change(&seed, w, CAP);
        gx_write32_run(a, w, n);
        for (size_t k = 0; k < n; k++) gx_write32(b, w[k].addr, w[k].value);
        uint32_t e = rnd(&seed) % 64u;
        if (e == 0) { /* keep this state, or go back to the one kept */
            free(saved);
            saved = state_of(b, r, &saved_n);
        } else if (e == 1 && saved) {
            char err[128];
            assert_int_equal(dsgx_state_restore(a, r, saved, saved_n, err, sizeof(err)), 0);
            assert_int_equal(dsgx_state_restore(b, r, saved, saved_n, err, sizeof(err)), 0);
            restores++;
        } else if (e == 2) {
            gx_reset(a);
            gx_reset(b);
        }
        same_state(a, b, r);
        n = 0;
        for (uint32_t k = 0, nv = 3 + rnd(&seed) % 120u; k < nv; k++) {
            uint32_t v = rnd(&seed);
            if (v & 1u) put(w, &n, CAP, 0x22, rnd(&seed));
            put(w, &n, CAP, 0x21, normals[v >> 8 & 7u] ^ (v & 0xC0000000u));
            put(w, &n, CAP, 0x23, ((v >> 12) & 0x0FFFu) | (rnd(&seed) & 0x0FFFu) << 16);
            put(w, &n, CAP, 0x23, rnd(&seed) & 0x0FFFu);
        }
        gx_write32_run(a, w, n);
        for (size_t k = 0; k < n; k++) gx_write32(b, w[k].addr, w[k].value);
        same_state(a, b, r);
        cached_runs += a->normals.valid && b->normals.valid == false;
        if (round % 50 == 49) {
            gx_write32(a, PORT + 0x50u * 4u, 0);
            gx_write32(b, PORT + 0x50u * 4u, 0);
            assert_int_equal(gx_vblank(a), gx_vblank(b));
        }
    }
    /* the batch engine's cache was filled, the executor's never (it lights every NORMAL) */
    assert_true(cached_runs > 2000);
    assert_true(restores > 10);
    free(saved);
    engines_destroy(a, b, r);
}

/* Every texgen mode with a texture matrix that moves the coordinates: pass 1 has an instance of
 * its own for texgen mode 0 (gx_batch_ports), chosen from TEXIMAGE_PARAM at the batch's start;
 * the batch (gx_write32_run) against the executor word by word, the saved state byte for byte.
 * The vertex groups take every pattern pass 1 decodes four writes at a time, and others. */
static void test_batch_texgen_modes(void **state)
{
    (void)state;
    gx_engine *a, *b;
    raster_engine *r;
    engines_create(&a, &b, &r);
    uint64_t seed = 0x7E46E4ull;
    enum { CAP = 1200 };
    gx_bus_word w[CAP];
    static const uint8_t groups[][3] = {{0x22, 0x21, 0}, {0x21, 0x22, 0},   {0x21, 0, 0},
                                        {0x22, 0, 0},    {0x20, 0, 0},      {0, 0, 0},
                                        {0x20, 0x22, 0}, {0x21, 0x20, 0x22}};
    unsigned moved = 0;
    for (int round = 0; round < 400; round++) {
        size_t n = 0;
        uint32_t mode = (uint32_t)round & 3u;
        put(w, &n, CAP, 0x10, 3); /* a texture matrix: scale and translation */
        put(w, &n, CAP, 0x15, 0);
        for (int k = 0; k < 3; k++) put(w, &n, CAP, 0x1B, 0x800u + (rnd(&seed) & 0x1FFFu));
        for (int k = 0; k < 3; k++) put(w, &n, CAP, 0x1C, rnd(&seed) & 0x3FFFFu);
        put(w, &n, CAP, 0x10, 2);
        put(w, &n, CAP, 0x2A, mode << 30 | (rnd(&seed) & 0x3FFFFFFFu));
        put(w, &n, CAP, 0x29, 0x001F00C1u);
        put(w, &n, CAP, 0x40, rnd(&seed) & 1u);
        for (uint32_t k = 0, nv = 3 + rnd(&seed) % 150u; k < nv; k++) {
            const uint8_t *gr = groups[rnd(&seed) % 8u];
            for (int c = 0; c < 3 && gr[c]; c++) put(w, &n, CAP, gr[c], rnd(&seed));
            put(w, &n, CAP, 0x23, random_xy(&seed) | random_xy(&seed) << 16);
            put(w, &n, CAP, 0x23, random_xy(&seed));
        }
        gx_write32_run(a, w, n);
        for (size_t k = 0; k < n; k++) gx_write32(b, w[k].addr, w[k].value);
        same_state(a, b, r);
        /* (mode 1: the coordinates moved by the matrix, so that a batch taking them as written
         * would differ) */
        moved += mode == 1 && (a->geom.tex_cur[0] != a->geom.tex_raw[0] ||
                               a->geom.tex_cur[1] != a->geom.tex_raw[1]);
        if (round % 4 == 3) {
            gx_write32(a, PORT + 0x50u * 4u, 0);
            gx_write32(b, PORT + 0x50u * 4u, 0);
            assert_int_equal(gx_vblank(a), gx_vblank(b));
        }
    }
    assert_true(moved > 50);
    engines_destroy(a, b, r);
}

/* The 1-dot test's depth limit at its edge (the direct store's direct_one_dot against the
 * submit path's is_one_dot; random streams hardly ever put W on the limit exactly): a triangle
 * with its three vertices on one pixel and W = 0x11FF (a projection whose m[15] is that), with
 * DISP_1DOT_DEPTH 8 (limit 8 * 200h + 1FFh = 0x11FF: W not beyond it, kept) and 7 (limit 0xFFF:
 * rejected), through the batch (one run) and entry by entry. */
static void test_batch_one_dot_limit(void **state)
{
    (void)state;
    for (uint32_t depth = 7; depth <= 8; depth++) {
        gx_engine *a, *b;
        raster_engine *r;
        engines_create(&a, &b, &r);
        gx_bus_word w[64];
        size_t n = 0;
        put(w, &n, 64, 0x10, 0); /* projection: identity but m[15] (W = 0x11FF) */
        for (int k = 0; k < 16; k++)
            put(w, &n, 64, 0x16, k == 15 ? 0x11FFu : (k % 5 == 0 ? 0x1000u : 0u));
        put(w, &n, 64, 0x10, 2);
        put(w, &n, 64, 0x15, 0);
        put(w, &n, 64, 0x60, 0xBFFF0000u); /* VIEWPORT: the whole screen */
        put(w, &n, 64, 0x29, 0x001F00C0u); /* both sides, alpha 31, 1-dot test on */
        if (n < 64) w[n++] = (gx_bus_word){0x04000610u, depth}; /* DISP_1DOT_DEPTH */
        put(w, &n, 64, 0x40, 0);                                /* separate triangles */
        size_t first = n;
        for (int v = 0; v < 3; v++) {
            put(w, &n, 64, 0x23, 0x00400040u);
            put(w, &n, 64, 0x23, 0);
        }
        gx_write32_run(a, w, first);
        for (size_t k = 0; k < first; k++) gx_write32(b, w[k].addr, w[k].value);
        assert_int_equal(gx_batch_ports(a, w + first, n - first, 0), n - first); /* the batch */
        for (size_t k = first; k < n; k++) gx_write32(b, w[k].addr, w[k].value);
        same_state(a, b, r);
        assert_int_equal(gx_read32(a, 0x04000604u) & 0xFFFu, depth == 8 ? 1u : 0u); /* RAM_COUNT */
        engines_destroy(a, b, r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transform_batch_exact),
        cmocka_unit_test(test_batch_matches_entries),
        cmocka_unit_test(test_batch_cycle_mode_matches_entries),
        cmocka_unit_test(test_batch_gxfifo_words),
        cmocka_unit_test(test_batch_direct_store_fills_ram),
        cmocka_unit_test(test_batch_direct_cycle_mode_fills_ram),
        cmocka_unit_test(test_batch_strips),
        cmocka_unit_test(test_batch_normal_cache),
        cmocka_unit_test(test_batch_texgen_modes),
        cmocka_unit_test(test_batch_one_dot_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
