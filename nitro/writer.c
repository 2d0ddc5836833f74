/*
 * writer.c - writes NSBMD (BMD0) and NSBTX (BTX0) files from descriptions (writer.h), and
 * rebuilds descriptions from parsed files (for round-trip tests).
 *
 * Layouts are the parser's (container.c, namelist.c, mdl0.c, tex0.c). Dictionaries get a real
 * Patricia tree so NitroSystem's name lookup works on our files; the tree is built as
 * MarioKartToolbox PatriciaTreeBuilder.cs describes it: root node with reference bit 127 and
 * an all-zero name, bit b of a name is bit (b & 7) of byte b / 8, nodes stored depth-first
 * (node, left subtree, right subtree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "nitro/writer.h"

typedef struct wctx {
    nitro_buf *b;
    char *err;
    size_t err_size;
    bool failed;
} wctx;

static bool werr(wctx *w, const char *msg, const char *name)
{
    if (!w->failed && w->err)
        snprintf(w->err, w->err_size, "%s%s%s", msg, name ? ": " : "", name ? name : "");
    w->failed = true;
    return false;
}

/* ---- Patricia tree ---- */

typedef struct ptnode {
    uint8_t name[16];
    int bit, entry, left, right;
} ptnode;

static int name_bit(const uint8_t *name, int bit)
{
    return (name[bit / 8] >> (bit & 7)) & 1;
}

/* Insert names[i] into the tree (nodes[0] is the root); n = current node count. */
static bool pt_insert(ptnode *nodes, int n, const uint8_t *name, int entry)
{
    int cur = 0, next = nodes[0].left;
    while (nodes[cur].bit > nodes[next].bit) {
        cur = next;
        next = name_bit(name, nodes[next].bit) ? nodes[next].right : nodes[next].left;
    }
    int bit = 127;
    while (bit >= 0 && name_bit(nodes[next].name, bit) == name_bit(name, bit)) bit--;
    if (bit < 0) return false; /* duplicate (or empty) name */
    cur = 0;
    next = nodes[0].left;
    while (nodes[cur].bit > nodes[next].bit && nodes[next].bit > bit) {
        cur = next;
        next = name_bit(name, nodes[next].bit) ? nodes[next].right : nodes[next].left;
    }
    ptnode *x = &nodes[n];
    memcpy(x->name, name, 16);
    x->bit = bit;
    x->entry = entry;
    x->left = name_bit(name, bit) ? next : n;
    x->right = name_bit(name, bit) ? n : next;
    if (name_bit(name, nodes[cur].bit))
        nodes[cur].right = n;
    else
        nodes[cur].left = n;
    return true;
}

/* Depth-first order: order[k] = node index; pos[node] = k. */
static void pt_order(const ptnode *nodes, int count, int *order, int *pos)
{
    int stack[2 * 256 + 2], sp = 0, k = 0;
    for (int i = 0; i < count; i++) pos[i] = -1;
    stack[sp++] = 0;
    while (sp > 0) {
        int v = stack[--sp];
        if (pos[v] >= 0) continue;
        pos[v] = k;
        order[k++] = v;
        stack[sp++] = nodes[v].right;
        stack[sp++] = nodes[v].left;
    }
}

