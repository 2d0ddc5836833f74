/* test_t3dm_bench.c - a 2,040-vertex textured, lit grid as a T3DM (our writer) and as the
 * equivalent NSBMD (the Nitro writer): the same triangle strips, normals, texture coordinates
 * and a 16-colour 16x16 texture. The test checks that both reach polygon RAM with the same
 * polygon and vertex counts, that the T3DM costs no more DS geometry cycles than the NSBMD, and
 * that the compiled draw list sends the walk's bus writes on this model.
 *
 * Figures for bench/README.md ("T3DM vs the equivalent NSBMD"): `./test_t3dm_bench --loop N
 * MODE` with MODE t3dm (open + draw through the list), t3dm-walk (open + draw through the
 * reference walk), nsbmd (open + draw), t3dm-frame / nsbmd-frame (a further frame of a model
 * opened once: kept draw list / parsed file and bound textures), under
 *   valgrind --tool=callgrind --toggle-collect=run_t3dm ./test_t3dm_bench --loop 10 t3dm
 * (the measured functions: run_t3dm, run_t3dm_walk, run_nsbmd, draw_t3dm_frame,
 * draw_nsbmd_frame; instruction counts, rasterizer excluded). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "nitro/writer.h"
#include "t3dm/draw.h"
#include "test_nitro_scene.h"
#include "test_t3dm_fixtures.h"

#define GW 34 /* columns: two rows = 68 cache slots */
#define GH 60 /* rows: 2,040 vertices */

static float grid_z(int x, int y)
{
    return 40.0f * sinf((float)x * 0.35f) * cosf((float)y * 0.21f);
}

/* ---- the T3DM: one part per band of two rows, one strip per band ---- */

static int make_t3dm(fx_file *f)
{
    static t3dm_vertex v[GW * GH];
    for (int y = 0; y < GH; y++)
        for (int x = 0; x < GW; x++) {
            float dzx = grid_z(x + 1, y) - grid_z(x - 1, y),
                  dzy = grid_z(x, y + 1) - grid_z(x, y - 1);
            v[y * GW + x] = fx_vert(x * 16 - GW * 8, y * 16 - GH * 8, (int)grid_z(x, y), -dzx, -dzy,
                                    32.0f, 0xFFFFFFFFu, x % 17, y % 17);
        }
    static int16_t strips[GH - 1][2 * GW];
    static t3dm_w_part parts[GH - 1];
    for (int b = 0; b < GH - 1; b++) {
        for (int x = 0; x < GW; x++) {
            strips[b][2 * x] = (int16_t)(GW + x); /* upper row */
            strips[b][2 * x + 1] = (int16_t)x;
        }
        parts[b] = (t3dm_w_part){.vert_first = (uint32_t)(b * GW),
                                 .vert_count = 2 * GW,
                                 .vert_dest = 0,
                                 .matrix = 0xFFFF};
        parts[b].strips[0] = strips[b];
        parts[b].strip_count[0] = 2 * GW;
    }
    t3dm_w_object obj = {"grid", 0, parts, GH - 1, (GH - 1) * (2 * GW - 2)};
    t3dm_w_material mat = {.name = "grid",
                           .draw_flags = T3DM_FLAG_DEPTH | T3DM_FLAG_TEXTURED | T3DM_FLAG_CULL_BACK,
                           .prim = {255, 255, 255, 255}};
    mat.tex[0] = (t3dm_w_texture){"rom:/ci4.sprite", 16, 16, false, false, false, false};
    t3dm_w_model m = {.vertices = v,
                      .num_vertices = GW * GH,
                      .objects = &obj,
                      .num_objects = 1,
                      .materials = &mat,
                      .num_materials = 1};
    return t3dm_write(&m, &f->data, &f->size);
}

/* ---- the NSBMD: one display list with the same strips ---- */

