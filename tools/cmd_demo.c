/*
 * cmd_demo.c - `dsgx demo [-o demo.png] [--trace]`: the main job on a built-in default.
 *
 * Default: a small Nitro model built in memory with the NSBMD writer (nitro/writer.h) - three
 * nodes (a floor, a lit cube turned on its parent, a billboarded sign), three materials (a
 * 16-colour checker, a direct-colour gradient, a 4-colour stripe with colour 0 transparent),
 * lit by the NNS_G3dGlbInit default lights - uploaded with the default frame VRAM managers,
 * drawn by the G3D runtime through the geometry engine and the rasterizer (edge marking and
 * anti-aliasing on). Writes the frame as PNG and prints its XXH3 frame hash.
 * --trace: the original built-in trace (tools/demo.trace: a fogged, lit, textured terrain with
 * edge-marked trees) replayed instead.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "nitro/writer.h"
#include "raster/raster.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/system.h"

extern const unsigned char dsgx_demo_trace[];
extern const size_t dsgx_demo_trace_size;

static int demo_trace(const char *out)
{
    dsgx_trace t = {0};
    char err[512];
    if (dsgx_trace_parse(&t, "demo.trace", (const char *)dsgx_demo_trace, dsgx_demo_trace_size, err,
                         sizeof err)) {
        fprintf(stderr, "dsgx demo: %s\n", err);
        return 1;
    }
    dsgx_system *s = dsgx_system_create();
    if (!s) return 1;
    dsgx_system_set_log(s, cli_log, NULL);
    unsigned frames = dsgx_system_replay(s, &t, NULL, NULL);
    int status = 0;
    if (!frames) {
        fprintf(stderr, "dsgx demo: the demo scene emitted no frame\n");
        status = 1;
    } else if (dsgx_frame_write_png(&s->frame, out, err, sizeof err)) {
        fprintf(stderr, "dsgx demo: %s\n", err);
        status = 1;
    } else {
        char hex[17];
        dsgx_frame_hash_hex(&s->frame, hex);
        printf("%s %s\n", out, hex);
    }
    dsgx_system_destroy(s);
    dsgx_trace_free(&t);
    return status;
}

/* ---- the built-in model ---- */

#define TW 16 /* texture size */

typedef struct demo {
    nitro_dl dl[3];
    nitro_buf sbc, file;
    uint8_t checker[TW * TW / 2], grad[TW * TW * 2], stripe[TW * TW / 4];
    uint8_t pal16[32], pal4[8];
} demo;

static void vtx(nitro_dl *d, int s, int t, vtx16 x, vtx16 y, vtx16 z)
{
    nitro_dl_texcoord(d, (tex16)(s * 16), (tex16)(t * 16));
    nitro_dl_vtx16(d, x, y, z);
}

/* Floor: a 4x4-unit quad at y = 0 with the texture repeated 4 times, lit from above. */
static void build_floor(nitro_dl *d)
{
    nitro_dl_begin(d, 1);
    nitro_dl_normal(d, 0, 511, 0);
    vtx(d, 0, 0, -0x2000, 0, -0x2000);
    vtx(d, 0, 4 * TW, -0x2000, 0, 0x2000);
    vtx(d, 4 * TW, 4 * TW, 0x2000, 0, 0x2000);
    vtx(d, 4 * TW, 0, 0x2000, 0, -0x2000);
    nitro_dl_end(d);
    nitro_dl_finish(d);
}

/* Cube of half-size 0.6 standing on the floor (its node lifts it), normals per face. */
static void build_cube(nitro_dl *d)
{
    static const int corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    const vtx16 h = 0x0999;
    nitro_dl_begin(d, 1);
    for (unsigned axis = 0; axis < 3; axis++) {
        for (int sign = -1; sign <= 1; sign += 2) {
            nrm10 n[3] = {0, 0, 0};
            n[axis] = (nrm10)(sign * 511);
            nitro_dl_normal(d, n[0], n[1], n[2]);
            for (unsigned c = 0; c < 4; c++) {
                unsigned k = sign > 0 ? c : 3 - c;
                vtx16 p[3];
                p[axis] = (vtx16)(sign * h);
                p[(axis + 1) % 3] = (vtx16)(corner[k][0] * h);
                p[(axis + 2) % 3] = (vtx16)(corner[k][1] * h);
                vtx(d, corner[k][0] > 0 ? TW : 0, corner[k][1] > 0 ? TW : 0, p[0], p[1], p[2]);
            }
        }
    }
    nitro_dl_end(d);
    nitro_dl_finish(d);
}

