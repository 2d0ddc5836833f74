/*
 * nitro_internal.h - declarations shared by the Nitro format parsers (not part of the API).
 */
#ifndef DSGX_NITRO_INTERNAL_H
#define DSGX_NITRO_INTERNAL_H

#include "nitro/cursor.h"
#include "nitro/nitro.h"

/** A dictionary as read: entry count, per-entry data size and absolute start of entry data. */
typedef struct nitro_dict {
    unsigned count;
    unsigned entry_size;       /**< bytes per entry's data (sizeUnit) */
    size_t data;               /**< absolute offset of entry 0's data */
    nitro_dict_entry *entries; /**< count entries (name + first data word), malloc'd */
} nitro_dict;

/**
 * Read the NNSG3dResDict at absolute offset `at` inside c's window. The Patricia tree after the
 * 8-byte header is skipped (never followed). Each entry must have at least min_entry_size
 * bytes of data. On failure c's status is set and *d is empty.
 */
bool nitro_dict_read(nitro_cursor *c, size_t at, unsigned min_entry_size, nitro_dict *d);
void nitro_dict_free(nitro_dict *d);

/** Allocate n elements of size sz, zeroed; fails on the cursor (out of memory) when NULL. */
void *nitro_calloc(nitro_cursor *c, size_t n, size_t sz);

/** Parse the MDL0 block [c->lo, c->hi) into f->models. */
bool nitro_mdl0_parse(nitro_cursor *c, nitro_file *f);
void nitro_model_free(nitro_model *m);
/** Decode the render commands of m (its sbc slice) into m->cmds / m->mix_terms. */
bool nitro_sbc_decode(nitro_cursor *c, nitro_model *m);
/** Parse a TEX0 block [c->lo, c->hi). */
bool nitro_tex0_parse(nitro_cursor *c, nitro_tex0 *t);
void nitro_tex0_free(nitro_tex0 *t);

#endif
