/*
 * anim.h - NitroSystem G3D animations: NSBCA (JNT0 joints), NSBTP (PAT0 texture patterns),
 * NSBTA (SRT0 texture SRT), NSBMA (MAT0 material colours), NSBVA (VIS0 node visibility).
 *
 * nitro_parse (nitro.h) reads the container and each section's dictionary; nitro_anims_parse
 * reads the content of every animation, checks every offset and sample count against the
 * section, and keeps (offset, count) pairs into the borrowed buffer. Evaluation is integer
 * fixed point, following the decompiled runtime (pret/pokediamond arm9/asm/NNS_G3D_nsbca.s,
 * NNS_G3D_nsbta.s, NNS_G3D_nsbma.s; pret/pokeplatinum lib/NitroSystem/src/g3d/anm/nsbtp.c,
 * nsbva.c, binres/res_struct_accessor_anm.c). Frames are fx32 (1.19.12): only joint animations
 * with the "interpolation" option use the fraction; every other kind uses the whole frame.
 */
#ifndef DSGX_NITRO_ANIM_H
#define DSGX_NITRO_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../dsgx_api.h"
#include "nitro.h"
#include "runtime.h"

DSGX_BEGIN_DECLS

enum nitro_anim_kind {
    NITRO_ANIM_JNT, /**< NSBCA joint SRT */
    NITRO_ANIM_PAT, /**< NSBTP texture pattern */
    NITRO_ANIM_SRT, /**< NSBTA texture SRT */
    NITRO_ANIM_MAT, /**< NSBMA material colour */
    NITRO_ANIM_VIS, /**< NSBVA visibility */
};

/** How the samples of a curve are stored and interpolated (the runtime has one routine each). */
enum nitro_curve_type {
    NITRO_CURVE_JNT_TRANS, /**< fx32 or fx16 translation (getTransData_) */
    NITRO_CURVE_JNT_SCALE, /**< (scale, 1/scale) pairs, fx32 or fx16 (getScaleData_) */
    NITRO_CURVE_JNT_ROT,   /**< u16 rotation indices (getRotData_) */
    NITRO_CURVE_SRT_VEC,   /**< fx32 or fx16 texture scale/translation */
    NITRO_CURVE_SRT_ROT,   /**< (sin, cos) fx16 pairs */
    NITRO_CURVE_MAT_RGB,   /**< u16 RGB555 */
    NITRO_CURVE_MAT_ALPHA, /**< u8 polygon alpha */
};

/** One animated channel. Constant: value (and value2, the inverse scale) hold it. */
typedef struct nitro_curve {
    uint8_t type; /**< enum nitro_curve_type */
    bool constant;
    bool fx16;     /**< 16-bit samples */
    uint8_t step;  /**< 1, 2 or 4 */
    uint16_t last; /**< last interpolated frame; later frames are stored one per frame */
    uint32_t info; /**< the raw info word */
    int32_t value, value2;
    uint32_t data;    /**< absolute offset of sample 0 */
    uint32_t count;   /**< samples available (checked to lie in the section) */
    uint32_t info_at; /**< absolute offset of the info word (for messages) */
} nitro_curve;

/** JNT0 track tag bits (NNSG3dJntAnmSRTTag; MarioKartToolbox G3dJointAnimationNode). */
enum {
    NITRO_JNT_IDENTITY = 0x0001,
    NITRO_JNT_IDENTITY_T = 0x0002,
    NITRO_JNT_BASE_T = 0x0004, /**< translation: the model's own */
    NITRO_JNT_CONST_TX = 0x0008,
    NITRO_JNT_CONST_TY = 0x0010,
    NITRO_JNT_CONST_TZ = 0x0020,
    NITRO_JNT_IDENTITY_R = 0x0040,
    NITRO_JNT_BASE_R = 0x0080,
    NITRO_JNT_CONST_R = 0x0100,
    NITRO_JNT_IDENTITY_S = 0x0200,
    NITRO_JNT_BASE_S = 0x0400,
    NITRO_JNT_CONST_SX = 0x0800,
    NITRO_JNT_CONST_SY = 0x1000,
    NITRO_JNT_CONST_SZ = 0x2000,
};
/** Joint animation options (NNSG3dResJntAnm.flag). */
enum { NITRO_JNT_OPT_INTERP = 1, NITRO_JNT_OPT_END_TO_START = 2 };