/* Sign: an unlit quad (no NORMAL, so the vertex colour stays) facing the camera by BB. */
static void build_sign(nitro_dl *d)
{
    nitro_dl_begin(d, 1);
    nitro_dl_color(d, 0x7FFF);
    vtx(d, 0, TW, -0x0800, -0x0800, 0);
    vtx(d, TW, TW, 0x0800, -0x0800, 0);
    vtx(d, TW, 0, 0x0800, 0x0800, 0);
    vtx(d, 0, 0, -0x0800, 0x0800, 0);
    nitro_dl_end(d);
    nitro_dl_finish(d);
}

static void build_textures(demo *dm)
{
    for (unsigned y = 0; y < TW; y++) {
        for (unsigned x = 0; x < TW; x++) {
            unsigned i = y * TW + x;
            unsigned c = (((x >> 2) ^ (y >> 2)) & 1) ? 1 + (x + y) % 3 : 4 + (x * y) % 3;
            dm->checker[i / 2] |= (uint8_t)(c << (4 * (i & 1)));
            rgb15 g = (rgb15)(rgb15_make(31 - x, 8 + y, 16 + x) | 0x8000u);
            dm->grad[2 * i] = (uint8_t)g;
            dm->grad[2 * i + 1] = (uint8_t)(g >> 8);
            unsigned s = ((x + y) >> 2) & 3; /* diagonal stripes, index 0 transparent */
            dm->stripe[i / 4] |= (uint8_t)(s << (2 * (i & 3)));
        }
    }
    const rgb15 p16[7] = {0,
                          rgb15_make(24, 24, 26),
                          rgb15_make(20, 20, 23),
                          rgb15_make(22, 22, 25),
                          rgb15_make(6, 10, 18),
                          rgb15_make(5, 8, 15),
                          rgb15_make(7, 11, 20)};
    for (unsigned i = 0; i < 7; i++) {
        dm->pal16[2 * i] = (uint8_t)p16[i];
        dm->pal16[2 * i + 1] = (uint8_t)(p16[i] >> 8);
    }
    const rgb15 p4[4] = {0, rgb15_make(31, 26, 4), rgb15_make(31, 12, 2), rgb15_make(28, 3, 10)};
    for (unsigned i = 0; i < 4; i++) {
        dm->pal4[2 * i] = (uint8_t)p4[i];
        dm->pal4[2 * i + 1] = (uint8_t)(p4[i] >> 8);
    }
}

static void material(nitro_material *m, const char *name, const char *tex, const char *pal,
                     uint32_t dif_amb, uint32_t spe_emi, unsigned lights)
{
    memset(m, 0, sizeof *m);
    nitro_name_set(&m->name, name);
    m->dif_amb = dif_amb;
    m->spe_emi = spe_emi;
    m->polygon_attr = (lights & 15u) | 0x80u /* back faces culled */ | (31u << 16);
    m->polygon_attr_mask = 0xFFFFFFFFu;
    m->teximage_param = 0x00030000u; /* repeat */
    m->teximage_param_mask = 0xFFFFFFFFu;
    m->flags = NITRO_MAT_TEXMTX_SCALE_ONE | NITRO_MAT_TEXMTX_ROT_ZERO |
               NITRO_MAT_TEXMTX_TRANS_ZERO | NITRO_MAT_DIFFUSE | NITRO_MAT_AMBIENT |
               NITRO_MAT_VTXCOLOR | NITRO_MAT_SPECULAR | NITRO_MAT_EMISSION;
    m->orig_width = m->orig_height = TW;
    m->mag_w = m->mag_h = FX32_ONE;
    m->has_texture = true;
    nitro_name_set(&m->texture_name, tex);
    if (pal) {
        m->has_palette = true;
        nitro_name_set(&m->palette_name, pal);
    }
}

