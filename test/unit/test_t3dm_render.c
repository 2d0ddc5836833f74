/* test_t3dm_render.c - golden scenes for T3DM models: the writer's fixtures (static, textured
 * with every sprite format, skinned, animated) drawn by t3dm_draw through the geometry and
 * rendering engines with a fixed camera, compared with golden/t3dm/manifest.tsv (name, frame,
 * xxh3; the rows of scenes only `dsgx golden` draws are left to it); plus checks of the command
 * stream that do not need a frame.
 *
 * Re-baseline: DSGX_T3DM_GOLDEN_UPDATE=1 ./test_t3dm_render (then look at every PNG).
 * Mismatches write t3dm_<name>.<frame>.actual.png in the current directory.
 * DSGX_T3DM_FIXTURE_DIR=DIR writes static.t3dm, skinned.t3dm, anim.t3dm + bar.0.sdata,
 * textured.t3dm + tex/<format>.sprite (for the CLI tests). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "t3dm/draw.h"
#include "test_t3dm_fixtures.h"

typedef struct scene_def {
    const char *name;
    int kind; /* 0 static, 1 textured, 2 skinned, 3 animated */
    fx32 eye[3], at[3];
    unsigned frames[4], nframes;
} scene_def;

#define U(x) ((fx32)((x)*4096))
static const scene_def SCENES[] = {
    {"static", 0, {U(300), U(260), U(420)}, {0, 0, 0}, {0}, 1},
    {"textured", 1, {0, 0, U(330)}, {0, U(-2), 0}, {0}, 1},
    {"skinned", 2, {U(60), U(90), U(300)}, {0, U(70), 0}, {0}, 1},
    {"animated", 3, {U(60), U(90), U(300)}, {0, U(70), 0}, {0, 15, 30, 45}, 4},
};
#define NSCENES (sizeof SCENES / sizeof SCENES[0])

typedef struct golden_row {
    char name[32];
    unsigned frame;
    char hash[17];
} golden_row;

/* A scene this test draws (the manifest also holds scenes only `dsgx golden` draws, e.g. the
 * auto-fit scene "fitted" of golden/t3dm/fitted.render). */
static bool own_scene(const char *name)
{
    for (unsigned s = 0; s < NSCENES; s++)
        if (!strcmp(SCENES[s].name, name)) return true;
    return false;
}

static unsigned read_manifest(const char *path, golden_row *rows, unsigned max)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[256];
    unsigned n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        golden_row r;
        if (sscanf(line, "%31s %u %16s", r.name, &r.frame, r.hash) == 3 && strcmp(r.name, "name"))
            rows[n++] = r;
    }
    fclose(f);
    return n;
}

static int build(int kind, fx_file *f)
{
    switch (kind) {
    case 0: return fx_static(f);
    case 1: return fx_textured_all(f);
    default: return fx_skinned_model(f, kind == 3);
    }
}

/* The same set-up as `dsgx render` (tools/t3dm_render.c) with a fixed camera. */
static void render(const scene_def *sd, const fx_file *f, unsigned frame, dsgx_frame *out)
{
    t3dm_model m;
    assert_true(t3dm_parse(f->data, f->size, &m).ok);
    if (f->sdata) assert_true(t3dm_anim_load_sdata(&m, 0, f->sdata, f->sdata_size).ok);
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    assert_non_null(gx);
    assert_non_null(ra);
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    sink.write(sink.user, REG_DISPCNT, 0x00010108, 4);
    static nitro_texvram vram;
    nitro_texvram_init(&vram);
    t3dm_texbind binds[16];
    memset(binds, 0, sizeof binds);
    for (unsigned i = 0; sd->kind == 1 && i < FX_NUM_SPRITES; i++) {
        uint8_t *sp;
        size_t sz;
        char err[200];
        assert_int_equal(fx_sprite(i, &sp, &sz), 0);
        if (!t3dm_upload_sprite(&vram, sp, sz, &sink, &binds[i], err, sizeof err))
            fail_msg("sprite %u: %s", i, err);
        free(sp);
    }
    sink.write(sink.user, REG_DISP3DCNT, 1u | 8u, 4);
    sink.write(sink.user, REG_CLEAR_COLOR, rgb15_make(4, 6, 10) | (31u << 16), 4);
    sink.write(sink.user, REG_CLEAR_DEPTH, 0x7FFF, 4);
    static nitro_glb glb;
    t3dm_glb_init(&glb);
    fx32 up[3] = {0, FX32_ONE, 0}, cam[12];
    nitro_camera_lookat(sd->eye, up, sd->at, cam);
    nitro_glb_set_camera(&glb, cam);
    /* fovy 30 degrees: sin 15 = 0x424, cos 15 = 0xF74; aspect 4/3; near 16, far 2048 */
    nitro_camera_perspective(0x424, 0xF74, 0x1555, U(16), U(2048), glb.proj);
    nitro_glb_flush(&glb, &sink);
    t3dm_pose pose;
    assert_true(t3dm_pose_init(&pose, &m));
    if (sd->kind == 3) t3dm_pose_animate(&pose, &m, 0, (float)frame / T3DM_TICKS_PER_SECOND);
    t3dm_draw_opts o = {&pose, binds, 1, -1, true};
    assert_int_equal(t3dm_draw(&m, &o, &sink), m.triangles);
    sink.write(sink.user, 0x04000540, 0, 4); /* SWAP_BUFFERS */
    gx_vblank(gx);
    raster_render(ra, gx_render_frame(gx), out, NULL);
    raster_destroy(ra);
    gx_destroy(gx);
    t3dm_pose_free(&pose);
    t3dm_free(&m);
}

