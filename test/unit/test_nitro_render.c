/* test_nitro_render.c - golden scenes for the Nitro runtime: fixture models built in memory with
 * the writer (nitro/writer.h) - textured, lit, skinned, billboarded, every texture format,
 * several models in one file, every render-command opcode - drawn through the runtime, the
 * geometry engine and the rasterizer with a fixed camera, each frame's XXH3 compared with
 * golden/nitro/manifest.tsv (name, frame, xxh3; frame = model index in the file).
 *
 * Re-baseline: DSGX_NITRO_GOLDEN_UPDATE=1 ./test_nitro_render rewrites the manifest and the PNGs
 * (look at each PNG before committing it). On a mismatch the actual frame is written to the
 * current directory as nitro_<name>.<frame>.actual.png. DSGX_NITRO_FIXTURE_DIR=DIR also writes
 * each fixture file as DIR/<name>.nsbmd (for trying them with `dsgx render` / `dsgx info`).
 *
 * The fixtures are generator code, not game files. They also carry two hand-checked facts
 * about the runtime set-up that the frames depend on (asserted before rendering): where the
 * default frame VRAM manager puts the texel / 4x4 / palette blocks, and the magnification
 * NNS_G3dBindMdlTex gives a material whose texture is larger than its stored size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_nitro_scene.h"

/* ---- the fixtures ---- */

static bool write_file(kit *k, const nitro_wmodel *m, unsigned n, bool with_tex)
{
    nitro_wtexture tex[7];
    nitro_wpalette pal[6];
    build_textures(k, tex, pal);
    nitro_wtex0 t = {tex, 7, pal, 6};
    char err[160];
    bool ok = nitro_write_bmd0(m, n, with_tex ? &t : NULL, &k->file, err, sizeof err);
    if (!ok) fprintf(stderr, "writer: %s\n", err);
    return ok;
}

/* Simple rigid model: node 0 with the given rotation, one material per mesh. */
static void rigid_sbc(nitro_buf *b, unsigned nmesh, bool node_mtx)
{
    nitro_sbc_node(b, 0, true);
    if (node_mtx) nitro_sbc_nodedesc(b, 0, 0, 0, -1, -1);
    for (unsigned i = 0; i < nmesh; i++) {
        nitro_sbc_mat(b, 0, (uint8_t)i);
        nitro_sbc_shp(b, (uint8_t)i);
    }
    nitro_sbc_ret(b);
}

/* textured: a 16-colour texture plain (left), and with a Maya texture SRT (right). */
static bool fx_textured(kit *k)
{
    nitro_dl *d0 = new_dl(k), *d1 = new_dl(k);
    quad(d0, -0x900, 0, 0x800, 0x7FFF);
    nitro_dl_finish(d0);
    quad(d1, 0x900, 0, 0x800, 0x7FFF);
    nitro_dl_finish(d1);
    nitro_wmesh meshes[2] = {mesh_of(d0, "plain"), mesh_of(d1, "srt")};
    nitro_material mats[2];
    mat_init(&mats[0], "plain", "pal16", "p_16", 0);
    mat_init(&mats[1], "srt", "pal16", "p_16", 0);
    mats[1].flags =
        (uint16_t)((mats[1].flags & ~(NITRO_MAT_TEXMTX_SCALE_ONE | NITRO_MAT_TEXMTX_ROT_ZERO |
                                      NITRO_MAT_TEXMTX_TRANS_ZERO)) |
                   NITRO_MAT_TEXMTX_USE);
    mats[1].teximage_param |= 1u << 30; /* texgen: TexCoord source, the texture matrix applies */
    mats[1].scale_s = 0x1800;
    mats[1].scale_t = 0x2000;
    mats[1].rot_sin = 2048; /* 30 degrees */
    mats[1].rot_cos = 3547;
    mats[1].trans_s = 0x0400;
    mats[1].trans_t = -0x0200;
    nitro_node node;
    node_init(&node, "root");
    nitro_wmodel m;
    model_init(&m, "textured", 0x1800);
    m.info.texmtx_mode = 0; /* Maya */
    m.nodes = &node;
    m.num_nodes = 1;
    m.materials = mats;
    m.num_materials = 2;
    m.meshes = meshes;
    m.num_meshes = 2;
    rigid_sbc(&k->sbc[0], 2, true);
    m.sbc = k->sbc[0].data;
    m.sbc_size = (uint32_t)k->sbc[0].size;
    return write_file(k, &m, 1, true);
}

