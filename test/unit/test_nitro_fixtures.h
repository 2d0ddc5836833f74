/*
 * test_nitro_fixtures.h - builds the NSBMD / NSBTX fixtures the nitro tests use, with
 * nitro/writer.c: two models (every node rotation form, every material option, every render
 * command opcode, envelopes), a TEX0 with every texture format and palettes.
 * Header-only (static functions) so each test executable includes it.
 */
#ifndef TEST_NITRO_FIXTURES_H
#define TEST_NITRO_FIXTURES_H

#include <string.h>

#include "nitro/writer.h"

typedef struct fixture {
    nitro_buf file;
    nitro_dl dl[3];
    nitro_buf sbc[2];
    uint8_t texels[7][512];
    uint8_t pidx[256];
    uint8_t pal[2][64];
} fixture;

static void fx_node(nitro_node *n, const char *name, uint16_t flags)
{
    memset(n, 0, sizeof *n);
    nitro_name_set(&n->name, name);
    n->flags = flags;
}

static void fixture_build_meshes(fixture *fx)
{
    nitro_dl *d = &fx->dl[0];
    nitro_dl_begin(d, 0);
    nitro_dl_color(d, rgb15_make(31, 0, 0));
    nitro_dl_normal(d, 0, 0, 511);
    nitro_dl_texcoord(d, 0, 0);
    nitro_dl_vtx16(d, -0x1000, -0x1000, 0);
    nitro_dl_texcoord(d, 16 * 16, 0);
    nitro_dl_vtx16(d, 0x1000, -0x1000, 0);
    nitro_dl_texcoord(d, 16 * 16, 16 * 16);
    nitro_dl_vtx16(d, 0x1000, 0x1000, 0);
    nitro_dl_end(d);
    nitro_dl_finish(d);
    d = &fx->dl[1];
    nitro_dl_mtx_restore(d, 2);
    nitro_dl_mtx_scale(d, 0x2000, 0x2000, 0x2000);
    nitro_dl_begin(d, 1);
    nitro_dl_vtx10(d, -64, -64, 0);
    nitro_dl_vtx_xy(d, 0x1000, -0x1000);
    nitro_dl_vtx_xz(d, 0x1000, 0);
    nitro_dl_vtx_yz(d, 0x1000, 0);
    nitro_dl_vtx_diff(d, -8, 0, 0);
    nitro_dl_end(d);
    nitro_dl_finish(d);
    d = &fx->dl[2];
    nitro_dl_begin(d, 2);
    nitro_dl_vtx16(d, 0, 0, 0);
    nitro_dl_vtx16(d, 0x800, 0, 0);
    nitro_dl_vtx16(d, 0, 0x800, 0);
    nitro_dl_end(d);
    nitro_dl_finish(d);
}

/* Model 0's render commands: every opcode. */
static void fixture_build_sbc(fixture *fx)
{
    nitro_buf *b = &fx->sbc[0];
    nitro_sbc_nop(b);
    nitro_sbc_node(b, 0, true);
    nitro_sbc_nodedesc(b, 0, 0, 0, -1, -1);
    nitro_sbc_nodedesc(b, 1, 0, 1, 1, -1);
    nitro_sbc_nodedesc(b, 2, 1, 2, -1, 1);
    nitro_sbc_nodedesc(b, 2, 1, 3, 2, 1);
    nitro_sbc_mtx(b, 1);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_mat(b, 1, 1);
    nitro_sbc_mat(b, 2, 0);
    nitro_sbc_shp(b, 0);
    nitro_sbc_bb(b, false, 1, -1, -1);
    nitro_sbc_bb(b, false, 1, 3, 2);
    nitro_sbc_bb(b, true, 2, 4, -1);
    nitro_sbc_bb(b, true, 2, -1, 4);
    const nitro_sbc_mix_term terms[2] = {{1, 1, 128}, {2, 2, 128}};
    nitro_sbc_nodemix(b, 5, 2, terms);
    nitro_sbc_calldl(b, 0, 0);
    nitro_sbc_posscale(b, false);
    nitro_sbc_shp(b, 1);
    nitro_sbc_posscale(b, true);
    nitro_sbc_map(b, false, 1, 0);
    nitro_sbc_map(b, true, 1, 0);
    nitro_sbc_node(b, 2, false);
    nitro_sbc_ret(b);
    b = &fx->sbc[1];
    nitro_sbc_node(b, 0, true);
    nitro_sbc_mtx(b, 0);
    nitro_sbc_mat(b, 0, 0);
    nitro_sbc_shp(b, 0);
    nitro_sbc_ret(b);
}

