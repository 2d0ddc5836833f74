/*
 * raster_internal.h - the rendering engine's instance state and per-pixel buffers, shared by the
 * rasterizer (render.c, setup.c, span.c), the pixel stage (pixel.c, texture.c) and the final pass
 * (postpass.c, timing.c). Not part of the public API.
 *
 * Buffer layout (same semantics and bit layout as melonDS GPU3D_Soft.h ColorBuffer/DepthBuffer/
 * AttrBuffer, so the final pass can follow melonDS's arithmetic exactly):
 *
 *  - Each buffer is RASTER_SCANLINE_W x RASTER_NUM_LINES = 258 x 194 words: the 256x192 screen
 *    with a 1-pixel border on every side (edge marking reads the neighbours of border pixels;
 *    the border is filled by the clear with colour 0, the clear depth and the clear polygon ID).
 *    Screen pixel (x, y) is at RASTER_FIRST_PIXEL + y * RASTER_SCANLINE_W + x.
 *  - Each buffer holds TWO layers: [0, RASTER_BUF_SIZE) is the topmost pixel, [RASTER_BUF_SIZE,
 *    2 * RASTER_BUF_SIZE) the pixel underneath it. The lower layer is written only when an
 *    opaque edge pixel is drawn with anti-aliasing on (the old top pixel is pushed down) and when
 *    a translucent pixel lands on an edge pixel (it is blended into both layers). It is read by
 *    anti-aliasing (blend of the two layers by coverage), fog (applied to both layers when the
 *    top pixel is an edge pixel) and the depth test (a failed test against an edge pixel is
 *    retried against the pixel underneath).
 *
 *  color[]: r6 | g6 << 8 | b6 << 16 | a5 << 24 (6-bit colour, 5-bit alpha; = dsgx_frame pixel).
 *  depth[]: Z-buffer: 24-bit value; W-buffer: the (normalized) W value. Clear: CLEAR_DEPTH * 0x200
 *           + 0x1FF. Translucent pixels write depth only with POLYGON_ATTR bit 11.
 *  attr[]:  RASTER_ATTR_* below:
 *     bit 0-3   edge flags: 0 left, 1 right, 2 top (first line), 3 bottom (last line) of the
 *               polygon that drew the pixel. Only opaque pixels set them; a translucent pixel
 *               keeps the flags of the pixel under it. Non-zero = "edge pixel" (edge marking,
 *               anti-aliasing, lower-layer handling).
 *     bit 4     back-facing polygon (the less-or-equal depth test exception reads it)
 *     bit 5-6   overlapping-edge role (raster/curse.c), written only by opaque pixels of the
 *               polygons that take part (DISP3DCNT edge marking on, anti-aliasing off): 5 a
 *               left edge that is not X-major (wins over 6), 6 a right edge that is not
 *               X-major; 0 elsewhere (the clear, other polygons, translucent pixels)
 *     bit 8-12  anti-aliasing coverage 0..31 (31 = full); set only with DISP3DCNT bit 4 on
 *               edge pixels; a pixel edge marking marks has coverage 0x10 ("break
 *               coverage" in melonDS), recorded in edge_marked[] instead
 *     bit 13-14 overlapping-edge role, as bits 5-6: 13 a top X-major run or the inside of a
 *               polygon's top line (wins over 14), 14 a bottom X-major run or the inside of
 *               its bottom line. One role per pixel at most (raster/curse.c)
 *     bit 15    fog enable (POLYGON_ATTR bit 15 / clear colour bit 15); a translucent pixel
 *               keeps it only if the pixel under it had it
 *     bit 16-21 translucent polygon ID (of the last translucent pixel drawn here)
 *     bit 22    translucent flag: the last pixel drawn here was translucent
 *               (bits 16-22 together are compared for the translucent-ID rule)
 *     bit 24-29 opaque polygon ID (edge marking, shadow ID rule); the clear sets it from
 *               CLEAR_COLOR bits 24-29; translucent pixels keep the opaque ID underneath
 *  stencil[]: shadow mask of the current and the previous scanline (256 bytes each, line y at
 *           (y & 1) * 256): bit 0 = the mask's depth test failed against the top layer,
 *           bit 1 = failed against the lower layer (edge pixels). Cleared when a shadow-mask
 *           polygon follows a polygon that is not one (prev_shadow_mask).
 */