/* lit: a rotated cube, three materials (one per axis) with different colours, lights 0-3. */
static bool fx_lit(kit *k)
{
    nitro_wmesh meshes[3];
    nitro_material mats[3];
    static const char *const names[3] = {"x_faces", "y_faces", "z_faces"};
    static const uint32_t dif[3] = {0x001F, 0x03E0, 0x7C00};
    for (unsigned a = 0; a < 3; a++) {
        nitro_dl *d = new_dl(k);
        cube_faces(d, a, 0x0C00);
        nitro_dl_finish(d);
        meshes[a] = mesh_of(d, names[a]);
        mat_init(&mats[a], names[a], a == 2 ? "direct" : NULL, NULL, 15);
        mats[a].dif_amb = (0x7FFFu & (dif[a] | 0x4210u)) | (0x2108u << 16);
        mats[a].spe_emi = 0x2108u | (0x0842u << 16);
        mats[a].flags &= (uint16_t)~NITRO_MAT_VTXCOLOR;
    }
    nitro_node node;
    node_init(&node, "cube");
    static const int16_t rot[9] = {3355, 993, -2129, 0, 3712, 1731, 2349, -1418, 3041};
    node_rot(&node, rot);
    nitro_wmodel m;
    model_init(&m, "lit_cube", 0x1400);
    m.nodes = &node;
    m.num_nodes = 1;
    m.materials = mats;
    m.num_materials = 3;
    m.meshes = meshes;
    m.num_meshes = 3;
    rigid_sbc(&k->sbc[0], 3, true);
    m.sbc = k->sbc[0].data;
    m.sbc_size = (uint32_t)k->sbc[0].size;
    return write_file(k, &m, 1, true);
}

/* formats: seven quads, one per texture format, each node placed by its translation. */
static bool fx_formats(kit *k)
{
    nitro_wmesh meshes[7];
    nitro_material mats[7];
    nitro_node nodes[8];
    nitro_dl *d = new_dl(k);
    quad(d, 0, 0, 0x0600, 0x7FFF);
    nitro_dl_finish(d);
    node_init(&nodes[0], "root");
    nitro_buf *b = &k->sbc[0];
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, 0, -1);
    static const char *const names[7] = {"m_a3i5", "m_pal4", "m_pal16", "m_pal256",
                                         "m_4x4",  "m_a5i3", "m_direct"};
    for (unsigned f = 0; f < 7; f++) {
        meshes[f] = mesh_of(d, names[f]);
        mat_init(&mats[f], names[f], TEX_NAMES[f], f == 6 ? NULL : PAL_NAMES[f], 0);
        if (f == 0 || f == 5)
            mats[f].polygon_attr = (mats[f].polygon_attr & ~0x1F0000u) | (30u << 16);
        node_init(&nodes[1 + f], names[f]);
        node_trans(&nodes[1 + f], (fx32)((int)(f % 4) * 0x1000 - 0x1800), f < 4 ? 0x0700 : -0x0700,
                   0);
        nitro_sbc_node(b, (uint8_t)(1 + f), true);
        nitro_sbc_nodedesc(b, (uint8_t)(1 + f), 0, 0, -1, 0);
        nitro_sbc_mat(b, 0, (uint8_t)f);
        nitro_sbc_shp(b, (uint8_t)f);
    }
    nitro_sbc_ret(b);
    nitro_wmodel m;
    model_init(&m, "formats", 0x2000);
    m.nodes = nodes;
    m.num_nodes = 8;
    m.materials = mats;
    m.num_materials = 7;
    m.meshes = meshes;
    m.num_meshes = 7;
    m.sbc = b->data;
    m.sbc_size = (uint32_t)b->size;
    return write_file(k, &m, 1, true);
}

/* skinned: a bar of three rings of vertices: bottom on node 0 (slot 0), top on node 1
 * (slot 1, rotated 40 degrees about Z around its joint at y = 0.5), middle on the 50/50
 * NODEMIX blend (slot 2). Vertices of slot 2 are in bind space (the blend includes the
 * inverse bind matrices); those of slots 0 and 1 are local to their node. */