static void write_file(const char *dir, const char *name, const uint8_t *d, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static void dump_fixtures(const char *dir)
{
    static const char *names[4] = {"static.t3dm", "textured.t3dm", "skinned.t3dm", "anim.t3dm"};
    for (int k = 0; k < 4; k++) {
        fx_file f = {0};
        assert_int_equal(build(k, &f), 0);
        write_file(dir, names[k], f.data, f.size);
        if (f.sdata) write_file(dir, "bar.0.sdata", f.sdata, f.sdata_size);
        fx_free(&f);
    }
    char tdir[1024];
    snprintf(tdir, sizeof tdir, "%s/tex", dir);
    if (fopen(tdir, "r") == NULL) {
        char cmd[1100];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", tdir);
        assert_int_equal(system(cmd), 0);
    }
    for (unsigned i = 0; i < FX_NUM_SPRITES; i++) {
        uint8_t *sp;
        size_t sz;
        assert_int_equal(fx_sprite(i, &sp, &sz), 0);
        write_file(tdir, fx_sprite_paths[i] + strlen("rom:/tex/"), sp, sz);
        free(sp);
    }
}

static void test_golden(void **state)
{
    (void)state;
    const char *dump = getenv("DSGX_T3DM_FIXTURE_DIR");
    if (dump) dump_fixtures(dump);
    bool update = getenv("DSGX_T3DM_GOLDEN_UPDATE") != NULL;
    golden_row rows[64];
    unsigned nrows = read_manifest(DSGX_GOLDEN_DIR "/t3dm/manifest.tsv", rows, 64), own = 0;
    for (unsigned r = 0; r < nrows; r++) own += own_scene(rows[r].name);
    FILE *mf = NULL;
    if (update) {
        mf = fopen(DSGX_GOLDEN_DIR "/t3dm/manifest.tsv", "w");
        assert_non_null(mf);
        fprintf(mf, "name\tframe\txxh3\n");
    }
    unsigned checked = 0, failed = 0;
    static dsgx_frame frame;
    for (unsigned s = 0; s < NSCENES; s++) {
        const scene_def *sd = &SCENES[s];
        fx_file f = {0};
        assert_int_equal(build(sd->kind, &f), 0);
        for (unsigned fi = 0; fi < sd->nframes; fi++) {
            unsigned fr = sd->frames[fi];
            render(sd, &f, fr, &frame);
            char hex[17], path[512], err[256];
            dsgx_frame_hash_hex(&frame, hex);
            if (update) {
                fprintf(mf, "%s\t%u\t%s\n", sd->name, fr, hex);
                snprintf(path, sizeof path, DSGX_GOLDEN_DIR "/t3dm/%s.frame%03u.png", sd->name, fr);
                assert_int_equal(dsgx_frame_write_png(&frame, path, err, sizeof err), 0);
                continue;
            }
            bool found = false;
            for (unsigned r = 0; r < nrows; r++) {
                if (strcmp(rows[r].name, sd->name) || rows[r].frame != fr) continue;
                found = true;
                checked++;
                if (strcmp(rows[r].hash, hex)) {
                    failed++;
                    snprintf(path, sizeof path, "t3dm_%s.%u.actual.png", sd->name, fr);
                    dsgx_frame_write_png(&frame, path, err, sizeof err);
                    fprintf(stderr, "%s frame %u: %s, golden %s (actual written to %s)\n", sd->name,
                            fr, hex, rows[r].hash, path);
                }
            }
            if (!found) {
                failed++;
                fprintf(stderr, "%s frame %u: not in the manifest\n", sd->name, fr);
            }
        }
        fx_free(&f);
    }
    if (mf) {
        for (unsigned r = 0; r < nrows; r++) /* the rows of the other scenes stay */
            if (!own_scene(rows[r].name))
                fprintf(mf, "%s\t%u\t%s\n", rows[r].name, rows[r].frame, rows[r].hash);
        fclose(mf);
        return;
    }
    assert_int_equal(failed, 0);
    assert_int_equal(checked, own);
    assert_true(own > 0);
}

/* ---- the command stream, word by word where it matters ---- */

typedef struct rec {
    uint32_t addr[4096], val[4096];
    unsigned n;
} rec;

static void rec_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    (void)bytes;
    rec *r = u;
    if (r->n < 4096) {
        r->addr[r->n] = addr;
        r->val[r->n++] = val;
    }
}

