/*
 * t3dm.h - Tiny3D models (T3DM, the format Tiny3D's glTF converter writes), parsed, animated
 * and drawn through the DS geometry engine's bus.
 *
 * Format facts (layouts, chunk order, the keyframe stream, interpolation) come from Tiny3D's
 * public source, HailToDodongo/tiny3d (MIT): src/t3d/t3dmodel.h and t3dmodel.c (runtime
 * structures, loader), src/t3d/t3danim.c (keyframe stream, quaternion unpacking, interpolation),
 * src/t3d/t3d.h (vertex packing, strip encoding) and tools/gltf_importer/src/writer.cpp (what
 * the converter writes). Where the format document (docs/t3dm.md) disagrees, the code wins;
 * every such point is listed in t3dm/README.md.
 *
 * Everything is big-endian, floats IEEE-754 single. The parser takes (data, size), reads
 * through one bounds-checked cursor, never reads out of bounds, loops only over counts it has
 * checked against the data, and allocates at most a constant times the input size.
 *
 * The parsed structures BORROW the input buffer: strings point into its string table (checked
 * to be NUL-terminated inside it), vertex and index data are read from it when drawing. The
 * buffer must outlive the t3dm_model.
 */
#ifndef DSGX_T3DM_H
#define DSGX_T3DM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"

#include "../gx/fixed.h"

DSGX_BEGIN_DECLS

/** The version byte this reader reads (magic "T3M" + 4). */
#define T3DM_VERSION 4
/** Tiny3D's vertex cache (T3D_VERTEX_CACHE_SIZE); loads may reach two slots further, as the
 *  converter allows (meshConverter.cpp: dest + count <= MAX_VERTEX_COUNT + 1, in pairs). */
#define T3DM_VERTEX_CACHE 70
#define T3DM_CACHE_SLOTS  72
/** Keyframe time unit of the .sdata stream (t3danim.c KF_TIME_TICK = 1/60 s). */
#define T3DM_TICKS_PER_SECOND 60

/** Result of a parse. ok == false: the first problem found, nothing else is valid. */
typedef struct t3dm_status {
    bool ok;
    size_t offset;  /**< absolute byte offset of the offending field in the parsed buffer */
    char chunk[48]; /**< e.g. "header", "chunk 3 'O' (object)", ".sdata of animation 0" */
    char reason[200];
} t3dm_status;

/** Format "FILE: CHUNK at offset 0xNN: reason" (no newline) into buf. */
void t3dm_status_format(const t3dm_status *st, const char *file, char *buf, size_t buf_size);

/** Chunk types (T3DModelChunkType). */
enum {
    T3DM_CHUNK_VERTICES = 'V',
    T3DM_CHUNK_INDICES = 'I',
    T3DM_CHUNK_MATERIAL = 'M',
    T3DM_CHUNK_OBJECT = 'O',
    T3DM_CHUNK_SKELETON = 'S',
    T3DM_CHUNK_ANIM = 'A',
    T3DM_CHUNK_BVH = 'B',
};

/** One chunk table entry; size runs to the next chunk (or the string table for the last). */
typedef struct t3dm_chunk {
    char type;
    uint32_t offset, size;
} t3dm_chunk;

/** Material draw flags (T3DDrawFlags). */
enum {
    T3DM_FLAG_DEPTH = 1u << 0,
    T3DM_FLAG_TEXTURED = 1u << 1,
    T3DM_FLAG_SHADED = 1u << 2,
    T3DM_FLAG_CULL_FRONT = 1u << 3,
    T3DM_FLAG_CULL_BACK = 1u << 4,
    T3DM_FLAG_NO_LIGHT = 1u << 16,
};

enum { T3DM_FOG_DEFAULT = 0, T3DM_FOG_DISABLED = 1, T3DM_FOG_ACTIVE = 2 };

/** Tile setting of one UV axis (T3DMaterialAxis). */
typedef struct t3dm_axis {
    float low, high;
    int8_t mask, shift;
    uint8_t mirror, clamp;
} t3dm_axis;