typedef struct nitro_jnt_track {
    uint32_t offset; /**< absolute offset of the tag */
    uint32_t tag;    /**< NITRO_JNT_* | data index << 24 */
    nitro_curve trans[3], rot, scale[3];
} nitro_jnt_track;

/** MAT0 (5 channels: diffuse, ambient, specular, emission, alpha) or SRT0 track (scaleS,
 *  scaleT, rotation, transS, transT), targeting a material by name. */
typedef struct nitro_mat_track {
    nitro_name name;
    nitro_curve ch[5];
} nitro_mat_track;

typedef struct nitro_pat_track {
    nitro_name name;
    uint16_t num_keys, flag;
    int16_t ratio; /**< ratioDataFrame, 1.3.12: keys per frame, used to guess the start */
    uint32_t keys; /**< absolute offset of num_keys (u16 frame, u8 tex, u8 pltt) */
} nitro_pat_track;

typedef struct nitro_anim {
    enum nitro_anim_kind kind;
    nitro_name name;
    uint32_t offset; /**< absolute offset of the animation */
    uint16_t num_frames;
    uint32_t flag;       /**< JNT/MAT options; SRT flag byte */
    uint8_t texmtx_mode; /**< SRT0 only */
    unsigned num_tracks;
    nitro_jnt_track *jnt;
    nitro_mat_track *mat; /**< MAT0 and SRT0 */
    nitro_pat_track *pat;
    /* JNT0 rotation tables */
    uint32_t rot3, rot5; /**< absolute offsets of the pivot (6-byte) and basis (10-byte) tables */
    uint32_t num_rot3, num_rot5; /**< entries available before the section end */
    /* PAT0 names */
    unsigned num_tex_names, num_pltt_names;
    nitro_name *tex_names, *pltt_names;
    /* VIS0 */
    uint16_t vis_nodes;
    uint32_t vis_data;  /**< absolute offset of the bit words */
    uint32_t vis_words; /**< words available */
} nitro_anim;

typedef struct nitro_anims {
    const uint8_t *data;
    size_t size;
    unsigned num;
    nitro_anim *anims;
} nitro_anims;

/** Parse the content of every animation of an animation file (f from nitro_parse). */
nitro_status nitro_anims_parse(const nitro_file *f, nitro_anims *out);
void nitro_anims_free(nitro_anims *a);
const char *nitro_anim_kind_name(enum nitro_anim_kind k);

/* ---- evaluation (frame: whole frame number unless said otherwise) ---- */

/** A scalar curve (JNT translation, SRT scale/translation) at a whole frame. */
fx32 nitro_curve_value(const uint8_t *data, const nitro_curve *c, unsigned frame);
/** A JNT scale curve: scale and inverse scale at a whole frame. */
void nitro_curve_scale(const uint8_t *data, const nitro_curve *c, unsigned frame, fx32 out[2]);
/** JNT translation/scale with fractional frame interpolation (getTransDataEx_/getScaleDataEx_);
 *  out[1] is only written for scale curves. */
void nitro_curve_value_ex(const nitro_anim *a, const uint8_t *data, const nitro_curve *c,
                          fx32 frame, fx32 out[2]);
/** MAT0 colour or alpha at a whole frame. */
uint16_t nitro_curve_color(const uint8_t *data, const nitro_curve *c, unsigned frame);
/** SRT0 rotation: sin | cos << 16. */
uint32_t nitro_curve_sincos(const uint8_t *data, const nitro_curve *c, unsigned frame);

