/*
 * geom_internal.h - the vertex/polygon half of the geometry engine (private to gx/).
 *
 * Vertex attributes (colour, normal + lighting, texture coordinates), vertex transformation by
 * the clip matrix, polygon assembly, culling, clipping, the viewport transform, and the
 * polygon/vertex RAM being filled (gx->build), plus the BOX/POS/VEC tests.
 *
 * The command table (cmd_internal.h) calls the gx_cmd_* handlers once all parameters of a
 * command have arrived. The fields marked "read by the command unit" are its interface.
 */
#ifndef DSGX_GEOM_INTERNAL_H
#define DSGX_GEOM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx.h"

typedef struct gx_geom_state {
    /* ---- read by the command unit ---- */
    uint32_t lights_enabled_count; /* lights enabled in the latched POLYGON_ATTR (NORMAL cost) */
    bool poly_completed;           /* the last vertex command completed a polygon */
    bool poly_rejected;            /* ... and that polygon was culled / clipped away / dropped */
    uint8_t poly_nverts_clipped;   /* vertex count of that polygon after clipping (0: rejected) */
    int32_t pos_result[4];         /* POS_TEST result, 1.19.12 */
    int16_t vec_result[3];         /* VEC_TEST result, 1.3.12 (bit 12 sign-extended to 15) */
    bool box_result;               /* BOX_TEST: true when some face of the box is in view */
    uint32_t prim_type;            /* BEGIN_VTXS primitive type 0..3 */

    /* ---- vertex attributes ---- */
    int16_t cur_vtx[3];     /* current vertex position, 1.3.12 (VTX_XY etc. keep the others) */
    uint8_t vtx_color[3];   /* current vertex colour, 5 bits per channel */
    int16_t tex_raw[2];     /* TEXCOORD as written, 1.11.4 */
    int16_t tex_cur[2];     /* texture coordinates after mode 1/2 generation, 1.11.4 */
    int16_t normal[3];      /* last NORMAL, 1.0.9 sign-extended */
    uint8_t mat_diffuse[3]; /* 5 bits each */
    uint8_t mat_ambient[3];
    uint8_t mat_specular[3];
    uint8_t mat_emission[3];
    bool shininess_enable;   /* SPE_EMI bit 15: specular level goes through the table */
    uint8_t shininess[128];  /* SHININESS table */
    int16_t light_dir[4][3]; /* -(L * vector matrix), signed 11-bit (1.0.9 plus sign room) */
    int32_t spec_recip[4];   /* reciprocal used by the specular term (see light.c) */
    uint8_t light_color[4][3];
    /* per light and channel, kept up to date by DIF_AMB, SPE_EMI and LIGHT_COLOR (light.c):
     * material x light colour products of the diffuse and specular terms and the whole
     * ambient term (ambient << 9) * light */
    int32_t light_dif[4][3], light_spe[4][3], light_amb[4][3];

    /* ---- polygon attributes ---- */
    uint32_t polygon_attr;     /* last POLYGON_ATTR written */
    uint32_t cur_polygon_attr; /* POLYGON_ATTR latched at BEGIN_VTXS */
    uint32_t teximage;         /* TEXIMAGE_PARAM */
    uint32_t pltt_base;        /* PLTT_BASE (13 bits) */
    uint32_t viewport[6];      /* x0, y0 (flipped), x1, y1 (flipped), width, height */
    uint32_t dot_w_limit;      /* DISP_1DOT_DEPTH as a W limit: val * 0x200 + 0x1FF */
    bool wbuffer;              /* W-buffer bit of the last SWAP_BUFFERS */

    /* ---- polygon assembly ---- */
    uint32_t vtx_in_poly;    /* vertices gathered for the current polygon */
    uint32_t strip_polys;    /* polygons completed since BEGIN_VTXS (strip parity) */
    gx_vertex buf[4];        /* the current polygon's transformed vertices */
    int32_t last_strip_poly; /* polygon RAM index of the previous strip polygon, or -1 */
    bool incomplete;         /* the last vertex left a polygon incomplete */
} gx_geom_state;

/* ---- shared between the geometry units (vertex.c, polygon.c, clip.c, ...) ---- */

/** Clip a polygon against the view volume in place (Z, then Y, then X planes). Vertices before
 *  @p clipstart are known to be inside (reused strip vertices). @p attribs: also interpolate
 *  colours and texture coordinates. @p far_clip: POLYGON_ATTR bit 12 (else a vertex beyond the
 *  far plane rejects the polygon). @return the vertex count after clipping, 0 if nothing left. */