/* Write a dictionary; entry data is zero-filled. @return absolute position of entry 0's data. */
static size_t write_dict(wctx *w, const char *const *names, unsigned n, unsigned entry_size)
{
    if (n > 255) {
        werr(w, "more than 255 dictionary entries", NULL);
        return 0;
    }
    ptnode nodes[256];
    memset(nodes, 0, sizeof nodes);
    nodes[0].bit = 127;
    for (unsigned i = 0; i < n; i++) {
        uint8_t nm[16] = {0};
        if (!names[i] || !names[i][0] || strlen(names[i]) > 16) {
            werr(w, "empty or longer than 16 characters name", names[i]);
            return 0;
        }
        memcpy(nm, names[i], strlen(names[i]));
        if (!pt_insert(nodes, (int)i + 1, nm, (int)i)) {
            werr(w, "duplicate name", names[i]);
            return 0;
        }
    }
    int order[256], pos[256];
    pt_order(nodes, (int)n + 1, order, pos);
    nitro_buf *b = w->b;
    size_t start = b->size;
    nitro_buf_u8(b, 0);
    nitro_buf_u8(b, (uint8_t)n);
    nitro_buf_u16(b, 0); /* size, patched */
    nitro_buf_u16(b, 8);
    nitro_buf_u16(b, (uint16_t)(8 + 4 * (n + 1)));
    for (unsigned k = 0; k <= n; k++) {
        const ptnode *x = &nodes[order[k]];
        nitro_buf_u8(b, (uint8_t)x->bit);
        nitro_buf_u8(b, (uint8_t)pos[x->left]);
        nitro_buf_u8(b, (uint8_t)pos[x->right]);
        nitro_buf_u8(b, (uint8_t)x->entry);
    }
    nitro_buf_u16(b, (uint16_t)entry_size);
    nitro_buf_u16(b, (uint16_t)(4 + entry_size * n));
    size_t data = b->size;
    nitro_buf_bytes(b, NULL, (size_t)entry_size * n);
    for (unsigned i = 0; i < n; i++) {
        char nm[16] = {0};
        memcpy(nm, names[i], strlen(names[i]));
        nitro_buf_bytes(b, nm, 16);
    }
    nitro_buf_put16(b, start + 2, (uint16_t)(b->size - start));
    return data;
}

/* ---- models ---- */

static void write_node(nitro_buf *b, const nitro_node *n)
{
    nitro_buf_u16(b, n->flags);
    nitro_buf_u16(b, (uint16_t)n->rot_raw[0]);
    if (!(n->flags & NITRO_NODE_TRANS_ZERO))
        for (int i = 0; i < 3; i++) nitro_buf_u32(b, (uint32_t)n->translation[i]);
    bool rot = !(n->flags & NITRO_NODE_ROT_ZERO), pivot = (n->flags & NITRO_NODE_PIVOT) != 0;
    if (rot && !pivot)
        for (int i = 1; i < 9; i++) nitro_buf_u16(b, (uint16_t)n->rot_raw[i]);
    if (rot && pivot) {
        nitro_buf_u16(b, (uint16_t)n->pivot_a);
        nitro_buf_u16(b, (uint16_t)n->pivot_b);
    }
    if (!(n->flags & NITRO_NODE_SCALE_ONE)) {
        for (int i = 0; i < 3; i++) nitro_buf_u32(b, (uint32_t)n->scale[i]);
        for (int i = 0; i < 3; i++) nitro_buf_u32(b, (uint32_t)n->inv_scale[i]);
    }
}

static void write_material(nitro_buf *b, const nitro_material *m)
{
    size_t start = b->size;
    nitro_buf_u16(b, m->item_tag);
    nitro_buf_u16(b, 0); /* size, patched */
    nitro_buf_u32(b, m->dif_amb);
    nitro_buf_u32(b, m->spe_emi);
    nitro_buf_u32(b, m->polygon_attr);
    nitro_buf_u32(b, m->polygon_attr_mask);
    nitro_buf_u32(b, m->teximage_param);
    nitro_buf_u32(b, m->teximage_param_mask);
    nitro_buf_u16(b, m->pltt_base);
    nitro_buf_u16(b, m->flags);
    nitro_buf_u16(b, m->orig_width);
    nitro_buf_u16(b, m->orig_height);
    nitro_buf_u32(b, (uint32_t)m->mag_w);
    nitro_buf_u32(b, (uint32_t)m->mag_h);
    if (!(m->flags & NITRO_MAT_TEXMTX_SCALE_ONE)) {
        nitro_buf_u32(b, (uint32_t)m->scale_s);
        nitro_buf_u32(b, (uint32_t)m->scale_t);
    }
    if (!(m->flags & NITRO_MAT_TEXMTX_ROT_ZERO)) {
        nitro_buf_u16(b, (uint16_t)m->rot_sin);
        nitro_buf_u16(b, (uint16_t)m->rot_cos);
    }
    if (!(m->flags & NITRO_MAT_TEXMTX_TRANS_ZERO)) {
        nitro_buf_u32(b, (uint32_t)m->trans_s);
        nitro_buf_u32(b, (uint32_t)m->trans_t);
    }
    if (m->flags & NITRO_MAT_EFFECT_MTX)
        for (int i = 0; i < 16; i++) nitro_buf_u32(b, (uint32_t)m->effect_mtx[i]);
    nitro_buf_put16(b, start + 2, (uint16_t)(b->size - start));
}