/** Decode rotation table entry `idx` (bit 15: pivot table) to a 3x3; returns true for a basis
 *  entry (its third row must be rebuilt by cross product). Out-of-range: identity, false. */
bool nitro_jnt_rot_by_index(const nitro_anim *a, const uint8_t *data, uint32_t idx, fx32 m[9]);
/** A rotation curve at fx32 frame (interpolated as the runtime does). */
void nitro_jnt_rot(const nitro_anim *a, const uint8_t *data, const nitro_curve *c, fx32 frame,
                   fx32 m[9]);
/** Joint result of track `t` at fx32 frame for node `n` of the model (channels the track leaves
 *  to the model come from n). frame is clamped to [0, num_frames) as NNSi_G3dAnmCalcNsBca. */
void nitro_jnt_eval(const nitro_anim *a, const uint8_t *data, unsigned t, const nitro_node *n,
                    fx32 frame, nitro_jnt_result *out);
/** Apply MAT0 track t at whole frame to a material result. */
void nitro_mat_eval(const nitro_anim *a, const uint8_t *data, unsigned t, unsigned frame,
                    nitro_mat_result *r);
/** Apply SRT0 track t at whole frame to a material result. */
void nitro_srt_eval(const nitro_anim *a, const uint8_t *data, unsigned t, unsigned frame,
                    nitro_mat_result *r);
/** The PAT0 key of track t in force at frame (NNSi_G3dGetTexPatAnmFV). */
unsigned nitro_pat_key(const nitro_anim *a, const uint8_t *data, unsigned t, unsigned frame,
                       uint16_t *key_frame, uint8_t *tex, uint8_t *pltt);
/** VIS0: node `node` visible at frame? */
bool nitro_vis_eval(const nitro_anim *a, const uint8_t *data, unsigned node, unsigned frame);

/* ---- applying animations to a model (anim_apply.c) ---- */

#define NITRO_MAX_BOUND_ANIMS 16

typedef struct nitro_anim_binding {
    const nitro_anim *anim;
    const uint8_t *data;
    fx32 frame;
    uint16_t map[NITRO_MAX_MATERIALS > NITRO_MAX_NODES ? NITRO_MAX_MATERIALS : NITRO_MAX_NODES];
    /* PAT0: resolved texture/palette bindings per name index */
    nitro_mat_bind *tex_binds;  /**< num_tex_names, malloc'd */
    nitro_mat_bind *pltt_binds; /**< num_pltt_names */
} nitro_anim_binding;

/** The animations applied to one model: install with nitro_anim_player_hooks. */
typedef struct nitro_anim_player {
    const nitro_model *model;
    unsigned num;
    nitro_anim_binding b[NITRO_MAX_BOUND_ANIMS];
} nitro_anim_player;

#define NITRO_MAP_EXIST 0x100u

void nitro_anim_player_init(nitro_anim_player *p, const nitro_model *m);
void nitro_anim_player_free(nitro_anim_player *p);
/**
 * Bind an animation to the player's model: joints and visibility by node index, materials by
 * name (as NNS_G3dAnmObjInit does). vram (may be NULL) resolves PAT0 texture/palette names.
 * @return false with a message in err when the animation does not fit the model (more nodes
 * than the model, no material name in common, a PAT0 name not in VRAM) or the player is full.
 */
bool nitro_anim_player_add(nitro_anim_player *p, const nitro_anim *a, const uint8_t *data,
                           const nitro_texvram *vram, char *err, size_t err_size);
/** Set every animation's frame: frame modulo its own length (fx32, whole frames << 12). */
void nitro_anim_player_set_frame(nitro_anim_player *p, fx32 frame);
/** Hooks for nitro_runtime_set_hooks (user = p). */
nitro_anim_hooks nitro_anim_player_hooks(nitro_anim_player *p);

/** Describe the animations (kind, frames, targets, curve statistics) for `dsgx info`. */
void nitro_anim_describe(const nitro_anims *a, FILE *out, bool json);

DSGX_END_DECLS
#endif