static bool make_nsbmd(kit *k)
{
    nitro_dl *d = new_dl(k);
    for (int b = 0; b < GH - 1; b++) {
        nitro_dl_begin(d, 2);
        for (int i = 0; i < 2 * GW; i++) {
            int x = i / 2, y = b + ((i & 1) ? 0 : 1);
            float dzx = grid_z(x + 1, y) - grid_z(x - 1, y),
                  dzy = grid_z(x, y + 1) - grid_z(x, y - 1);
            float l = sqrtf(dzx * dzx + dzy * dzy + 32.0f * 32.0f);
            nitro_dl_normal(d, (nrm10)(-dzx / l * 511), (nrm10)(-dzy / l * 511),
                            (nrm10)(32.0f / l * 511));
            nitro_dl_texcoord(d, (tex16)((x % 17) * 16), (tex16)((y % 17) * 16));
            nitro_dl_vtx16(d, (vtx16)((x * 16 - GW * 8) * 16), (vtx16)((y * 16 - GH * 8) * 16),
                           (vtx16)((int)grid_z(x, y) * 16));
        }
        nitro_dl_end(d);
    }
    nitro_dl_finish(d);
    nitro_wmesh mesh = mesh_of(d, "grid");
    nitro_material mat;
    mat_init(&mat, "grid", "pal16", "p_16", 1);
    mat.polygon_attr = 1u | 0x80u | (31u << 16);
    nitro_node node;
    node_init(&node, "root");
    nitro_wmodel m;
    model_init(&m, "grid", 0x2000);
    m.nodes = &node;
    m.num_nodes = 1;
    m.materials = &mat;
    m.num_materials = 1;
    m.meshes = &mesh;
    m.num_meshes = 1;
    nitro_sbc_node(&k->sbc[0], 0, true);
    nitro_sbc_mat(&k->sbc[0], 0, 0);
    nitro_sbc_shp(&k->sbc[0], 0);
    nitro_sbc_ret(&k->sbc[0]);
    m.sbc = k->sbc[0].data;
    m.sbc_size = (uint32_t)k->sbc[0].size;
    nitro_wtexture tex[7];
    nitro_wpalette pal[6];
    build_textures(k, tex, pal);
    nitro_wtex0 t = {tex, 7, pal, 6};
    char err[256];
    return nitro_write_bmd0(&m, 1, &t, &k->file, err, sizeof err);
}

/* ---- open + draw, one frame of geometry ---- */

/* The measured functions keep their own symbols for callgrind's --toggle-collect. */
#if defined(__GNUC__)
#define BENCH_FN __attribute__((noinline)) static
#else
#define BENCH_FN static
#endif

static void null_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    (void)u;
    (void)addr;
    (void)val;
    (void)bytes;
}

static void camera(nitro_glb *glb, fx32 unit, bool t3dm)
{
    if (t3dm)
        t3dm_glb_init(glb);
    else
        nitro_glb_init(glb);
    fx32 eye[3] = {0, -120 * unit, 420 * unit}, at[3] = {0, 0, 0}, up[3] = {0, FX32_ONE, 0};
    fx32 cam[12];
    nitro_camera_lookat(eye, up, at, cam);
    nitro_glb_set_camera(glb, cam);
    nitro_camera_perspective(0x800, 0xDDB, 0x1555, 16 * unit, 2048 * unit, glb->proj);
}

/* walk: draw with the reference walk (t3dm_draw_walk) instead of the compiled list */
static gx_frame_stats run_t3dm_with(const fx_file *f, const uint8_t *sprite, size_t sprite_size,
                                    bool walk)
{
    gx_frame_stats s = {0};
    gx_engine *gx = gx_create();
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    t3dm_model m;
    if (t3dm_parse(f->data, f->size, &m).ok) {
        nitro_texvram vram;
        nitro_texvram_init(&vram);
        t3dm_texbind bind;
        char err[200];
        t3dm_upload_sprite(&vram, sprite, sprite_size, &sink, &bind, err, sizeof err);
        nitro_glb glb;
        camera(&glb, FX32_ONE, true);
        nitro_glb_flush(&glb, &sink);
        t3dm_draw_opts o = {NULL, &bind, 1, -1, true};
        if (walk)
            t3dm_draw_walk(&m, &o, &sink);
        else
            t3dm_draw(&m, &o, &sink);
        sink.write(sink.user, 0x04000540, 0, 4);
        gx_vblank(gx);
        gx_last_frame_stats(gx, &s);
        t3dm_free(&m);
    }
    gx_destroy(gx);
    return s;
}