#ifndef DSGX_RASTER_INTERNAL_H
#define DSGX_RASTER_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "gx/gx_frame.h"
#include "raster/edge.h"
#include "raster/frame.h"
#include "raster/pixel.h"
#include "raster/raster.h"
#include "raster/timing.h"

#define RASTER_SCANLINE_W  258
#define RASTER_NUM_LINES   194
#define RASTER_BUF_SIZE    (RASTER_SCANLINE_W * RASTER_NUM_LINES)
#define RASTER_FIRST_PIXEL (RASTER_SCANLINE_W + 1)

/** Address (layer 0) of screen pixel (x, y). */
static inline uint32_t raster_addr(int x, int y)
{
    return (uint32_t)(RASTER_FIRST_PIXEL + y * RASTER_SCANLINE_W + x);
}

/* attr[] bits (melonDS GPU3D_Soft.h "attribute buffer"). */
#define RASTER_ATTR_EDGE_LEFT       0x1u
#define RASTER_ATTR_EDGE_RIGHT      0x2u
#define RASTER_ATTR_EDGE_TOP        0x4u
#define RASTER_ATTR_EDGE_BOTTOM     0x8u
#define RASTER_ATTR_EDGE_MASK       0xFu
#define RASTER_ATTR_BACKFACE        0x10u
#define RASTER_ATTR_COV_SHIFT       8
#define RASTER_ATTR_COV_MASK        0x1F00u
#define RASTER_ATTR_FOG             0x8000u
#define RASTER_ATTR_TRANS_ID_SHIFT  16
#define RASTER_ATTR_TRANS_ID_MASK   0x3F0000u
#define RASTER_ATTR_TRANSLUCENT     0x400000u
#define RASTER_ATTR_TRANS_KEY       0x7F0000u /* translucent ID + flag: the translucent-ID rule */
#define RASTER_ATTR_OPAQUE_ID_SHIFT 24
#define RASTER_ATTR_OPAQUE_ID_MASK  0x3F000000u
/* Overlapping-edge roles (raster/curse.c): each winning role's bit is one below the role it
 * wins over, so that the verdict is two shifts. */
#define RASTER_ATTR_ROLE_LEFT   0x20u   /* left edge, not X-major: wins over ROLE_RIGHT */
#define RASTER_ATTR_ROLE_RIGHT  0x40u   /* right edge, not X-major */
#define RASTER_ATTR_ROLE_TOP    0x2000u /* top X-major run / top line: wins over ROLE_BOTTOM */
#define RASTER_ATTR_ROLE_BOTTOM 0x4000u /* bottom X-major run / bottom line */
#define RASTER_ATTR_ROLE_WIN    (RASTER_ATTR_ROLE_LEFT | RASTER_ATTR_ROLE_TOP)
#define RASTER_ATTR_ROLE_LOSE   (RASTER_ATTR_ROLE_RIGHT | RASTER_ATTR_ROLE_BOTTOM)

/** The overlapping-edge rule (raster/curse.c) for an opaque pixel with @p role (one
 *  RASTER_ATTR_ROLE_* bit or 0) of a polygon with opaque attribute word @p polyattr, over a
 *  pixel with attribute word @p dstattr: 1 = it replaces the pixel whatever the depths (it wins
 *  over the pixel's role), -1 = it leaves the pixel alone whatever the depths (the pixel's role
 *  wins over it), 0 = no rule (the depth test decides). Only between the same opaque polygon
 *  ID; a pixel without a role (the clear, translucent pixels, other polygons) takes no part. */
