/*
 * draw.h - drawing a T3DM through the DS geometry engine's bus (a nitro_gx_sink, the same
 * output interface the Nitro runtime uses), and putting its textures into VRAM.
 *
 * The caller sets up the global state first (nitro_glb_flush: projection, camera, lights),
 * exactly as for a Nitro model; t3dm_draw then leaves the position/vector matrices as it found
 * them (the camera). The mapping from Tiny3D's vertex cache and materials to GX commands is
 * described in t3dm/README.md ("Drawing").
 */
#ifndef DSGX_T3DM_DRAW_H
#define DSGX_T3DM_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"

#include "../nitro/runtime.h"
#include "t3dm.h"

DSGX_BEGIN_DECLS

/** A material's texture as placed in VRAM (texture A; Tiny3D's second slot is not drawn). */
typedef struct t3dm_texbind {
    bool bound;
    uint32_t teximage; /**< TEXIMAGE_PARAM without the repeat/flip bits (16-19) */
    bool has_palette;
    uint32_t pltt_base; /**< PLTT_BASE parameter */
} t3dm_texbind;

/** Fixed-point position scale: VTX_16 carries the raw s16 coordinate as 1.3.12 and one
 *  MTX_SCALE by 4096.0 restores model units (README "Positions"). */
#define T3DM_POS_SCALE (4096 * FX32_ONE)

typedef struct t3dm_draw_opts {
    const t3dm_pose *pose;     /**< NULL: every bone at identity */
    const t3dm_texbind *binds; /**< one per material, or NULL (untextured) */
    uint8_t light_mask;        /**< POLYGON_ATTR lights 0-3 for lit materials; 0 = light 0 */
    int object;                /**< >= 0: draw only this object */
    /** The caller's base matrix already holds T3DM_POS_SCALE (t3dm_glb_init sets the
     *  nitro_glb base scale, applied by nitro_glb_flush): a model without bones then costs no
     *  matrix command at all; skinned parts undo it exactly before their bone matrix. */
    bool base_scaled;
} t3dm_draw_opts;

/** nitro_glb_init with the base scale set to T3DM_POS_SCALE (pair with base_scaled). */
void t3dm_glb_init(nitro_glb *g);

/** Draw the model: compile it into a draw list (below) and replay it once. A caller that
 *  draws the same model again (animation frames, several views) should keep a t3dm_drawlist.
 *  @return the number of triangles sent. */
unsigned t3dm_draw(const t3dm_model *m, const t3dm_draw_opts *o, const nitro_gx_sink *sink);

/** The reference walk: Tiny3D's vertex cache replayed vertex by vertex straight onto the bus.
 *  t3dm_draw sends exactly the same writes (test_t3dm_drawlist checks it); this one is kept
 *  because it is the obviously-correct statement of the mapping. @return triangles sent. */
unsigned t3dm_draw_walk(const t3dm_model *m, const t3dm_draw_opts *o, const nitro_gx_sink *sink);

/** Bound on a compiled list (32-bit words, 16 MiB); beyond it a draw falls back to the walk. */
#define T3DM_DRAWLIST_MAX_WORDS ((size_t)4 << 20)

/** Where a bone's MTX_MULT_4x3 parameters sit in a compiled list. */
typedef struct t3dm_patch {
    size_t at;     /**< index of the first of the 12 parameter words */
    unsigned bone; /**< pose->matrix index */
} t3dm_patch;

/**
 * A model compiled into packed GXFIFO words (see t3dm/drawlist.c): replaying it is a word copy
 * plus the pose's bone matrices. It is rebuilt on a draw whose model, object, binds, light
 * mask, base scale or pose bone count differ from the ones it was compiled for. Owned by the
 * caller; one list per parsed model; free it (or t3dm_drawlist_free + init) when the model is
 * freed: the model, file and parse pointers it keeps are a defence, not a guarantee.
 */
typedef struct t3dm_drawlist {
    uint32_t *words;
    size_t num_words, cap;
    t3dm_patch *patches;
    size_t num_patches, patch_cap;
    unsigned tris;     /**< triangles the list draws */
    unsigned compiles; /**< how many times it was (re)built (tests, statistics) */
    /* what it was compiled for */
    bool valid;
    const t3dm_model *model;
    const uint8_t *data;
    size_t size;
    const t3dm_object *objects; /**< the parse it was compiled from (defence, see above) */
    int object;
    uint8_t light_mask;
    bool base_scaled;
    uint32_t pose_bones;
    t3dm_texbind *binds; /**< copy of the binds (one per material), NULL when none */
} t3dm_drawlist;

void t3dm_drawlist_init(t3dm_drawlist *dl);
void t3dm_drawlist_free(t3dm_drawlist *dl);

/** Draw through the list, compiling it first when it does not match (model, options).
 *  @return the number of triangles sent. */
unsigned t3dm_drawlist_draw(t3dm_drawlist *dl, const t3dm_model *m, const t3dm_draw_opts *o,
                            const nitro_gx_sink *sink);

/**
 * Allocate texture (and palette) VRAM with the Nitro frame managers and write the texels
 * through the LCDC window, mapping banks A-D to texture slots and E to palette slots
 * afterwards, as nitro_texvram_upload does.
 * @param texels, texel_bytes the DS-layout texels
 * @param palette, colors RGB15 palette (NULL/0 for direct colour)
 * @param pal4 a 4-colour palette (8-byte PLTT_BASE units)
 * @param teximage TEXIMAGE_PARAM of the texture without its VRAM offset; the offset is added
 * @return false when it does not fit (nothing written).
 */
bool t3dm_upload_texture(nitro_texvram *v, const uint8_t *texels, uint32_t texel_bytes,
                         const uint16_t *palette, unsigned colors, bool pal4, uint32_t teximage,
                         const nitro_gx_sink *sink, t3dm_texbind *out);

/**
 * Read a libdragon .sprite (t3dm/sprite.h), convert its main image to the closest DS format
 * (padded to a power of two, see t3dm/sprite.md) and upload it with t3dm_upload_texture.
 * @param err on failure: the sprite parser's or converter's message, or "does not fit"
 * @return false on failure (the bind stays unbound: the material draws untextured).
 */
bool t3dm_upload_sprite(nitro_texvram *v, const uint8_t *data, size_t size,
                        const nitro_gx_sink *sink, t3dm_texbind *out, char *err, size_t err_size);

DSGX_END_DECLS
#endif