/* Distinct texture (palettes=false) or palette names in order of first use. */
static unsigned pairing_names(const nitro_wmodel *md, bool palettes, const char **names)
{
    unsigned n = 0;
    for (unsigned i = 0; i < md->num_materials; i++) {
        const nitro_material *m = &md->materials[i];
        if (palettes ? !m->has_palette : !m->has_texture) continue;
        const char *s = palettes ? m->palette_name.s : m->texture_name.s;
        unsigned k = 0;
        while (k < n && strcmp(names[k], s)) k++;
        if (k == n) names[n++] = s;
    }
    return n;
}

static bool write_material_block(wctx *w, const nitro_wmodel *md)
{
    nitro_buf *b = w->b;
    size_t mb = b->size;
    const char *mnames[256] = {0}, *tnames[256] = {0}, *pnames[256] = {0};
    for (unsigned i = 0; i < md->num_materials; i++) mnames[i] = md->materials[i].name.s;
    unsigned nt = pairing_names(md, false, tnames), np = pairing_names(md, true, pnames);
    nitro_buf_u16(b, 0);
    nitro_buf_u16(b, 0);
    size_t mdict = write_dict(w, mnames, md->num_materials, 4);
    nitro_buf_put16(b, mb, (uint16_t)(b->size - mb));
    size_t tdict = write_dict(w, tnames, nt, 4);
    nitro_buf_put16(b, mb + 2, (uint16_t)(b->size - mb));
    size_t pdict = write_dict(w, pnames, np, 4);
    if (w->failed) return false;
    for (int pal = 0; pal < 2; pal++) {
        unsigned n = pal ? np : nt;
        for (unsigned k = 0; k < n; k++) {
            const char *s = pal ? pnames[k] : tnames[k];
            size_t list = b->size;
            unsigned count = 0;
            for (unsigned i = 0; i < md->num_materials; i++) {
                const nitro_material *m = &md->materials[i];
                bool has = pal ? m->has_palette : m->has_texture;
                if (has && !strcmp(pal ? m->palette_name.s : m->texture_name.s, s)) {
                    nitro_buf_u8(b, (uint8_t)i);
                    count++;
                }
            }
            nitro_buf_put32(b, (pal ? pdict : tdict) + 4u * k,
                            (uint32_t)(list - mb) | ((uint32_t)count << 16));
        }
    }
    nitro_buf_align(b, 4);
    for (unsigned i = 0; i < md->num_materials; i++) {
        nitro_buf_put32(b, mdict + 4u * i, (uint32_t)(b->size - mb));
        write_material(b, &md->materials[i]);
    }
    return !w->failed;
}

