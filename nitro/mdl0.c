/*
 * mdl0.c - MDL0 blocks: the model dictionary and each model's header, nodes, materials
 * (with the texture/palette pairings), meshes and envelope (inverse bind) matrices.
 *
 * Layouts (offsets relative to the model unless said otherwise):
 *   model: +0 u32 size, +4 render commands, +8 material block, +0xC mesh block, +0x10
 *   envelopes, +0x14 NNSG3dResMdlInfo (0x2C bytes: pret/pokeheartgold res_struct.h; GBATEK
 *   BMD0 "Model"), +0x40 node dictionary (u32 offsets from +0x40).
 *   node (MarioKartToolbox G3dNodeData.cs; GBATEK BoneMatrix): u16 flags, fx16 _00, then
 *   translation 3 x fx32 unless TRANS_ZERO; 8 x fx16 _01.._22 unless ROT_ZERO or PIVOT; fx16
 *   A, B if PIVOT and not ROT_ZERO; scale 3 x fx32 and inverse scale 3 x fx32 unless SCALE_ONE.
 *   material block (G3dMaterialSet.cs; GBATEK "[08h]"): u16 offset of the texture dict, u16
 *   offset of the palette dict, material dict (u32 offsets from the block); pairing entries
 *   are u16 offset (from the block) of a u8 material index list, u8 count, u8 flag.
 *   material (G3dMaterial.cs; NOTES.md): u16 tag, u16 size, DIF_AMB, SPE_EMI, POLYGON_ATTR and
 *   mask, TEXIMAGE_PARAM and mask, u16 PLTT_BASE, u16 flag, u16 original width, height,
 *   fx32 magW, magH; then scaleS/T (unless flag 0x2), fx16 sin/cos (unless 0x4), translation
 *   S/T (unless 0x8), 16 x fx32 effect matrix (if 0x2000).
 *   mesh (G3dShape.cs; GBATEK VertexMesh): u16 tag, u16 size, u32 flags, u32 display list
 *   offset (from the mesh record), u32 display list size.
 *   envelope (G3dEnvelope.cs): 12 x fx32 position 4x3, 9 x fx32 direction 3x3; one per node.
 * Verified: round trip through our writer. Guess: a model with fewer envelope records than
 * nodes keeps as many as fit (NODEMIX indices are checked against that count).
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro_internal.h"

#define NITRO_ENVELOPE_BYTES 0x54u

void nitro_pivot_to_mtx33(unsigned index, bool neg, bool rev_c, bool rev_d, int16_t a, int16_t b,
                          fx32 out[9])
{
    memset(out, 0, 9 * sizeof out[0]);
    if (index > 8) {
        out[0] = out[4] = out[8] = FX32_ONE;
        return;
    }
    /* MarioKartToolbox G3dUtil.DecodePivotRotation: the pivot entry is +-1, its row and column
     * are 0, the other four entries (in storage order) get A, B, +-B, +-A. */
    const fx32 vals[4] = {a, b, rev_c ? -(fx32)b : b, rev_d ? -(fx32)a : a};
    unsigned k = 0;
    for (unsigned i = 0; i < 9; i++) {
        if (i == index)
            out[i] = neg ? -FX32_ONE : FX32_ONE;
        else if (i / 3 != index / 3 && i % 3 != index % 3)
            out[i] = vals[k++];
    }
}

static bool parse_node(nitro_cursor *c, size_t at, nitro_node *n)
{
    c->what = "node";
    if (!nitro_cur_seek(c, at)) return false;
    n->offset = (uint32_t)at;
    n->flags = nitro_cur_u16(c);
    n->rot_raw[0] = nitro_cur_s16(c);
    for (int i = 0; i < 3; i++) n->scale[i] = n->inv_scale[i] = FX32_ONE;
    if (!(n->flags & NITRO_NODE_TRANS_ZERO))
        for (int i = 0; i < 3; i++) n->translation[i] = nitro_cur_s32(c);
    bool rot = !(n->flags & NITRO_NODE_ROT_ZERO);
    bool pivot = (n->flags & NITRO_NODE_PIVOT) != 0;
    if (rot && !pivot)
        for (int i = 1; i < 9; i++) n->rot_raw[i] = nitro_cur_s16(c);
    if (rot && pivot) {
        n->pivot_a = nitro_cur_s16(c);
        n->pivot_b = nitro_cur_s16(c);
    }
    if (!(n->flags & NITRO_NODE_SCALE_ONE)) {
        for (int i = 0; i < 3; i++) n->scale[i] = nitro_cur_s32(c);
        for (int i = 0; i < 3; i++) n->inv_scale[i] = nitro_cur_s32(c);
    }
    if (!nitro_cur_ok(c)) return false;
    n->pivot_index = (n->flags >> NITRO_NODE_PIVOT_INDEX_SHIFT) & 0xFu;
    if (!rot) {
        memset(n->rotation, 0, sizeof n->rotation);
        n->rotation[0] = n->rotation[4] = n->rotation[8] = FX32_ONE;
    } else if (pivot) {
        if (n->pivot_index > 8) return nitro_cur_fail(c, at, "pivot index %u > 8", n->pivot_index);
        nitro_pivot_to_mtx33(n->pivot_index, n->flags & NITRO_NODE_PIVOT_NEG,
                             n->flags & NITRO_NODE_PIVOT_REV_C, n->flags & NITRO_NODE_PIVOT_REV_D,
                             n->pivot_a, n->pivot_b, n->rotation);
    } else {
        /* 1.3.12 and 1.19.12 share the 12 fraction bits: widening is the conversion. */
        for (int i = 0; i < 9; i++) n->rotation[i] = n->rot_raw[i];
    }
    return true;
}