/* Fill texel data with a recognisable pattern per texture. */
static void fixture_build_textures(fixture *fx, nitro_wtexture tex[7], nitro_wpalette pal[2])
{
    static const char *const names[7] = {"t_a3i5", "t_pal4", "t_pal16", "t_pal256",
                                         "t_4x4",  "t_a5i3", "t_direct"};
    for (unsigned f = 0; f < 7; f++) {
        for (unsigned i = 0; i < sizeof fx->texels[f]; i++)
            fx->texels[f][i] = (uint8_t)(f * 37 + i);
        memset(&tex[f], 0, sizeof tex[f]);
        tex[f].name = names[f];
        /* 8x8 except 256-colour 16x8 and direct 8x16 (sizeS 1 / sizeT 1) */
        uint32_t s = f == 3 ? 1u : 0u, t = f == 6 ? 1u : 0u;
        tex[f].teximage_param = (s << 20) | (t << 23) | ((f + 1u) << 26) | (f == 1 ? 1u << 29 : 0);
        tex[f].extra = (8u << (s)) | ((8u << t) << 11);
        tex[f].data = fx->texels[f];
        tex[f].pidx = f == 4 ? fx->pidx : NULL;
    }
    for (unsigned i = 0; i < sizeof fx->pidx; i++) fx->pidx[i] = (uint8_t)(0xA0 + i);
    for (unsigned p = 0; p < 2; p++)
        for (unsigned i = 0; i < 64; i++) fx->pal[p][i] = (uint8_t)(p * 100 + i);
    pal[0] = (nitro_wpalette){"p_four", 1, fx->pal[0], 8};
    pal[1] = (nitro_wpalette){"p_sixteen", 0, fx->pal[1], 32};
}

