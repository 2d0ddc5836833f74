/*
 * writer.h - a T3DM writer of our own, for test fixtures, fuzz seeds, golden scenes and
 * benchmarks. It lays a file out the way Tiny3D's converter does (tools/gltf_importer
 * writer.cpp: chunk order, alignments, string table with its leading "S", strips 8-byte
 * aligned after the triangle indices) from a description the caller fills in, and writes the
 * keyframe stream of each animation as its .sdata bytes.
 */
#ifndef DSGX_T3DM_WRITER_H
#define DSGX_T3DM_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "t3dm/t3dm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct t3dm_w_part {
    uint32_t vert_first; /**< first vertex (global index, even) */
    uint16_t vert_count, vert_dest;
    const uint8_t *tris; /**< triangle indices (cache slots) */
    uint16_t num_tris;   /**< index count (3 per triangle) */
    uint16_t matrix;     /**< bone index or 0xFFFF */
    const int16_t *strips[4];
    uint8_t strip_count[4];
    uint8_t seq_base, seq_count;
} t3dm_w_part;

typedef struct t3dm_w_object {
    const char *name;
    uint32_t material;
    const t3dm_w_part *parts;
    unsigned num_parts;
    uint16_t tri_count;
} t3dm_w_object;

typedef struct t3dm_w_texture {
    const char *path; /**< NULL: empty slot */
    uint16_t width, height;
    bool mirror_s, mirror_t, clamp_s, clamp_t;
} t3dm_w_texture;

typedef struct t3dm_w_material {
    const char *name;
    uint64_t combiner;
    uint32_t blend_mode, draw_flags;
    uint8_t fog_mode, vertex_fx;
    uint8_t prim[4];
    t3dm_w_texture tex[2];
} t3dm_w_material;

typedef struct t3dm_w_bone {
    const char *name;
    uint16_t parent; /**< 0xFFFF root */
    float scale[3], rot[4], pos[3];
} t3dm_w_bone;

typedef struct t3dm_w_anim {
    const char *name;
    float duration;
    const t3dm_channel *channels; /**< target, type, attr, quant_scale/offset used */
    uint16_t channels_quat, channels_scalar;
    const t3dm_keyframe *keys; /**< ticks (bit 15 is set by the writer), channel, data */
    uint32_t num_keys;
    const char *sdata_path; /**< stored path, e.g. "rom:/model.0.sdata" */
} t3dm_w_anim;

typedef struct t3dm_w_model {
    const t3dm_vertex *vertices; /**< st in 10.5, rgba bytes R G B A */
    uint32_t num_vertices;       /**< even */
    const t3dm_w_object *objects;
    unsigned num_objects;
    const t3dm_w_material *materials;
    unsigned num_materials;
    const t3dm_w_bone *bones;
    unsigned num_bones;
    const t3dm_w_anim *anims;
    unsigned num_anims;
    bool bvh; /**< write a one-leaf BVH over all objects */
} t3dm_w_model;

/** Serialise a model. *out is malloc'ed. @return 0, or -1 (out of memory / too large). */
int t3dm_write(const t3dm_w_model *m, uint8_t **out, size_t *size);
/** The .sdata stream of one animation. @return 0 or -1. */
int t3dm_write_sdata(const t3dm_w_anim *a, uint8_t **out, size_t *size);
/** Pack a unit quaternion (x y z w) the way the converter quantises it (for fixtures). */
void t3dm_pack_quat(const float q[4], uint16_t out[2]);
/** Pack a normal into 5.6.5 (t3d_vert_pack_normal). */
uint16_t t3dm_pack_normal(float x, float y, float z);

#ifdef __cplusplus
}
#endif
#endif
