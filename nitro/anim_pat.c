/*
 * anim_pat.c - NSBTP texture pattern animations (PAT0) and NSBVA visibility animations (VIS0).
 *
 * PAT0 (pret/pokeplatinum lib/NitroSystem/src/g3d/anm/nsbtp.c and binres/
 * res_struct_accessor_anm.c NNSi_G3dGetTexPatAnmFV; apicula nsbmd docs "Pattern Animations"):
 *   +0 "M\0PT", +4 u16 frames, +6 u8 texture names, +7 u8 palette names, +8 u16 offset of the
 *   texture names, +0xA u16 offset of the palette names (16-byte names, from the animation),
 *   +0xC dictionary of materials, 8-byte entries: u16 keys, u16 flag, fx16 keys-per-frame
 *   ratio, u16 offset of the keys; key: u16 frame, u8 texture index, u8 palette index (255 =
 *   keep the palette). Key lookup: start at (ratio * frame) >> 12, step back while the key's
 *   frame >= frame, then forward while the next key's frame <= frame.
 * VIS0 (nsbva.c; NNSG3dResVisAnm): +0 "V\0AV", +4 u16 frames, +6 u16 nodes, +8 u16 size,
 *   +0xC u32 bits; node n at frame f is bit (f * nodes + n). Bound by node index.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/anim_internal.h"

static bool read_names(nitro_cursor *c, const nitro_anim *a, size_t ofs_at, unsigned n,
                       nitro_name **out)
{
    c->pos = ofs_at;
    uint32_t rel = nitro_cur_u16(c);
    size_t at = nitro_cur_range(c, ofs_at, a->offset, rel, 16ull * n, "name list");
    *out = nitro_calloc(c, n ? n : 1, sizeof **out);
    if (!nitro_cur_ok(c)) return false;
    for (unsigned i = 0; i < n; i++) {
        c->pos = at + 16u * i;
        nitro_cur_name(c, &(*out)[i]);
    }
    return nitro_cur_ok(c);
}

bool nitro_pat_parse(nitro_cursor *c, nitro_anim *a, unsigned frames)
{
    (void)frames;
    c->what = "PAT0 animation";
    if (!nitro_cur_seek(c, a->offset + 6u)) return false;
    a->num_tex_names = nitro_cur_u8(c);
    a->num_pltt_names = nitro_cur_u8(c);
    if (!read_names(c, a, a->offset + 8u, a->num_tex_names, &a->tex_names) ||
        !read_names(c, a, a->offset + 10u, a->num_pltt_names, &a->pltt_names))
        return false;
    nitro_dict d;
    if (!nan_dict(c, a->offset + 12u, 8, &d)) return false;
    a->num_tracks = d.count;
    a->pat = nitro_calloc(c, d.count ? d.count : 1, sizeof *a->pat);
    c->what = "PAT0 track";
    for (unsigned i = 0; i < d.count && nitro_cur_ok(c); i++) {
        nitro_pat_track *t = &a->pat[i];
        size_t at = d.data + (size_t)d.entry_size * i;
        t->name = d.entries[i].name;
        c->pos = at;
        t->num_keys = nitro_cur_u16(c);
        t->flag = nitro_cur_u16(c);
        t->ratio = nitro_cur_s16(c);
        uint32_t rel = nitro_cur_u16(c);
        if (!nitro_cur_ok(c)) break;
        if (t->num_keys == 0) {
            nitro_cur_fail(c, at, "material \"%s\" has no keys", t->name.s);
            break;
        }
        t->keys = (uint32_t)nitro_cur_range(c, at + 6, a->offset, rel, 4ull * t->num_keys, "keys");
        for (unsigned k = 0; k < t->num_keys && nitro_cur_ok(c); k++) {
            uint32_t ka = t->keys + 4u * k;
            uint8_t tex = c->data[ka + 2], pl = c->data[ka + 3];
            if (tex >= a->num_tex_names)
                nitro_cur_fail(c, ka + 2, "texture index %u of %u names", tex, a->num_tex_names);
            else if (pl != 255 && pl >= a->num_pltt_names)
                nitro_cur_fail(c, ka + 3, "palette index %u of %u names", pl, a->num_pltt_names);
        }
    }
    nitro_dict_free(&d);
    return nitro_cur_ok(c);
}

unsigned nitro_pat_key(const nitro_anim *a, const uint8_t *d, unsigned ti, unsigned frame,
                       uint16_t *key_frame, uint8_t *tex, uint8_t *pltt)
{
    const nitro_pat_track *t = &a->pat[ti];
    if (frame >= a->num_frames) frame = a->num_frames - 1u;
    uint32_t i = (uint32_t)(((int64_t)t->ratio * frame) >> 12);
    if (i >= t->num_keys) i = t->num_keys - 1u; /* the runtime asserts here */
#define KF(k) nan_u16(d, t->keys + 4u * (k))
    while (i > 0 && KF(i) >= frame) i--;
    while (i + 1 < t->num_keys && KF(i + 1) <= frame) i++;
    if (key_frame) *key_frame = KF(i);
#undef KF
    if (tex) *tex = d[t->keys + 4u * i + 2];
    if (pltt) *pltt = d[t->keys + 4u * i + 3];
    return i;
}

bool nitro_vis_parse(nitro_cursor *c, nitro_anim *a, unsigned frames)
{
    c->what = "VIS0 animation";
    if (!nitro_cur_seek(c, a->offset + 6u)) return false;
    a->vis_nodes = nitro_cur_u16(c);
    if (!nitro_cur_ok(c)) return false;
    uint64_t bits = (uint64_t)frames * a->vis_nodes;
    uint64_t words = (bits + 31) / 32;
    a->vis_data = (uint32_t)nitro_cur_range(c, a->offset + 6u, a->offset, 12, 4 * words, "bits");
    a->vis_words = (uint32_t)words;
    return nitro_cur_ok(c);
}

bool nitro_vis_eval(const nitro_anim *a, const uint8_t *d, unsigned node, unsigned frame)
{
    if (frame >= a->num_frames) frame = a->num_frames - 1u;
    if (node >= a->vis_nodes) return true;
    uint32_t pos = frame * a->vis_nodes + node;
    return (nan_u32(d, a->vis_data + 4u * (pos >> 5)) >> (pos & 31)) & 1u;
}
