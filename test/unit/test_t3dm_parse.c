/* test_t3dm_parse.c - the T3DM reader on fixtures from our writer: every chunk type read back
 * with the values written, the strip and list paths counted, animations replayed as Tiny3D
 * does, and bad input refused with the chunk, offset and reason.
 *
 * DSGX_T3DM_FIXTURE_DIR=DIR also writes the fixtures there (static.t3dm, skinned.t3dm,
 * anim.t3dm + bar.0.sdata): the fuzz seeds in test/fuzz/corpus/fuzz_t3dm come from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "t3dm/t3dm.h"
#include "test_t3dm_fixtures.h"

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void test_static(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_static(&f), 0);
    t3dm_model m;
    t3dm_status st = t3dm_parse(f.data, f.size, &m);
    assert_true(st.ok);
    assert_int_equal(m.version, 4);
    assert_int_equal(m.num_objects, 2);
    assert_int_equal(m.num_materials, 2);
    assert_int_equal(m.total_vertices, 30);
    assert_int_equal(m.total_indices, 18);
    assert_string_equal(m.objects[0].name, "cube");
    assert_string_equal(m.materials[1].name, "floor");
    /* cube: 6 list triangles + 3 strip segments of 2; floor: 2 sequence triangles */
    assert_int_equal(m.objects[0].parts[0].strip_triangles, 6);
    assert_int_equal(m.objects[0].triangles, 12);
    assert_int_equal(m.objects[1].triangles, 2);
    assert_int_equal(m.triangles, 14);
    assert_int_equal(m.objects[1].parts[0].seq_count, 2);
    assert_int_equal(m.objects[1].material, 1);
    /* strips start 8-aligned after the 18 triangle indices */
    assert_int_equal(m.objects[0].parts[0].strip_offset[0] % 8, 0);
    assert_int_equal(m.objects[0].parts[0].strip_offset[0], (m.index_chunk + 18 + 7) & ~7u);
    assert_int_equal(m.materials[0].draw_flags & T3DM_FLAG_CULL_BACK, T3DM_FLAG_CULL_BACK);
    assert_int_equal(m.materials[1].fog_mode, T3DM_FOG_DISABLED);
    assert_int_equal(m.aabb_min[1], -72);
    assert_int_equal(m.aabb_max[0], 160);
    assert_int_equal(m.objects[0].aabb_max[2], 64);
    /* BVH: one leaf over both objects */
    assert_true(m.has_bvh);
    assert_int_equal(m.bvh.node_count, 1);
    assert_int_equal(m.bvh.data_count, 2);
    assert_int_equal(m.bvh.nodes[0].value, 2);
    assert_int_equal(m.bvh.data[1], 1);
    /* chunk order as the converter writes it */
    const char order[] = "OOBVIMM";
    assert_int_equal(m.num_chunks, 7);
    for (unsigned i = 0; i < 7; i++) assert_int_equal(m.chunks[i].type, order[i]);
    assert_int_equal(m.chunks[3].offset % 16, 0);
    /* vertex 25 (second of a pair): position, packed normal (0, 1, 0), colour, uv */
    t3dm_vertex v;
    t3dm_vertex_get(&m, 25 * 16, &v);
    assert_int_equal(v.pos[0], -160);
    assert_int_equal(v.pos[2], 160);
    assert_int_equal(v.norm, 31u << 5);
    assert_int_equal(v.rgba[0], 0x80);
    assert_int_equal(v.rgba[3], 0xFF);
    t3dm_vertex_get(&m, 1 * 16, &v);
    assert_int_equal(v.st[0], 32 * 32);
    t3dm_free(&m);
    fx_free(&f);
}