static bool fx_skinned(kit *k)
{
    nitro_dl *d = new_dl(k);
    nitro_dl_begin(d, 3); /* quad strip */
    nitro_dl_color(d, 0x7FFF);
    nitro_dl_mtx_restore(d, 0);
    nitro_dl_texcoord(d, 0, (tex16)(TEX_W * 16));
    nitro_dl_vtx16(d, -0x0300, -0x1000, 0);
    nitro_dl_texcoord(d, (tex16)(TEX_W * 16), (tex16)(TEX_W * 16));
    nitro_dl_vtx16(d, 0x0300, -0x1000, 0);
    nitro_dl_mtx_restore(d, 2);
    nitro_dl_texcoord(d, 0, (tex16)(TEX_W * 8));
    nitro_dl_vtx16(d, -0x0300, 0x0800, 0);
    nitro_dl_texcoord(d, (tex16)(TEX_W * 16), (tex16)(TEX_W * 8));
    nitro_dl_vtx16(d, 0x0300, 0x0800, 0);
    nitro_dl_mtx_restore(d, 1);
    nitro_dl_texcoord(d, 0, 0);
    nitro_dl_vtx16(d, -0x0300, 0x1400, 0);
    nitro_dl_texcoord(d, (tex16)(TEX_W * 16), 0);
    nitro_dl_vtx16(d, 0x0300, 0x1400, 0);
    nitro_dl_end(d);
    nitro_dl_finish(d);
    nitro_wmesh mesh = mesh_of(d, "bar");
    nitro_material mat;
    mat_init(&mat, "skin", "pal256", "p_256", 0);
    nitro_node nodes[2];
    node_init(&nodes[0], "hip");
    node_trans(&nodes[0], 0, -0x0800, 0);
    node_init(&nodes[1], "knee");
    node_trans(&nodes[1], 0, 0x0800, 0);
    static const int16_t rz[9] = {3138, 2633, 0, -2633, 3138, 0, 0, 0, 4096};
    node_rot(&nodes[1], rz);
    /* inverse bind: node 0 bound at y = -0.5, node 1 at y = 0 */
    nitro_envelope env[2];
    memset(env, 0, sizeof env);
    for (unsigned n = 0; n < 2; n++) {
        env[n].pos[0] = env[n].pos[4] = env[n].pos[8] = FX32_ONE;
        env[n].dir[0] = env[n].dir[4] = env[n].dir[8] = FX32_ONE;
    }
    env[0].pos[10] = 0x0800;
    nitro_buf *b = &k->sbc[0];
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, 0, -1);
    nitro_sbc_node(b, 1, true);
    nitro_sbc_nodedesc(b, 1, 0, 0, 1, 0);
    const nitro_sbc_mix_term terms[2] = {{0, 0, 128}, {1, 1, 128}};
    nitro_sbc_nodemix(b, 2, 2, terms);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_shp(b, 0);
    nitro_sbc_ret(b);
    nitro_wmodel m;
    model_init(&m, "skinned", 0x1800);
    m.nodes = nodes;
    m.num_nodes = 2;
    m.materials = &mat;
    m.num_materials = 1;
    m.meshes = &mesh;
    m.num_meshes = 1;
    m.sbc = b->data;
    m.sbc_size = (uint32_t)b->size;
    m.envelopes = env;
    m.num_envelopes = 2;
    return write_file(k, &m, 1, true);
}

/* billboard: a parent rotated 60 degrees about Y; a BB quad (left) faces the camera, a BBY
 * quad (right) keeps its Y axis, a plain quad (middle) shows the rotation. */