static void node(nitro_node *n, const char *name, fx32 tx, fx32 ty, fx32 tz, const int16_t *rot)
{
    memset(n, 0, sizeof *n);
    nitro_name_set(&n->name, name);
    n->flags = NITRO_NODE_SCALE_ONE | (rot ? 0 : NITRO_NODE_ROT_ZERO) |
               (tx || ty || tz ? 0 : NITRO_NODE_TRANS_ZERO);
    n->translation[0] = tx;
    n->translation[1] = ty;
    n->translation[2] = tz;
    n->rot_raw[0] = 0x1000;
    if (rot) memcpy(n->rot_raw, rot, 9 * sizeof *rot);
    for (int i = 0; i < 3; i++) n->scale[i] = n->inv_scale[i] = FX32_ONE;
}

static bool build_demo(demo *dm, char *err, size_t err_size)
{
    memset(dm, 0, sizeof *dm);
    build_floor(&dm->dl[0]);
    build_cube(&dm->dl[1]);
    build_sign(&dm->dl[2]);
    build_textures(dm);
    nitro_material mats[3];
    material(&mats[0], "floor", "checker", "checker_pl", 0x7FFFu | (0x2108u << 16), 0, 1);
    material(&mats[1], "cube", "gradient", NULL, 0x7FFFu | (0x318Cu << 16),
             0x6318u | 0x8000u | (0x0842u << 16), 15);
    mats[1].flags = (uint16_t)(mats[1].flags & ~NITRO_MAT_VTXCOLOR);
    material(&mats[2], "sign", "stripes", "stripes_pl", 0x7FFFu | 0x8000u, 0, 0);
    /* nodes: root; the cube turned 35 degrees about Y (row-vector 3x3, 1.3.12) and lifted;
     * the sign above the floor to the left */
    static const int16_t ry35[9] = {3355, 0, -2349, 0, 4096, 0, 2349, 0, 3355};
    nitro_node nodes[3];
    node(&nodes[0], "root", 0, 0, 0, NULL);
    node(&nodes[1], "cube", 0x0600, 0x0999, 0, ry35);
    node(&nodes[2], "sign", -0x1200, 0x1000, 0x0400, NULL);
    nitro_buf *b = &dm->sbc;
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, 0, -1);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_shp(b, 0);
    nitro_sbc_node(b, 1, true);
    nitro_sbc_nodedesc(b, 1, 0, 0, -1, 0);
    nitro_sbc_mat(b, 0, 1);
    nitro_sbc_shp(b, 1);
    nitro_sbc_node(b, 2, true);
    nitro_sbc_nodedesc(b, 2, 0, 0, -1, 0);
    nitro_sbc_bb(b, false, 2, -1, -1);
    nitro_sbc_mat(b, 0, 2);
    nitro_sbc_shp(b, 2);
    nitro_sbc_ret(b);
    nitro_wmesh meshes[3] = {
        {"floor", 0, 0, dm->dl[0].buf.data, (uint32_t)dm->dl[0].buf.size},
        {"cube", 0, 0, dm->dl[1].buf.data, (uint32_t)dm->dl[1].buf.size},
        {"sign", 0, 0, dm->dl[2].buf.data, (uint32_t)dm->dl[2].buf.size},
    };
    nitro_wmodel m;
    memset(&m, 0, sizeof m);
    m.name = "demo";
    m.info.pos_scale = m.info.inv_pos_scale = FX32_ONE;
    m.info.box_pos_scale = m.info.box_inv_pos_scale = FX32_ONE;
    const int16_t box[6] = {-0x2000, 0, -0x2000, 0x4000, 0x2000, 0x4000};
    memcpy(m.info.box, box, sizeof box);
    m.info.first_unused_mtx_stack = 1;
    m.nodes = nodes;
    m.num_nodes = 3;
    m.materials = mats;
    m.num_materials = 3;
    m.meshes = meshes;
    m.num_meshes = 3;
    m.sbc = b->data;
    m.sbc_size = (uint32_t)b->size;
    /* TEX0: 16x16 (sizeS = sizeT = 1) 16-colour, direct, 4-colour with colour 0 transparent */
    nitro_wtexture tex[3] = {
        {"checker", (1u << 20) | (1u << 23) | (3u << 26), TW | (TW << 11), dm->checker, NULL},
        {"gradient", (1u << 20) | (1u << 23) | (7u << 26), TW | (TW << 11), dm->grad, NULL},
        {"stripes", (1u << 20) | (1u << 23) | (2u << 26) | (1u << 29), TW | (TW << 11), dm->stripe,
         NULL},
    };
    nitro_wpalette pal[2] = {{"checker_pl", 0, dm->pal16, 32}, {"stripes_pl", 1, dm->pal4, 8}};
    nitro_wtex0 t = {tex, 3, pal, 2};
    return nitro_write_bmd0(&m, 1, &t, &dm->file, err, err_size);
}

