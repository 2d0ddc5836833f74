/* test_t3dm_bench.c - a 2,040-vertex textured, lit grid as a T3DM (our writer) and as the
 * equivalent NSBMD (the Nitro writer): the same triangle strips, normals, texture coordinates
 * and a 16-colour 16x16 texture. The test checks that both reach polygon RAM with the same
 * polygon and vertex counts and that the T3DM costs no more DS geometry cycles than the NSBMD.
 *
 * Figures for bench/README.md: `./test_t3dm_bench --loop N t3dm|nsbmd` opens (parses), uploads
 * the texture and draws the model N times through a fresh geometry engine, under
 *   valgrind --tool=callgrind --toggle-collect=run_t3dm ./test_t3dm_bench --loop 20 t3dm
 *   valgrind --tool=callgrind --toggle-collect=run_nsbmd ./test_t3dm_bench --loop 20 nsbmd
 * (instruction counts of the open + draw, rasterizer excluded). */
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

static gx_frame_stats run_t3dm(const fx_file *f, const uint8_t *sprite, size_t sprite_size)
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
        t3dm_draw(&m, &o, &sink);
        sink.write(sink.user, 0x04000540, 0, 4);
        gx_vblank(gx);
        gx_last_frame_stats(gx, &s);
        t3dm_free(&m);
    }
    gx_destroy(gx);
    return s;
}

static gx_frame_stats run_nsbmd(const uint8_t *data, size_t size)
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
        for (int i = 0; i < n; i++)
            cyc += !strcmp(argv[3], "t3dm") ? run_t3dm(&f, sp, sz).cycles
                                            : run_nsbmd(k.file.data, k.file.size).cycles;
        printf("%s: %d runs, %llu geometry cycles each\n", argv[3], n, n ? cyc / (unsigned)n : 0);
        free(sp);
        fx_free(&f);
        kit_free(&k);
        return 0;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_equivalent)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