static bool parse_material(nitro_cursor *c, size_t at, nitro_material *m)
{
    c->what = "material";
    if (!nitro_cur_seek(c, at)) return false;
    m->offset = (uint32_t)at;
    m->item_tag = nitro_cur_u16(c);
    m->size = nitro_cur_u16(c);
    m->dif_amb = nitro_cur_u32(c);
    m->spe_emi = nitro_cur_u32(c);
    m->polygon_attr = nitro_cur_u32(c);
    m->polygon_attr_mask = nitro_cur_u32(c);
    m->teximage_param = nitro_cur_u32(c);
    m->teximage_param_mask = nitro_cur_u32(c);
    m->pltt_base = nitro_cur_u16(c);
    m->flags = nitro_cur_u16(c);
    m->orig_width = nitro_cur_u16(c);
    m->orig_height = nitro_cur_u16(c);
    m->mag_w = nitro_cur_s32(c);
    m->mag_h = nitro_cur_s32(c);
    m->scale_s = m->scale_t = FX32_ONE;
    m->rot_sin = 0;
    m->rot_cos = FX32_ONE;
    if (!(m->flags & NITRO_MAT_TEXMTX_SCALE_ONE)) {
        m->scale_s = nitro_cur_s32(c);
        m->scale_t = nitro_cur_s32(c);
    }
    if (!(m->flags & NITRO_MAT_TEXMTX_ROT_ZERO)) {
        m->rot_sin = nitro_cur_s16(c);
        m->rot_cos = nitro_cur_s16(c);
    }
    if (!(m->flags & NITRO_MAT_TEXMTX_TRANS_ZERO)) {
        m->trans_s = nitro_cur_s32(c);
        m->trans_t = nitro_cur_s32(c);
    }
    for (int i = 0; i < 16; i++) m->effect_mtx[i] = (i % 5 == 0) ? FX32_ONE : 0;
    if (m->flags & NITRO_MAT_EFFECT_MTX)
        for (int i = 0; i < 16; i++) m->effect_mtx[i] = nitro_cur_s32(c);
    return nitro_cur_ok(c);
}