static inline int raster_curse_verdict(uint32_t dstattr, uint32_t polyattr, uint32_t role)
{
    if ((dstattr ^ polyattr) & RASTER_ATTR_OPAQUE_ID_MASK) return 0;
    if (dstattr & (role << 1) & RASTER_ATTR_ROLE_LOSE) return 1;
    if (dstattr & (role >> 1) & RASTER_ATTR_ROLE_WIN) return -1;
    return 0;
}

struct span_line;
/** A specialised span function: draws one polygon line (span_fns.c, span_pixel.h). */
typedef void (*raster_span_fn)(struct span_line *c, int32_t xcut);

/** The pixel loop's constants of one polygon (span_pixel.h; set up by span_fns.c setup_k),
 *  kept out of the shader so that the loop reads them without re-deriving them. */
typedef struct raster_span_k {
    uint32_t alpha_ref; /**< raster_engine.alpha_ref */
    uint32_t polyattr;  /**< raster_poly.polyattr */
    uint32_t valpha;    /**< (polygon alpha | wireframe alpha) << 24: vertex colour's alpha */
    /* modulate from the decoded texture (shader.decoded != NULL) */
    const uint32_t *texels;
    const struct raster_tex_ctab *ctab; /**< the decoded texture's compact form, or NULL */
    uint32_t wlog2;
    raster_tex_axis ax_s, ax_t;
    bool repeat; /**< both axes repeat: the wrap's clamp never limits */
    bool plain;  /**< both axes repeat without flip: the wrap is (coord >> 4) & (size - 1) */
    bool a31;    /**< polygon alpha 31: the modulated alpha is the texel's */
    const uint16_t *tab_s, *tab_t; /**< raster_engine.wrap_tab of each axis' size and flip */
    uint32_t pm_s, pm_t;           /**< 2 * size - 1 of each axis */
    uint32_t pa1, alpha_or;        /**< polygon alpha + 1; 31 for wireframe, else 0 */
    /** span function of the spans that take span_gen (perspective, W-buffer) when their
     *  vertex colour does not change (NULL: none; span_pixel.h raster_span_choose) */
    raster_span_fn pflat;
    /** The vector loop's copies (span_vec.h), four equal 32-bit lanes each, read from here
     *  as they are needed instead of being set up per line: the wrap of s and t (lo, hi,
     *  mask, flip), the alpha-test reference, alpha_or << 24 */
    _Alignas(16) int32_t v_wrap[2][4][4];
    _Alignas(16) int32_t v_aref[4];
    _Alignas(16) int32_t v_aor[4];
} raster_span_k;

/** A render-list polygon's screen extent (raster_engine.box): the smallest and largest vertex
 *  X, and its top and bottom line (gx_polygon.ytop / ybottom). */
typedef struct raster_list_box {
    int32_t x0, x1, ytop, ybottom;
} raster_list_box;

/** Rendering state of one polygon (set up once per frame, stepped per scanline). Field order:
 *  the scanline loop's per-line fields first, then the two edges (their per-line parts first,
 *  edge.h), the pixel stage last: the polygons of one line must stay in the L1 cache. */