int gx_clip_polygon(gx_vertex *v, int nverts, int clipstart, bool attribs, bool far_clip);

/** Whether a vertex is inside every plane of the view volume (-w <= x, y, z <= w, with -w in
 *  32-bit wrapping arithmetic as the clipper computes it): gx_clip_polygon leaves a polygon of
 *  such vertices unchanged. */
static inline bool gx_clip_inside_pos(const int32_t c[4])
{
    int32_t w = c[3], nw = (int32_t)(0u - (uint32_t)w);
    return c[0] <= w && c[1] <= w && c[2] <= w && c[0] >= nw && c[1] >= nw && c[2] >= nw;
}

/** gx_clip_inside_pos of a vertex's clip position. */
static inline bool gx_clip_inside(const gx_vertex *v)
{
    return gx_clip_inside_pos(v->clip);
}

/** Screen position of clip coordinates @p x, @p y with W already masked to 24 bits (@p w24),
 *  as gx_viewport_transform computes it. */
static inline void gx_viewport_xy(const gx_geom_state *g, int32_t x, int32_t y, uint32_t w24,
                                  int32_t *sxp, int32_t *syp)
{
    uint32_t sx = 0, sy = 0;
    if (w24 != 0) {
        uint32_t nx = (uint32_t)x + w24;
        uint32_t ny = w24 - (uint32_t)y;
        uint32_t den = w24;
        if (w24 > 0xFFFFu) { /* 32-bit divider: drop one bit of precision */
            nx >>= 1;
            ny >>= 1;
            den >>= 1;
        }
        den <<= 1;
        sx = (nx * g->viewport[4]) / den + g->viewport[0];
        sy = (ny * g->viewport[5]) / den + g->viewport[3];
    }
    *sxp = (int32_t)(sx & 0x1FFu);
    *syp = (int32_t)(sy & 0xFFu);
}

/** Screen position of a clipped vertex (masks W to 24 bits as the hardware does; hardware notes:
 *  viewport.c). Inline: polygon.c's unclipped path calls it per vertex. */
static inline void gx_viewport_transform(const gx_geom_state *g, gx_vertex *v)
{
    uint32_t w = (uint32_t)v->clip[3] & 0x00FFFFFFu;
    v->clip[3] = (int32_t)w;
    gx_viewport_xy(g, v->clip[0], v->clip[1], w, &v->sx, &v->sy);
}

/** Texture coordinates for a vertex at @p pos (texgen mode 3), or the current ones. */
void gx_texgen_vertex(gx_engine *gx, const int16_t pos[3], int16_t out[2]);

/** @p v (1.3.12) times the clip matrix with w = 1.0: 64-bit sums >> 12. */
void gx_geom_transform(gx_engine *gx, const int16_t v[3], int32_t out[4]);

/** gx_geom_transform for @p n positions (16-bit values held in 64-bit integers: the SSE4.1 form
 *  loads each into both lanes at once) at once, with the clip matrix @p m given (batch.c;
 *  SSE4.1 where the machine has it (run-time dispatch), else SSE2 where the build has it, else
 *  scalar: the same integers). */
void gx_transform_batch(const int32_t m[16], const int64_t (*pos)[3], int32_t (*out)[4], size_t n);

/* SSE4.1 forms chosen at run time (GCC/Clang on x86-64; the build's flags stay baseline). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DSGX_NO_SIMD)
#define GX_SSE41_DISPATCH 1
#else
#define GX_SSE41_DISPATCH 0
#endif

/** The vector forms of the geometry engine's fast paths (tests compare each with the scalar). */
enum gx_simd_path { GX_PATH_SCALAR, GX_PATH_SSE2, GX_PATH_SSE41 };

/** gx_transform_batch through one form. @return false (nothing written) when this build or
 *  machine lacks it */
bool gx_transform_batch_path(enum gx_simd_path path, const int32_t m[16], const int64_t (*pos)[3],
                             int32_t (*out)[4], size_t n);

/** Texgen mode 2: NORMAL recomputes the texture coordinates from the normal @p n (1.0.9). */
void gx_texgen_normal(gx_engine *gx, const int16_t n[3]);

/** Turn the current vertex (g->cur_vtx) into the next polygon vertex. */
void gx_geom_submit_vertex(gx_engine *gx);