static void test_skeleton_and_anim(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_skinned_model(&f, true), 0);
    t3dm_model m;
    t3dm_status st = t3dm_parse(f.data, f.size, &m);
    assert_true(st.ok);
    assert_int_equal(m.num_bones, 2);
    assert_string_equal(m.bones[1].name, "tip");
    assert_int_equal(m.bones[0].parent, 0xFFFF);
    assert_int_equal(m.bones[1].parent, 0);
    assert_int_equal(m.bones[1].depth, 1);
    assert_float_equal(m.bones[1].pos[1], 64.0f, 0);
    assert_int_equal(m.objects[0].parts[1].matrix, 1);
    assert_int_equal(m.num_anims, 1);
    t3dm_anim *a = &m.anims[0];
    assert_string_equal(a->name, "wave");
    assert_string_equal(t3dm_sdata_basename(a), "bar.0.sdata");
    assert_int_equal(a->channels_quat, 1);
    assert_int_equal(a->channels_scalar, 2);
    assert_int_equal(a->keyframe_count, 8);
    assert_int_equal(t3dm_find_anim(&m, "wave"), 0);
    assert_int_equal(t3dm_find_anim(&m, "0"), 0);
    assert_int_equal(t3dm_find_anim(&m, "1"), -1);
    /* 8-byte first keyframe, rotation keyframes 8, scalar ones 6 */
    assert_int_equal(f.sdata_size, 8 + 8 + 6 + 6 + 6 + 6 + 8 + 6);
    st = t3dm_anim_load_sdata(&m, 0, f.sdata, f.sdata_size);
    assert_true(st.ok);
    assert_int_equal(a->channels[0].keyframes, 3);
    assert_int_equal(a->channels[1].keyframes, 2);
    assert_int_equal(a->channels[2].keyframes, 3);

    t3dm_pose p;
    assert_true(t3dm_pose_init(&p, &m));
    /* bind pose: bone 1 at y 64 rotated 40 degrees about z: its x axis is (cos, sin, 0) */
    assert_int_equal(p.matrix[1][10], 64 * 4096);
    assert_true(abs(p.matrix[1][0] - 3138) <= 1); /* cos 40 = 0.766 */
    assert_true(abs(p.matrix[1][1] - 2633) <= 1); /* sin 40 = 0.643 */
    /* t = 0.25 s: x of bone 0 = -16, y scale of bone 1 = 1.0, rotation halfway -60..0 */
    t3dm_pose_animate(&p, &m, 0, 0.25f);
    assert_float_equal(p.pos[0][0], -16.0f, 0.01f);
    assert_float_equal(p.scale[1][1], 1.0f, 0.001f);
    assert_float_equal(p.rot[1][2], -0.258819f, 0.003f); /* sin(-15 deg) */
    assert_float_equal(p.rot[1][3], 0.965926f, 0.003f);
    assert_int_equal(p.matrix[0][9], -16 * 4096);
    /* t = 0.75 s: x = 16, rotation halfway 0..60 */
    t3dm_pose_animate(&p, &m, 0, 0.75f);
    assert_float_equal(p.pos[0][0], 16.0f, 0.01f);
    assert_float_equal(p.rot[1][2], 0.258819f, 0.003f);
    /* keyframe times: at 0 the first values, at 0.5 s exactly the second rotation (identity,
     * up to the 10-bit quantisation) and the scale's peak */
    t3dm_pose_animate(&p, &m, 0, 0.0f);
    assert_float_equal(p.pos[0][0], -32.0f, 0.01f);
    assert_float_equal(p.rot[1][2], -0.5f, 0.003f);
    assert_float_equal(p.scale[1][1], 0.75f, 0.001f);
    t3dm_pose_animate(&p, &m, 0, 0.5f);
    assert_float_equal(p.rot[1][2], 0.0f, 0.003f);
    assert_float_equal(p.rot[1][3], 1.0f, 0.001f);
    assert_float_equal(p.scale[1][1], 1.25f, 0.001f);
    assert_float_equal(p.pos[0][0], 0.0f, 0.01f);
    /* a uniform-scale channel sets all three components */
    a->channels[2].type = T3DM_TARGET_SCALE_UNIFORM;
    t3dm_pose_animate(&p, &m, 0, 0.5f);
    assert_float_equal(p.scale[1][0], 1.25f, 0.001f);
    assert_float_equal(p.scale[1][2], 1.25f, 0.001f);
    a->channels[2].type = T3DM_TARGET_SCALE;
    t3dm_pose_bind(&p, &m);
    /* time loops: 1.25 s is 0.25 s */
    t3dm_pose_animate(&p, &m, 0, 1.25f);
    assert_float_equal(p.pos[0][0], -16.0f, 0.01f);
    t3dm_pose_bind(&p, &m);
    assert_float_equal(p.pos[0][0], 0.0f, 0);
    t3dm_pose_free(&p);

    /* short, over-long and wrong .sdata */
    st = t3dm_anim_load_sdata(&m, 0, f.sdata, f.sdata_size - 2);
    assert_false(st.ok);
    assert_non_null(strstr(st.reason, "short .sdata"));
    assert_int_equal(a->num_keys, 0);
    uint8_t *big = calloc(f.sdata_size + 2, 1);
    memcpy(big, f.sdata, f.sdata_size);
    st = t3dm_anim_load_sdata(&m, 0, big, f.sdata_size + 2);
    assert_false(st.ok);
    assert_non_null(strstr(st.reason, "after the 8 keyframes"));
    big[8 + 3] = 9; /* second keyframe: channel 9 */
    big[8 + 2] = 0;
    st = t3dm_anim_load_sdata(&m, 0, big, f.sdata_size);
    assert_false(st.ok);
    assert_int_equal(st.offset, 10);
    assert_non_null(strstr(st.reason, "channel 9 of 3"));
    free(big);
    t3dm_free(&m);
    fx_free(&f);
}