typedef struct raster_poly {
    /* copies of the polygon's per-line fields, so that the scanline loop reads only this
     * struct (one polygon's data stays in a few cache lines) */
    int32_t ytop, ybottom;
    int32_t yl_next, yr_next;             /**< Y of the current left / right edge's lower vertex */
    int32_t xl, xr;                       /**< span ends of the current line */
    uint32_t polyattr;                    /**< opaque attr word: opaque ID, fog, back-facing bit */
    uint8_t cur_l, next_l, cur_r, next_r; /**< 0..nverts-1: current edges' vertex slots */
    uint8_t vbottom;
    bool wbuffer;
    bool fill_all;  /**< every edge run is filled (AA / edge marking, blending, wireframe) */
    bool flat;      /**< ytop == ybottom (one-line polygon) */
    bool line_poly; /**< two vertices share a screen position (the line polygon fill rule) */
    uint8_t alpha;  /**< POLYGON_ATTR alpha (0: wireframe) */
    bool wireframe;
    uint8_t depth_test; /**< RASTER_DEPTH_* chosen once per polygon */
    uint8_t span_flags; /**< selects the specialised span function (span.c) */
    bool is_mask;       /**< shadow mask: mode 3, polygon ID 0 */
    bool is_shadow;     /**< shadow polygon: mode 3, polygon ID != 0 */
    /** the polygon's lines take span.c's line_setup_lin: Z-buffered, no anti-aliasing, no
     *  shadow, every vertex W equal to lin_w with bits 0-6 clear (setup.c) */
    bool lin_line;
    /** lin_line's part that depends on the material and the frame (setup.c setup_material):
     *  span_lin, Z-buffered, no shadow mask, no anti-aliasing, not the reference engine */
    bool lin_mat;
    int32_t lin_w;
    const gx_polygon *poly;
    const gx_vertex *verts; /**< gx_frame.verts (indices in poly->vtx) */
    /** span functions (raster_span_select_poly): linear spans (NULL: none), linear spans of one
     *  vertex colour (NULL: none), every other span */
    raster_span_fn span_lin, span_flat, span_gen;
    raster_span_k spk; /**< the pixel loop's constants */
    raster_slope left, right;
    raster_shader shader; /**< pixel stage (H4), set up once per polygon */
    /** The material the slot's material state (attribute words, depth test, flags, shader,
     *  span functions and their constants) was set up for (setup.c material_reusable):
     *  the engine's frame serial (0: none) and the polygon fields that state depends on. */
    uint64_t mat_serial;
    uint32_t mat_attr, mat_teximage, mat_pltt;
    bool mat_front, mat_wbuffer;
} raster_poly;

enum {
    RASTER_DEPTH_LESS = 0,       /**< z < dst */
    RASTER_DEPTH_LESS_FRONT = 1, /**< front-facing: z <= dst over an opaque back-facing pixel */
    RASTER_DEPTH_EQUAL_Z = 2,    /**< POLYGON_ATTR bit 14, Z-buffer: |dst - z| <= 0x200 */
    RASTER_DEPTH_EQUAL_W = 3,    /**< POLYGON_ATTR bit 14, W-buffer: |dst - z| <= 0xFF */
};

/** The line-at-a-time frame (lines.c): lines [0, drawn) are drawn, [0, finished) have had
 *  their final pass (edge marking, fog, anti-aliasing) and are final. */
typedef struct raster_lines_state {
    bool active; /**< between raster_lines_begin and raster_lines_end */
    int16_t drawn;
    int16_t finished;
    /** what the frame started from, for raster_lines_resume (save states): the timing model
     *  (live: its rec_lines pointer is NULL) and the shadow-mask flag */
    raster_timing timing_at_begin;
    bool prev_shadow_mask_at_begin;
} raster_lines_state;

/** Most threads a frame is split into (raster_set_threads). */
#define RASTER_MAX_THREADS 8
/** Bands of one thread's stream of lines (threads.c plan_streams). */
#define RASTER_STREAM_BANDS 2

/**
 * The scanline loop's state for one band of lines [y0, y1), drawn by one thread (threads.c):
 * the polygons on the current line and their rendering state. A polygon takes a state slot at
 * its first line in the band (raster_poly_activate) and gives it back after its bottom line,
 * and the next polygon takes the slot freed last: the state in use stays a few slots that are
 * still in the caches, instead of one new ~900-byte struct per polygon of the frame (2,000
 * polygons' state does not fit the L2 cache next to the pixel buffers).
 */