/* The BMD0 fixture: 2 models + TEX0. Returns false on a writer error. */
static bool fixture_bmd0(fixture *fx, bool with_tex)
{
    memset(fx, 0, sizeof *fx);
    fixture_build_meshes(fx);
    fixture_build_sbc(fx);
    nitro_node nodes[3];
    fx_node(&nodes[0], "root", NITRO_NODE_TRANS_ZERO | NITRO_NODE_ROT_ZERO | NITRO_NODE_SCALE_ONE);
    nodes[0].rot_raw[0] = 0x1000;
    fx_node(&nodes[1], "arm", 0);
    nodes[1].translation[0] = 0x1000;
    nodes[1].translation[1] = -0x2000;
    nodes[1].translation[2] = 0x0800;
    const int16_t rot[9] = {0x1000, 0, 0, 0, 0, -0x1000, 0, 0x1000, 0};
    memcpy(nodes[1].rot_raw, rot, sizeof rot);
    nodes[1].scale[0] = nodes[1].scale[1] = nodes[1].scale[2] = 0x2000;
    nodes[1].inv_scale[0] = nodes[1].inv_scale[1] = nodes[1].inv_scale[2] = 0x0800;
    fx_node(&nodes[2], "hand",
            NITRO_NODE_TRANS_ZERO | NITRO_NODE_SCALE_ONE | NITRO_NODE_PIVOT |
                (4u << NITRO_NODE_PIVOT_INDEX_SHIFT) | NITRO_NODE_PIVOT_NEG |
                NITRO_NODE_PIVOT_REV_C);
    nodes[2].pivot_a = 0x0B50;
    nodes[2].pivot_b = 0x0B50;
    nitro_material mats[2];
    memset(mats, 0, sizeof mats);
    nitro_name_set(&mats[0].name, "mat_plain");
    mats[0].dif_amb = 0x4210C210u;
    mats[0].spe_emi = 0x00000000u;
    mats[0].polygon_attr = 0x001F00C0u;
    mats[0].polygon_attr_mask = 0x1F3FF8FFu;
    mats[0].teximage_param = 0x00030000u;
    mats[0].teximage_param_mask = 0xFFFFFFFFu;
    mats[0].flags = NITRO_MAT_TEXMTX_SCALE_ONE | NITRO_MAT_TEXMTX_ROT_ZERO |
                    NITRO_MAT_TEXMTX_TRANS_ZERO | NITRO_MAT_DIFFUSE | NITRO_MAT_AMBIENT;
    mats[0].orig_width = 8;
    mats[0].orig_height = 8;
    mats[0].mag_w = mats[0].mag_h = 0x1000;
    mats[0].has_texture = true;
    nitro_name_set(&mats[0].texture_name, "t_a3i5");
    mats[0].has_palette = true;
    nitro_name_set(&mats[0].palette_name, "p_sixteen");
    nitro_name_set(&mats[1].name, "mat_fancy");
    mats[1].dif_amb = 0x7FFF001Fu;
    mats[1].spe_emi = 0x03E07C00u;
    mats[1].polygon_attr = 0x0A1F0080u;
    mats[1].polygon_attr_mask = 0xFFFFFFFFu;
    mats[1].teximage_param = 0x400F0000u;
    mats[1].teximage_param_mask = 0xFFFFFFFFu;
    mats[1].pltt_base = 0x0012;
    mats[1].flags =
        NITRO_MAT_TEXMTX_USE | NITRO_MAT_EFFECT_MTX | NITRO_MAT_WIREFRAME | NITRO_MAT_PLTT_BASE;
    mats[1].orig_width = 8;
    mats[1].orig_height = 16;
    mats[1].mag_w = 0x1000;
    mats[1].mag_h = 0x2000;
    mats[1].scale_s = 0x2000;
    mats[1].scale_t = -0x1000;
    mats[1].rot_sin = 0x0B50;
    mats[1].rot_cos = -0x0B50;
    mats[1].trans_s = 0x00123000;
    mats[1].trans_t = -0x00004000;
    for (int i = 0; i < 16; i++) mats[1].effect_mtx[i] = (fx32)(i * 0x100 - 0x800);
    mats[1].has_texture = true;
    nitro_name_set(&mats[1].texture_name, "t_direct");
    nitro_wmesh meshes[2] = {
        {"quad_a", 0, 0, fx->dl[0].buf.data, (uint32_t)fx->dl[0].buf.size},
        {"quad_b", 0, 5, fx->dl[1].buf.data, (uint32_t)fx->dl[1].buf.size},
    };
    nitro_envelope env[3];
    for (int n = 0; n < 3; n++) {
        for (int k = 0; k < 12; k++) env[n].pos[k] = (fx32)(n * 0x10000 + k * 0x100);
        for (int k = 0; k < 9; k++) env[n].dir[k] = (fx32)(-(n * 0x1000) - k);
    }
    nitro_wmodel models[2];
    memset(models, 0, sizeof models);
    models[0].name = "figure";
    models[0].info.scaling_rule = 1;
    models[0].info.texmtx_mode = 0;
    models[0].info.first_unused_mtx_stack = 6;
    models[0].info.pos_scale = 0x2000;
    models[0].info.inv_pos_scale = 0x0800;
    models[0].info.num_vertices = 8;
    models[0].info.num_polygons = 2;
    models[0].info.num_triangles = 1;
    models[0].info.num_quads = 1;
    const int16_t box[6] = {-0x1000, -0x1000, -0x100, 0x2000, 0x2000, 0x200};
    memcpy(models[0].info.box, box, sizeof box);
    models[0].info.box_pos_scale = 0x1000;
    models[0].info.box_inv_pos_scale = 0x1000;
    models[0].nodes = nodes;
    models[0].num_nodes = 3;
    models[0].materials = mats;
    models[0].num_materials = 2;
    models[0].meshes = meshes;
    models[0].num_meshes = 2;
    models[0].sbc = fx->sbc[0].data;
    models[0].sbc_size = (uint32_t)fx->sbc[0].size;
    models[0].envelopes = env;
    models[0].num_envelopes = 3;
    nitro_wmesh mesh_b = {"strip", 0, 0, fx->dl[2].buf.data, (uint32_t)fx->dl[2].buf.size};
    models[1].name = "pebble";
    models[1].info.pos_scale = models[1].info.inv_pos_scale = 0x1000;
    models[1].nodes = nodes;
    models[1].num_nodes = 1;
    models[1].materials = mats;
    models[1].num_materials = 1;
    models[1].meshes = &mesh_b;
    models[1].num_meshes = 1;
    models[1].sbc = fx->sbc[1].data;
    models[1].sbc_size = (uint32_t)fx->sbc[1].size;
    nitro_wtexture tex[7];
    nitro_wpalette pal[2];
    fixture_build_textures(fx, tex, pal);
    nitro_wtex0 t = {tex, 7, pal, 2};
    char err[128];
    return nitro_write_bmd0(models, 2, with_tex ? &t : NULL, &fx->file, err, sizeof err);
}

static bool fixture_btx0(fixture *fx)
{
    memset(fx, 0, sizeof *fx);
    nitro_wtexture tex[7];
    nitro_wpalette pal[2];
    fixture_build_textures(fx, tex, pal);
    nitro_wtex0 t = {tex, 7, pal, 2};
    char err[128];
    return nitro_write_btx0(&t, &fx->file, err, sizeof err);
}

static void fixture_free(fixture *fx)
{
    nitro_buf_free(&fx->file);
    for (int i = 0; i < 3; i++) nitro_buf_free(&fx->dl[i].buf);
    for (int i = 0; i < 2; i++) nitro_buf_free(&fx->sbc[i]);
}

#endif