static bool fx_billboard(kit *k)
{
    nitro_dl *d = new_dl(k);
    quad(d, 0, 0, 0x0600, 0x7FFF);
    nitro_dl_finish(d);
    nitro_wmesh mesh = mesh_of(d, "card");
    nitro_material mats[3];
    mat_init(&mats[0], "bb", "a3i5", "p_a3i5", 0);
    mat_init(&mats[1], "plain", "pal4", "p_4", 0);
    mat_init(&mats[2], "bby", "a5i3", "p_a5i3", 0);
    nitro_node nodes[4];
    node_init(&nodes[0], "root");
    static const int16_t ry[9] = {2048, 0, -3547, 0, 4096, 0, 3547, 0, 2048};
    node_rot(&nodes[0], ry);
    node_init(&nodes[1], "bb");
    node_trans(&nodes[1], 0, 0, 0x1400);
    node_init(&nodes[2], "plain");
    node_init(&nodes[3], "bby");
    node_trans(&nodes[3], 0, 0, -0x1400);
    nitro_buf *b = &k->sbc[0];
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, 0, -1);
    nitro_sbc_node(b, 1, true);
    nitro_sbc_nodedesc(b, 1, 0, 0, -1, 0);
    nitro_sbc_bb(b, false, 1, -1, -1);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_shp(b, 0);
    nitro_sbc_node(b, 2, true);
    nitro_sbc_nodedesc(b, 2, 0, 0, -1, 0);
    nitro_sbc_mat(b, 0, 1);
    nitro_sbc_shp(b, 0);
    nitro_sbc_node(b, 3, true);
    nitro_sbc_nodedesc(b, 3, 0, 0, 1, 0);
    nitro_sbc_bb(b, true, 3, -1, 1);
    nitro_sbc_mat(b, 0, 2);
    nitro_sbc_shp(b, 0);
    nitro_sbc_ret(b);
    nitro_wmodel m;
    model_init(&m, "billboard", 0x1800);
    m.nodes = nodes;
    m.num_nodes = 4;
    m.materials = mats;
    m.num_materials = 3;
    m.meshes = &mesh;
    m.num_meshes = 1;
    m.sbc = b->data;
    m.sbc_size = (uint32_t)b->size;
    return write_file(k, &m, 1, true);
}

/* multi: three models in one file sharing the TEX0 (frame = model index). */
static bool fx_multi(kit *k)
{
    nitro_dl *d[3];
    static const char *const tex[3] = {"direct", "cmp4x4", "pal256"};
    static const char *const pal[3] = {NULL, "p_4x4", "p_256"};
    static const char *const names[3] = {"first", "second", "third"};
    nitro_wmesh meshes[3];
    nitro_material mats[3];
    nitro_node node;
    node_init(&node, "root");
    nitro_wmodel m[3];
    for (unsigned i = 0; i < 3; i++) {
        d[i] = new_dl(k);
        if (i == 0) {
            quad(d[i], 0, 0, 0x0C00, 0x7FFF);
        } else {
            cube_faces(d[i], 0, (vtx16)(0x0400 + 0x200 * i));
            cube_faces(d[i], 1, (vtx16)(0x0400 + 0x200 * i));
            cube_faces(d[i], 2, (vtx16)(0x0400 + 0x200 * i));
        }
        nitro_dl_finish(d[i]);
        meshes[i] = mesh_of(d[i], names[i]);
        mat_init(&mats[i], names[i], tex[i], pal[i], i == 0 ? 0 : 1);
        model_init(&m[i], names[i], 0x1000);
        m[i].nodes = &node;
        m[i].num_nodes = 1;
        m[i].materials = &mats[i];
        m[i].num_materials = 1;
        m[i].meshes = &meshes[i];
        m[i].num_meshes = 1;
    }
    static const int16_t rot[9] = {3355, 993, -2129, 0, 3712, 1731, 2349, -1418, 3041};
    nitro_node rnode = node;
    node_rot(&rnode, rot);
    m[1].nodes = m[2].nodes = &rnode;
    for (unsigned i = 0; i < 3; i++) {
        rigid_sbc(&k->sbc[i], 1, i != 0);
        m[i].sbc = k->sbc[i].data;
        m[i].sbc_size = (uint32_t)k->sbc[i].size;
    }
    return write_file(k, m, 3, true);
}

/* allops: every render-command opcode: NOP, RET, NODE (visible and hidden), MTX, MAT in all
 * three cache modes, SHP, NODEDESC with store and restore, BB, BBY, NODEMIX, CALLDL,
 * POSSCALE and its inverse, ENVMAP, PRJMAP. */
