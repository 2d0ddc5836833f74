/*
 * runtime.h - the NitroSystem G3D runtime: draw a parsed model (nitro.h) through the geometry
 * engine's bus, the way NNS_G3dDraw / NNS_G3dGlbFlushP did.
 *
 * Output interface: every effect the runtime has on the hardware is a bus access through a
 * nitro_gx_sink (writes of 8 or 32 bits, and 32-bit reads of the result registers). GX commands
 * go to the GXFIFO (04000400) as packed command words followed by their parameters, exactly as
 * NNS_G3dGeBufferOP_N / NNS_G3dGeSendDL put them there; NODEMIX, BB and PRJMAP also write the
 * command ports (04000440..) directly, as the runtime does. Tests record the stream; the
 * gx sink forwards it to a gx_engine; the render tool also writes it to a trace.
 *
 * Matrix read-back: billboards, skinning and projection mapping read the current matrix back
 * from the hardware (CLIPMTX_RESULT 04000640, VECMTX_RESULT 04000680, with an identity
 * projection pushed) through the sink's read32, as the real runtime does
 * (pret/pokediamond arm9/asm/NNS_G3D_sbc.s). The camera and projection themselves are kept in
 * the runtime's global state (nitro_glb), as NNS_G3dGlb does.
 */
#ifndef DSGX_NITRO_RUNTIME_H
#define DSGX_NITRO_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"
#include "../gx/fixed.h"
#include "nitro.h"

DSGX_BEGIN_DECLS

/** Where the runtime's bus accesses go. read32 may be NULL (reads then return 0). */
typedef struct nitro_gx_sink {
    void *user;
    /** A write of `bytes` (1 or 4) bytes. */
    void (*write)(void *user, uint32_t addr, uint32_t val, unsigned bytes);
    uint32_t (*read32)(void *user, uint32_t addr);
} nitro_gx_sink;

/** The G3D global state (NNS_G3dGlb): the 63-word packed command block NNS_G3dGlbFlushP sends,
 *  plus the inverse camera it caches. Matrices are 1.19.12, row-major, DS row-vector order. */
typedef struct nitro_glb {
    fx32 proj[16];         /**< projection 4x4 */
    fx32 camera[12];       /**< camera 4x3 (rows of 3) */
    uint32_t light_vec[4]; /**< LIGHT_VECTOR parameters (light number in bits 30-31) */
    uint32_t light_col[4]; /**< LIGHT_COLOR parameters */
    uint32_t dif_amb, spe_emi, polygon_attr, viewport;
    fx32 base_rot[9], base_trans[3], base_scale[3];
    uint32_t teximage;
    uint32_t flag;       /**< NNS_G3dGlb.flag: bit 0 WVP / bit 1 VP flush (never set here) */
    fx32 inv_camera[12]; /**< cached inverse of camera (MTX_Inverse43) */
    bool inv_camera_valid;
} nitro_glb;

/** Defaults of NNS_G3dGlbInit (pret/pokeplatinum lib/NitroSystem/asm/g3d/glbstate.s). */
void nitro_glb_init(nitro_glb *g);
/** NNS_G3dGlbFlushP: the packed block to the GXFIFO (projection, camera, lights, default
 *  material colours, polygon attributes, viewport, base transform, TEXIMAGE_PARAM). */
void nitro_glb_flush(nitro_glb *g, const nitro_gx_sink *sink);
/** Light vector (1.3.12 components, each >> 3 to 1.0.9 as NNS_G3dGlbLightVector does). */
void nitro_glb_light_vector(nitro_glb *g, unsigned light, fx32 x, fx32 y, fx32 z);
void nitro_glb_light_color(nitro_glb *g, unsigned light, uint16_t color);
void nitro_glb_set_camera(nitro_glb *g, const fx32 cam[12]);
/** Look-at camera (G3_LookAt conventions: camera in row-vector form, x = up x z). Integer
 *  maths only; vectors 1.19.12. */
void nitro_camera_lookat(const fx32 eye[3], const fx32 up[3], const fx32 at[3], fx32 out[12]);
/** Perspective projection 4x4 from fovy sine/cosine (1.19.12), aspect (1.19.12), near, far
 *  (G3_Perspective conventions). */
void nitro_camera_perspective(fx32 fovy_sin, fx32 fovy_cos, fx32 aspect, fx32 n, fx32 f,
                              fx32 out[16]);
/** FX_Div as the NitroSDK computes it on the hardware divider: 64/32 mode on
 *  (numer << 32) / denom, result (q + 0x80000) >> 20 (pret/pokeplatinum FX_GetDivResult).
 *  denom 0 gives the divider's division-by-zero quotient (-1 for numer >= 0, +1 otherwise,
 *  GBATEK "DS Maths - Division"). */
fx32 nitro_fx_div(fx32 numer, fx32 denom);
/** 4x3 inverse (fixed-point Cramer's rule); returns false for a singular matrix. */
bool nitro_mtx43_inverse(const fx32 m[12], fx32 out[12]);