BENCH_FN gx_frame_stats run_t3dm(const fx_file *f, const uint8_t *sprite, size_t sprite_size)
{
    return run_t3dm_with(f, sprite, sprite_size, false);
}

BENCH_FN gx_frame_stats run_t3dm_walk(const fx_file *f, const uint8_t *sprite, size_t sprite_size)
{
    return run_t3dm_with(f, sprite, sprite_size, true);
}

/* A further frame of an open model: the kept draw list replayed (the list is compiled by the
 * first call, outside the measured function when run under --loop N t3dm-frame). */
BENCH_FN gx_frame_stats draw_t3dm_frame(const t3dm_model *m, const t3dm_texbind *bind,
                                        t3dm_drawlist *dl)
{
    gx_frame_stats s = {0};
    gx_engine *gx = gx_create();
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    nitro_glb glb;
    camera(&glb, FX32_ONE, true);
    nitro_glb_flush(&glb, &sink);
    t3dm_draw_opts o = {NULL, bind, 1, -1, true};
    t3dm_drawlist_draw(dl, m, &o, &sink);
    sink.write(sink.user, 0x04000540, 0, 4);
    gx_vblank(gx);
    gx_last_frame_stats(gx, &s);
    gx_destroy(gx);
    return s;
}

/* The same for the NSBMD: the parsed file and bound textures kept, the runtime run again. */
BENCH_FN gx_frame_stats draw_nsbmd_frame(const nitro_file *f, const uint8_t *data,
                                         const nitro_mat_bind *binds)
{
    gx_frame_stats s = {0};
    gx_engine *gx = gx_create();
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    static nitro_glb glb;
    camera(&glb, FX32_ONE / 256, false);
    nitro_glb_flush(&glb, &sink);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, &f->models[0], data, &glb, &sink, binds);
    nitro_runtime_draw(&rt);
    sink.write(sink.user, 0x04000540, 0, 4);
    gx_vblank(gx);
    gx_last_frame_stats(gx, &s);
    gx_destroy(gx);
    return s;
}

/* ---- the bus writes of the list against the walk, on this model ---- */

typedef struct wlog {
    uint32_t *v;
    size_t n, cap;
} wlog;

static void log_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    wlog *l = u;
    if (l->n + 3 > l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1u << 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    l->v[l->n++] = addr;
    l->v[l->n++] = val;
    l->v[l->n++] = bytes;
}

static void test_list_matches_walk(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(make_t3dm(&f), 0);
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    t3dm_texbind bind = {true, 0x1C900000u, true, 2};
    t3dm_draw_opts o = {NULL, &bind, 1, -1, true};
    wlog a = {0}, b = {0};
    nitro_gx_sink sa = {&a, log_write, NULL}, sb = {&b, log_write, NULL};
    assert_int_equal(t3dm_draw_walk(&m, &o, &sa), t3dm_draw(&m, &o, &sb));
    assert_true(a.n > 3 * 10000);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.v, b.v, a.n * sizeof *a.v);
    free(a.v);
    free(b.v);
    t3dm_free(&m);
    fx_free(&f);
}

BENCH_FN gx_frame_stats run_nsbmd(const uint8_t *data, size_t size)
{
    gx_frame_stats s = {0};
    gx_engine *gx = gx_create();
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    nitro_file f;
    if (nitro_parse(data, size, &f).ok) {
        static nitro_texvram vram;
        nitro_texvram_init(&vram);
        nitro_texvram_upload(&vram, f.tex0, data, &sink);
        static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
        nitro_bind_textures(&vram, &f.models[0], binds);
        static nitro_glb glb;
        camera(&glb, FX32_ONE / 256, false);
        nitro_glb_flush(&glb, &sink);
        static nitro_runtime rt;
        nitro_runtime_init(&rt, &f.models[0], data, &glb, &sink, binds);
        nitro_runtime_draw(&rt);
        sink.write(sink.user, 0x04000540, 0, 4);
        gx_vblank(gx);
        gx_last_frame_stats(gx, &s);
        nitro_file_free(&f);
    }
    gx_destroy(gx);
    return s;
}