static bool parse_pairings(nitro_cursor *c, nitro_model *mdl, size_t block, size_t dict_at,
                           bool palettes)
{
    nitro_dict d;
    c->what = palettes ? "palette pairing dict" : "texture pairing dict";
    if (!nitro_dict_read(c, dict_at, 4, &d)) return false;
    nitro_pairing *p = nitro_calloc(c, d.count, sizeof *p);
    if (!p) {
        nitro_dict_free(&d);
        return false;
    }
    if (palettes) {
        mdl->palette_pairings = p;
        mdl->num_palette_pairings = d.count;
    } else {
        mdl->texture_pairings = p;
        mdl->num_texture_pairings = d.count;
    }
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        size_t at = d.data + (size_t)d.entry_size * i;
        p[i].name = d.entries[i].name;
        p[i].list_offset = (uint16_t)(d.entries[i].value & 0xFFFF);
        p[i].count = (uint8_t)(d.entries[i].value >> 16);
        p[i].flag = (uint8_t)(d.entries[i].value >> 24);
        size_t list =
            nitro_cur_range(c, at, block, p[i].list_offset, p[i].count, "material index list");
        p[i].materials = nitro_calloc(c, p[i].count, 1);
        if (!nitro_cur_ok(c)) break;
        memcpy(p[i].materials, c->data + list, p[i].count);
        for (unsigned k = 0; k < p[i].count; k++) {
            unsigned mi = p[i].materials[k];
            if (mi >= mdl->num_materials) {
                nitro_cur_fail(c, list + k, "material index %u >= %u materials", mi,
                               mdl->num_materials);
                break;
            }
            nitro_material *m = &mdl->materials[mi];
            if (palettes) {
                m->has_palette = true;
                m->palette_name = p[i].name;
            } else {
                m->has_texture = true;
                m->texture_name = p[i].name;
            }
        }
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

static bool parse_materials(nitro_cursor *c, nitro_model *mdl, size_t block)
{
    c->what = "material block";
    if (!nitro_cur_seek(c, block)) return false;
    size_t tex_at = nitro_cur_u16(c);
    size_t pal_at = nitro_cur_u16(c);
    nitro_dict d;
    c->what = "material dict";
    if (!nitro_dict_read(c, block + 4, 4, &d)) return false;
    mdl->materials = nitro_calloc(c, d.count, sizeof *mdl->materials);
    if (mdl->materials) mdl->num_materials = d.count;
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        size_t at = nitro_cur_range(c, d.data + (size_t)d.entry_size * i, block, d.entries[i].value,
                                    0x2C, "material offset");
        if (!nitro_cur_ok(c)) break;
        mdl->materials[i].name = d.entries[i].name;
        parse_material(c, at, &mdl->materials[i]);
    }
    nitro_dict_free(&d);
    if (!nitro_cur_ok(c)) return false;
    return parse_pairings(c, mdl, block, block + tex_at, false) &&
           parse_pairings(c, mdl, block, block + pal_at, true);
}