/** Where textures and palettes of one TEX0 block were put in texture / palette VRAM. */
typedef struct nitro_tex_place {
    const nitro_tex0 *tex;
    const uint8_t *data;  /**< the buffer the TEX0's slices point into */
    uint32_t tex_base;    /**< texture VRAM byte address of the texel block */
    uint32_t tex4x4_base; /**< texture VRAM byte address of the 4x4 texel block */
    uint32_t pltt_base;   /**< palette VRAM byte address of the palette block */
} nitro_tex_place;

#define NITRO_MAX_TEX_SETS 8

/** One region of the frame texture VRAM manager: [lo, hi) relative to base. */
typedef struct nitro_vram_region {
    uint32_t lo, hi, base;
    bool active;
} nitro_vram_region;

/** Texture and palette VRAM allocation (texupload.c): NitroSystem's default "frame" managers
 *  (NNS_GfdInitFrmTexVramManager(4, TRUE), NNS_GfdInitFrmPlttVramManager(0x10000, TRUE)) as
 *  NNS_G3dResDefaultSetup uses them. Region 0 = slot 0, 1/2 = the halves of slot 1 (4x4
 *  palette-index data), 3 = slot 2, 4 = slot 3. */
typedef struct nitro_texvram {
    unsigned nsets;
    nitro_tex_place sets[NITRO_MAX_TEX_SETS];
    nitro_vram_region region[5];
    uint32_t pltt_lo, pltt_hi; /**< palette frame: free space [lo, hi) */
} nitro_texvram;

void nitro_texvram_init(nitro_texvram *v);
/** NNS_GfdAllocFrmTexVram: size rounded up to 16 (0 -> 16). 4x4: from the bottom of slot 0,
 *  then slot 2, with size / 2 from the bottom of the matching half of slot 1. Others: from the
 *  top of slot 3, 2, 0, upper slot 1, lower slot 1 (the order for 3-4 slots).
 *  @return false when nothing fits (*addr untouched). */
bool nitro_texvram_alloc_tex(nitro_texvram *v, uint32_t size, bool is4x4, uint32_t *addr);
/** NNS_GfdAllocFrmPlttVram from the top (opt 0): size rounded up to 8, address aligned down to
 *  16 bytes (8 for 4-colour palettes, which must also lie below 0x10000). */
bool nitro_texvram_alloc_pltt(nitro_texvram *v, uint32_t size, bool pltt4, uint32_t *addr);
/**
 * Allocate and upload one TEX0 block the way NNS_G3dResDefaultSetup does (texel block, then
 * 4x4 block, then palettes, each only when non-empty; see nitro_texvram_alloc_*): map VRAM
 * banks A-D and E to the LCDC, write the texel, 4x4 and palette blocks through the LCDC window
 * (NNS_G3dTexLoad / NNS_G3dPlttLoad), map A-D to texture slots 0-3 and E to palette slots 0-3.
 * @return false when the block does not fit (nothing written, the allocator state restored).
 */
bool nitro_texvram_upload(nitro_texvram *v, const nitro_tex0 *tex, const uint8_t *data,
                          const nitro_gx_sink *sink);

/** A material's texture binding (what NNS_G3dBindMdlTex/Pltt write into the material). */
typedef struct nitro_mat_bind {
    bool bound;
    uint32_t teximage; /**< VRAM offset, size, format and colour-0 bits */
    bool pltt_bound;
    uint16_t pltt_base;
    /** NNS_G3dBindMdlTex also rewrites the material's magW/magH: the texture's original size
     *  (TEX0 extra bits 0-10 / 11-21) over the material's origWidth/origHeight, FX_Div, or 1.0
     *  when equal. has_mag = these replace the material's stored values. */
    bool has_mag;
    fx32 mag_w, mag_h;
} nitro_mat_bind;

#define NITRO_MAX_MATERIALS 256
#define NITRO_MAX_NODES     256

/**
 * Bind every material of a model to textures/palettes by name. Lookup order: the TEX0 sets in
 * the order they were uploaded (the render tool uploads --tex files first, then the model file's
 * own TEX0); the first set holding the name wins. @return number of texture names not found.
 */
unsigned nitro_bind_textures(const nitro_texvram *v, const nitro_model *m,
                             nitro_mat_bind binds[NITRO_MAX_MATERIALS]);
/** NNS_G3dBindMdlTex for one texture name: the first uploaded set holding it sets b->teximage
 *  (stored parameter + texel block address >> 3) and b->mag_w/h (the texture's original size
 *  over orig_w/orig_h). @return false when no set holds the name (b untouched). */
bool nitro_texvram_bind_tex(const nitro_texvram *v, const char *name, uint16_t orig_w,
                            uint16_t orig_h, nitro_mat_bind *b);
/** NNS_G3dBindMdlPltt for one palette name: b->pltt_base = offset + key (8-byte units), each
 *  halved unless the palette is 4-colour. @return false when no set holds the name. */
bool nitro_texvram_bind_pltt(const nitro_texvram *v, const char *name, nitro_mat_bind *b);

/** Envelope cache entry (NNS_G3dRSOnGlb.evpCache): a clip matrix and a vector matrix. */
typedef struct nitro_evp_cache {
    fx32 pos[16];
    fx32 dir[9];
} nitro_evp_cache;

