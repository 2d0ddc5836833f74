/*
 * test_savestate.c - save states: restore + run gives the same frames bit for bit, and bad blobs
 * are refused with a reason, leaving the engines unchanged.
 *
 * Every golden/ref trace is replayed once for its reference frame hashes; then, for several
 * points between bus writes (in the middle of frames, right after a frame, while a swap holds
 * entries back), the replay is stopped, saved, restored into another engine pair (a fresh one,
 * and one that had run a different trace), and continued: every later frame hash must equal
 * the reference. The blob saved right after a restore must equal the restored blob byte for
 * byte (nothing is lost or reordered by a round trip).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <xxhash.h>

#include "gx/gx_frame.h"
#include "tools/core/savestate.h"
#include "tools/core/system.h"
#include "tools/core/trace.h"

#define MAX_FRAMES 16

typedef struct run {
    unsigned n;
    uint64_t hash[MAX_FRAMES];
} run;

static void load(dsgx_trace *t, const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/ref/%s", DSGX_GOLDEN_DIR, name);
    memset(t, 0, sizeof *t);
    if (dsgx_trace_load(t, path, err, sizeof err) != 0) fail_msg("%s", err);
}

/* Run items [from, to) of @p t on @p s, recording frame hashes into @p out. */
static void run_items(dsgx_system *s, const dsgx_trace *t, size_t from, size_t to, run *out)
{
    for (size_t i = from; i < to; i++) {
        if (t->items[i].op == TRACE_FRAME) {
            dsgx_system_frame(s);
            assert_true(out->n < MAX_FRAMES);
            out->hash[out->n++] = dsgx_frame_hash(&s->frame);
        } else {
            dsgx_system_exec(s, t, &t->items[i]);
        }
    }
}

static uint8_t *save(dsgx_system *s, size_t *size)
{
    *size = dsgx_state_size(s->gx, s->raster);
    assert_true(*size > 0);
    uint8_t *b = malloc(*size);
    assert_non_null(b);
    assert_int_equal(dsgx_state_save(s->gx, s->raster, b, *size, DSGX_STATE_CHECKSUM), *size);
    assert_int_equal(dsgx_state_save(s->gx, s->raster, b, *size - 1, DSGX_STATE_CHECKSUM),
                     0); /* too small */
    return b;
}

/* Save at item @p at, restore into @p dst, continue there: the frames must match @p ref. */
static void check_point(const dsgx_trace *t, size_t at, const run *ref, dsgx_system *dst)
{
    dsgx_system *src = dsgx_system_create();
    assert_non_null(src);
    run got = {0};
    run_items(src, t, 0, at, &got);
    size_t size;
    uint8_t *blob = save(src, &size);
    char err[256] = "";
    if (dsgx_state_restore(dst->gx, dst->raster, blob, size, err, sizeof err) != 0)
        fail_msg("restore at item %zu: %s", at, err);
    /* the host's side of the replay (the frame re-emitted by a `frame` without a swap) */
    dst->frame = src->frame;
    dst->have_frame = src->have_frame;
    size_t size2;
    uint8_t *blob2 = save(dst, &size2);
    assert_int_equal(size2, size);
    assert_memory_equal(blob2, blob, size);
    run_items(dst, t, at, t->n, &got);
    assert_int_equal(got.n, ref->n);
    for (unsigned f = 0; f < ref->n; f++)
        if (got.hash[f] != ref->hash[f])
            fail_msg("frame %u differs after a save at item %zu of %zu", f, at, t->n);
    free(blob);
    free(blob2);
    dsgx_system_destroy(src);
}