typedef struct raster_band {
    raster_engine *r;
    int32_t y0, y1;
    /** the timing model the lines run against: the engine's own (one band, live), or
     *  `rec`, which records each line's cost for a replay after the bands (timing.h) */
    raster_timing *timing;
    raster_timing rec;
    /** the engine's prev_shadow_mask as this band leaves it (taken from the engine at the
     *  band's start; bands of one frame without shadow masks may run at once), and whether
     *  the band drew any polygon line (set it at all) */
    bool prev_mask, drew;
    /* polygons on the current line in list order, as render-list index << 16 | state slot
     * (span.c update_active) */
    uint32_t nactive;
    uint32_t active[GX_MAX_POLYGONS];
    uint32_t active_tmp[GX_MAX_POLYGONS];
    uint16_t free_slots[GX_MAX_POLYGONS];
    uint32_t nfree;
    /** polygon-major bands (span.c raster_draw_band_pmajor): the states of the polygons that
     *  cross the band's last line, stepped to the line after it, in list order, in
     *  polys[carry_at, carry_at + ncarry); carry_ok: every one of them fitted */
    uint32_t carry_at, ncarry;
    bool carry_ok;
    /** the band's polygons for raster_draw_band_pmajor, render-list indices in list order:
     *  order[0, norder) (threads.c plan_band_lists: the polygons outside the band are not
     *  walked), or NULL: the whole list */
    const uint16_t *order;
    uint32_t norder;
    /** bands this thread took in the last frame from another thread's stream (threads.c:
     *  from a stream nobody had, or the last of one somebody had; the tests count them) */
    unsigned adopted, stolen;
    raster_poly polys[GX_MAX_POLYGONS];
} raster_band;

struct raster_engine {
    /* per-pixel buffers (layout above) */
    uint32_t color[2 * RASTER_BUF_SIZE];
    uint32_t depth[2 * RASTER_BUF_SIZE];
    uint32_t attr[2 * RASTER_BUF_SIZE];
    uint8_t stencil[2 * 256];
    /** edge marking's result per top-layer edge pixel (1: marked, coverage 0x10), written by
     *  raster_edge_mark_pass for every edge pixel of its lines, read by anti-aliasing */
    uint8_t edge_marked[RASTER_BUF_SIZE];
    bool prev_shadow_mask; /**< the last polygon drawn on a line was a shadow mask */

    /* frame-constant state */
    uint16_t disp3dcnt;        /**< latched DISP3DCNT */
    uint8_t alpha_ref;         /**< ALPHA_TEST_REF */
    bool fill_all_edges;       /**< AA or edge marking on: every edge is filled */
    raster_pixel_frame pixel;  /**< pixel stage frame state (H4) */
    raster_tex_cache texcache; /**< decoded textures of this frame (pixel.h) */
    raster_recip *recip;       /**< reciprocal tables (interp.h), or NULL: divide */
    /** Texel coordinate wrap of repeat axes (span_pixel.h span_wrap): for size S = 8..1024,
     *  [flip][2S + u] for u < 2S is u mod S (flip 0) or u mirrored at S (flip 1), the
     *  wrapped coordinate of any u with the same low log2(2S) bits. Filled at creation. */
    uint16_t wrap_tab[2][4096];
    /** X-major span ends as melonDS, and no overlapping-edge rule (curse.c), as melonDS
     *  (false: hardware gaps and the rule) */
    bool melonds_gaps;
    /** every polygon line through the general line set-up (span.c line_setup), none through
     *  its specialised form (line_setup_lin), and each edge set up on its own at a polygon's
     *  activation (setup.c; not both at once): the reference in tests; false by default */
    bool ref_lines;
    /** Test hook (unit.test_raster_span_diff): every polygon line is drawn by the generic span
     *  function of its flags (span_fns.c), which shades through raster_shade, instead of the
     *  specialised ones: the reference the fast paths are compared with. Default false. */
    bool span_reference;
    /** The widest form of the pixel loops this engine draws with (RASTER_SPAN_ISA_*): set by
     *  raster_create to the widest the build and the processor have (span_fns.c
     *  raster_span_isa_best); tests lower it to compare every form with the reference. */
    uint8_t span_isa;
    /** Span functions of span_isa AVX2 may look a small texture up in registers (AVX-512 VBMI,
     *  span_fns_ctab.c: raster_tex_ctab) instead of gathering its texels: set by raster_create
     *  where the build and the processor have it; tests clear it to compare. */
    bool tex_ctab;
    /** Test hook (unit.test_raster_pmajor): every frame drawn scanline by scanline (span.c
     *  raster_draw_band), none polygon by polygon (raster_draw_band_pmajor): the reference
     *  the polygon-major order is compared with. Default false. */
    bool scanline_order;
    /** Test hook (unit.test_raster_pmajor): polygon by polygon also when the upper bound of
     *  the timing costs may be cut (raster_pmajor_frame), so that the redraw of a frame the
     *  timing model cuts after all is tested. Default false. */
    bool pmajor_unchecked;
    /** this frame is drawn polygon by polygon (threads.c, raster_pmajor_frame) */
    bool pmajor;
    /** lines that 8 or more polygons cross (raster_pmajor_frame): cleared whole first */
    bool pmajor_full[192];