static bool write_mesh_block(wctx *w, const nitro_wmodel *md)
{
    nitro_buf *b = w->b;
    size_t sb = b->size;
    const char *names[256] = {0};
    for (unsigned i = 0; i < md->num_meshes; i++) names[i] = md->meshes[i].name;
    size_t dict = write_dict(w, names, md->num_meshes, 4);
    if (w->failed) return false;
    size_t rec0 = b->size;
    for (unsigned i = 0; i < md->num_meshes; i++) {
        nitro_buf_put32(b, dict + 4u * i, (uint32_t)(b->size - sb));
        nitro_buf_u16(b, md->meshes[i].item_tag);
        nitro_buf_u16(b, 16);
        nitro_buf_u32(b, md->meshes[i].flags);
        nitro_buf_u32(b, 0); /* display list offset, patched */
        nitro_buf_u32(b, md->meshes[i].dl_size);
    }
    for (unsigned i = 0; i < md->num_meshes; i++) {
        if (md->meshes[i].dl_size % 4)
            return werr(w, "display list size not a multiple of 4", md->meshes[i].name);
        nitro_buf_align(b, 4);
        size_t rec = rec0 + 16u * i;
        nitro_buf_put32(b, rec + 8, (uint32_t)(b->size - rec));
        nitro_buf_bytes(b, md->meshes[i].dl, md->meshes[i].dl_size);
    }
    return true;
}

static bool write_model(wctx *w, const nitro_wmodel *md)
{
    nitro_buf *b = w->b;
    if (md->num_nodes > 255 || md->num_materials > 255 || md->num_meshes > 255)
        return werr(w, "more than 255 nodes, materials or meshes", md->name);
    if (md->num_envelopes && md->num_envelopes != md->num_nodes)
        return werr(w, "envelope count must be 0 or the node count", md->name);
    size_t m0 = b->size;
    nitro_buf_bytes(b, NULL, 0x14);
    nitro_model_info in = md->info;
    in.num_nodes = (uint8_t)md->num_nodes;
    in.num_materials = (uint8_t)md->num_materials;
    in.num_meshes = (uint8_t)md->num_meshes;
    nitro_buf_u8(b, in.sbc_type);
    nitro_buf_u8(b, in.scaling_rule);
    nitro_buf_u8(b, in.texmtx_mode);
    nitro_buf_u8(b, in.num_nodes);
    nitro_buf_u8(b, in.num_materials);
    nitro_buf_u8(b, in.num_meshes);
    nitro_buf_u8(b, in.first_unused_mtx_stack);
    nitro_buf_u8(b, in.pad);
    nitro_buf_u32(b, (uint32_t)in.pos_scale);
    nitro_buf_u32(b, (uint32_t)in.inv_pos_scale);
    nitro_buf_u16(b, in.num_vertices);
    nitro_buf_u16(b, in.num_polygons);
    nitro_buf_u16(b, in.num_triangles);
    nitro_buf_u16(b, in.num_quads);
    for (int i = 0; i < 6; i++) nitro_buf_u16(b, (uint16_t)in.box[i]);
    nitro_buf_u32(b, (uint32_t)in.box_pos_scale);
    nitro_buf_u32(b, (uint32_t)in.box_inv_pos_scale);
    const char *names[256] = {0};
    for (unsigned i = 0; i < md->num_nodes; i++) names[i] = md->nodes[i].name.s;
    size_t ndict = write_dict(w, names, md->num_nodes, 4);
    if (w->failed) return false;
    for (unsigned i = 0; i < md->num_nodes; i++) {
        nitro_buf_align(b, 4);
        nitro_buf_put32(b, ndict + 4u * i, (uint32_t)(b->size - (m0 + 0x40)));
        write_node(b, &md->nodes[i]);
    }
    nitro_buf_align(b, 4);
    nitro_buf_put32(b, m0 + 4, (uint32_t)(b->size - m0));
    nitro_buf_bytes(b, md->sbc, md->sbc_size);
    nitro_buf_align(b, 4);
    nitro_buf_put32(b, m0 + 8, (uint32_t)(b->size - m0));
    if (!write_material_block(w, md)) return false;
    nitro_buf_align(b, 4);
    nitro_buf_put32(b, m0 + 12, (uint32_t)(b->size - m0));
    if (!write_mesh_block(w, md)) return false;
    nitro_buf_align(b, 4);
    size_t evp = b->size - m0;
    for (unsigned i = 0; i < md->num_envelopes; i++) {
        for (int k = 0; k < 12; k++) nitro_buf_u32(b, (uint32_t)md->envelopes[i].pos[k]);
        for (int k = 0; k < 9; k++) nitro_buf_u32(b, (uint32_t)md->envelopes[i].dir[k]);
    }
    size_t size = b->size - m0;
    nitro_buf_put32(b, m0, (uint32_t)size);
    nitro_buf_put32(b, m0 + 16, (uint32_t)(md->num_envelopes ? evp : size));
    return true;
}

