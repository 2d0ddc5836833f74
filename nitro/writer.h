/*
 * writer.h - builds valid NSBMD (BMD0) and NSBTX (BTX0) files from in-memory descriptions, for
 * test fixtures and fuzz seeds. Also: packed GX display-list and render-command builders.
 *
 * The layout follows what NitroSystem's converter produces (and MarioKartToolbox's writer
 * reproduces): dictionaries with a Patricia tree, models with node records, render commands,
 * the material block (material dict, texture and palette pairing dicts, index lists, material
 * records), the mesh block (dict, 16-byte records, display lists) and envelope matrices.
 */
#ifndef DSGX_NITRO_WRITER_H
#define DSGX_NITRO_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nitro/nitro.h"

/** A growable byte buffer. oom is set (and further appends ignored) when allocation fails. */
typedef struct nitro_buf {
    uint8_t *data;
    size_t size, cap;
    bool oom;
} nitro_buf;

void nitro_buf_free(nitro_buf *b);
void nitro_buf_u8(nitro_buf *b, uint8_t v);
void nitro_buf_u16(nitro_buf *b, uint16_t v);
void nitro_buf_u32(nitro_buf *b, uint32_t v);
void nitro_buf_bytes(nitro_buf *b, const void *p, size_t n);
void nitro_buf_align(nitro_buf *b, size_t a);
/** Overwrite a field already written. */
void nitro_buf_put16(nitro_buf *b, size_t at, uint16_t v);
void nitro_buf_put32(nitro_buf *b, size_t at, uint32_t v);

/* ---- packed GX command lists (GBATEK "DS 3D Geometry Commands": packed GXFIFO format: one
 *      word with up to four 8-bit opcodes, lowest byte first, then their parameters) ---- */
typedef struct nitro_dl {
    nitro_buf buf;
    uint8_t ops[4];
    uint32_t params[4][32];
    unsigned nparams[4];
    unsigned nops;
} nitro_dl;

/** Parameter count of a GX command (GBATEK command table); -1 for an undefined opcode. */
int nitro_gx_param_count(uint8_t op);
/** Append a command (op, params); n must equal nitro_gx_param_count(op). */
void nitro_dl_cmd(nitro_dl *dl, uint8_t op, const uint32_t *params, unsigned n);
/** Flush the last partial packet (padding with NOPs); dl->buf then holds the list. */
void nitro_dl_finish(nitro_dl *dl);
void nitro_dl_begin(nitro_dl *dl, unsigned prim); /* 0 tri, 1 quad, 2 strip, 3 quad strip */
void nitro_dl_end(nitro_dl *dl);
void nitro_dl_vtx16(nitro_dl *dl, vtx16 x, vtx16 y, vtx16 z);
void nitro_dl_vtx10(nitro_dl *dl, vtx10 x, vtx10 y, vtx10 z); /* 1.3.6 values */
void nitro_dl_vtx_xy(nitro_dl *dl, vtx16 x, vtx16 y);
void nitro_dl_vtx_xz(nitro_dl *dl, vtx16 x, vtx16 z);
void nitro_dl_vtx_yz(nitro_dl *dl, vtx16 y, vtx16 z);
void nitro_dl_vtx_diff(nitro_dl *dl, int16_t dx, int16_t dy, int16_t dz); /* 10-bit each */
void nitro_dl_normal(nitro_dl *dl, nrm10 x, nrm10 y, nrm10 z);
void nitro_dl_color(nitro_dl *dl, rgb15 c);
void nitro_dl_texcoord(nitro_dl *dl, tex16 s, tex16 t);
void nitro_dl_mtx_restore(nitro_dl *dl, unsigned slot);
void nitro_dl_mtx_scale(nitro_dl *dl, fx32 x, fx32 y, fx32 z);

/* ---- render commands (see sbc.c for the operand layouts) ---- */
void nitro_sbc_nop(nitro_buf *b);
void nitro_sbc_ret(nitro_buf *b);
void nitro_sbc_node(nitro_buf *b, uint8_t node, bool visible);
void nitro_sbc_mtx(nitro_buf *b, uint8_t slot);
/** mode 0: opcode 0x04, 1: 0x24, 2: 0x44 */
void nitro_sbc_mat(nitro_buf *b, unsigned mode, uint8_t material);
void nitro_sbc_shp(nitro_buf *b, uint8_t mesh);
/** store/restore: stack slot or -1. */
void nitro_sbc_nodedesc(nitro_buf *b, uint8_t node, uint8_t parent, uint8_t flags, int store,
                        int restore);