    /* lazy clear (render.c): with a plain clear plane, line y's pixels [valid_lo, valid_hi)
     * hold this frame's values (clear or drawn); the rest is cleared only when a polygon line
     * reaches it (raster_span_begin) or the final pass needs it. Empty: lo = 256, hi = 0. */
    bool lazy_clear;      /**< this frame clears lazily (raster_render; false in unit scenes) */
    bool final_pass;      /**< this frame has edge marking, fog or anti-aliasing */
    dsgx_frame *out;      /**< where this frame goes (raster_render), or NULL */
    uint32_t clear_px[3]; /**< clear colour, depth, attribute word */
    int16_t valid_lo[192], valid_hi[192];

    /* scanline-timing model (H5), persistent across frames */
    raster_timing timing;

    /* render list of this frame: opaque polygons, then translucent, in drawing order */
    const gx_frame *frame;  /**< the frame being drawn (raster_setup_frame) */
    const gx_vertex *verts; /**< its vertex RAM (raster_setup_frame; raster_render_ram's) */
    uint64_t frame_serial;  /**< counts raster_setup_frame calls (1 = the first frame) */
    uint32_t npolys;
    const gx_polygon *list[GX_MAX_POLYGONS];
    /** box[i]: the screen extent of list[i] (raster_setup_frame, from the vertex walk that
     *  decides whether it is drawn): the frame's later passes over the list (texture plan,
     *  timing bound) read these 16 bytes instead of the polygon and its vertices */
    raster_list_box box[GX_MAX_POLYGONS];
    /** every polygon of the list has 0 <= ytop <= ybottom (raster_pmajor_frame) */
    bool list_ytop_ok;
    /* render-list indices by top line: first[y], then next[i] (ascending; 0xFFFF ends) */
    uint16_t start_first[256];
    uint16_t start_next[GX_MAX_POLYGONS];
    /** the frame has shadow polygons or masks: their stencil and "previous polygon was a
     *  mask" state runs from line to line, so such a frame is drawn by one thread */
    bool has_shadows;
    /** estimated work of each line (raster_setup_frame): where threads split the frame */
    uint32_t line_work[192];

    /* threads (threads.c): thread 0 is the caller, thread i > 0 worker i; band[i] is the
     * scanline state of thread i */
    unsigned threads; /**< threads a frame may be drawn on (raster_set_threads) */
    raster_band *band[RASTER_MAX_THREADS];
    struct raster_pool *pool; /**< worker threads, or NULL */
    uint32_t split_min_work;  /**< smallest line_work total split (threads.c; tests: 0) */
    /* this frame's bands (threads.c plan_streams): lines [band_y[k], band_y[k + 1]) for
     * k < nbands, band_acc[k] the estimated work above band k; stream s, one per thread, is
     * bands [stream_band[s], stream_band[s + 1]), its untaken ones in stream[s] (front |
     * back << 8 | owned << 16) */
    unsigned nbands, nstreams;
    int32_t band_y[RASTER_STREAM_BANDS * RASTER_MAX_THREADS + 1];
    uint64_t band_acc[RASTER_STREAM_BANDS * RASTER_MAX_THREADS + 1];
    uint8_t stream_band[RASTER_MAX_THREADS + 1];
    atomic_uint stream[RASTER_MAX_THREADS];
    atomic_uint arrivals; /**< threads that joined the lines' step (after thread 0) */
    /** estimated work drawn in the last frame by the thread that joined s-th (0: thread 0) */
    uint64_t slot_work[RASTER_MAX_THREADS];
    /** stream s's share of a frame's work, of 65536: from the work each thread drew in the
     *  frames before (threads.c shares_update), for share_threads threads */
    uint32_t share[RASTER_MAX_THREADS];
    unsigned share_threads;
    uint8_t last_lines; /**< how the last frame's lines ran (raster_lines_result) */
    raster_timing_line line_rec[RASTER_TIMING_LINES]; /**< each line's recorded cost */