/** A texture slot (T3DMaterialTexture). path is NULL when the slot has no file. */
typedef struct t3dm_texture {
    uint32_t reference; /**< dynamic ("offscreen") texture id, 0 for none */
    const char *path;   /**< e.g. "rom:/crate.rgba16.sprite" */
    uint32_t hash;
    uint16_t width, height;
    t3dm_axis s, t;
} t3dm_texture;

typedef struct t3dm_material {
    uint32_t offset; /**< of the chunk */
    uint64_t combiner, other_value, other_mask;
    uint32_t blend_mode, draw_flags;
    uint8_t fog_mode, color_flags, vertex_fx;
    uint8_t prim[4], env[4], blend[4];
    const char *name;
    t3dm_texture tex[2];
} t3dm_material;

/** A part: a vertex load into the cache, then triangles, sequences and strips on it. */
typedef struct t3dm_part {
    uint32_t vert_offset; /**< byte offset in the vertex chunk (a pair boundary) */
    uint16_t vert_count, vert_dest;
    uint32_t index_offset; /**< byte offset in the index chunk of the triangle indices */
    uint16_t num_indices;  /**< u8 triangle indices (3 per triangle) */
    uint16_t matrix;       /**< bone index, 0xFFFF for none */
    uint8_t strip_count[4];
    uint32_t strip_offset[4]; /**< absolute file offset of each strip's s16 indices */
    uint8_t seq_base, seq_count;
    uint32_t strip_triangles; /**< triangles the strips make */
} t3dm_part;

typedef struct t3dm_object {
    uint32_t offset;
    const char *name;
    uint16_t num_parts, tri_count; /**< tri_count as stored (the converter's source count) */
    uint32_t triangles;            /**< drawn: index lists + sequences + strips */
    uint32_t material;             /**< index into model->materials */
    int16_t aabb_min[3], aabb_max[3];
    t3dm_part *parts;
} t3dm_object;

typedef struct t3dm_bone {
    const char *name;
    uint16_t parent; /**< 0xFFFF for a root; otherwise < own index */
    uint16_t depth;
    float scale[3], rot[4], pos[3]; /**< rot is a quaternion x, y, z, w */
} t3dm_bone;

/** Animation channel targets (T3DAnimTargetType). */
enum {
    T3DM_TARGET_TRANSLATION = 0,
    T3DM_TARGET_SCALE = 1,
    T3DM_TARGET_SCALE_UNIFORM = 2,
    T3DM_TARGET_ROTATION = 3,
};

typedef struct t3dm_channel {
    uint16_t target; /**< bone index */
    uint8_t type, attr;
    float quant_scale, quant_offset;
    uint32_t keyframes; /**< counted when the .sdata is loaded */
} t3dm_channel;

/** One decoded keyframe of the .sdata stream. */
typedef struct t3dm_keyframe {
    uint16_t ticks;   /**< time to this channel's next keyframe, 1/60 s */
    uint16_t channel; /**< index into the animation's channels */
    uint16_t data[2]; /**< one value (scalar) or a packed quaternion */
} t3dm_keyframe;

typedef struct t3dm_anim {
    uint32_t offset;
    const char *name;
    float duration; /**< seconds */
    uint32_t keyframe_count;
    uint16_t channels_quat, channels_scalar;
    const char *sdata_path; /**< e.g. "rom:/model.0.sdata" */
    t3dm_channel *channels; /**< quaternion channels first */
    /* filled by t3dm_anim_load_sdata */
    t3dm_keyframe *keys;
    uint32_t num_keys;
} t3dm_anim;

typedef struct t3dm_bvh_node {
    int16_t aabb_min[3], aabb_max[3];
    uint16_t value; /**< leaf: first data index << 4 | count; inner: child offset << 4 */
} t3dm_bvh_node;

typedef struct t3dm_bvh {
    uint32_t offset;
    uint16_t node_count, data_count;
    t3dm_bvh_node *nodes;
    uint16_t *data; /**< object indices */
} t3dm_bvh;