static bool write_mdl0(wctx *w, const nitro_wmodel *models, unsigned n)
{
    nitro_buf *b = w->b;
    size_t s0 = b->size;
    nitro_buf_bytes(b, "MDL0", 4);
    nitro_buf_u32(b, 0);
    const char *names[256] = {0};
    if (n > 255) return werr(w, "more than 255 models", NULL);
    for (unsigned i = 0; i < n; i++) names[i] = models[i].name;
    size_t dict = write_dict(w, names, n, 4);
    for (unsigned i = 0; i < n && !w->failed; i++) {
        nitro_buf_align(b, 4);
        nitro_buf_put32(b, dict + 4u * i, (uint32_t)(b->size - s0));
        write_model(w, &models[i]);
    }
    nitro_buf_align(b, 4);
    nitro_buf_put32(b, s0 + 4, (uint32_t)(b->size - s0));
    return !w->failed;
}

/* ---- TEX0 ---- */

static bool write_tex0(wctx *w, const nitro_wtex0 *t)
{
    nitro_buf *b = w->b;
    size_t t0 = b->size;
    nitro_buf_bytes(b, "TEX0", 4);
    nitro_buf_bytes(b, NULL, 0x38);
    const char *tn[256] = {0}, *pn[256] = {0};
    if (t->num_textures > 255 || t->num_palettes > 255)
        return werr(w, "more than 255 textures or palettes", NULL);
    for (unsigned i = 0; i < t->num_textures; i++) tn[i] = t->textures[i].name;
    for (unsigned i = 0; i < t->num_palettes; i++) pn[i] = t->palettes[i].name;
    nitro_buf_put16(b, t0 + 0x0E, (uint16_t)(b->size - t0));
    nitro_buf_put16(b, t0 + 0x1E, (uint16_t)(b->size - t0));
    size_t tdict = write_dict(w, tn, t->num_textures, 8);
    nitro_buf_put16(b, t0 + 0x34, (uint16_t)(b->size - t0));
    size_t pdict = write_dict(w, pn, t->num_palettes, 4);
    if (w->failed) return false;
    /* Texel blocks: pass 0 = ordinary textures, pass 1 = 4x4 texels, pass 2 = 4x4 indices. */
    static const size_t ofs_field[3] = {0x14, 0x24, 0x28};
    uint32_t block_len[3] = {0, 0, 0};
    for (int pass = 0; pass < 3; pass++) {
        nitro_buf_align(b, 8);
        size_t blk = b->size;
        nitro_buf_put32(b, t0 + ofs_field[pass], (uint32_t)(blk - t0));
        for (unsigned i = 0; i < t->num_textures; i++) {
            const nitro_wtexture *x = &t->textures[i];
            unsigned fmt = teximage_format(x->teximage_param);
            if ((fmt == NITRO_TEX_4X4) != (pass > 0)) continue;
            uint32_t len = nitro_texture_size(fmt, 8u << teximage_size_s(x->teximage_param),
                                              8u << teximage_size_t(x->teximage_param));
            if (pass < 2) {
                uint32_t rel = (uint32_t)(b->size - blk);
                if (rel >> 3 > 0xFFFF) return werr(w, "texel data above 512 KiB", x->name);
                nitro_buf_put32(b, tdict + 8u * i, (x->teximage_param & ~0xFFFFu) | (rel >> 3));
                nitro_buf_put32(b, tdict + 8u * i + 4, x->extra);
                nitro_buf_bytes(b, x->data, len);
            } else {
                nitro_buf_bytes(b, x->pidx, len / 2);
            }
        }
        block_len[pass] = (uint32_t)(b->size - blk);
    }
    nitro_buf_put16(b, t0 + 0x0C, (uint16_t)(block_len[0] >> 3));
    nitro_buf_put16(b, t0 + 0x1C, (uint16_t)(block_len[1] >> 3));
    nitro_buf_align(b, 8);
    size_t pb = b->size;
    nitro_buf_put32(b, t0 + 0x38, (uint32_t)(pb - t0));
    for (unsigned i = 0; i < t->num_palettes; i++) {
        const nitro_wpalette *p = &t->palettes[i];
        if (p->size % 8 || !p->size) return werr(w, "palette size not a multiple of 8", p->name);
        /* PLTT_BASE counts 16 bytes for every format but 4-colour (8 bytes) (GBATEK "DS 3D
         * Texture Attributes", PLTT_BASE), and the runtime halves the stored offset and the
         * block key separately (bindMdlPltt_Internal_; SetPlttParamaters_ in pret/pokeplatinum
         * anm/nsbtp.c), so a palette other than 4-colour must start 16-byte aligned in the
         * block or it is bound 8 bytes low. 4-colour palettes keep 8-byte alignment. (Real
         * files can only work this way; MarioKartToolbox's IMD converter packs every palette at
         * 8 bytes, which is fine only for the palette sizes it sees.) */
        while (!(p->flags & 1u) && !b->oom && (b->size - pb) % 16) nitro_buf_u8(b, 0);
        nitro_buf_put32(b, pdict + 4u * i,
                        (uint32_t)((b->size - pb) >> 3) | ((uint32_t)p->flags << 16));
        nitro_buf_bytes(b, p->data, p->size);
    }
    nitro_buf_put16(b, t0 + 0x30, (uint16_t)((b->size - pb) >> 3));
    nitro_buf_put32(b, t0 + 4, (uint32_t)(b->size - t0));
    return !w->failed;
}