/* Parse must fail; the reason must contain `want` and the offset be `at` (or any if ~0). */
static void expect_fail(const uint8_t *d, size_t n, const char *want, size_t at)
{
    t3dm_model m;
    t3dm_status st = t3dm_parse(d, n, &m);
    if (st.ok) {
        t3dm_free(&m);
        fail_msg("parsed, expected '%s'", want);
    }
    if (!strstr(st.reason, want)) fail_msg("reason '%s', expected '%s'", st.reason, want);
    if (at != ~(size_t)0) assert_int_equal(st.offset, at);
    assert_null(m.objects);
}

static void test_bad_header(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_static(&f), 0);
    uint8_t *d = malloc(f.size);
    memcpy(d, f.data, f.size);
    d[3] = 3;
    expect_fail(d, f.size, "older T3DM layout: version byte 3", 3);
    d[3] = 4;
    d[0] = 'X';
    expect_fail(d, f.size, "not a T3DM", 0);
    d[0] = 'T';
    put32(d + 4, 0x01000000u);
    expect_fail(d, f.size, "chunk count", 4);
    put32(d + 4, 7);
    /* chunk 1 before chunk 0 */
    uint32_t c0 = get32(d + 0x2C), c1 = get32(d + 0x30);
    put32(d + 0x30, (c1 & 0xFF000000u) | (c0 & 0xFFFFFFu));
    expect_fail(d, f.size, "out of order", 0x30);
    put32(d + 0x30, c1);
    /* offset beyond the string table */
    put32(d + 0x2C, (c0 & 0xFF000000u) | 0xFFFFF0u);
    expect_fail(d, f.size, "outside", 0x2C);
    put32(d + 0x2C, c0);
    /* vertex chunk index pointing at an object */
    put32(d + 0x0C, 0);
    expect_fail(d, f.size, "vertices chunk index 0 is not a 'V' chunk", 0x0C);
    put32(d + 0x0C, 3);
    /* too many vertices for the chunk */
    d[8] = 0x40;
    expect_fail(d, f.size, "vertices need", 8);
    d[8] = 0;
    /* string table offset past the end */
    put32(d + 0x18, (uint32_t)f.size + 1);
    expect_fail(d, f.size, "string table offset", 0x18);
    /* every truncation fails cleanly, never reads past the end */
    for (size_t n = 0; n < f.size; n++) {
        t3dm_model m;
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, f.data, n);
        t3dm_status st = t3dm_parse(cut, n, &m);
        if (st.ok) t3dm_free(&m);
        /* only cuts inside the string table's tail can still parse */
        if (n < f.size - 20) assert_false(st.ok);
        free(cut);
    }
    free(d);
    fx_free(&f);
}

static void test_zero_entries(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_static(&f), 0);
    /* An older converter counted zeroed table entries: append two (in the padding we make by
     * rebuilding with a bigger table is more work; zero the last entry instead and check the
     * skipped count and the error for an entry after it) */
    uint8_t *d = malloc(f.size);
    memcpy(d, f.data, f.size);
    uint32_t last = get32(d + 0x2C + 6 * 4);
    put32(d + 0x2C + 6 * 4, 0);
    t3dm_model m;
    t3dm_status st = t3dm_parse(d, f.size, &m);
    /* material 1 is gone: the floor object now names a material that does not exist */
    assert_false(st.ok);
    assert_non_null(strstr(st.reason, "material 1 but 1 materials"));
    /* zero an entry in the middle: refused */
    put32(d + 0x2C + 6 * 4, last);
    put32(d + 0x2C + 2 * 4, 0);
    expect_fail(d, f.size, "follows 1 zeroed table entries", ~(size_t)0);
    free(d);
    fx_free(&f);
}