static void demo_free(demo *dm)
{
    for (int i = 0; i < 3; i++) nitro_buf_free(&dm->dl[i].buf);
    nitro_buf_free(&dm->sbc);
    nitro_buf_free(&dm->file);
}

static int demo_model(const char *out)
{
    static demo dm;
    char err[512];
    if (!build_demo(&dm, err, sizeof err)) {
        fprintf(stderr, "dsgx demo: building the model: %s\n", err);
        demo_free(&dm);
        return 1;
    }
    nitro_file f;
    nitro_status st = nitro_parse(dm.file.data, dm.file.size, &f);
    if (!st.ok) {
        nitro_status_format(&st, "demo.nsbmd", err, sizeof err);
        fprintf(stderr, "dsgx demo: %s\n", err);
        demo_free(&dm);
        return 1;
    }
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    int status = 1;
    static dsgx_frame frame;
    if (gx && ra) {
        gx_set_log(gx, cli_log, NULL);
        nitro_gx_sink sink = nitro_gx_engine_sink(gx);
        sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
        sink.write(sink.user, REG_DISPCNT, 0x00010108, 4);
        static nitro_texvram vram;
        nitro_texvram_init(&vram);
        nitro_texvram_upload(&vram, f.tex0, dm.file.data, &sink);
        static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
        nitro_bind_textures(&vram, &f.models[0], binds);
        /* texture, alpha test off, blending, anti-aliasing, edge marking */
        sink.write(sink.user, REG_DISP3DCNT, 1u | 8u | 16u | 32u, 4);
        sink.write(sink.user, REG_CLEAR_COLOR, rgb15_make(3, 5, 9) | (31u << 16), 4);
        sink.write(sink.user, REG_CLEAR_DEPTH, 0x7FFF, 4);
        static nitro_glb glb;
        nitro_glb_init(&glb);
        /* eye (2.2, 2.4, 4.6) looking at (0, 0.6, 0); fovy 40 degrees: sin/cos of 20 */
        fx32 eye[3] = {0x2333, 0x2666, 0x4999}, at[3] = {0, 0x0999, 0}, up[3] = {0, FX32_ONE, 0};
        fx32 cam[12];
        nitro_camera_lookat(eye, up, at, cam);
        nitro_glb_set_camera(&glb, cam);
        nitro_camera_perspective(0x0578, 0x0F07, 0x1555, 0x0800, 0x10000, glb.proj);
        nitro_glb_flush(&glb, &sink);
        static nitro_runtime rt;
        nitro_runtime_init(&rt, &f.models[0], dm.file.data, &glb, &sink, binds);
        nitro_runtime_draw(&rt);
        sink.write(sink.user, 0x04000540, 0, 4); /* SWAP_BUFFERS */
        gx_vblank(gx);
        raster_render(ra, gx_render_frame(gx), &frame, NULL);
        if (dsgx_frame_write_png(&frame, out, err, sizeof err)) {
            fprintf(stderr, "dsgx demo: %s\n", err);
        } else {
            char hex[17];
            dsgx_frame_hash_hex(&frame, hex);
            printf("%s %s\n", out, hex);
            status = 0;
        }
    }
    if (ra) raster_destroy(ra);
    if (gx) gx_destroy(gx);
    nitro_file_free(&f);
    demo_free(&dm);
    return status;
}

int cmd_demo(int argc, char **argv)
{
    const char *out = "demo.png";
    bool trace = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--trace")) {
            trace = true;
        } else if (!strcmp(argv[i], "--help")) {
            printf("usage: dsgx demo [-o demo.png] [--trace]\n  renders the built-in demo model "
                   "(made with the Nitro writer, drawn by the G3D runtime), writes the PNG and\n"
                   "  prints its XXH3 frame hash; --trace replays the built-in GX trace scene "
                   "instead\n");
            return 0;
        } else {
            fprintf(stderr, "dsgx demo: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    return trace ? demo_trace(out) : demo_model(out);
}