/* ---- the Nitro runtime's display lists handed over in runs (gx_write_gxfifo) ---- */

static void fwd_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    if (bytes == 1)
        gx_write8(u, addr, (uint8_t)val);
    else
        gx_write32(u, addr, val);
}

static uint32_t fwd_read(void *u, uint32_t addr)
{
    return gx_read32(u, addr);
}

/* The NSBMD drawn into @p gx through @p sink, up to the swap and the VBlank. */
static void draw_nsbmd_into(gx_engine *gx, const nitro_gx_sink *sink, const uint8_t *data,
                            size_t size)
{
    sink->write(sink->user, REG_POWCNT1, 0x820F, 4);
    nitro_file f;
    assert_true(nitro_parse(data, size, &f).ok);
    static nitro_texvram vram;
    nitro_texvram_init(&vram);
    nitro_texvram_upload(&vram, f.tex0, data, sink);
    static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
    nitro_bind_textures(&vram, &f.models[0], binds);
    static nitro_glb glb;
    camera(&glb, FX32_ONE / 256, false);
    nitro_glb_flush(&glb, sink);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, &f.models[0], data, &glb, sink, binds);
    nitro_runtime_draw(&rt);
    sink->write(sink->user, 0x04000540, 0, 4);
    gx_vblank(gx);
    nitro_file_free(&f);
}

/* Through the engine's own sink (display lists in runs) and through a sink that forwards every
 * word to gx_write32: the same frame, figures and polygon/vertex RAM. */
static void test_nsbmd_engine_sink_matches_words(void **state)
{
    (void)state;
    static kit k;
    memset(&k, 0, sizeof k);
    assert_true(make_nsbmd(&k));
    gx_engine *a = gx_create(), *b = gx_create();
    assert_non_null(a);
    assert_non_null(b);
    nitro_gx_sink sa = nitro_gx_engine_sink(a), sb = {b, fwd_write, fwd_read};
    draw_nsbmd_into(a, &sa, k.file.data, k.file.size);
    draw_nsbmd_into(b, &sb, k.file.data, k.file.size);
    gx_frame_stats fa, fb;
    gx_last_frame_stats(a, &fa);
    gx_last_frame_stats(b, &fb);
    assert_true(fa.polygons > 1000);
    assert_int_equal(fa.polygons, fb.polygons);
    assert_int_equal(fa.vertices, fb.vertices);
    assert_int_equal(fa.commands, fb.commands);
    assert_int_equal(fa.cycles, fb.cycles);
    const gx_frame *ra = gx_render_frame(a), *rb = gx_render_frame(b);
    assert_int_equal(ra->npolys, rb->npolys);
    assert_int_equal(ra->nverts, rb->nverts);
    assert_memory_equal(ra->polys, rb->polys, ra->npolys * sizeof(ra->polys[0]));
    assert_memory_equal(ra->verts, rb->verts, ra->nverts * sizeof(ra->verts[0]));
    gx_destroy(a);
    gx_destroy(b);
    kit_free(&k);
}