static void test_bad_parts(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_static(&f), 0);
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    uint32_t obj0 = m.objects[0].offset, obj1 = m.objects[1].offset;
    uint32_t idx = m.index_chunk, s0 = m.objects[0].parts[0].strip_offset[0];
    unsigned n0 = m.objects[0].parts[0].strip_count[0], t0 = m.objects[0].parts[0].strip_triangles;
    assert_int_equal(m.objects[0].parts[0].strip_count[1], 0); /* one strip: t0 is its own */
    t3dm_free(&m);
    uint8_t *d = malloc(f.size);
    memcpy(d, f.data, f.size);
    size_t part1 = obj1 + 0x20;
    /* floor part's index range starts inside the cube's */
    put32(d + part1 + 8, 4);
    expect_fail(d, f.size, "overlaps the previous part", part1 + 8);
    memcpy(d, f.data, f.size);
    /* vertex offset off a pair boundary */
    put32(d + part1, 24 * 16 + 16);
    expect_fail(d, f.size, "not on a vertex pair", part1);
    memcpy(d, f.data, f.size);
    /* too many parts for the chunk */
    d[obj0 + 4] = 0x10;
    expect_fail(d, f.size, "parts need", obj0 + 4);
    memcpy(d, f.data, f.size);
    /* a triangle index beyond the cache */
    d[idx + 5] = 70;
    expect_fail(d, f.size, "beyond the vertex cache", idx + 5);
    memcpy(d, f.data, f.size);
    /* a strip index beyond the cache at each place the reader's two-indices-a-word pass
     * looks (the first index, either half of a word, the last and odd one of the 12), in the
     * strip as it is (with its restart: the checking pass) and without restarts (the pass for
     * the rule); 69 is the last slot inside */
    assert_int_equal(n0, 12);
    static const unsigned at[] = {0, 1, 2, 11};
    for (unsigned r = 0; r < 2; r++)
        for (unsigned k = 0; k < 4; k++) {
            memcpy(d, f.data, f.size);
            for (unsigned i = 0; r && i < n0; i++) d[s0 + 2 * i] &= 0x7F;
            d[s0 + 2 * at[k]] = 0;
            d[s0 + 2 * at[k] + 1] = 70;
            expect_fail(d, f.size, "strip index 70 beyond the vertex cache", s0 + 2 * at[k]);
            d[s0 + 2 * at[k] + 1] = 69;
            assert_true(t3dm_parse(d, f.size, &m).ok);
            assert_int_equal(m.objects[0].parts[0].strip_triangles, r ? n0 - 2 : t0);
            t3dm_free(&m);
        }
    memcpy(d, f.data, f.size);
    /* a restart at the strip's last index */
    d[s0 + 2 * 11] = 0x80;
    expect_fail(d, f.size, "restart at index 11", s0 + 22);
    memcpy(d, f.data, f.size);
    /* matrix index without a skeleton */
    d[obj0 + 0x20 + 14] = 0;
    d[obj0 + 0x20 + 15] = 0;
    expect_fail(d, f.size, "matrix index 0 but 0 bones", obj0 + 0x20 + 14);
    memcpy(d, f.data, f.size);
    /* a strip after an empty one */
    d[obj0 + 0x20 + 16 + 2] = 3;
    expect_fail(d, f.size, "follows an empty strip", obj0 + 0x20 + 18);
    free(d);
    fx_free(&f);
}