    /** A frame drawn one scanline at a time (lines.c, raster_lines_begin): plain data. */
    raster_lines_state lines;
    /** span.c pmajor_estimate's terms (setup.c est_add, in raster_setup_frame's pass over the
     *  polygons): est[y] - est[y - 1] as each line's timing charges times RASTER_EST_ONE plus
     *  the polygons that cross it (lines modulo 256; lines 192 on are not read) */
    int64_t est[256 + 1];
};
/** raster_engine.est: the unit of the charges (a line's count of polygons below it) */
#define RASTER_EST_ONE ((int64_t)1 << 12)

/* ---- final pass (H5, postpass.c) ---- */
/** Fill both buffer layers and the border with the clear plane (colour, depth, ID, fog, or
 *  the rear-plane bitmap with DISP3DCNT bit 14). */
void raster_postpass_clear(raster_engine *r, const gx_frame *in);
/** Edge marking, fog, anti-aliasing on the drawn buffers, then conversion into @p out. */
void raster_postpass_finish(raster_engine *r, const gx_frame *in, dsgx_frame *out);
/** The same for lines [y0, y1) only, once every line is drawn (bands of lines may run at
 *  once; @p out may be NULL). */
void raster_postpass_rows(raster_engine *r, const gx_frame *in, dsgx_frame *out, int y0, int y1);

/* ---- lazy clear and output (render.c) ---- */
/** Start a frame (raster_render, raster_lines_begin): latch its state, begin the clear, set
 *  up the render list; @p out receives lines as they are done (NULL: none). @p ram: the
 *  polygon and vertex RAM entries (raster_render_ram; @p in itself otherwise). */
void raster_frame_prepare(raster_engine *r, const gx_frame *in, const gx_frame *ram,
                          dsgx_frame *out);
/** The border rows above and below the screen, as the clear leaves them (lazy clear with a
 *  final pass; drawing never touches them). */
void raster_complete_clear_border(raster_engine *r);
/** Line y of a frame without final pass: 256 output pixels (drawn pixels, the rest the clear
 *  colour). */
void raster_output_line(const raster_engine *r, int32_t y, uint32_t *dst);
/** Lines [y0, y1) of a frame without final pass into @p out (drawn pixels, the rest the
 *  clear colour). */
void raster_output_rows(const raster_engine *r, dsgx_frame *out, int32_t y0, int32_t y1);
/** Complete the lazy clear of lines [y0, y1) and their side borders (for the final pass). */
void raster_complete_clear_rows(raster_engine *r, int32_t y0, int32_t y1);
/** Lines [y0, y1) are drawn: complete their clear for the final pass, or, without one, write
 *  them into the frame's output (raster_engine.out). */
void raster_lines_done(raster_engine *r, int32_t y0, int32_t y1);
/** Clear what is not yet valid of pixels [x0, x1) of line y (0 <= x0 < x1 <= 256). */
void raster_lazy_clear(raster_engine *r, int32_t y, int32_t x0, int32_t x1);

/** Called before a polygon line touches pixels [x0, x1) of line y (any layer): one compare
 *  per polygon line when nothing needs clearing. */
static inline void raster_span_begin(raster_engine *r, int32_t y, int32_t x0, int32_t x1)
{
    if (r->lazy_clear && x0 < x1 && (x0 < r->valid_lo[y] || x1 > r->valid_hi[y]))
        raster_lazy_clear(r, y, x0, x1);
}