static void allops_sbc(nitro_buf *b, uint32_t calldl_rel, uint32_t calldl_size)
{
    nitro_sbc_nop(b);
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, 0, -1);
    nitro_sbc_mat(b, 2, 0); /* 0x44: fill the cache */
    nitro_sbc_node(b, 1, true);
    nitro_sbc_nodedesc(b, 1, 0, 0, 1, 0);
    nitro_sbc_mat(b, 1, 0); /* 0x24: from the cache */
    nitro_sbc_shp(b, 0);
    nitro_sbc_node(b, 2, true);
    nitro_sbc_nodedesc(b, 2, 0, 0, 2, 0);
    nitro_sbc_bb(b, false, 2, -1, -1);
    nitro_sbc_mat(b, 0, 1);
    nitro_sbc_posscale(b, false);
    nitro_sbc_shp(b, 1);
    nitro_sbc_posscale(b, true);
    nitro_sbc_node(b, 3, true);
    nitro_sbc_nodedesc(b, 3, 0, 0, -1, 0);
    nitro_sbc_bb(b, true, 3, 3, -1);
    nitro_sbc_mtx(b, 3);
    nitro_sbc_mat(b, 0, 2);
    nitro_sbc_map(b, false, 2, 0); /* ENVMAP */
    nitro_sbc_shp(b, 2);
    const nitro_sbc_mix_term terms[2] = {{1, 1, 160}, {2, 2, 96}};
    nitro_sbc_nodemix(b, 3, 2, terms);
    nitro_sbc_node(b, 4, true);
    nitro_sbc_nodedesc(b, 4, 0, 0, -1, 0);
    nitro_sbc_mat(b, 0, 3);
    nitro_sbc_map(b, true, 3, 0); /* PRJMAP */
    nitro_sbc_shp(b, 0);
    nitro_sbc_mtx(b, 0);
    nitro_sbc_mat(b, 0, 1);
    nitro_sbc_calldl(b, calldl_rel, calldl_size);
    nitro_sbc_node(b, 4, false);
    nitro_sbc_shp(b, 1); /* hidden: not drawn */
    nitro_sbc_ret(b);
}

static bool fx_allops(kit *k)
{
    nitro_dl *d0 = new_dl(k), *d1 = new_dl(k), *d2 = new_dl(k), *d3 = new_dl(k);
    quad(d0, 0, 0, 0x0500, 0x7FFF);
    nitro_dl_finish(d0);
    quad(d1, 0, 0, 0x0280, 0x7FFF); /* drawn at pos_scale 2 */
    nitro_dl_finish(d1);
    cube_faces(d2, 0, 0x0400);
    cube_faces(d2, 1, 0x0400);
    cube_faces(d2, 2, 0x0400);
    nitro_dl_finish(d2);
    /* the CALLDL target: a small triangle at the bottom */
    nitro_dl_begin(d3, 0);
    nitro_dl_color(d3, rgb15_make(31, 31, 0));
    nitro_dl_vtx16(d3, -0x0400, -0x1400, 0x0400);
    nitro_dl_vtx16(d3, 0x0400, -0x1400, 0x0400);
    nitro_dl_vtx16(d3, 0, -0x0C00, 0x0400);
    nitro_dl_end(d3);
    nitro_dl_finish(d3);
    nitro_wmesh meshes[4] = {mesh_of(d0, "card"), mesh_of(d1, "small"), mesh_of(d2, "box"),
                             mesh_of(d3, "tri")};
    nitro_material mats[4];
    mat_init(&mats[0], "cached", "pal16", "p_16", 0);
    mat_init(&mats[1], "scaled", "direct", NULL, 0);
    mat_init(&mats[2], "envmap", "direct", NULL, 1);
    mat_init(&mats[3], "prjmap", "cmp4x4", "p_4x4", 0);
    mats[1].flags &= (uint16_t)~NITRO_MAT_VTXCOLOR; /* the CALLDL triangle keeps its colour */
    mats[1].dif_amb &= ~0x8000u;
    nitro_node nodes[5];
    node_init(&nodes[0], "root");
    node_init(&nodes[1], "left");
    node_trans(&nodes[1], -0x1400, 0x0600, 0);
    node_init(&nodes[2], "right");
    node_trans(&nodes[2], 0x1400, 0x0600, 0);
    node_init(&nodes[3], "middle");
    node_trans(&nodes[3], 0, 0x0600, 0);
    node_init(&nodes[4], "bottom");
    node_trans(&nodes[4], 0, -0x0C00, 0);
    nitro_envelope env[5];
    memset(env, 0, sizeof env);
    for (unsigned n = 0; n < 5; n++) {
        env[n].pos[0] = env[n].pos[4] = env[n].pos[8] = FX32_ONE;
        env[n].dir[0] = env[n].dir[4] = env[n].dir[8] = FX32_ONE;
    }
    nitro_wmodel m;
    model_init(&m, "allops", 0x2000);
    m.info.pos_scale = 0x2000;
    m.info.inv_pos_scale = 0x0800;
    m.nodes = nodes;
    m.num_nodes = 5;
    m.materials = mats;
    m.num_materials = 4;
    m.meshes = meshes;
    m.num_meshes = 4;
    m.envelopes = env;
    m.num_envelopes = 5;
    /* First pass with a dummy CALLDL, then point it at mesh "tri" (same sizes, same layout). */
    allops_sbc(&k->sbc[0], 0, 0);
    m.sbc = k->sbc[0].data;
    m.sbc_size = (uint32_t)k->sbc[0].size;
    if (!write_file(k, &m, 1, true)) return false;
    nitro_file f;
    nitro_status st = nitro_parse(k->file.data, k->file.size, &f);
    assert_true(st.ok);
    const nitro_model *pm = &f.models[0];
    uint32_t at = 0;
    for (unsigned i = 0; i < pm->num_cmds; i++)
        if (pm->cmds[i].op == NITRO_SBC_CALLDL) at = pm->cmds[i].offset;
    uint32_t rel = pm->meshes[3].dl.offset - at, sz = pm->meshes[3].dl.size;
    nitro_file_free(&f);
    assert_true(at != 0);
    nitro_buf_free(&k->sbc[0]);
    allops_sbc(&k->sbc[0], rel, sz);
    m.sbc = k->sbc[0].data;
    nitro_buf_free(&k->file);
    return write_file(k, &m, 1, true);
}