/* ---- containers ---- */

static bool write_container(wctx *w, const char *stamp, const nitro_wmodel *models,
                            unsigned num_models, const nitro_wtex0 *tex)
{
    nitro_buf *b = w->b;
    unsigned nsec = (models ? 1u : 0u) + (tex ? 1u : 0u);
    nitro_buf_bytes(b, stamp, 4);
    nitro_buf_u16(b, 0xFEFF);
    nitro_buf_u16(b, 2);
    nitro_buf_u32(b, 0);
    nitro_buf_u16(b, 16);
    nitro_buf_u16(b, (uint16_t)nsec);
    nitro_buf_bytes(b, NULL, 4u * nsec);
    unsigned k = 0;
    if (models) {
        nitro_buf_put32(b, 16 + 4u * k++, (uint32_t)b->size);
        if (!write_mdl0(w, models, num_models)) return false;
    }
    if (tex) {
        nitro_buf_align(b, 4);
        nitro_buf_put32(b, 16 + 4u * k++, (uint32_t)b->size);
        if (!write_tex0(w, tex)) return false;
    }
    nitro_buf_align(b, 4);
    nitro_buf_put32(b, 8, (uint32_t)b->size);
    if (b->oom) return werr(w, "out of memory", NULL);
    return !w->failed;
}

bool nitro_write_bmd0(const nitro_wmodel *models, unsigned num_models, const nitro_wtex0 *tex,
                      nitro_buf *out, char *err, size_t err_size)
{
    wctx w = {out, err, err_size, false};
    return write_container(&w, "BMD0", models, num_models, tex);
}

bool nitro_write_btx0(const nitro_wtex0 *tex, nitro_buf *out, char *err, size_t err_size)
{
    wctx w = {out, err, err_size, false};
    return write_container(&w, "BTX0", NULL, 0, tex);
}

bool nitro_write_wfile(const nitro_wfile *wf, nitro_buf *out, char *err, size_t err_size)
{
    if (wf->kind == NITRO_KIND_BTX0)
        return nitro_write_btx0(wf->has_tex ? &wf->tex : NULL, out, err, err_size);
    wctx w = {out, err, err_size, false};
    return write_container(&w, "BMD0", wf->models, wf->num_models, wf->has_tex ? &wf->tex : NULL);
}