/* ---- rasterizer (H3) ---- */
/** Build the render list (ordering, per-polygon setup) for a frame (setup.c): @p in's
 *  registers, counts and views, @p ram's polygon and vertex RAM entries (raster_render_ram;
 *  @p in itself otherwise). */
void raster_setup_frame(raster_engine *r, const gx_frame *in, const gx_frame *ram);
/** Per-polygon set-up (setup.c), done when the scanline loop reaches the polygon's first line
 *  @p y (its top line, or the first line of a band below it): the polygon's state is then
 *  written just before it is used (2,000 polygons' state does not fit the caches), instead of
 *  all at once at the start of the frame. */
void raster_poly_activate(raster_engine *r, raster_poly *rp, int32_t y);
/** Choose a polygon's span functions and set up their constants (span_fns.c; once per
 *  polygon, after its shader). */
void raster_span_select_poly(const raster_engine *r, raster_poly *rp);

/** Forms of the pixel loops (raster_engine.span_isa): scalar only, four pixels at a time
 *  (SSE2, span_vec.h), eight at a time (AVX2, span_vec8.h; chosen at run time). */
enum { RASTER_SPAN_ISA_SCALAR, RASTER_SPAN_ISA_SSE2, RASTER_SPAN_ISA_AVX2 };

/** The widest form of the pixel loops that this build and this processor have. */
uint8_t raster_span_isa_best(void);
/** Whether this build and processor can draw with span_fns_ctab.c's functions
 * (raster_engine.tex_ctab). */
bool raster_tex_ctab_best(void);
/** For a polygon that takes part in the overlapping-edge rule (curse.c: edge marking on,
 *  anti-aliasing off, an opaque or wireframe polygon that is no shadow or shadow mask), choose
 *  its span functions (those of raster_span_select_poly with the rule) and return true; false
 *  for every other polygon. Once per polygon, after its span flags, shader and constants. */
bool raster_curse_select_poly(const raster_engine *r, raster_poly *rp);
/** Span-function flags of a polygon (span.c; computed once per polygon by setup.c). */
uint8_t raster_span_flags(const raster_engine *r, const raster_poly *rp);
/** Draw lines [b->y0, b->y1) of every polygon in the render list, in order, against
 *  b->timing (span.c). */
void raster_draw_band(raster_band *b);
/** Whether this frame is drawn polygon by polygon (raster_draw_band_pmajor): no shadow
 *  polygons or masks, no scanline_order hook, every polygon with 0 <= ytop <= ybottom, and an
 *  upper bound of its timing costs that the timing model (after raster_timing_frame_begin)
 *  does not cut. Uses raster_engine.line_rec. */
bool raster_pmajor_frame(raster_engine *r);
/** raster_draw_band in polygon-major order: each polygon of the render list over all its
 *  lines in [b->y0, b->y1), in list order, recording every line's timing cost into @p rec
 *  (rec[y] for y in the band; timing.h raster_timing_rec_*): nothing is cut, the caller
 *  replays the lines (threads.c). Only for frames raster_pmajor_frame accepts. @p carry_on:
 *  the band starts where the band's last one (this frame, polygon-major) ended, whose
 *  polygons crossing into it are taken on as that band left them instead of set up again. */
void raster_draw_band_pmajor(raster_band *b, raster_timing_line *rec, bool carry_on);
/** raster_draw_band in steps (lines.c): start the band, then each line y0..y1-1 in order. */
void raster_band_start(raster_band *b);
void raster_band_line(raster_band *b, int32_t y);
/** Draw lines [y0, y1) on the caller's thread (band 0) against the engine's timing model,
 *  between raster_timing_frame_begin and _end (threads.c). */
void raster_draw_lines(raster_engine *r, int32_t y0, int32_t y1);
/** Position a polygon's left/right edges for line @p y (setup.c; the scanline loop calls it
 *  when a line reaches the edges' lower vertex). */
void raster_poly_setup_left(raster_engine *r, raster_poly *rp, int32_t y);
void raster_poly_setup_right(raster_engine *r, raster_poly *rp, int32_t y);

#endif