typedef struct t3dm_model {
    const uint8_t *data;
    size_t size;
    uint8_t version;
    uint32_t chunk_count;  /**< as stored */
    uint32_t zero_entries; /**< zeroed chunk table entries skipped (older converters) */
    uint16_t total_vertices, total_indices;
    uint32_t idx_vertices, idx_indices, idx_materials;
    uint32_t string_table; /**< absolute offset */
    int16_t aabb_min[3], aabb_max[3];
    t3dm_chunk *chunks;
    uint32_t num_chunks; /**< entries kept (chunk_count - zero_entries) */
    uint32_t vert_chunk, vert_size, index_chunk, index_size; /**< absolute offsets, sizes */
    t3dm_object *objects;
    uint32_t num_objects;
    t3dm_material *materials;
    uint32_t num_materials;
    t3dm_bone *bones;
    uint32_t num_bones;
    t3dm_anim *anims;
    uint32_t num_anims;
    bool has_bvh;
    t3dm_bvh bvh;
    uint32_t triangles; /**< of index lists, sequences and strips together */
} t3dm_model;

/** Parse a T3DM held in memory. On failure *out is zeroed and nothing needs freeing. */
t3dm_status t3dm_parse(const uint8_t *data, size_t size, t3dm_model *out);
void t3dm_free(t3dm_model *m);

/** Vertex i (global index) of the vertex chunk, unpacked. i < total_vertices (checked). */
typedef struct t3dm_vertex {
    int16_t pos[3];
    uint16_t norm; /**< 5.6.5: x bits 15-11, y bits 10-5, z bits 4-0, two's complement */
    uint8_t rgba[4];
    int16_t st[2]; /**< 10.5 fixed point, texels */
} t3dm_vertex;
void t3dm_vertex_get(const t3dm_model *m, uint32_t byte_offset, t3dm_vertex *out);

/** Index of an animation by name or decimal index; -1 if none. */
int t3dm_find_anim(const t3dm_model *m, const char *sel);
/** The file name of an animation's .sdata path (after the last '/'), e.g. "model.0.sdata". */
const char *t3dm_sdata_basename(const t3dm_anim *a);

/**
 * Read and check an animation's keyframe stream (the .sdata file): keyframes of 8 bytes
 * (first one, and any after a keyframe whose time word has bit 15 set) or 6 bytes, channel
 * indices in range, a rotation channel's keyframes 8 bytes, exactly keyframe_count of them,
 * no trailing bytes. Counts per channel land in channels[].keyframes.
 * On failure the animation has no keyframes and the status names the .sdata offset.
 */
t3dm_status t3dm_anim_load_sdata(t3dm_model *m, unsigned anim, const uint8_t *sdata, size_t size);

/** A skeleton pose: per bone local scale / rotation / translation (Tiny3D's T3DBone). */
typedef struct t3dm_pose {
    unsigned num_bones;
    float (*scale)[3];
    float (*rot)[4];
    float (*pos)[3];
    fx32 (*matrix)[12]; /**< model-space 4x3 per bone (DS row-vector order, 1.19.12) */
} t3dm_pose;

/** Allocate a pose in bind position. @return false on allocation failure. */
bool t3dm_pose_init(t3dm_pose *p, const t3dm_model *m);
void t3dm_pose_free(t3dm_pose *p);
/** Reset to the bind pose (the skeleton chunk's values). */
void t3dm_pose_bind(t3dm_pose *p, const t3dm_model *m);
/**
 * Apply animation `anim` at `seconds` (looped into [0, duration)): replays the keyframe
 * stream from its start as t3d_anim_update does after a rewind (per channel: keyframes are
 * read while time >= the channel's end time; rotation nlerp with the shorter arc and
 * normalisation, scalars lerp), writing the channels' bones. Needs the .sdata loaded.
 */
void t3dm_pose_animate(t3dm_pose *p, const t3dm_model *m, unsigned anim, float seconds);
/** Recompute the bone matrices (parent x translation x rotation x scale). */
void t3dm_pose_update(t3dm_pose *p, const t3dm_model *m);

DSGX_END_DECLS
#endif