static void test_bad_skeleton(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_skinned_model(&f, true), 0);
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    uint32_t skel = 0, anim = m.anims[0].offset;
    for (unsigned i = 0; i < m.num_chunks; i++)
        if (m.chunks[i].type == 'S') skel = m.chunks[i].offset;
    t3dm_free(&m);
    uint8_t *d = malloc(f.size);
    memcpy(d, f.data, f.size);
    /* bone 0 names bone 1 as its parent: a cycle */
    size_t b0 = skel + 4;
    d[b0 + 4] = 0;
    d[b0 + 5] = 1;
    expect_fail(d, f.size, "cycle or forward reference", b0 + 4);
    memcpy(d, f.data, f.size);
    /* bone 1 depth 5 */
    d[b0 + 0x30 + 7] = 5;
    expect_fail(d, f.size, "depth 5", b0 + 0x30 + 6);
    memcpy(d, f.data, f.size);
    /* a NaN scale */
    put32(d + b0 + 8, 0x7FC00000u);
    expect_fail(d, f.size, "not finite", b0 + 8);
    memcpy(d, f.data, f.size);
    /* animation channel on bone 7 */
    d[anim + 0x14 + 1] = 7;
    expect_fail(d, f.size, "targets bone 7 of 2", anim + 0x14);
    memcpy(d, f.data, f.size);
    /* rotation channel declared as a scalar one */
    d[anim + 0x14 + 2] = 0;
    expect_fail(d, f.size, "rotation channels come first", anim + 0x16);
    memcpy(d, f.data, f.size);
    /* the error names the chunk */
    d[anim + 0x14 + 1] = 7;
    t3dm_status st = t3dm_parse(d, f.size, &m);
    assert_false(st.ok);
    assert_string_equal(st.chunk, "chunk 1 'A' (animation)");
    char msg[400];
    t3dm_status_format(&st, "bar.t3dm", msg, sizeof msg);
    assert_non_null(strstr(msg, "bar.t3dm: chunk 1 'A' (animation) at offset 0x"));
    free(d);
    fx_free(&f);
}

/* Every single-byte change of every fixture parses or fails cleanly (run under ASan in CI). */
static void test_mutations(void **state)
{
    (void)state;
    fx_file fs[2] = {{0}, {0}};
    assert_int_equal(fx_static(&fs[0]), 0);
    assert_int_equal(fx_skinned_model(&fs[1], true), 0);
    unsigned failed = 0;
    for (int k = 0; k < 2; k++) {
        uint8_t *d = malloc(fs[k].size);
        for (size_t i = 0; i < fs[k].size; i++) {
            memcpy(d, fs[k].data, fs[k].size);
            d[i] ^= 0xA5;
            t3dm_model m;
            t3dm_status st = t3dm_parse(d, fs[k].size, &m);
            if (!st.ok) {
                failed++;
                assert_true(st.offset <= fs[k].size);
                continue;
            }
            if (m.num_anims) t3dm_anim_load_sdata(&m, 0, fs[k].sdata, fs[k].sdata_size);
            t3dm_pose p;
            if (t3dm_pose_init(&p, &m)) {
                if (m.num_anims) t3dm_pose_animate(&p, &m, 0, 0.3f);
                t3dm_pose_free(&p);
            }
            t3dm_free(&m);
        }
        free(d);
    }
    assert_true(failed > 100); /* many changes are caught */
    fx_free(&fs[0]);
    fx_free(&fs[1]);
}

static void write_fixtures(const char *dir)
{
    fx_file f = {0};
    char path[1024];
    const char *names[3] = {"static.t3dm", "skinned.t3dm", "anim.t3dm"};
    for (int k = 0; k < 3; k++) {
        int rc = k == 0 ? fx_static(&f) : fx_skinned_model(&f, k == 2);
        if (rc) continue;
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        FILE *o = fopen(path, "wb");
        if (o) {
            fwrite(f.data, 1, f.size, o);
            fclose(o);
        }
        if (f.sdata) {
            snprintf(path, sizeof path, "%s/bar.0.sdata", dir);
            o = fopen(path, "wb");
            if (o) {
                fwrite(f.sdata, 1, f.sdata_size, o);
                fclose(o);
            }
        }
        fx_free(&f);
    }
}

int main(void)
{
    const char *dir = getenv("DSGX_T3DM_FIXTURE_DIR");
    if (dir) write_fixtures(dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static),     cmocka_unit_test(test_skeleton_and_anim),
        cmocka_unit_test(test_bad_header), cmocka_unit_test(test_zero_entries),
        cmocka_unit_test(test_bad_parts),  cmocka_unit_test(test_bad_skeleton),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