static void check_trace(const char *name, const char *other)
{
    dsgx_trace t, o;
    load(&t, name);
    load(&o, other);
    run ref = {0};
    dsgx_system *s = dsgx_system_create();
    run_items(s, &t, 0, t.n, &ref);
    dsgx_system_destroy(s);
    assert_true(ref.n > 0);

    /* the points: 1/7 .. 6/7 of the items, and the item after every `frame` */
    size_t points[MAX_FRAMES + 8];
    size_t np = 0;
    for (unsigned k = 1; k < 7; k++) points[np++] = t.n * k / 7;
    for (size_t i = 0; i < t.n && np < sizeof points / sizeof points[0]; i++)
        if (t.items[i].op == TRACE_FRAME) points[np++] = i + 1;
    for (size_t k = 0; k < np; k++) {
        dsgx_system *fresh = dsgx_system_create();
        check_point(&t, points[k], &ref, fresh);
        dsgx_system_destroy(fresh);
        /* into a pair that ran another trace (its VRAM, RAM and registers must not leak) */
        if (k % 3 == 0) {
            dsgx_system *used = dsgx_system_create();
            run scratch = {0};
            run_items(used, &o, 0, o.n, &scratch);
            check_point(&t, points[k], &ref, used);
            dsgx_system_destroy(used);
        }
    }
    dsgx_trace_free(&t);
    dsgx_trace_free(&o);
}

static const char *const traces[] = {
    "a_flat_triangle.trace",
    "alpha_blend_onoff.trace",
    "alpha_test.trace",
    "antialias.trace",
    "b_gouraud_quad.trace",
    "blend_modes.trace",
    "c_textured_quad.trace",
    "clear_plane.trace",
    "clip_far_bit12.trace",
    "clip_near_side.trace",
    "color_vs_lit.trace",
    "cull_modes.trace",
    "d_lit_cube.trace",
    "depth_equal.trace",
    "depth_lequal_front_back.trace",
    "dot_polygons.trace",
    "e_translucent.trace",
    "edge_marking_8.trace",
    "f_edge_fog.trace",
    "fog_alpha_only.trace",
    "fog_table_shift.trace",
    "g_heavy_1.trace",
    "geo_packed_zero_param.trace",
    "highlight_mode.trace",
    "light_1to4.trace",
    "light_specular.trace",
    "line_polygons.trace",
    "manual_sort.trace",
    "mtx_load_mult.trace",
    "mtx_mode_vector.trace",
    "mtx_stack.trace",
    "multiframe_3.trace",
    "opaque_sort_order.trace",
    "overflow_polyram.trace",
    "overflow_vtxram.trace",
    "prim_types.trace",
    "rear_plane_bitmap.trace",
    "scene_characters.trace",
    "scene_terrain.trace",
    "shadow_polys.trace",
    "tex_formats_4x4_direct.trace",
    "tex_formats_paletted.trace",
    "tex_sizes.trace",
    "tex_wrap.trace",
    "texgen_modes23.trace",
    "texmtx_mode1.trace",
    "trans_depth_update.trace",
    "translucent_ids.trace",
    "viewport_sub.trace",
    "vtx_formats.trace",
    "wbuffer_vs_zbuffer.trace",
    "wireframe.trace",
};
#define NTRACES (sizeof traces / sizeof traces[0])

static void test_every_ref_trace(void **state)
{
    (void)state;
    for (size_t i = 0; i < NTRACES; i++) check_trace(traces[i], traces[(i + 7) % NTRACES]);
}

