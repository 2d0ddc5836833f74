/* test_t3dm_fixtures.h - T3DM fixture models made with our writer (t3dm/writer.h), shared by
 * the reader tests, the golden scenes and the fuzz seeds. No Tiny3D files: every byte comes
 * from the descriptions below.
 *
 * - static:   a cube (faces 0-2 as u8 triangle lists, faces 3-5 as one strip with restarts,
 *             back-face culled) and a floor quad drawn as a sequence, a one-leaf BVH
 * - skinned:  a two-bone bar: the lower ring loaded under bone 0, the upper under bone 1
 *             (rotated 40 degrees about z), the triangles join slots of both loads
 * - animated: the skinned bar with animation "wave" (rotation of bone 1, translation x of
 *             bone 0, one scalar scale channel) and its .sdata stream
 * - textured: one quad per material, each referencing a sprite path (rom:/tex<N>.<fmt>.sprite)
 */
#ifndef TEST_T3DM_FIXTURES_H
#define TEST_T3DM_FIXTURES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "t3dm/sprite_writer.h"
#include "t3dm/writer.h"

typedef struct fx_file {
    uint8_t *data, *sdata;
    size_t size, sdata_size;
} fx_file;

static inline void fx_free(fx_file *f)
{
    free(f->data);
    free(f->sdata);
    memset(f, 0, sizeof *f);
}

static inline t3dm_vertex fx_vert(int x, int y, int z, float nx, float ny, float nz, uint32_t rgba,
                                  int s, int t)
{
    t3dm_vertex v;
    v.pos[0] = (int16_t)x;
    v.pos[1] = (int16_t)y;
    v.pos[2] = (int16_t)z;
    v.norm = t3dm_pack_normal(nx, ny, nz);
    v.rgba[0] = (uint8_t)(rgba >> 24);
    v.rgba[1] = (uint8_t)(rgba >> 16);
    v.rgba[2] = (uint8_t)(rgba >> 8);
    v.rgba[3] = (uint8_t)rgba;
    v.st[0] = (int16_t)(s * 32);
    v.st[1] = (int16_t)(t * 32);
    return v;
}

/* Four corners of a cube face (normal axis ax, sign sg), counter-clockwise seen from outside. */
static inline void fx_face(t3dm_vertex *out, int ax, int sg, int h, uint32_t rgba)
{
    int u = (ax + 1) % 3, w = (ax + 2) % 3;
    if (sg < 0) {
        int tmp = u;
        u = w;
        w = tmp;
    }
    static const int cu[4] = {-1, 1, 1, -1}, cw[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; i++) {
        int p[3] = {0, 0, 0};
        float n[3] = {0, 0, 0};
        p[ax] = sg * h;
        p[u] = cu[i] * h;
        p[w] = cw[i] * h;
        n[ax] = (float)sg;
        out[i] = fx_vert(p[0], p[1], p[2], n[0], n[1], n[2], rgba, i == 1 || i == 2 ? 32 : 0,
                         i >= 2 ? 32 : 0);
    }
}