/* ---- golden comparison ---- */

typedef struct fixture_def {
    const char *name;
    bool (*build)(kit *k);
    view v;
} fixture_def;

static const fixture_def FIXTURES[] = {
    {"textured", fx_textured, {{0, 0x0800, 0x5000}, {0, 0, 0}}},
    {"lit", fx_lit, {{0, 0x0800, 0x5000}, {0, 0, 0}}},
    {"formats", fx_formats, {{0, 0, 0x7000}, {0, 0, 0}}},
    {"skinned", fx_skinned, {{0, 0, 0x5800}, {0, 0x0200, 0}}},
    {"billboard", fx_billboard, {{0x1000, 0x1000, 0x6000}, {0, 0, 0}}},
    {"multi", fx_multi, {{0x0800, 0x0800, 0x4000}, {0, 0, 0}}},
    {"allops", fx_allops, {{0, 0x0400, 0x7000}, {0, 0, 0}}},
};
#define NFIX (sizeof FIXTURES / sizeof FIXTURES[0])

static void test_golden(void **state)
{
    (void)state;
    bool update = getenv("DSGX_NITRO_GOLDEN_UPDATE") != NULL;
    golden_row rows[64];
    unsigned nrows = update ? 0 : read_manifest(DSGX_GOLDEN_DIR "/nitro/manifest.tsv", rows, 64);
    FILE *mf = NULL;
    if (update) {
        mf = fopen(DSGX_GOLDEN_DIR "/nitro/manifest.tsv", "w");
        assert_non_null(mf);
        fprintf(mf, "name\tframe\txxh3\n");
    }
    unsigned checked = 0, failed = 0;
    static dsgx_frame frame;
    for (unsigned i = 0; i < NFIX; i++) {
        static kit k;
        memset(&k, 0, sizeof k);
        assert_true(FIXTURES[i].build(&k));
        nitro_file f;
        assert_true(nitro_parse(k.file.data, k.file.size, &f).ok);
        unsigned nm = f.num_models;
        nitro_file_free(&f);
        const char *dump = getenv("DSGX_NITRO_FIXTURE_DIR");
        if (dump) {
            char fpath[512];
            snprintf(fpath, sizeof fpath, "%s/%s.nsbmd", dump, FIXTURES[i].name);
            FILE *df = fopen(fpath, "wb");
            assert_non_null(df);
            assert_int_equal(fwrite(k.file.data, 1, k.file.size, df), k.file.size);
            fclose(df);
        }
        for (unsigned mi = 0; mi < nm; mi++) {
            render(k.file.data, k.file.size, mi, &FIXTURES[i].v, &frame);
            char hex[17], path[512], err[256];
            dsgx_frame_hash_hex(&frame, hex);
            if (update) {
                fprintf(mf, "%s\t%u\t%s\n", FIXTURES[i].name, mi, hex);
                snprintf(path, sizeof path, DSGX_GOLDEN_DIR "/nitro/%s.frame%03u.png",
                         FIXTURES[i].name, mi);
                assert_int_equal(dsgx_frame_write_png(&frame, path, err, sizeof err), 0);
                continue;
            }
            bool found = false;
            for (unsigned r = 0; r < nrows; r++) {
                if (strcmp(rows[r].name, FIXTURES[i].name) || rows[r].frame != mi) continue;
                found = true;
                checked++;
                if (strcmp(rows[r].hash, hex)) {
                    failed++;
                    snprintf(path, sizeof path, "nitro_%s.%u.actual.png", FIXTURES[i].name, mi);
                    dsgx_frame_write_png(&frame, path, err, sizeof err);
                    fprintf(stderr, "%s frame %u: %s, golden %s (actual written to %s)\n",
                            FIXTURES[i].name, mi, hex, rows[r].hash, path);
                }
            }
            if (!found) {
                failed++;
                fprintf(stderr, "%s frame %u: not in the manifest\n", FIXTURES[i].name, mi);
            }
        }
        kit_free(&k);
    }
    if (mf) {
        fclose(mf);
        return;
    }
    assert_int_equal(failed, 0);
    assert_int_equal(checked, nrows); /* every manifest row has its fixture */
}