/** The vertex in g->buf[g->vtx_in_poly] is ready (transformed, colour and texture coordinates
 *  set, the rest zero): report it to the vertex hook and assemble it into polygons, submitting
 *  a completed one (gx_geom_submit_vertex's second half; batch.c fills the vertex itself). */
void gx_geom_assemble_vertex(gx_engine *gx);

/** The polygon in g->buf is complete: cull, clip, store. */
void gx_geom_submit_polygon(gx_engine *gx);

/** A polygon RAM entry with the attributes every polygon gets until the next BEGIN_VTXS,
 *  TEXIMAGE_PARAM, PLTT_BASE or swap (the rest zero): gx_geom_store_direct's template. */
void gx_geom_polygon_template(const gx_geom_state *g, gx_polygon *p);

/** gx_geom_submit_polygon after its winding test (@p dot: < 0 front-facing, > 0 back-facing)
 *  found the polygon not culled: gx_geom_store_strip's hand-back, which made that test. */
void gx_geom_submit_faced(gx_engine *gx, int64_t dot);

/** gx_geom_store_direct's outcomes (a stored quad apart: the cycle model's polygon pipeline
 *  takes longer for it, gx_cyc_polygon_start). */
enum { GX_DIRECT_LEFT, GX_DIRECT_STORED, GX_DIRECT_REJECTED, GX_DIRECT_STORED_QUAD };

/** A separate triangle or quad (@p n = 3, 4) completed from the vertex batch (batch.c), its
 *  vertices given as arrays (clip positions, 5-bit colours, texture coordinates) instead of
 *  g->buf (colours packed: gx_unpack_color): culled, or stored when every vertex is inside the
 *  view volume and it fits in RAM, exactly as gx_geom_submit_polygon would (its polygon entry
 *  from @p tmpl).
 *  @return GX_DIRECT_STORED (with its @p n vertices; GX_DIRECT_STORED_QUAD for a quad),
 *  GX_DIRECT_REJECTED (culled or 1-dot:
 *  g->poly_rejected set), or GX_DIRECT_LEFT when it did nothing: the clipper or a full RAM is
 *  involved (then fill g->buf and call gx_geom_submit_polygon) */
int gx_geom_store_direct(gx_engine *gx, const gx_polygon *tmpl, const int32_t (*clip)[4],
                         const uint32_t *color, const int16_t (*tex)[2], int n);

/** A triangle-strip or quad-strip polygon (@p n = 3, 4) completed from the vertex batch, as
 *  gx_geom_store_direct, with the strip's vertex sharing (the two vertices shared with the
 *  strip's previous stored polygon reused from vertex RAM, gx_geom_submit_polygon's rule). Its
 *  vertices by pointer, in polygon order (g->buf's after the strip's swap); @p fresh: bit i set
 *  when vertex i's @p color and @p tex are given (a vertex from before the batch has only its
 *  position: a polygon that would store it goes to the submit path).
 *  @return false when it did nothing but the winding test (@p dot set; then fill g->buf and
 *  call gx_geom_submit_faced) */
bool gx_geom_store_strip(gx_engine *gx, const gx_polygon *tmpl, const int32_t *const *clip,
                         const uint32_t *color, const int16_t *const *tex, unsigned fresh,
                         int64_t *dot, int n);

/** NORMAL (21h) without its store: the normal and texgen mode 2 as gx_cmd_normal, the lit
 *  vertex colour returned packed (gx_unpack_color), so that a caller keeping it in a register
 *  does not read back the bytes just stored (batch.c). */
uint32_t gx_light_normal(gx_engine *gx, uint32_t param);

/** What NORMAL's colour depends on besides the normal (gx_light_normal; texgen mode 2, which
 *  also sets the texture coordinates, aside): the lights enabled in the POLYGON_ATTR latched at
 *  BEGIN_VTXS, the vector matrix's 3x3 part, the emission, each enabled light's direction,
 *  specular reciprocal and material x light products, the shininess table when it is enabled.
 *  What lighting does not read is zero (no light: no matrix; table off: no table), so that two
 *  states that light every normal alike compare equal byte for byte (no padding). */
typedef struct gx_light_inputs {
    int32_t vec[9];
    int32_t dif[4][3], spe[4][3], amb[4][3];
    int32_t recip[4];
    int16_t dir[4][3];
    uint32_t lights;
    uint8_t emission[3];
    uint8_t shininess_enable;
    uint8_t shininess[128];
} gx_light_inputs;