static inline int fx_static(fx_file *f)
{
    static const uint32_t col[6] = {0xE04040FFu, 0x40E040FFu, 0x4040E0FFu,
                                    0xE0E040FFu, 0x40E0E0FFu, 0xE040E0FFu};
    t3dm_vertex v[30];
    for (int fc = 0; fc < 6; fc++) fx_face(&v[fc * 4], fc % 3, fc < 3 ? 1 : -1, 64, col[fc]);
    /* floor quad as two sequential triangles (6 vertices) */
    v[24] = fx_vert(-160, -72, -160, 0, 1, 0, 0x808080FFu, 0, 0);
    v[25] = fx_vert(-160, -72, 160, 0, 1, 0, 0x808080FFu, 0, 0);
    v[26] = fx_vert(160, -72, 160, 0, 1, 0, 0xA0A0A0FFu, 0, 0);
    v[27] = fx_vert(-160, -72, -160, 0, 1, 0, 0x808080FFu, 0, 0);
    v[28] = fx_vert(160, -72, 160, 0, 1, 0, 0xA0A0A0FFu, 0, 0);
    v[29] = fx_vert(160, -72, -160, 0, 1, 0, 0x606060FFu, 0, 0);
    static uint8_t tris[18];
    for (int fc = 0; fc < 3; fc++) {
        const uint8_t q[6] = {0, 1, 2, 0, 2, 3};
        for (int i = 0; i < 6; i++) tris[fc * 6 + i] = (uint8_t)(fc * 4 + q[i]);
    }
    /* faces 3-5 in one strip: (v0, v1, v3, v2) per face, restarts between faces */
    static int16_t strip[12];
    for (int fc = 3; fc < 6; fc++) {
        const int o[4] = {0, 1, 3, 2};
        for (int i = 0; i < 4; i++) strip[(fc - 3) * 4 + i] = (int16_t)(fc * 4 + o[i]);
        if (fc > 3) strip[(fc - 3) * 4] = (int16_t)(0x8000 | (fc * 4));
    }
    t3dm_w_part cube = {.vert_first = 0,
                        .vert_count = 24,
                        .vert_dest = 0,
                        .tris = tris,
                        .num_tris = 18,
                        .matrix = 0xFFFF};
    cube.strips[0] = strip;
    cube.strip_count[0] = 12;
    t3dm_w_part floor = {.vert_first = 24,
                         .vert_count = 6,
                         .vert_dest = 10,
                         .matrix = 0xFFFF,
                         .seq_base = 10,
                         .seq_count = 2};
    t3dm_w_object objs[2] = {{"cube", 0, &cube, 1, 12}, {"floor", 1, &floor, 1, 2}};
    t3dm_w_material mats[2] = {
        {.name = "cube",
         .draw_flags = T3DM_FLAG_DEPTH | T3DM_FLAG_SHADED | T3DM_FLAG_CULL_BACK,
         .fog_mode = T3DM_FOG_DEFAULT,
         .prim = {255, 255, 255, 255}},
        {.name = "floor",
         .draw_flags = T3DM_FLAG_DEPTH | T3DM_FLAG_NO_LIGHT,
         .fog_mode = T3DM_FOG_DISABLED,
         .prim = {255, 255, 255, 255}},
    };
    t3dm_w_model m = {.vertices = v,
                      .num_vertices = 30,
                      .objects = objs,
                      .num_objects = 2,
                      .materials = mats,
                      .num_materials = 2,
                      .bvh = true};
    return t3dm_write(&m, &f->data, &f->size);
}

/* The bar: 8 vertices per ring box; ring 0 at y 0..64 under bone 0, ring 1 at y 0..64 of
 * bone 1 (which sits at y 64). Triangles: sides of both boxes, drawn by the second part. */
static inline void fx_bar_verts(t3dm_vertex *v)
{
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 8; i++) {
            int x = (i & 1) ? 16 : -16, z = (i & 2) ? 16 : -16, y = (i & 4) ? 64 : 0;
            uint32_t c = r ? 0xF0A030FFu : 0x3070F0FFu;
            v[r * 8 + i] = fx_vert(x, y, z, (float)x, 0, (float)z, c, 0, 0);
        }
}