/** Result of a material bind (NNSG3dMatAnmResult). */
typedef struct nitro_mat_result {
    uint32_t flag; /**< NITRO_MATRES_* */
    uint32_t dif_amb, spe_emi, polygon_attr, teximage, pltt_base;
    fx32 scale_s, scale_t;
    fx32 rot_sin, rot_cos;
    fx32 trans_s, trans_t;
    uint16_t orig_w, orig_h;
    fx32 mag_w, mag_h;
} nitro_mat_result;

enum {
    NITRO_MATRES_SCALE_ONE = 0x01,
    NITRO_MATRES_ROT_ZERO = 0x02,
    NITRO_MATRES_TRANS_ZERO = 0x04,
    NITRO_MATRES_TEXMTX_SET = 0x08,
    NITRO_MATRES_TEXMTX_MULT = 0x10,
    NITRO_MATRES_WIREFRAME = 0x20,
};

/** A joint transform as an animation gives it (NNSG3dJntAnmResult before the scaling rule):
 *  flag NITRO_JNT_RES_*; scale/inv_scale are used unless SCALE_ONE. */
typedef struct nitro_jnt_result {
    uint32_t flag;
    fx32 trans[3];
    fx32 rot[9]; /**< row-major _00.._22 */
    fx32 scale[3], inv_scale[3];
} nitro_jnt_result;

enum { NITRO_JNT_RES_SCALE_ONE = 1, NITRO_JNT_RES_ROT_ZERO = 2, NITRO_JNT_RES_TRANS_ZERO = 4 };

/** Animation hooks (the runtime's funcBlendJnt / funcBlendMat / funcBlendVis). Any may be NULL.
 *  joint: true = *out replaces the node's own transform; material: called with the model's
 *  values in r, before the texture matrix sizes are filled in; visibility: true = *visible
 *  replaces the NODE command's flag. */
typedef struct nitro_anim_hooks {
    void *user;
    bool (*joint)(void *user, unsigned node, nitro_jnt_result *out);
    void (*material)(void *user, unsigned mat, nitro_mat_result *r);
    bool (*visibility)(void *user, unsigned node, bool *visible);
} nitro_anim_hooks;

/** The runtime instance for drawing one model (NNSG3dRS plus the per-model binding). */
typedef struct nitro_runtime {
    const nitro_model *model;
    const uint8_t *data; /**< buffer the model's slices point into */
    nitro_gx_sink sink;
    nitro_glb *glb;
    nitro_mat_bind binds[NITRO_MAX_MATERIALS];
    nitro_anim_hooks hooks; /**< zero = no animation */

    /* render state (cleared at each draw) */
    uint32_t flag;
    unsigned cur_node, cur_mat, cur_nodedesc;
    nitro_mat_result tmp_mat; /**< the result used when not cached */
    nitro_mat_result *mat;    /**< the current material's result */
    uint32_t mat_cached[NITRO_MAX_MATERIALS / 32];
    uint32_t evp_cached[NITRO_MAX_NODES / 32];
    uint32_t scale_one[NITRO_MAX_NODES / 32];

    /* persistent between draws, as the runtime's global tables are */
    nitro_mat_result mat_cache[NITRO_MAX_MATERIALS];
    nitro_evp_cache evp_cache[NITRO_MAX_NODES];
    fx32 scale_cache[NITRO_MAX_NODES][6]; /**< s.xyz, inv.xyz */
    fx32 bby_mtx[12];                     /**< the static matrix the Y-billboard reuses */
} nitro_runtime;

/** Render-state flag bits (NNS_G3D_RSFLAG_*, from the bit tests in NNS_G3D_sbc.s). */
enum {
    NITRO_RS_NODE_VISIBLE = 0x001,
    NITRO_RS_MAT_TRANSPARENT = 0x002,
    NITRO_RS_CUR_NODE_VALID = 0x004,
    NITRO_RS_CUR_MAT_VALID = 0x008,
    NITRO_RS_CUR_NODEDESC_VALID = 0x010,
    NITRO_RS_RETURN = 0x020,
};

/** Set up a runtime for a model. binds may be NULL (no textures). The model and data must
 *  outlive the runtime. */
void nitro_runtime_init(nitro_runtime *rt, const nitro_model *model, const uint8_t *data,
                        nitro_glb *glb, const nitro_gx_sink *sink,
                        const nitro_mat_bind binds[NITRO_MAX_MATERIALS]);
/** Install animation hooks (a copy is kept); NULL removes them. */
void nitro_runtime_set_hooks(nitro_runtime *rt, const nitro_anim_hooks *hooks);
/** NNS_G3dDraw: execute the model's render commands. @return number of commands executed. */
unsigned nitro_runtime_draw(nitro_runtime *rt);

/** A sink that forwards to a gx_engine (gx_write32/gx_write8/gx_read32). user = gx_engine*. */
nitro_gx_sink nitro_gx_engine_sink(void *gx_engine_ptr);

DSGX_END_DECLS
#endif