enum { GX_NORMAL_CACHE_LOG2 = 10 };

/** NORMAL's lit colours remembered across vertex batches (batch.c): the colour is a function of
 *  the normal's 30 bits and of @p in alone, so an entry stays right while the engine's inputs
 *  equal @p in (compared at the start of each batch; any difference empties the table). Derived
 *  state: not saved, never observable (a restore or reset changes at most the inputs, which the
 *  next batch compares). */
typedef struct gx_normal_cache {
    bool valid; /* @p in and the entries were filled (a new engine's is all zero: not) */
    gx_light_inputs in;
    /* by hash of the normal's 30 bits: the bits | the packed colour << 32; ~0: empty */
    uint64_t entry[1u << GX_NORMAL_CACHE_LOG2];
} gx_normal_cache;

/** The lighting inputs of @p gx now (gx_light_inputs). */
void gx_light_inputs_of(const gx_engine *gx, gx_light_inputs *in);

/** A vertex colour packed in a word: the 5-bit channel k in byte k. */
static inline void gx_unpack_color(uint32_t packed, uint8_t out[3])
{
    for (int k = 0; k < 3; k++) out[k] = (uint8_t)(packed >> (8 * k));
}

/** gx_unpack_color's inverse. */
static inline uint32_t gx_pack_color(const uint8_t c[3])
{
    return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16;
}

/** COLOR's parameter (rgb15) as a packed vertex colour. */
static inline uint32_t gx_pack_rgb15(uint32_t v)
{
    return (v & 0x1Fu) | ((v << 3) & 0x1F00u) | ((v << 6) & 0x1F0000u);
}

/* ---- command handlers (called with all parameter words collected) ---- */
void gx_cmd_color(gx_engine *gx, const uint32_t *params);
void gx_cmd_normal(gx_engine *gx, const uint32_t *params);
void gx_cmd_texcoord(gx_engine *gx, const uint32_t *params);
void gx_cmd_vtx16(gx_engine *gx, const uint32_t *params);
void gx_cmd_vtx10(gx_engine *gx, const uint32_t *params);
void gx_cmd_vtx_xy(gx_engine *gx, const uint32_t *params);
void gx_cmd_vtx_xz(gx_engine *gx, const uint32_t *params);
void gx_cmd_vtx_yz(gx_engine *gx, const uint32_t *params);
void gx_cmd_vtx_diff(gx_engine *gx, const uint32_t *params);
void gx_cmd_polygon_attr(gx_engine *gx, const uint32_t *params);
void gx_cmd_teximage_param(gx_engine *gx, const uint32_t *params);
void gx_cmd_pltt_base(gx_engine *gx, const uint32_t *params);
void gx_cmd_dif_amb(gx_engine *gx, const uint32_t *params);
void gx_cmd_spe_emi(gx_engine *gx, const uint32_t *params);
void gx_cmd_light_vector(gx_engine *gx, const uint32_t *params);
void gx_cmd_light_color(gx_engine *gx, const uint32_t *params);
void gx_cmd_shininess(gx_engine *gx, const uint32_t *params);
void gx_cmd_begin_vtxs(gx_engine *gx, const uint32_t *params);
void gx_cmd_end_vtxs(gx_engine *gx, const uint32_t *params);
void gx_cmd_viewport(gx_engine *gx, const uint32_t *params);
void gx_cmd_box_test(gx_engine *gx, const uint32_t *params);
void gx_cmd_pos_test(gx_engine *gx, const uint32_t *params);
void gx_cmd_vec_test(gx_engine *gx, const uint32_t *params);

/** Power-on state of the vertex/polygon unit. */
void gx_geom_reset(gx_engine *gx);
/** VBlank after a swap (gx->build is the fresh frame): empty the RAM, reset strips, latch the
 *  W-buffer bit of @p swap_param for the polygons submitted from now on. */
void gx_geom_on_vblank(gx_engine *gx, uint32_t swap_param);
/** Recompute the per-light material x light colour products (light_dif/spe/amb) from the
 *  colours: DIF_AMB, SPE_EMI and LIGHT_COLOR call it, and a save-state restore (derived state,
 *  not read from the blob). */
void gx_light_products(gx_geom_state *g);
/** DISP_1DOT_DEPTH write. */
void gx_geom_set_1dot_depth(gx_engine *gx, uint32_t val);

#endif