/* A blob that fails a check: -1, a reason naming an offset, and the engines as they were. */
static void expect_refused(dsgx_system *s, const uint8_t *blob, size_t size, const char *reason)
{
    size_t before_size;
    uint8_t *before = save(s, &before_size);
    char err[256] = "";
    assert_int_equal(dsgx_state_restore(s->gx, s->raster, blob, size, err, sizeof err), -1);
    assert_int_equal(dsgx_state_check(blob, size, NULL, 0), -1);
    if (!strstr(err, reason)) fail_msg("reason \"%s\", expected \"%s\"", err, reason);
    assert_true(strncmp(err, "offset ", 7) == 0);
    size_t after_size;
    uint8_t *after = save(s, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_equal(after, before, before_size);
    free(before);
    free(after);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_bad_blobs(void **state)
{
    (void)state;
    dsgx_trace t;
    load(&t, "c_textured_quad.trace");
    dsgx_system *s = dsgx_system_create();
    run r = {0};
    run_items(s, &t, 0, t.n / 2, &r);
    size_t size;
    uint8_t *blob = save(s, &size);
    uint8_t *bad = malloc(size + 16);
    dsgx_system *other = dsgx_system_create();
    run_items(other, &t, 0, t.n, &r); /* a different state to be left alone */

    expect_refused(other, blob, 10, "too short");
    memcpy(bad, blob, size);
    bad[0] = 'X';
    expect_refused(other, bad, size, "bad magic");
    memcpy(bad, blob, size);
    put32(bad + 8, DSGX_STATE_VERSION + 1);
    expect_refused(other, bad, size, "format version");
    memcpy(bad, blob, size);
    /* the trailer is XXH3-64 of the bytes before it (whichever xxHash code path wrote it) */
    uint64_t sum = 0;
    for (int i = 0; i < 8; i++) sum |= (uint64_t)blob[size - 8 + i] << (8 * i);
    assert_true(sum == XXH3_64bits(blob, size - 8));
    bad[size / 2] ^= 0x40; /* damage in a payload: the checksum */
    expect_refused(other, bad, size, "checksum");
    expect_refused(other, blob, size - 9, "past the end");
    memcpy(bad, blob, size);
    put32(bad + 24, 1000);
    expect_refused(other, bad, size, "sections");
    /* a section size that does not match this build, checksum made valid: named */
    memcpy(bad, blob, size);
    put32(bad + 32, 3); /* the first section (GCMD) claims 3 bytes */
    expect_refused(other, bad, size, "section");
    /* without the checksum: the same state, and the structural checks still refuse */
    size_t fast_size = dsgx_state_size(s->gx, s->raster);
    uint8_t *fast = malloc(fast_size);
    assert_int_equal(dsgx_state_save(s->gx, s->raster, fast, fast_size, 0), fast_size);
    assert_int_equal(fast_size, size);
    assert_memory_not_equal(fast + size - 8, blob + size - 8, 8); /* only the trailer... */
    assert_memory_equal(fast + 24, blob + 24, size - 32);         /* ...and the flags differ */
    memcpy(bad, fast, size);
    put32(bad + 32, 3);
    expect_refused(other, bad, size, "section");
    memcpy(bad, fast, size);
    bad[size - 40] ^= 1; /* inside the RSTA section: no checksum, the change is restored */
    assert_int_equal(dsgx_state_check(bad, size, NULL, 0), 0);
    free(fast);
    /* the blob itself still restores */
    char err[256];
    assert_int_equal(dsgx_state_check(blob, size, err, sizeof err), 0);
    assert_int_equal(dsgx_state_restore(other->gx, other->raster, blob, size, err, sizeof err), 0);
    free(bad);
    free(blob);
    dsgx_system_destroy(s);
    dsgx_system_destroy(other);
    dsgx_trace_free(&t);
}

/* A save (without checksum) at every bus write of a trace, restored into another engine pair
 * and saved again: the same bytes. Traces with strips, clipping, shadows, W-buffering and
 * several frames, so that every entry kind passes through the checks. */
static void test_roundtrip_every_write(void **state)
{
    (void)state;
    static const char *const names[] = {
        "prim_types.trace",         "clip_near_side.trace", "shadow_polys.trace",
        "wbuffer_vs_zbuffer.trace", "multiframe_3.trace",   "manual_sort.trace",
        "e_translucent.trace",
    };
    for (size_t t = 0; t < sizeof names / sizeof names[0]; t++) {
        dsgx_trace tr;
        load(&tr, names[t]);
        dsgx_system *src = dsgx_system_create(), *dst = dsgx_system_create();
        assert_non_null(src);
        assert_non_null(dst);
        size_t checked = 0;
        for (size_t i = 0; i < tr.n; i++) {
            if (tr.items[i].op == TRACE_FRAME) {
                dsgx_system_frame(src);
                continue;
            }
            dsgx_system_exec(src, &tr, &tr.items[i]);
            size_t n = dsgx_state_size(src->gx, src->raster);
            uint8_t *a = malloc(n), *b = malloc(n);
            assert_non_null(a);
            assert_non_null(b);
            assert_int_equal(dsgx_state_save(src->gx, src->raster, a, n, 0), n);
            char err[256] = "";
            if (dsgx_state_restore(dst->gx, dst->raster, a, n, err, sizeof err) != 0)
                fail_msg("%s item %zu: %s", names[t], i, err);
            assert_int_equal(dsgx_state_size(dst->gx, dst->raster), n);
            assert_int_equal(dsgx_state_save(dst->gx, dst->raster, b, n, 0), n);
            if (memcmp(a, b, n))
                fail_msg("%s item %zu: the round trip changed the blob", names[t], i);
            free(a);
            free(b);
            checked++;
        }
        assert_true(checked > 20);
        dsgx_system_destroy(src);
        dsgx_system_destroy(dst);
        dsgx_trace_free(&tr);
    }
}

/* Offset of the payload of section @p tag in @p blob (walking the framing), or 0. */
static size_t find_section(const uint8_t *blob, size_t size, const char *tag)
{
    uint32_t n = (uint32_t)blob[24] | (uint32_t)blob[25] << 8 | (uint32_t)blob[26] << 16 |
                 (uint32_t)blob[27] << 24;
    size_t pos = 28;
    for (uint32_t i = 0; i < n && pos + 8 <= size; i++) {
        uint32_t len = (uint32_t)blob[pos + 4] | (uint32_t)blob[pos + 5] << 8 |
                       (uint32_t)blob[pos + 6] << 16 | (uint32_t)blob[pos + 7] << 24;
        if (!memcmp(blob + pos, tag, 4)) return pos + 8;
        pos += 8 + len;
    }
    return 0;
}

typedef struct bad_case {
    bool vertex;     /* else polygon */
    bool last;       /* the last entry, else the first */
    size_t off, len; /* field in the entry */
    uint32_t value;
    const char *reason; /* NULL: the changed value is still valid (accepted) */
} bad_case;

#define VF(m) true, false, offsetof(gx_vertex, m), sizeof(((gx_vertex *)0)->m)
#define PF(m) false, false, offsetof(gx_polygon, m), sizeof(((gx_polygon *)0)->m)
#define PL(m) false, true, offsetof(gx_polygon, m), sizeof(((gx_polygon *)0)->m)

/* Every check of a polygon/vertex RAM entry: a value just outside its range is refused with its
 * reason and the offset of the entry; the value at the edge of the range is accepted. */
static void test_bad_entries(void **state)
{
    (void)state;
    dsgx_trace t;
    load(&t, "g_heavy_1.trace");
    size_t at = 0;
    while (at < t.n && t.items[at].op != TRACE_FRAME) at++;
    dsgx_system *s = dsgx_system_create(), *other = dsgx_system_create();
    run r = {0};
    run_items(s, &t, 0, at, &r); /* the RAM being built is full */
    size_t size = dsgx_state_size(s->gx, s->raster);
    uint8_t *blob = malloc(size), *bad = malloc(size);
    assert_int_equal(dsgx_state_save(s->gx, s->raster, blob, size, 0), size);
    size_t frame = find_section(blob, size, "GBLD");
    assert_true(frame > 0);
    uint32_t np, nv;
    memcpy(&np, blob + frame + sizeof(gx_render_regs), 4);
    memcpy(&nv, blob + frame + sizeof(gx_render_regs) + 4, 4);
    assert_true(np > 100 && nv > 300);
    size_t polys = frame + sizeof(gx_render_regs) + 8, verts = polys + np * sizeof(gx_polygon);
    uint8_t n0 = blob[polys + offsetof(gx_polygon, nverts)];
    const bad_case cases[] = {
        {VF(clipped), 2, "vertex flag not 0/1"},
        {VF(sx), 512, "screen position out of range"},
        {VF(sx), 511, NULL},
        {VF(sy), 256, "screen position out of range"},
        {VF(sy), 0xFFFFFFFFu, "screen position out of range"},
        {VF(sy), 255, NULL},
        {true, false, offsetof(gx_vertex, color) + 2, 2, 0x200, "colour above 9 bits"},
        {true, true, offsetof(gx_vertex, color) + 4, 2, 0x1FF, NULL},
        {true, true, offsetof(gx_vertex, color) + 4, 2, 0x8000, "colour above 9 bits"},
        {PF(nverts), 0, "vertex count not 1..10"},
        {PF(nverts), 11, "vertex count not 1..10"},
        {PF(prim), 4, "primitive type above 3"},
        {PF(prim), 3, NULL},
        {PF(wbuffer), 2, "polygon flag not 0/1"},
        {PF(facing_front), 0x80, "polygon flag not 0/1"},
        {PF(translucent), 3, "polygon flag not 0/1"},
        {PF(shadow_mask), 2, "polygon flag not 0/1"},
        {PF(shadow), 2, "polygon flag not 0/1"},
        {PL(degenerate), 2, "polygon flag not 0/1"},
        {PF(wshift), 33, "W shift above 32"},
        {PF(wshift), 32, NULL},
        {PF(vtop), n0, "top/bottom vertex out of range"},
        {PF(vbottom), n0, "top/bottom vertex out of range"},
        {PF(vbottom), (uint32_t)(n0 - 1), NULL},
        {PF(ytop), 193, "bounds out of range"},
        {PF(ytop), 192, NULL},
        {PF(ybottom), 256, "bounds out of range"},
        {PF(xtop), 512, "bounds out of range"},
        {PL(xbottom), 0x80000000u, "bounds out of range"},
        {PL(xbottom), 511, NULL},
        {PF(vtx), nv, "vertex index beyond vertex RAM"},
        {PF(vtx), nv - 1, NULL},
        {PF(z), 0x1000000, "depth or W out of range"},
        {PL(z), 0xFFFFFF, NULL},
        {PL(w), 0x10000, "depth or W out of range"},
        {PL(w), 0xFFFF, NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bad_case *c = &cases[k];
        size_t entry = c->vertex ? verts + (c->last ? nv - 1 : 0) * sizeof(gx_vertex)
                                 : polys + (c->last ? np - 1 : 0) * sizeof(gx_polygon);
        memcpy(bad, blob, size);
        if (c->len == 1) bad[entry + c->off] = (uint8_t)c->value;
        if (c->len == 2) {
            uint16_t v = (uint16_t)c->value;
            memcpy(bad + entry + c->off, &v, 2);
        }
        if (c->len >= 4) memcpy(bad + entry + c->off, &c->value, 4);
        char err[256] = "";
        if (!c->reason) {
            if (dsgx_state_check(bad, size, err, sizeof err) != 0)
                fail_msg("case %zu (a value at the edge of its range) refused: %s", k, err);
            continue;
        }
        expect_refused(other, bad, size, c->reason);
        assert_int_equal(dsgx_state_check(bad, size, err, sizeof err), -1);
        char want[64];
        snprintf(want, sizeof want, "offset %zu: %s %u: ", entry, c->vertex ? "vertex" : "polygon",
                 c->last ? (c->vertex ? nv - 1 : np - 1) : 0u);
        if (strncmp(err, want, strlen(want)))
            fail_msg("case %zu: \"%s\", expected \"%s\"", k, err, want);
    }
    /* unchanged, it loads */
    assert_int_equal(dsgx_state_restore(other->gx, other->raster, blob, size, NULL, 0), 0);
    free(blob);
    free(bad);
    dsgx_system_destroy(s);
    dsgx_system_destroy(other);
    dsgx_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_ref_trace),
        cmocka_unit_test(test_bad_blobs),
        cmocka_unit_test(test_bad_entries),
        cmocka_unit_test(test_roundtrip_every_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