/* ---- facts the frames depend on, checked by hand ---- */

/* Default frame VRAM manager with the "formats" TEX0: texel block 16x16 A3I5 (256) + 4-colour
 * (64) + 16-colour (128) + 256-colour (256) + A5I3 (256) + direct (512) = 1472 bytes = 0x5C0
 * (already a multiple of 16), from the top of slot 3: 0x80000 - 0x5C0 = 0x7FA40. The 4x4
 * block (64 bytes) from the bottom of slot 0: 0. The palette block from the top of bank E,
 * rounded up to 8 and aligned down to 16. A second upload stacks below / above the first. */
static void test_default_vram_layout(void **state)
{
    (void)state;
    static kit k;
    memset(&k, 0, sizeof k);
    assert_true(fx_formats(&k));
    nitro_file f;
    assert_true(nitro_parse(k.file.data, k.file.size, &f).ok);
    assert_non_null(f.tex0);
    assert_int_equal(f.tex0->tex_data.size, 1472);
    assert_int_equal(f.tex0->tex4x4_data.size, 64);
    uint32_t psz = f.tex0->pltt_data.size;
    static nitro_texvram v;
    nitro_texvram_init(&v);
    /* upload into a real engine so the writes are consumed */
    gx_engine *gx = gx_create();
    nitro_gx_sink sink = nitro_gx_engine_sink(gx);
    assert_true(nitro_texvram_upload(&v, f.tex0, k.file.data, &sink));
    assert_int_equal(v.sets[0].tex_base, 0x7FA40);
    assert_int_equal(v.sets[0].tex4x4_base, 0);
    uint32_t pr = (psz + 7u) & ~7u;
    assert_int_equal(v.sets[0].pltt_base, (0x10000u - pr) & ~15u);
    /* palettes: p_a3i5 (64 bytes) at 0, p_4 (8, 4-colour) at 64, p_16 at 80 (the writer puts
     * palettes other than 4-colour on 16 bytes), so PLTT_BASE = 80 / 16 + key / 16 for p_16 and
     * 64 / 8 + key / 8 for p_4 (NNS_G3dBindMdlPltt halves offset and key separately) */
    nitro_mat_bind mb = {0};
    uint32_t key = v.sets[0].pltt_base;
    assert_true(nitro_texvram_bind_pltt(&v, "p_16", &mb));
    assert_int_equal(mb.pltt_base, 5 + (key >> 4));
    assert_true(nitro_texvram_bind_pltt(&v, "p_4", &mb));
    assert_int_equal(mb.pltt_base, 8 + (key >> 3));
    assert_false(nitro_texvram_bind_pltt(&v, "nope", &mb));
    /* a second upload stacks below the first */
    assert_true(nitro_texvram_upload(&v, f.tex0, k.file.data, &sink));
    assert_int_equal(v.sets[1].tex_base, 0x7FA40 - 0x5C0);
    assert_int_equal(v.sets[1].tex4x4_base, 64);
    gx_destroy(gx);
    nitro_file_free(&f);
    kit_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_vram_layout),
        cmocka_unit_test(test_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
