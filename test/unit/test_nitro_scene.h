/* test_nitro_scene.h - the kit the Nitro golden tests build fixture models with (display
 * lists, nodes, materials, one 16x16 texture of every format with its palette) and the fixed
 * scene they are drawn in (render / render_with: default frame VRAM managers, NNS_G3dGlbInit
 * lights, fovy 30 degrees). Shared by test_nitro_render.c and test_anim_render.c; include
 * after <cmocka.h>. */
#ifndef DSGX_TEST_NITRO_SCENE_H
#define DSGX_TEST_NITRO_SCENE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "nitro/writer.h"
#include "raster/frame.h"
#include "raster/raster.h"

#define MAX_MODELS 4
#define TEX_W      16

/* ---- a small kit for building fixture models ---- */

typedef struct kit {
    nitro_dl dl[12];
    unsigned ndl;
    nitro_buf sbc[MAX_MODELS];
    nitro_buf file;
    /* texture data */
    uint8_t texels[7][TEX_W * TEX_W * 2];
    uint8_t pidx[64];
    uint8_t pal[6][512];
} kit;

static inline void kit_free(kit *k)
{
    for (unsigned i = 0; i < k->ndl; i++) nitro_buf_free(&k->dl[i].buf);
    for (unsigned i = 0; i < MAX_MODELS; i++) nitro_buf_free(&k->sbc[i]);
    nitro_buf_free(&k->file);
}

static inline nitro_dl *new_dl(kit *k)
{
    assert_true(k->ndl < 12);
    return &k->dl[k->ndl++];
}

static inline nitro_wmesh mesh_of(const nitro_dl *d, const char *name)
{
    nitro_wmesh m = {name, 0, 0, d->buf.data, (uint32_t)d->buf.size};
    return m;
}

/* A quad in the XY plane at z = 0, half-size h (1.3.12), texcoords 0..TEX_W texels. No
 * NORMAL: on the DS a NORMAL recomputes the vertex colour from the enabled lights (GBATEK "DS
 * 3D Polygon Light Parameters"), black with none, so unlit meshes must not send one. */
static inline void quad(nitro_dl *d, vtx16 cx, vtx16 cy, vtx16 h, rgb15 col)
{
    nitro_dl_begin(d, 1);
    nitro_dl_color(d, col);
    nitro_dl_texcoord(d, 0, (tex16)(TEX_W * 16));
    nitro_dl_vtx16(d, (vtx16)(cx - h), (vtx16)(cy - h), 0);
    nitro_dl_texcoord(d, (tex16)(TEX_W * 16), (tex16)(TEX_W * 16));
    nitro_dl_vtx16(d, (vtx16)(cx + h), (vtx16)(cy - h), 0);
    nitro_dl_texcoord(d, (tex16)(TEX_W * 16), 0);
    nitro_dl_vtx16(d, (vtx16)(cx + h), (vtx16)(cy + h), 0);
    nitro_dl_texcoord(d, 0, 0);
    nitro_dl_vtx16(d, (vtx16)(cx - h), (vtx16)(cy + h), 0);
    nitro_dl_end(d);
}

/* Two faces of a cube (axis a: 0 x, 1 y, 2 z; both signs), half-size h, with normals. */
static inline void cube_faces(nitro_dl *d, unsigned axis, vtx16 h)
{
    static const int corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    nitro_dl_begin(d, 1);
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
            nitro_dl_texcoord(d, (tex16)(corner[k][0] > 0 ? TEX_W * 16 : 0),
                              (tex16)(corner[k][1] > 0 ? TEX_W * 16 : 0));
            nitro_dl_vtx16(d, p[0], p[1], p[2]);
        }
    }
    nitro_dl_end(d);
}

static inline void node_init(nitro_node *n, const char *name)
{
    memset(n, 0, sizeof *n);
    nitro_name_set(&n->name, name);
    n->flags = NITRO_NODE_TRANS_ZERO | NITRO_NODE_ROT_ZERO | NITRO_NODE_SCALE_ONE;
    n->rot_raw[0] = 0x1000;
    for (int i = 0; i < 3; i++) n->scale[i] = n->inv_scale[i] = FX32_ONE;
}

static inline void node_trans(nitro_node *n, fx32 x, fx32 y, fx32 z)
{
    n->flags &= (uint16_t)~NITRO_NODE_TRANS_ZERO;
    n->translation[0] = x;
    n->translation[1] = y;
    n->translation[2] = z;
}

static inline void node_rot(nitro_node *n, const int16_t r[9])
{
    n->flags &= (uint16_t)~NITRO_NODE_ROT_ZERO;
    memcpy(n->rot_raw, r, 9 * sizeof *r);
}