static bool parse_meshes(nitro_cursor *c, nitro_model *mdl, size_t block)
{
    nitro_dict d;
    c->what = "mesh dict";
    if (!nitro_dict_read(c, block, 4, &d)) return false;
    mdl->meshes = nitro_calloc(c, d.count, sizeof *mdl->meshes);
    if (mdl->meshes) mdl->num_meshes = d.count;
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        nitro_mesh *m = &mdl->meshes[i];
        size_t at = nitro_cur_range(c, d.data + (size_t)d.entry_size * i, block, d.entries[i].value,
                                    16, "mesh offset");
        if (!nitro_cur_ok(c)) break;
        c->what = "mesh";
        c->pos = at;
        m->name = d.entries[i].name;
        m->offset = (uint32_t)at;
        m->item_tag = nitro_cur_u16(c);
        m->size = nitro_cur_u16(c);
        m->flags = nitro_cur_u32(c);
        size_t ofs_at = c->pos;
        uint32_t dl_ofs = nitro_cur_u32(c);
        uint32_t dl_size = nitro_cur_u32(c);
        size_t dl = nitro_cur_range(c, ofs_at, at, dl_ofs, dl_size, "display list");
        if (nitro_cur_ok(c) && dl_size % 4)
            nitro_cur_fail(c, ofs_at + 4, "display list size %u not a multiple of 4", dl_size);
        m->dl.offset = (uint32_t)dl;
        m->dl.size = dl_size;
        c->what = "mesh dict";
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

static bool parse_envelopes(nitro_cursor *c, nitro_model *mdl, size_t at)
{
    c->what = "envelope matrices";
    if (!nitro_cur_seek(c, at)) return false;
    size_t avail = (c->hi - at) / NITRO_ENVELOPE_BYTES;
    unsigned n = mdl->num_nodes < avail ? mdl->num_nodes : (unsigned)avail;
    mdl->envelopes = nitro_calloc(c, n, sizeof *mdl->envelopes);
    if (!mdl->envelopes) return false;
    mdl->num_envelopes = n;
    for (unsigned i = 0; i < n; i++) {
        for (int k = 0; k < 12; k++) mdl->envelopes[i].pos[k] = nitro_cur_s32(c);
        for (int k = 0; k < 9; k++) mdl->envelopes[i].dir[k] = nitro_cur_s32(c);
    }
    return nitro_cur_ok(c);
}

static void read_info(nitro_cursor *c, nitro_model_info *in)
{
    in->sbc_type = nitro_cur_u8(c);
    in->scaling_rule = nitro_cur_u8(c);
    in->texmtx_mode = nitro_cur_u8(c);
    in->num_nodes = nitro_cur_u8(c);
    in->num_materials = nitro_cur_u8(c);
    in->num_meshes = nitro_cur_u8(c);
    in->first_unused_mtx_stack = nitro_cur_u8(c);
    in->pad = nitro_cur_u8(c);
    in->pos_scale = nitro_cur_s32(c);
    in->inv_pos_scale = nitro_cur_s32(c);
    in->num_vertices = nitro_cur_u16(c);
    in->num_polygons = nitro_cur_u16(c);
    in->num_triangles = nitro_cur_u16(c);
    in->num_quads = nitro_cur_u16(c);
    for (int i = 0; i < 6; i++) in->box[i] = nitro_cur_s16(c);
    in->box_pos_scale = nitro_cur_s32(c);
    in->box_inv_pos_scale = nitro_cur_s32(c);
}

static bool parse_model(nitro_cursor *mdl0, size_t at, nitro_model *m)
{
    mdl0->what = "model";
    if (!nitro_cur_seek(mdl0, at)) return false;
    m->offset = (uint32_t)at;
    size_t size_at = at;
    m->size = nitro_cur_u32(mdl0);
    if (!nitro_cur_ok(mdl0)) return false;
    if (m->size < 0x40 + 8)
        return nitro_cur_fail(mdl0, size_at, "model size 0x%X too small", m->size);
    nitro_cursor c = nitro_cur_sub(mdl0, at, m->size, "model");
    if (!nitro_cur_ok(&c)) {
        mdl0->st->offset = size_at;
        return false;
    }
    c.pos = at + 4;
    m->ofs_sbc = nitro_cur_u32(&c);
    m->ofs_mat = nitro_cur_u32(&c);
    m->ofs_shp = nitro_cur_u32(&c);
    m->ofs_evp = nitro_cur_u32(&c);
    c.what = "model info";
    read_info(&c, &m->info);
    for (int i = 0; i < 4; i++) {
        const uint32_t ofs[4] = {m->ofs_sbc, m->ofs_mat, m->ofs_shp, m->ofs_evp};
        if (ofs[i] > m->size)
            return nitro_cur_fail(&c, at + 4 + 4u * i, "offset 0x%X beyond model size 0x%X", ofs[i],
                                  m->size);
    }
    /* Nodes. */
    nitro_dict d;
    c.what = "node dict";
    if (!nitro_dict_read(&c, at + 0x40, 4, &d)) return false;
    m->nodes = nitro_calloc(&c, d.count, sizeof *m->nodes);
    if (m->nodes) m->num_nodes = d.count;
    for (unsigned i = 0; i < d.count && nitro_cur_ok(&c); i++) {
        c.what = "node dict";
        size_t nat = nitro_cur_range(&c, d.data + (size_t)d.entry_size * i, at + 0x40,
                                     d.entries[i].value, 4, "node offset");
        if (!nitro_cur_ok(&c)) break;
        m->nodes[i].name = d.entries[i].name;
        parse_node(&c, nat, &m->nodes[i]);
    }
    nitro_dict_free(&d);
    if (!nitro_cur_ok(&c)) return false;
    if (!parse_materials(&c, m, at + m->ofs_mat)) return false;
    if (!parse_meshes(&c, m, at + m->ofs_shp)) return false;
    if (m->ofs_evp != 0 && m->ofs_evp != m->size && !parse_envelopes(&c, m, at + m->ofs_evp))
        return false;
    /* Render commands: from their offset to the material block when that follows them. */
    size_t sbc_end = at + m->size;
    if (m->ofs_mat > m->ofs_sbc) sbc_end = at + m->ofs_mat;
    nitro_cursor s =
        nitro_cur_sub(&c, at + m->ofs_sbc, sbc_end - (at + m->ofs_sbc), "render commands");
    return nitro_sbc_decode(&s, m);
}

bool nitro_mdl0_parse(nitro_cursor *c, nitro_file *f)
{
    size_t base = c->lo;
    nitro_dict d;
    c->what = "MDL0 model dict";
    if (!nitro_dict_read(c, base + 8, 4, &d)) return false;
    f->models = nitro_calloc(c, d.count, sizeof *f->models);
    if (f->models) f->num_models = d.count;
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        c->what = "MDL0 model dict";
        size_t at = nitro_cur_range(c, d.data + (size_t)d.entry_size * i, base, d.entries[i].value,
                                    4, "model offset");
        if (!nitro_cur_ok(c)) break;
        f->models[i].name = d.entries[i].name;
        parse_model(c, at, &f->models[i]);
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

void nitro_model_free(nitro_model *m)
{
    free(m->nodes);
    free(m->materials);
    for (unsigned i = 0; i < m->num_texture_pairings; i++) free(m->texture_pairings[i].materials);
    for (unsigned i = 0; i < m->num_palette_pairings; i++) free(m->palette_pairings[i].materials);
    free(m->texture_pairings);
    free(m->palette_pairings);
    free(m->meshes);
    free(m->envelopes);
    free(m->cmds);
    free(m->mix_terms);
    memset(m, 0, sizeof *m);
}
