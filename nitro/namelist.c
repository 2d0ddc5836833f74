/*
 * namelist.c - NitroSystem name dictionaries (NNSG3dResDict, "NameList"/"3D info" dict).
 *
 * Layout (pret/pokeheartgold res_struct.h NNSG3dResDict; MarioKartToolbox
 * G3dDictionarySerializer.cs; apicula nsbmd docs "NameList"):
 *   +0 u8 revision (0), +1 u8 count, +2 u16 dictionary size, +4 u16 (8), +6 u16 offset of the
 *   entry section from the dictionary; +8 (count + 1) Patricia tree nodes of 4 bytes (used by
 *   the runtime for name lookup; we never follow them); entry section: u16 entry size, u16
 *   offset of the names from the entry section, count x entry data, count x 16-byte names.
 * Verified: our writer's output round-trips; field order agrees across the three sources.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro_internal.h"

void *nitro_calloc(nitro_cursor *c, size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) nitro_cur_fail(c, c->pos, "out of memory");
    return p;
}

void nitro_name_set(nitro_name *n, const char *s)
{
    memset(n, 0, sizeof *n);
    if (s) strncpy(n->s, s, 16);
}

bool nitro_dict_read(nitro_cursor *c, size_t at, unsigned min_entry_size, nitro_dict *d)
{
    memset(d, 0, sizeof *d);
    const char *saved = c->what;
    nitro_cursor h = *c;
    h.what = c->what;
    if (!nitro_cur_seek(&h, at)) return false;
    (void)nitro_cur_u8(&h); /* revision */
    unsigned count = nitro_cur_u8(&h);
    (void)nitro_cur_u16(&h); /* dictionary size */
    (void)nitro_cur_u16(&h); /* header size (8) */
    size_t ofs_at = h.pos;
    unsigned ofs_entry = nitro_cur_u16(&h);
    if (!nitro_cur_ok(&h)) return false;
    /* The tree (count + 1 nodes) lies between the header and the entries. */
    if (ofs_entry < 8u + 4u * (count + 1u))
        return nitro_cur_fail(&h, ofs_at, "entry offset 0x%x overlaps the %u-node tree", ofs_entry,
                              count + 1);
    if (!nitro_cur_seek(&h, (uint64_t)at + ofs_entry)) return false;
    size_t entry_at = h.pos;
    unsigned entry_size = nitro_cur_u16(&h);
    size_t names_ofs_at = h.pos;
    unsigned names_ofs = nitro_cur_u16(&h);
    if (!nitro_cur_ok(&h)) return false;
    if (entry_size < min_entry_size)
        return nitro_cur_fail(&h, entry_at, "entry size %u, need at least %u", entry_size,
                              min_entry_size);
    size_t data =
        nitro_cur_range(&h, entry_at, entry_at, 4, (uint64_t)entry_size * count, "entry data");
    size_t names = nitro_cur_range(&h, names_ofs_at, entry_at, names_ofs, 16ull * count, "names");
    if (!nitro_cur_ok(&h)) return false;
    if (count && names_ofs < 4u + entry_size * count)
        return nitro_cur_fail(&h, names_ofs_at, "names overlap the entry data");
    d->entries = nitro_calloc(&h, count, sizeof *d->entries);
    if (!d->entries) return false;
    for (unsigned i = 0; i < count; i++) {
        h.pos = names + 16u * i;
        nitro_cur_name(&h, &d->entries[i].name);
        h.pos = data + (size_t)entry_size * i;
        if (entry_size >= 4)
            d->entries[i].value = nitro_cur_u32(&h);
        else if (entry_size >= 2)
            d->entries[i].value = nitro_cur_u16(&h);
        else if (entry_size >= 1)
            d->entries[i].value = nitro_cur_u8(&h);
    }
    d->count = count;
    d->entry_size = entry_size;
    d->data = data;
    c->what = saved;
    if (!nitro_cur_ok(&h)) {
        nitro_dict_free(d);
        return false;
    }
    return true;
}

void nitro_dict_free(nitro_dict *d)
{
    free(d->entries);
    memset(d, 0, sizeof *d);
}