/* A material: white diffuse as vertex colour, grey ambient, both sides drawn, opaque;
 * lights = POLYGON_ATTR light bits; texture/palette names may be NULL. */
static inline void mat_init(nitro_material *m, const char *name, const char *tex, const char *pal,
                            unsigned lights)
{
    memset(m, 0, sizeof *m);
    nitro_name_set(&m->name, name);
    m->dif_amb = 0x7FFFu | 0x8000u | (0x318Cu << 16);
    m->spe_emi = 0;
    m->polygon_attr = (lights & 15u) | 0xC0u | (31u << 16);
    m->polygon_attr_mask = 0xFFFFFFFFu;
    m->teximage_param = 0x00030000u; /* repeat S and T */
    m->teximage_param_mask = 0xFFFFFFFFu;
    m->flags = NITRO_MAT_TEXMTX_SCALE_ONE | NITRO_MAT_TEXMTX_ROT_ZERO |
               NITRO_MAT_TEXMTX_TRANS_ZERO | NITRO_MAT_DIFFUSE | NITRO_MAT_AMBIENT |
               NITRO_MAT_VTXCOLOR | NITRO_MAT_SPECULAR | NITRO_MAT_EMISSION;
    m->orig_width = m->orig_height = TEX_W;
    m->mag_w = m->mag_h = FX32_ONE;
    if (tex) {
        m->has_texture = true;
        nitro_name_set(&m->texture_name, tex);
    }
    if (pal) {
        m->has_palette = true;
        nitro_name_set(&m->palette_name, pal);
    }
}

static inline void model_init(nitro_wmodel *w, const char *name, fx32 box_half)
{
    memset(w, 0, sizeof *w);
    w->name = name;
    w->info.pos_scale = w->info.inv_pos_scale = FX32_ONE;
    w->info.box_pos_scale = w->info.box_inv_pos_scale = FX32_ONE;
    w->info.box[0] = w->info.box[1] = w->info.box[2] = (int16_t)-box_half;
    w->info.box[3] = w->info.box[4] = w->info.box[5] = (int16_t)(2 * box_half);
    w->info.first_unused_mtx_stack = 4;
}

/* ---- textures: one of every format, 16x16, with recognisable patterns ---- */

static const char *const TEX_NAMES[7] = {"a3i5",   "pal4", "pal16", "pal256",
                                         "cmp4x4", "a5i3", "direct"};
static const char *const PAL_NAMES[6] = {"p_a3i5", "p_4", "p_16", "p_256", "p_4x4", "p_a5i3"};

static inline void pal_ramp(uint8_t *p, unsigned n, unsigned seed)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (i * 7 + seed * 5) % 32, g = (i * 13 + seed * 11) % 32,
                 b = 31 - (i * 5 + seed * 3) % 32;
        rgb15 c = rgb15_make(r, g, b);
        p[2 * i] = (uint8_t)c;
        p[2 * i + 1] = (uint8_t)(c >> 8);
    }
}

static inline void build_textures(kit *k, nitro_wtexture tex[7], nitro_wpalette pal[6])
{
    memset(k->texels, 0, sizeof k->texels);
    for (unsigned y = 0; y < TEX_W; y++) {
        for (unsigned x = 0; x < TEX_W; x++) {
            unsigned i = y * TEX_W + x, ring = ((x - 8) * (x - 8) + (y - 8) * (y - 8)) / 8;
            unsigned check = ((x >> 2) ^ (y >> 2)) & 1;
            k->texels[0][i] = (uint8_t)((ring & 31) | ((x >> 1) << 5)); /* A3I5: alpha ramp */
            k->texels[1][i / 4] |= (uint8_t)((((x >> 2) + (y >> 2)) & 3) << (2 * (i & 3)));
            k->texels[2][i / 2] |= (uint8_t)(((x ^ y) & 15) << (4 * (i & 1)));
            k->texels[3][i] = (uint8_t)((x + y * 2) & 31);
            k->texels[5][i] = (uint8_t)((check ? 5 : 2) | ((x * 2) << 3)); /* A5I3 */
            rgb15 d = (rgb15)(rgb15_make(x * 2, y * 2, 31 - x - y / 2) | 0x8000u);
            k->texels[6][2 * i] = (uint8_t)d;
            k->texels[6][2 * i + 1] = (uint8_t)(d >> 8);
        }
    }
    /* 4x4: 16 blocks, each a diagonal 4-colour gradient from its own palette group */
    for (unsigned b = 0; b < 16; b++) {
        uint32_t w = 0;
        for (unsigned t = 0; t < 16; t++) w |= (uint32_t)(((t & 3) + (t >> 2)) / 2 & 3) << (2 * t);
        for (unsigned j = 0; j < 4; j++) k->texels[4][4 * b + j] = (uint8_t)(w >> (8 * j));
        uint16_t pi = (uint16_t)(((b % 4) * 2) | (2u << 14)); /* mode 2: 4 opaque colours */
        k->pidx[2 * b] = (uint8_t)pi;
        k->pidx[2 * b + 1] = (uint8_t)(pi >> 8);
    }
    static const unsigned pal_n[6] = {32, 4, 16, 32, 16, 8};
    for (unsigned p = 0; p < 6; p++) {
        memset(k->pal[p], 0, sizeof k->pal[p]);
        pal_ramp(k->pal[p], pal_n[p], p);
        pal[p].name = PAL_NAMES[p];
        pal[p].flags = p == 1 ? 1 : 0;
        pal[p].data = k->pal[p];
        pal[p].size = pal_n[p] * 2u;
    }
    for (unsigned f = 0; f < 7; f++) {
        memset(&tex[f], 0, sizeof tex[f]);
        tex[f].name = TEX_NAMES[f];
        tex[f].teximage_param =
            (1u << 20) | (1u << 23) | ((f + 1u) << 26) | (f == 1 ? 1u << 29 : 0);
        tex[f].extra = TEX_W | (TEX_W << 11);
        tex[f].data = k->texels[f];
        tex[f].pidx = f == 4 ? k->pidx : NULL;
    }
}