/* ---- descriptions from parsed files ---- */

static uint32_t palette_len(const nitro_tex0 *t, unsigned i)
{
    uint32_t start = t->palettes[i].data_offset, end = t->pltt_data.size;
    for (unsigned k = 0; k < t->num_palettes; k++) {
        uint32_t o = t->palettes[k].data_offset;
        if (o > start && o < end) end = o;
    }
    return end - start;
}

bool nitro_wfile_from_parsed(const nitro_file *f, nitro_wfile *w)
{
    memset(w, 0, sizeof *w);
    if (f->kind != NITRO_KIND_BMD0 && f->kind != NITRO_KIND_BTX0) return false;
    w->kind = f->kind;
    unsigned total_meshes = 0;
    for (unsigned i = 0; i < f->num_models; i++) total_meshes += f->models[i].num_meshes;
    w->models = calloc(f->num_models ? f->num_models : 1, sizeof *w->models);
    w->meshes = calloc(total_meshes ? total_meshes : 1, sizeof *w->meshes);
    if (!w->models || !w->meshes) return nitro_wfile_free(w), false;
    w->num_models = f->num_models;
    nitro_wmesh *ms = w->meshes;
    for (unsigned i = 0; i < f->num_models; i++) {
        const nitro_model *m = &f->models[i];
        nitro_wmodel *o = &w->models[i];
        o->name = m->name.s;
        o->info = m->info;
        o->nodes = m->nodes;
        o->num_nodes = m->num_nodes;
        o->materials = m->materials;
        o->num_materials = m->num_materials;
        o->meshes = ms;
        o->num_meshes = m->num_meshes;
        for (unsigned k = 0; k < m->num_meshes; k++, ms++) {
            ms->name = m->meshes[k].name.s;
            ms->item_tag = m->meshes[k].item_tag;
            ms->flags = m->meshes[k].flags;
            ms->dl = f->data + m->meshes[k].dl.offset;
            ms->dl_size = m->meshes[k].dl.size;
        }
        o->sbc = f->data + m->sbc.offset;
        o->sbc_size = m->sbc.size;
        o->envelopes = m->envelopes;
        o->num_envelopes = m->num_envelopes;
    }
    if (f->tex0) {
        const nitro_tex0 *t = f->tex0;
        w->has_tex = true;
        w->textures = calloc(t->num_textures ? t->num_textures : 1, sizeof *w->textures);
        w->palettes = calloc(t->num_palettes ? t->num_palettes : 1, sizeof *w->palettes);
        if (!w->textures || !w->palettes) return nitro_wfile_free(w), false;
        for (unsigned i = 0; i < t->num_textures; i++) {
            const nitro_texture *x = &t->textures[i];
            w->textures[i].name = x->name.s;
            w->textures[i].teximage_param = x->teximage_param & ~0xFFFFu;
            w->textures[i].extra = x->extra;
            w->textures[i].data = f->data + x->data.offset;
            w->textures[i].pidx = x->format == NITRO_TEX_4X4 ? f->data + x->pidx.offset : NULL;
        }
        for (unsigned i = 0; i < t->num_palettes; i++) {
            w->palettes[i].name = t->palettes[i].name.s;
            w->palettes[i].flags = t->palettes[i].flags;
            w->palettes[i].data = f->data + t->palettes[i].data.offset;
            w->palettes[i].size = palette_len(t, i);
        }
        w->tex.textures = w->textures;
        w->tex.num_textures = t->num_textures;
        w->tex.palettes = w->palettes;
        w->tex.num_palettes = t->num_palettes;
    }
    return true;
}

void nitro_wfile_free(nitro_wfile *w)
{
    free(w->models);
    free(w->meshes);
    free(w->textures);
    free(w->palettes);
    memset(w, 0, sizeof *w);
}