static void test_equivalent(void **state)
{
    (void)state;
    fx_file f = {0};
    assert_int_equal(make_t3dm(&f), 0);
    static kit k;
    memset(&k, 0, sizeof k);
    assert_true(make_nsbmd(&k));
    uint8_t *sp;
    size_t sz;
    assert_int_equal(fx_sprite(2, &sp, &sz), 0); /* CI4 16x16 -> 16-colour */
    t3dm_model m;
    assert_true(t3dm_parse(f.data, f.size, &m).ok);
    assert_int_equal(m.total_vertices, GW * GH);
    assert_int_equal(m.triangles, (GH - 1) * (2 * GW - 2));
    t3dm_free(&m);
    gx_frame_stats a = run_t3dm(&f, sp, sz), b = run_nsbmd(k.file.data, k.file.size);
    gx_frame_stats w = run_t3dm_walk(&f, sp, sz);
    assert_int_equal(a.commands, w.commands);
    assert_int_equal(a.cycles, w.cycles);
    print_message("t3dm: %u commands, %llu geometry cycles, %u polygons, %u vertices\n", a.commands,
                  (unsigned long long)a.cycles, a.polygons, a.vertices);
    print_message("nsbmd: %u commands, %llu geometry cycles, %u polygons, %u vertices\n",
                  b.commands, (unsigned long long)b.cycles, b.polygons, b.vertices);
    assert_true(a.polygons > 1000);
    assert_int_equal(a.polygons, b.polygons);
    assert_int_equal(a.vertices, b.vertices);
    assert_true(a.cycles <= b.cycles);
    free(sp);
    fx_free(&f);
    kit_free(&k);
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--loop")) {
        int n = atoi(argv[2]);
        fx_file f = {0};
        static kit k;
        uint8_t *sp;
        size_t sz;
        if (make_t3dm(&f) || !make_nsbmd(&k) || fx_sprite(2, &sp, &sz)) return 1;
        unsigned long long cyc = 0;
        const char *what = argv[3];
        if (!strcmp(what, "t3dm-frame") || !strcmp(what, "nsbmd-frame")) {
            /* open once (not measured), then N further frames */
            t3dm_model m;
            nitro_file nf;
            if (!t3dm_parse(f.data, f.size, &m).ok ||
                !nitro_parse(k.file.data, k.file.size, &nf).ok)
                return 1;
            /* textures placed once through a throwaway engine: the frames only need the binds
             * (the rasterizer is not run) */
            gx_engine *gx0 = gx_create();
            nitro_gx_sink s0 = nitro_gx_engine_sink(gx0);
            static nitro_texvram tv, nv;
            nitro_texvram_init(&tv);
            nitro_texvram_init(&nv);
            t3dm_texbind bind;
            char err[200];
            if (!t3dm_upload_sprite(&tv, sp, sz, &s0, &bind, err, sizeof err)) return 1;
            nitro_texvram_upload(&nv, nf.tex0, k.file.data, &s0);
            static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
            nitro_bind_textures(&nv, &nf.models[0], binds);
            gx_destroy(gx0);
            t3dm_drawlist dl;
            t3dm_drawlist_init(&dl);
            bool t3 = !strcmp(what, "t3dm-frame");
            t3dm_draw_opts o = {NULL, &bind, 1, -1, true};
            nitro_gx_sink null = {NULL, null_write, NULL};
            if (t3) t3dm_drawlist_draw(&dl, &m, &o, &null); /* compiles the list */
            for (int i = 0; i < n; i++)
                cyc += t3 ? draw_t3dm_frame(&m, &bind, &dl).cycles
                          : draw_nsbmd_frame(&nf, k.file.data, binds).cycles;
            t3dm_drawlist_free(&dl);
            nitro_file_free(&nf);
            t3dm_free(&m);
        } else {
            for (int i = 0; i < n; i++)
                cyc += !strcmp(what, "t3dm")        ? run_t3dm(&f, sp, sz).cycles
                       : !strcmp(what, "t3dm-walk") ? run_t3dm_walk(&f, sp, sz).cycles
                                                    : run_nsbmd(k.file.data, k.file.size).cycles;
        }
        printf("%s: %d runs, %llu geometry cycles each\n", argv[3], n, n ? cyc / (unsigned)n : 0);
        free(sp);
        fx_free(&f);
        kit_free(&k);
        return 0;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_equivalent),
                                       cmocka_unit_test(test_list_matches_walk),
                                       cmocka_unit_test(test_nsbmd_engine_sink_matches_words)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