static inline const uint8_t *fx_bar_tris(uint16_t *n)
{
    /* three boxes of sides: ring 0 (slots 0-3 bottom, 4-7 top), the joint (4-7 to 8-11, spanning
     * both bones) and ring 1 (8-11 to 12-15). Corner bits: 0 x, 1 z, 2 top. Faces -z, +x, +z,
     * -x, counter-clockwise from outside. */
    static uint8_t t[3 * 4 * 6];
    static const uint8_t face[4][4] = {{0, 4, 5, 1}, {1, 5, 7, 3}, {3, 7, 6, 2}, {2, 6, 4, 0}};
    unsigned k = 0;
    for (int b = 0; b < 3; b++)
        for (int fc = 0; fc < 4; fc++) {
            const uint8_t *q = face[fc];
            const uint8_t o[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
            for (int i = 0; i < 6; i++) t[k++] = (uint8_t)(4 * b + (o[i] & 4u) + (o[i] & 3u));
        }
    *n = (uint16_t)k;
    return t;
}

static inline int fx_skinned_model(fx_file *f, bool anim)
{
    t3dm_vertex v[16];
    fx_bar_verts(v);
    uint16_t nt;
    const uint8_t *tris = fx_bar_tris(&nt);
    t3dm_w_part parts[2] = {
        {.vert_first = 0, .vert_count = 8, .vert_dest = 0, .matrix = 0},
        {.vert_first = 8,
         .vert_count = 8,
         .vert_dest = 8,
         .tris = tris,
         .num_tris = nt,
         .matrix = 1},
    };
    t3dm_w_object obj = {"bar", 0, parts, 2, (uint16_t)(nt / 3)};
    t3dm_w_material mat = {.name = "bar",
                           .draw_flags = T3DM_FLAG_DEPTH | T3DM_FLAG_CULL_BACK,
                           .prim = {255, 255, 255, 255}};
    float s = sinf(0.3490659f), c = cosf(0.3490659f); /* 40 degrees about z: half angle 20 */
    t3dm_w_bone bones[2] = {
        {"root", 0xFFFF, {1, 1, 1}, {0, 0, 0, 1}, {0, 0, 0}},
        {"tip", 0, {1, 1, 1}, {0, 0, s, c}, {0, 64, 0}},
    };
    static const t3dm_channel ch[3] = {
        {.target = 1, .type = T3DM_TARGET_ROTATION},
        {.target = 0,
         .type = T3DM_TARGET_TRANSLATION,
         .attr = 0,
         .quant_scale = 64.0f / 65535.0f,
         .quant_offset = -32.0f},
        {.target = 1,
         .type = T3DM_TARGET_SCALE,
         .attr = 1,
         .quant_scale = 0.5f / 65535.0f,
         .quant_offset = 0.75f},
    };
    /* keyframes (a channel's first one has 0 ticks; each later one is reached after its
     * ticks): rotation of bone 1 -60 -> 0 -> +60 degrees about z at 0, 0.5, 1 s; x of bone 0
     * -32 -> +32 over 1 s; y scale of bone 1 0.75 -> 1.25 -> 0.75. In stream (load) order. */
    t3dm_keyframe keys[8];
    float qa[4] = {0, 0, -0.5f, 0.8660254f}, qb[4] = {0, 0, 0, 1}, qc[4] = {0, 0, 0.5f, 0.8660254f};
    uint16_t pa[2], pb[2], pc[2];
    t3dm_pack_quat(qa, pa);
    t3dm_pack_quat(qb, pb);
    t3dm_pack_quat(qc, pc);
    keys[0] = (t3dm_keyframe){0, 0, {pa[0], pa[1]}};
    keys[1] = (t3dm_keyframe){30, 0, {pb[0], pb[1]}};
    keys[2] = (t3dm_keyframe){0, 1, {0, 0}};
    keys[3] = (t3dm_keyframe){60, 1, {65535, 0}};
    keys[4] = (t3dm_keyframe){0, 2, {0, 0}};
    keys[5] = (t3dm_keyframe){30, 2, {65535, 0}};
    keys[6] = (t3dm_keyframe){30, 0, {pc[0], pc[1]}};
    keys[7] = (t3dm_keyframe){30, 2, {0, 0}};
    t3dm_w_anim an = {"wave", 1.0f, ch, 1, 2, keys, 8, "rom:/bar.0.sdata"};
    t3dm_w_model m = {.vertices = v,
                      .num_vertices = 16,
                      .objects = &obj,
                      .num_objects = 1,
                      .materials = &mat,
                      .num_materials = 1,
                      .bones = bones,
                      .num_bones = 2,
                      .anims = &an,
                      .num_anims = anim ? 1u : 0u};
    if (t3dm_write(&m, &f->data, &f->size)) return -1;
    return anim ? t3dm_write_sdata(&an, &f->sdata, &f->sdata_size) : 0;
}

/* One quad per texture path, in a row along x; paths[i] NULL = untextured. */
static inline int fx_textured(fx_file *f, const char *const *paths, const uint16_t (*sizes)[2],
                              unsigned n)
{
    t3dm_vertex *v = calloc(4u * n, sizeof *v);
    t3dm_w_part *parts = calloc(n, sizeof *parts);
    t3dm_w_object *objs = calloc(n, sizeof *objs);
    t3dm_w_material *mats = calloc(n, sizeof *mats);
    static const uint8_t tris[6] = {0, 1, 2, 0, 2, 3};
    int rc = -1;
    if (!v || !parts || !objs || !mats) goto done;
    for (unsigned i = 0; i < n; i++) {
        /* rows of five quads, 36 units wide, 4 apart */
        int x0 = -100 + (int)(i % 5) * 40, y0 = 2 - (int)(i / 5) * 40;
        int w = sizes[i][0], h = sizes[i][1];
        uint32_t c = 0xFFFFFFFFu;
        v[4 * i + 0] = fx_vert(x0, y0, 0, 0, 0, 1, c, 0, h);
        v[4 * i + 1] = fx_vert(x0 + 36, y0, 0, 0, 0, 1, c, w, h);
        v[4 * i + 2] = fx_vert(x0 + 36, y0 + 36, 0, 0, 0, 1, c, w, 0);
        v[4 * i + 3] = fx_vert(x0, y0 + 36, 0, 0, 0, 1, c, 0, 0);
        parts[i] = (t3dm_w_part){.vert_first = 4 * i,
                                 .vert_count = 4,
                                 .vert_dest = 0,
                                 .tris = tris,
                                 .num_tris = 6,
                                 .matrix = 0xFFFF};
        objs[i] = (t3dm_w_object){"quad", i, &parts[i], 1, 2};
        mats[i] = (t3dm_w_material){.name = paths[i] ? paths[i] : "plain",
                                    .draw_flags =
                                        T3DM_FLAG_DEPTH | T3DM_FLAG_TEXTURED | T3DM_FLAG_NO_LIGHT,
                                    .prim = {255, 255, 255, 255}};
        mats[i].tex[0] =
            (t3dm_w_texture){paths[i], (uint16_t)w, (uint16_t)h, false, false, false, false};
    }
    t3dm_w_model m = {.vertices = v,
                      .num_vertices = 4 * n,
                      .objects = objs,
                      .num_objects = n,
                      .materials = mats,
                      .num_materials = n};
    rc = t3dm_write(&m, &f->data, &f->size);
done:
    free(v);
    free(parts);
    free(objs);
    free(mats);
    return rc;
}

/* ---- sprites: one per libdragon format, 16x16 (CI8 24x24: padded to 32 on the DS) ---- */

#define FX_NUM_SPRITES 9
static const uint8_t fx_sprite_formats[FX_NUM_SPRITES] = {
    T3DM_SPRITE_RGBA16, T3DM_SPRITE_RGBA32, T3DM_SPRITE_CI4, T3DM_SPRITE_CI8, T3DM_SPRITE_I4,
    T3DM_SPRITE_I8,     T3DM_SPRITE_IA4,    T3DM_SPRITE_IA8, T3DM_SPRITE_IA16};
static const char *const fx_sprite_paths[FX_NUM_SPRITES] = {
    "rom:/tex/rgba16.sprite", "rom:/tex/rgba32.sprite", "rom:/tex/ci4.sprite",
    "rom:/tex/ci8.sprite",    "rom:/tex/i4.sprite",     "rom:/tex/i8.sprite",
    "rom:/tex/ia4.sprite",    "rom:/tex/ia8.sprite",    "rom:/tex/ia16.sprite"};

static inline uint16_t fx_sprite_side(unsigned k)
{
    return fx_sprite_formats[k] == T3DM_SPRITE_CI8 ? 24 : 16;
}

/* Texel k of sprite `fmt` at (x, y): a pattern with a diagonal gradient and a checker. */
static inline uint32_t fx_texel(uint8_t fmt, unsigned x, unsigned y)
{
    unsigned chk = ((x / 4) + (y / 4)) & 1u;
    switch (fmt) {
    case T3DM_SPRITE_RGBA16:
        return ((x * 2u) << 11) | ((y * 2u) << 6) | ((chk ? 31u : 8u) << 1) | 1u;
    case T3DM_SPRITE_RGBA32:
        return ((x * 16u) << 24) | ((255u - y * 16u) << 16) | ((chk ? 255u : 64u) << 8) |
               (x < 4 && y < 4 ? 0u : 255u);
    case T3DM_SPRITE_CI4: return ((x / 4) + 4 * (y / 4)) & 15u;
    case T3DM_SPRITE_CI8: return (x * 10u + y) & 255u;
    case T3DM_SPRITE_I4: return (x + y) / 2u & 15u;
    case T3DM_SPRITE_I8: return chk ? 255u - x * 8u : y * 12u;
    case T3DM_SPRITE_IA4: return ((x / 2u) << 1) | (y < 12 ? 1u : 0u);
    case T3DM_SPRITE_IA8: return (x << 4) | (15u - (y & 15u) / 2u);
    default: return ((chk ? 240u : 40u + y * 8u) << 8) | (x < 12 ? 255u : 96u);
    }
}

static inline int fx_sprite(unsigned k, uint8_t **out, size_t *size)
{
    uint8_t fmt = fx_sprite_formats[k];
    uint16_t side = fx_sprite_side(k);
    uint32_t *tx = calloc((size_t)side * side, sizeof *tx);
    uint16_t pal[256];
    if (!tx) return -1;
    for (unsigned y = 0; y < side; y++)
        for (unsigned x = 0; x < side; x++) tx[y * side + x] = fx_texel(fmt, x, y);
    for (unsigned i = 0; i < 256; i++) {
        unsigned r = (i * 7u) & 31u, g = (i * 3u) & 31u, b = 31u - (i & 31u);
        pal[i] = (uint16_t)((r << 11) | (g << 6) | (b << 1) |
                            (i == 0 && fmt == T3DM_SPRITE_CI4 ? 0u : 1u));
    }
    t3dm_sprite_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.image = (t3dm_sprite_spec_level){side, side, tx};
    sp.format = fmt;
    sp.hslices = sp.vslices = 1;
    sp.ext_version = 6;
    if (fmt == T3DM_SPRITE_CI4 || fmt == T3DM_SPRITE_CI8) {
        sp.palette = pal;
        sp.palette_colors = fmt == T3DM_SPRITE_CI4 ? 16 : 256;
    }
    int rc = t3dm_sprite_write(&sp, out, size);
    free(tx);
    return rc;
}

/* The textured model: one quad per sprite format, plus an untextured one (no path). */
static inline int fx_textured_all(fx_file *f)
{
    const char *paths[FX_NUM_SPRITES + 1];
    uint16_t sizes[FX_NUM_SPRITES + 1][2];
    for (unsigned k = 0; k < FX_NUM_SPRITES; k++) {
        paths[k] = fx_sprite_paths[k];
        sizes[k][0] = sizes[k][1] = fx_sprite_side(k);
    }
    paths[FX_NUM_SPRITES] = NULL;
    sizes[FX_NUM_SPRITES][0] = sizes[FX_NUM_SPRITES][1] = 16;
    return fx_textured(f, paths, (const uint16_t(*)[2])sizes, FX_NUM_SPRITES + 1);
}

#endif