/** y = false: BB (0x07), true: BBY (0x08). */
void nitro_sbc_bb(nitro_buf *b, bool y, uint8_t node, int store, int restore);
void nitro_sbc_nodemix(nitro_buf *b, uint8_t dest, unsigned n, const nitro_sbc_mix_term *terms);
void nitro_sbc_calldl(nitro_buf *b, uint32_t rel_offset, uint32_t size);
void nitro_sbc_posscale(nitro_buf *b, bool inverse);
/** projection = false: ENVMAP (0x0C), true: PRJMAP (0x0D). */
void nitro_sbc_map(nitro_buf *b, bool projection, uint8_t material, uint8_t flags);

/* ---- descriptions ---- */
typedef struct nitro_wmesh {
    const char *name;
    uint16_t item_tag;
    uint32_t flags;
    const uint8_t *dl;
    uint32_t dl_size; /* multiple of 4 */
} nitro_wmesh;

typedef struct nitro_wmodel {
    const char *name;
    /** Written as given, except num_nodes/num_materials/num_meshes (taken from the arrays). */
    nitro_model_info info;
    /** Fields used: name, flags, translation, rot_raw, pivot_a/b, scale, inv_scale (the
     *  flags decide which are stored, as in the parser). */
    const nitro_node *nodes;
    unsigned num_nodes;
    /** Every stored field plus has_texture/texture_name, has_palette/palette_name (the
     *  pairing dictionaries are built from these, in order of first use). */
    const nitro_material *materials;
    unsigned num_materials;
    const nitro_wmesh *meshes;
    unsigned num_meshes;
    const uint8_t *sbc; /* must end with RET */
    uint32_t sbc_size;
    const nitro_envelope *envelopes; /* 0 or num_nodes of them */
    unsigned num_envelopes;
} nitro_wmodel;

typedef struct nitro_wtexture {
    const char *name;
    uint32_t teximage_param; /* size, format, colour 0 bits; the offset bits are assigned */
    uint32_t extra;
    const uint8_t *data; /* nitro_texture_size(...) bytes */
    const uint8_t *pidx; /* 4x4 only: half as many bytes */
} nitro_wtexture;

typedef struct nitro_wpalette {
    const char *name;
    uint16_t flags;
    const uint8_t *data;
    uint32_t size; /* bytes, multiple of 8 */
} nitro_wpalette;

typedef struct nitro_wtex0 {
    const nitro_wtexture *textures;
    unsigned num_textures;
    const nitro_wpalette *palettes;
    unsigned num_palettes;
} nitro_wtex0;

/** Write a BMD0 with the models and (if tex != NULL) a TEX0. @return false on a bad
 *  description (message in err) or out of memory. */
bool nitro_write_bmd0(const nitro_wmodel *models, unsigned num_models, const nitro_wtex0 *tex,
                      nitro_buf *out, char *err, size_t err_size);
bool nitro_write_btx0(const nitro_wtex0 *tex, nitro_buf *out, char *err, size_t err_size);

/** A description rebuilt from a parsed file (pointers into the parsed file and its buffer). */
typedef struct nitro_wfile {
    enum nitro_kind kind;
    nitro_wmodel *models;
    unsigned num_models;
    nitro_wmesh *meshes; /* storage for all models' meshes */
    bool has_tex;
    nitro_wtex0 tex;
    nitro_wtexture *textures;
    nitro_wpalette *palettes;
} nitro_wfile;

/** Only BMD0 and BTX0 files. @return false when f is another kind or on out of memory. */
bool nitro_wfile_from_parsed(const nitro_file *f, nitro_wfile *w);
void nitro_wfile_free(nitro_wfile *w);
bool nitro_write_wfile(const nitro_wfile *w, nitro_buf *out, char *err, size_t err_size);

#endif