/* ---- rendering: the same set-up as `dsgx render`, fixed camera ---- */

typedef struct view {
    fx32 eye[3], at[3]; /* lights stay at the NNS_G3dGlbInit defaults */
} view;

/** Called after nitro_runtime_init and before the draw (install animation hooks here). */
typedef void (*scene_prepare_fn)(void *user, const nitro_model *m, const nitro_texvram *vram,
                                 nitro_runtime *rt);

static inline void render_with(const uint8_t *data, size_t size, unsigned model, const view *v,
                               scene_prepare_fn prepare, void *user, dsgx_frame *out)
{
    nitro_file f;
    nitro_status st = nitro_parse(data, size, &f);
    assert_true(st.ok);
    assert_true(model < f.num_models);
    gx_engine *gx = gx_create();
    raster_engine *ra = raster_create();
    assert_non_null(gx);
    assert_non_null(ra);
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    sink.write(sink.user, REG_POWCNT1, 0x820F, 4);
    sink.write(sink.user, REG_DISPCNT, 0x00010108, 4);
    static nitro_texvram vram;
    nitro_texvram_init(&vram);
    if (f.tex0) assert_true(nitro_texvram_upload(&vram, f.tex0, data, &sink));
    static nitro_mat_bind binds[NITRO_MAX_MATERIALS];
    assert_int_equal(nitro_bind_textures(&vram, &f.models[model], binds), 0);
    sink.write(sink.user, REG_DISP3DCNT, 1u | 8u, 4);
    sink.write(sink.user, REG_CLEAR_COLOR, rgb15_make(4, 6, 10) | (31u << 16), 4);
    sink.write(sink.user, REG_CLEAR_DEPTH, 0x7FFF, 4);
    static nitro_glb glb;
    nitro_glb_init(&glb);
    fx32 up[3] = {0, FX32_ONE, 0}, cam[12];
    nitro_camera_lookat(v->eye, up, v->at, cam);
    nitro_glb_set_camera(&glb, cam);
    /* fovy 30 degrees: sin 15 = 0x424, cos 15 = 0xF74; aspect 4/3; near 0.5, far 16 */
    nitro_camera_perspective(0x424, 0xF74, 0x1555, 0x800, 0x10000, glb.proj);
    nitro_glb_flush(&glb, &sink);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, &f.models[model], data, &glb, &sink, binds);
    if (prepare) prepare(user, &f.models[model], &vram, &rt);
    nitro_runtime_draw(&rt);
    sink.write(sink.user, 0x04000540, 0, 4); /* SWAP_BUFFERS */
    gx_vblank(gx);
    raster_render(ra, gx_render_frame(gx), out, NULL);
    raster_destroy(ra);
    gx_destroy(gx);
    nitro_file_free(&f);
}

static inline void render(const uint8_t *data, size_t size, unsigned model, const view *v,
                          dsgx_frame *out)
{
    render_with(data, size, model, v, NULL, NULL, out);
}

/* The golden files: manifest rows (name, frame, xxh3). */
typedef struct golden_row {
    char name[32];
    unsigned frame;
    char hash[17];
} golden_row;

static inline unsigned read_manifest(const char *path, golden_row *rows, unsigned max)
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

#endif