static void test_stream(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(fx_skinned_model(&f, false), 0);
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    t3dm_pose pose;
    assert_true(t3dm_pose_init(&pose, &m));
    static rec r;
    r.n = 0;
    nitro_gx_sink sink = {&r, rec_write, NULL};
    t3dm_draw_opts o = {&pose, NULL, 0, -1, false};
    assert_int_equal(t3dm_draw(&m, &o, &sink), 24);
    /* everything goes to the GXFIFO, packed: first word SPE_EMI, MTX_MODE, MTX_STORE and the
     * first MTX_RESTORE; parameters 0, 2 (position-vector), slot 0, slot 0 */
    for (unsigned i = 0; i < r.n; i++) assert_int_equal(r.addr[i], REG_GXFIFO);
    assert_int_equal(r.val[0], 0x14131031u);
    assert_int_equal(r.val[1], 0);
    assert_int_equal(r.val[2], 2);
    assert_int_equal(r.val[3], 0);
    assert_int_equal(r.val[4], 0);
    /* bone 0: MTX_MULT_4x3 (its bind matrix: identity), MTX_SCALE 4096.0, MTX_STORE 1, then
     * bone 1's MTX_RESTORE 0 */
    assert_int_equal(r.val[5], 0x14131B19u);
    assert_int_equal(r.val[6], FX32_ONE);
    assert_int_equal(r.val[7], 0);
    assert_int_equal(r.val[6 + 12], (uint32_t)T3DM_POS_SCALE);
    assert_int_equal(r.val[6 + 15], 1);
    assert_int_equal(r.val[6 + 16], 0);
    unsigned scale_seen = 0, restores = 0;
    for (unsigned i = 0; i < r.n; i++)
        if (r.val[i] == (uint32_t)T3DM_POS_SCALE) scale_seen++;
    assert_true(scale_seen >= 6); /* two bones x three axes */
    /* count MTX_RESTORE opcodes in packed words: the draw switches between the two bones'
     * slots inside the triangles that join them */
    unsigned i = 0;
    while (i < r.n) {
        uint32_t w = r.val[i++];
        for (int b = 0; b < 4; b++) {
            uint8_t op = (uint8_t)(w >> (8 * b));
            if (op == 0x14) restores++;
            i += op ? gx_opcode_params(op) : 0;
        }
    }
    /* base restores while building 2 bone slots + switches in the draw + the final restore */
    assert_true(restores >= 2 + 2 + 1);
    /* with the scale in the caller's base: each bone first undoes it (MTX_SCALE by raw 1) */
    r.n = 0;
    o.base_scaled = true;
    assert_int_equal(t3dm_draw(&m, &o, &sink), 24);
    assert_int_equal(r.val[5] & 0xFFu, 0x1Bu); /* MTX_SCALE first */
    assert_int_equal(r.val[6], 1);
    assert_int_equal(r.val[8], 1);
    assert_int_equal((r.val[5] >> 8) & 0xFFu, 0x19u); /* then the bone matrix */
    t3dm_pose_free(&pose);
    t3dm_free(&m);
    fx_free(&f);
}

/* A missing texture bind draws untextured: TEXIMAGE_PARAM 0. With a bind: repeat bits set
 * from the axes (no clamp -> repeat S and T). */
static void test_teximage(void **state)
{
    (void)state;
    fx_file f = {0};
    const char *paths[1] = {"rom:/a.sprite"};
    const uint16_t sizes[1][2] = {{16, 16}};
    assert_int_equal(fx_textured(&f, paths, sizes, 1), 0);
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    static rec r;
    for (int bound = 0; bound < 2; bound++) {
        r.n = 0;
        nitro_gx_sink sink = {&r, rec_write, NULL};
        t3dm_texbind b = {bound != 0, 0x1C900000u | 0x123u, false, 0};
        t3dm_draw_opts o = {NULL, &b, 0, -1, false};
        assert_int_equal(t3dm_draw(&m, &o, &sink), 2);
        bool found = false;
        unsigned i = 0;
        while (i < r.n && !found) {
            uint32_t w = r.val[i++];
            unsigned p = i;
            for (int k = 0; k < 4; k++) {
                uint8_t op = (uint8_t)(w >> (8 * k));
                if (op == 0x2a) {
                    assert_int_equal(r.val[p], bound ? 0x1C930123u : 0);
                    found = true;
                }
                p += op ? gx_opcode_params(op) : 0;
            }
            i = p;
        }
        assert_true(found);
    }
    /* a model without bones and a scaled base sends no matrix command at all */
    r.n = 0;
    nitro_gx_sink sink = {&r, rec_write, NULL};
    t3dm_draw_opts o = {NULL, NULL, 0, -1, true};
    assert_int_equal(t3dm_draw(&m, &o, &sink), 2);
    unsigned mtx = 0, i = 0;
    while (i < r.n) {
        uint32_t w = r.val[i++];
        for (int k = 0; k < 4; k++) {
            uint8_t op = (uint8_t)(w >> (8 * k));
            if (op >= 0x10 && op <= 0x1C) mtx++;
            i += op ? gx_opcode_params(op) : 0;
        }
    }
    assert_int_equal(mtx, 0);
    t3dm_free(&m);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_teximage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
