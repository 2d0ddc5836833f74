/*
 * savestate.c - the geometry engine's sections of a save state (tools/core/savestate.c frames
 * them into the blob; format in docs/embedding.md "Save states").
 *
 * Most of the engine is plain data (structs of integers and fixed arrays) and is saved byte for
 * byte, one section per member: the table `pods` below. Adding a plain-old-data member to
 * gx_engine is one line there (and a new DSGX_STATE_VERSION). Members that hold pointers are
 * fixed up after the copy (gx_cmd_state's deferred queue, saved in its own section); the
 * polygon/vertex RAM and VRAM are saved as far as they are used. Restore validates every value
 * the engine uses to index memory (stack pointers, counts, vertex indices) and every bool, so a
 * blob either loads into a state the engine could have reached, or is refused.
 */
#include "gx/gx_internal.h"
#include "gx/state_io.h"

#include <stdlib.h>

/* ---- validation of the plain-data members (@p raw: the section payload, sizeof bytes) ---- */

#define FIELD(raw, type, member, var) memcpy(&(var), (raw) + offsetof(type, member), sizeof(var))
#define BOOL_AT(raw, off)             dsgx_state_bool_ok((raw) + (off))

/* A vertex as gx_viewport_transform and the polygon unit leave it: the flag a bool, screen
 * position x 0..511, y 0..255, rasterizer colour 9 bits (the rendering engine relies on these
 * ranges; a blob could otherwise feed it values no bus write can produce). */
static const char *check_vertex(const uint8_t *v)
{
    if (!BOOL_AT(v, offsetof(gx_vertex, clipped))) return "vertex flag not 0/1";
    int32_t sx, sy;
    uint16_t c[3];
    FIELD(v, gx_vertex, sx, sx);
    FIELD(v, gx_vertex, sy, sy);
    FIELD(v, gx_vertex, color, c);
    if ((uint32_t)sx > 511u || (uint32_t)sy > 255u) return "screen position out of range";
    if ((c[0] | c[1] | c[2]) > 0x1FFu) return "colour above 9 bits";
    return NULL;
}

static const char *check_cmd(const uint8_t *raw)
{
    uint8_t packed_left, got, need, count;
    FIELD(raw, gx_cmd_state, packed_left, packed_left);
    FIELD(raw, gx_cmd_state, param_got, got);
    FIELD(raw, gx_cmd_state, param_need, need);
    FIELD(raw, gx_cmd_state, exec_count, count);
    if (packed_left > 4) return "packed-word slot count above 4";
    if (got > GX_MAX_PARAMS || need > GX_MAX_PARAMS) return "parameter count above 32";
    if (count >= GX_MAX_PARAMS) return "collected parameter count above 31";
    if (!BOOL_AT(raw, offsetof(gx_cmd_state, swap_pending))) return "swap flag not 0/1";
    /* the cycle model's counters stay small (cycles.c): bounded here so that a crafted value
     * cannot overflow them or make the 9-cycle slot loop run for billions of steps */
    gx_cycle_state c;
    FIELD(raw, gx_cmd_state, cyc, c);
    if ((uint32_t)c.vp > 0xFFFFu || (uint32_t)c.np > 0xFFFFu || (uint32_t)c.pp > 0xFFFFu ||
        (uint32_t)c.slot_counter > 9u || c.charged < 0 || c.charged > ((int64_t)1 << 40))
        return "cycle counters out of range";
    return NULL;
}

static const char *check_mtx(const uint8_t *raw)
{
    uint32_t proj_sp, tex_sp, pos_sp, mode;
    FIELD(raw, gx_mtx_state, proj_sp, proj_sp);
    FIELD(raw, gx_mtx_state, tex_sp, tex_sp);
    FIELD(raw, gx_mtx_state, pos_sp, pos_sp);
    FIELD(raw, gx_mtx_state, mode, mode);
    if (proj_sp > 1 || tex_sp > 1 || pos_sp > 63) return "matrix stack pointer out of range";
    if (mode > 3) return "matrix mode above 3";
    if (!BOOL_AT(raw, offsetof(gx_mtx_state, clip_dirty)) ||
        !BOOL_AT(raw, offsetof(gx_mtx_state, overflow)))
        return "matrix flag not 0/1";
    return NULL;
}

static const char *check_geom(const uint8_t *raw)
{
    uint32_t prim, in_poly;
    int32_t last_strip;
    uint8_t nclipped;
    FIELD(raw, gx_geom_state, prim_type, prim);
    FIELD(raw, gx_geom_state, vtx_in_poly, in_poly);
    FIELD(raw, gx_geom_state, last_strip_poly, last_strip);
    FIELD(raw, gx_geom_state, poly_nverts_clipped, nclipped);
    if (prim > 3) return "primitive type above 3";
    /* (assembly leaves at most 3: a fourth vertex completes any polygon; 4 would make the next
     * vertex write past the polygon buffer) */
    if (in_poly > 3) return "vertex count of the polygon being built above 3";
    if (last_strip < -1 || last_strip >= GX_MAX_POLYGONS) return "strip polygon index out of range";
    if (nclipped > GX_MAX_POLY_VERTS) return "clipped vertex count above 10";
    static const size_t bools[] = {
        offsetof(gx_geom_state, poly_completed), offsetof(gx_geom_state, poly_rejected),
        offsetof(gx_geom_state, box_result),     offsetof(gx_geom_state, shininess_enable),
        offsetof(gx_geom_state, wbuffer),        offsetof(gx_geom_state, incomplete),
    };
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (!BOOL_AT(raw, bools[i])) return "geometry flag not 0/1";
    for (size_t i = 0; i < 4; i++)
        if (check_vertex(raw + offsetof(gx_geom_state, buf) + i * sizeof(gx_vertex)))
            return "vertex flag not 0/1";
    /* colours are 5 bits per channel (COLOR, DIF_AMB, SPE_EMI, LIGHT_COLOR mask them, lighting
     * clamps to 31); the per-light products light.c keeps are derived from them on restore */
    uint8_t col[3], dif[3], amb[3], spe[3], emi[3], lc[4][3];
    FIELD(raw, gx_geom_state, vtx_color, col);
    FIELD(raw, gx_geom_state, mat_diffuse, dif);
    FIELD(raw, gx_geom_state, mat_ambient, amb);
    FIELD(raw, gx_geom_state, mat_specular, spe);
    FIELD(raw, gx_geom_state, mat_emission, emi);
    FIELD(raw, gx_geom_state, light_color, lc);
    for (int k = 0; k < 3; k++) {
        if ((col[k] | dif[k] | amb[k] | spe[k] | emi[k]) > 31) return "colour above 5 bits";
        for (int l = 0; l < 4; l++)
            if (lc[l][k] > 31) return "light colour above 5 bits";
    }
    return NULL;
}

/* The cycle-driven scheduler (sched.c): rings inside their arrays, flags 0/1, not inside a
 * line callback, counters small (the clocks are free: 64-bit, only compared and added). */
static const char *check_sched(const uint8_t *raw)
{
    static const size_t bools[] = {
        offsetof(gx_sched_state, cycle_mode),    offsetof(gx_sched_state, busy),
        offsetof(gx_sched_state, pushpop_busy),  offsetof(gx_sched_state, test_busy),
        offsetof(gx_sched_state, line),          offsetof(gx_sched_state, line) + 1,
        offsetof(gx_sched_state, stalled_write),
    };
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (!BOOL_AT(raw, bools[i])) return "scheduler flag not 0/1";
    gx_sched_ring ring[3];
    FIELD(raw, gx_sched_state, fifo_ring, ring[0]);
    FIELD(raw, gx_sched_state, pipe_ring, ring[1]);
    FIELD(raw, gx_sched_state, stall_ring, ring[2]);
    static const unsigned size[3] = {256, 4, GX_STALL_QUEUE_SIZE};
    for (int k = 0; k < 3; k++)
        if (ring[k].head >= size[k] || ring[k].count > size[k])
            return "scheduler queue out of range";
    uint8_t in_callback;
    uint32_t rem;
    FIELD(raw, gx_sched_state, in_callback, in_callback);
    FIELD(raw, gx_sched_state, rem, rem);
    if (in_callback) return "saved inside a line callback";
    if (rem > 0x100000u) return "cycles of the running entry out of range";
    return NULL;
}

/* ---- the plain-data members: one line each ---- */

typedef struct pod_section {
    const char *tag;
    size_t offset, size;
    const char *(*check)(const uint8_t *raw); /**< NULL: every byte pattern is valid */
} pod_section;

#define POD(tag, member, check)                                                                    \
    {                                                                                              \
        tag, offsetof(gx_engine, member), sizeof(((gx_engine *)0)->member), check                  \
    }
static const pod_section pods[] = {
    POD("GCMD", cmd, check_cmd), /* (deferred queue pointer: fixed up, entries in GDEF) */
    POD("GMTX", mtx, check_mtx),   POD("GGEO", geom, check_geom),
    POD("GREG", regs, NULL),       POD("GD3S", disp3dcnt_status, NULL),
    POD("GPOW", powcnt1, NULL),    POD("GDSP", dispcnt, NULL),
    POD("GRDL", rdlines, NULL),    POD("G1DT", disp_1dot_depth, NULL),
    POD("GSTS", last_stats, NULL), POD("GSCH", sched, check_sched),
};
#define NPODS (sizeof pods / sizeof pods[0])

/* ---- polygon/vertex RAM: header fields, then the used entries ----
 *
 * A frame section: the latched registers (gx_render_regs), u32 npolys, u32 nverts, then the
 * used polygon entries and the used vertex entries as they are in memory (host order, like the
 * plain-data sections). Saving is two copies; restore copies each entry into a spare frame
 * and checks it in the same pass (load_frame), dsgx_state_check only checks (check_frame). */

static void write_frame(dsgx_state_out *o, const char *tag, const gx_frame *f)
{
    size_t at = dsgx_state_begin(o, DSGX_STATE_TAG(tag));
    dsgx_state_put(o, &f->regs, sizeof f->regs);
    dsgx_state_put_u32(o, f->npolys);
    dsgx_state_put_u32(o, f->nverts);
    dsgx_state_put(o, f->polys, f->npolys * sizeof(gx_polygon));
    dsgx_state_put(o, f->verts, f->nverts * sizeof(gx_vertex));
    dsgx_state_end(o, at);
}

enum { FRAME_HEAD = sizeof(gx_render_regs) + 8 };

/* ---- checking entries: the bits a valid entry leaves zero, as masks over its bytes ----
 *
 * Restore time is mostly these checks. They read a few whole words of each entry of the blob
 * and add up what they find without a branch; only when the sum is not zero are the entries
 * looked at one by one, for the message. The masks are built from a template entry field by
 * field (so that they hold in either byte order); the compiler folds them to constants. */

/* A vertex's flag, screen position and colour: its bytes from `clipped` to the end. */
enum { VTX_CHECK = offsetof(gx_vertex, clipped) };
_Static_assert(sizeof(gx_vertex) - VTX_CHECK == 20 && offsetof(gx_vertex, sx) > VTX_CHECK &&
                   offsetof(gx_vertex, color) + 6 <= sizeof(gx_vertex),
               "the checked vertex fields are its last 20 bytes");
typedef struct vtx_masks {
    uint64_t m[2];
    uint32_t m2;
} vtx_masks;

/* What the rendering engine relies on (as gx_viewport_transform and polygon.c leave them):
 * flag 0/1, screen position x 0..511, y 0..255, colour 9 bits. A blob could otherwise feed it
 * values no bus write can produce (it overflowed a signed product: test/fuzz/README.md). */
static vtx_masks vertex_masks(void)
{
    gx_vertex t;
    memset(&t, 0, sizeof t);
    uint8_t *raw = (uint8_t *)&t;
    raw[VTX_CHECK] = 0xFE;
    t.sx = (int32_t)~0x1FFu;
    t.sy = (int32_t)~0xFFu;
    for (int k = 0; k < 3; k++) t.color[k] = (uint16_t)~0x1FFu;
    vtx_masks m;
    memcpy(m.m, raw + VTX_CHECK, 16);
    memcpy(&m.m2, raw + VTX_CHECK + 16, 4);
    return m;
}

static uint64_t vertex_bad(const uint8_t *v, const vtx_masks *m)
{
    uint64_t w[2];
    uint32_t w2;
    memcpy(w, v + VTX_CHECK, 16);
    memcpy(&w2, v + VTX_CHECK + 16, 4);
    return (w[0] & m->m[0]) | (w[1] & m->m[1]) | (w2 & m->m2);
}

/* Which check of vertex_bad failed, for the message. */
static const char *vertex_problem(const uint8_t *v)
{
    int32_t sx, sy;
    memcpy(&sx, v + offsetof(gx_vertex, sx), 4);
    memcpy(&sy, v + offsetof(gx_vertex, sy), 4);
    if (v[VTX_CHECK] > 1) return "vertex flag not 0/1";
    if ((uint32_t)sx > 511u || (uint32_t)sy > 255u) return "screen position out of range";
    return "colour above 9 bits";
}

/* A polygon from wshift to xbottom: the six flags 0/1, ybottom 0..255, xtop and xbottom
 * 0..511 as masks; wshift, vtop, vbottom and ytop are compared (polygon_bad). */
enum { POLY_CHECK = offsetof(gx_polygon, wshift) };
_Static_assert(offsetof(gx_polygon, xbottom) + 4 - POLY_CHECK == 28 &&
                   offsetof(gx_polygon, vtop) == POLY_CHECK + 7,
               "wshift, six flags, vtop, ... xbottom: 28 bytes");
typedef struct poly_masks {
    uint64_t m[3];
    uint32_t m3;
} poly_masks;

static poly_masks polygon_masks(void)
{
    gx_polygon t;
    memset(&t, 0, sizeof t);
    uint8_t *raw = (uint8_t *)&t;
    for (size_t i = offsetof(gx_polygon, wbuffer); i <= offsetof(gx_polygon, degenerate); i++)
        raw[i] = 0xFE;
    t.ybottom = (int32_t)~0xFFu;
    t.xtop = (int32_t)~0x1FFu;
    t.xbottom = (int32_t)~0x1FFu;
    poly_masks m;
    memcpy(m.m, raw + POLY_CHECK, 24);
    memcpy(&m.m3, raw + POLY_CHECK + 24, 4);
    return m;
}

#define AT(p, member, var) memcpy(&(var), (p) + offsetof(gx_polygon, member), sizeof(var))

/* A polygon entry of a blob (@p p: its bytes) as polygon.c leaves it: nonzero when a value
 * the rendering engine relies on is out of range. */
static inline uint64_t polygon_bad(const uint8_t *p, uint32_t nv, const poly_masks *m)
{
    uint64_t w[3];
    uint32_t w3, ytop;
    uint8_t n = p[offsetof(gx_polygon, nverts)];
    memcpy(w, p + POLY_CHECK, 24);
    memcpy(&w3, p + POLY_CHECK + 24, 4);
    AT(p, ytop, ytop);
    uint64_t bad = (w[0] & m->m[0]) | (w[1] & m->m[1]) | (w[2] & m->m[2]) | (w3 & m->m3);
    /* finish_polygon: ytop starts at 192 (kept when every vertex is below the screen) */
    bad |= (uint64_t)(n - 1u >= GX_MAX_POLY_VERTS) | (uint64_t)(p[offsetof(gx_polygon, prim)] > 3) |
           (uint64_t)(p[POLY_CHECK] > 32) | (uint64_t)(p[offsetof(gx_polygon, vtop)] >= n) |
           (uint64_t)(p[offsetof(gx_polygon, vbottom)] >= n) | (uint64_t)(ytop > 192u);
    if (bad) return bad; /* (n may be above 10) */
    /* its vertices: inside the vertex RAM, depth 24 bits, W normalized to 16 */
    for (unsigned i = 0; i < n; i++) {
        uint16_t vtx;
        uint32_t z, wv;
        memcpy(&vtx, p + offsetof(gx_polygon, vtx) + 2 * i, 2);
        memcpy(&z, p + offsetof(gx_polygon, z) + 4 * i, 4);
        memcpy(&wv, p + offsetof(gx_polygon, w) + 4 * i, 4);
        bad |= (uint64_t)(vtx >= nv) | z >> 24 | wv >> 16;
    }
    return bad;
}

/* Which check of polygon_bad failed, for the message. */
static const char *polygon_problem(const uint8_t *p, uint32_t nv)
{
    for (size_t i = offsetof(gx_polygon, wbuffer); i <= offsetof(gx_polygon, degenerate); i++)
        if (p[i] > 1) return "polygon flag not 0/1";
    gx_polygon poly; /* (its bools are 0/1 now) */
    memcpy(&poly, p, sizeof poly);
    if (poly.nverts < 1 || poly.nverts > GX_MAX_POLY_VERTS) return "polygon vertex count not 1..10";
    if (poly.prim > 3) return "polygon primitive type above 3";
    if (poly.wshift > 32) return "polygon W shift above 32";
    if (poly.vtop >= poly.nverts || poly.vbottom >= poly.nverts)
        return "polygon top/bottom vertex out of range";
    if ((uint32_t)poly.ytop > 192u || (uint32_t)poly.ybottom > 255u || (uint32_t)poly.xtop > 511u ||
        (uint32_t)poly.xbottom > 511u)
        return "polygon bounds out of range";
    for (unsigned i = 0; i < poly.nverts; i++)
        if (poly.vtx[i] >= nv) return "polygon vertex index beyond vertex RAM";
    return "polygon depth or W out of range";
}

/* Check a frame section (all of it before anything is copied: see gx_state_load). */
static int check_frame(const dsgx_state_section *s, char *err, size_t errlen)
{
    if (s->size < FRAME_HEAD)
        return dsgx_state_fail(err, errlen, s->offset, "section too short for a frame");
    uint32_t np = dsgx_state_get_u32(s->data + sizeof(gx_render_regs));
    uint32_t nv = dsgx_state_get_u32(s->data + sizeof(gx_render_regs) + 4);
    if (np > GX_MAX_POLYGONS || nv > GX_MAX_VERTICES)
        return dsgx_state_fail(err, errlen, s->offset, "%u polygons / %u vertices: too many", np,
                               nv);
    size_t want = FRAME_HEAD + np * sizeof(gx_polygon) + nv * sizeof(gx_vertex);
    if (s->size != want)
        return dsgx_state_fail(err, errlen, s->offset, "frame section has %u bytes, expected %zu",
                               s->size, want);
    const uint8_t *polys = s->data + FRAME_HEAD;
    const uint8_t *verts = polys + np * sizeof(gx_polygon);
    const vtx_masks vm = vertex_masks();
    uint64_t bad = 0;
    for (uint32_t i = 0; i < nv; i++) bad |= vertex_bad(verts + i * sizeof(gx_vertex), &vm);
    for (uint32_t i = 0; bad && i < nv; i++) {
        const uint8_t *v = verts + i * sizeof(gx_vertex);
        if (vertex_bad(v, &vm))
            return dsgx_state_fail(err, errlen, s->offset + (size_t)(v - s->data), "vertex %u: %s",
                                   i, vertex_problem(v));
    }
    const poly_masks pm = polygon_masks();
    for (uint32_t i = 0; i < np; i++) bad |= polygon_bad(polys + i * sizeof(gx_polygon), nv, &pm);
    for (uint32_t i = 0; bad && i < np; i++) {
        const uint8_t *p = polys + i * sizeof(gx_polygon);
        if (polygon_bad(p, nv, &pm))
            return dsgx_state_fail(err, errlen, s->offset + (size_t)(p - s->data), "polygon %u: %s",
                                   i, polygon_problem(p, nv));
    }
    return 0;
}

/* The spare frame restore writes was last written two restores ago (they take turns): asking
 * for its lines 2 KB ahead of the copy lets their fetch overlap the copying, and the blob's 1 KB
 * ahead (restore of g_heavy_1 ~25.5 -> ~22.5 us, bench/README.md "state"). Integer arithmetic:
 * the address may be past the frame or the blob (a prefetch does not fault). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_WRITE(p) __builtin_prefetch((const void *)((uintptr_t)(p) + 2048), 1)
#define PREFETCH_READ(p)  __builtin_prefetch((const void *)((uintptr_t)(p) + 1024), 0)
#else
#define PREFETCH_WRITE(p) ((void)(p))
#define PREFETCH_READ(p)  ((void)(p))
#endif

/* Restore's path: copy the section into @p f (a spare frame, not yet the engine's), each entry
 * checked as it is copied (one pass over the blob). */
static int load_frame(gx_frame *f, const dsgx_state_section *s, char *err, size_t errlen)
{
    if (s->size < FRAME_HEAD)
        return dsgx_state_fail(err, errlen, s->offset, "section too short for a frame");
    uint32_t np = dsgx_state_get_u32(s->data + sizeof(gx_render_regs));
    uint32_t nv = dsgx_state_get_u32(s->data + sizeof(gx_render_regs) + 4);
    if (np > GX_MAX_POLYGONS || nv > GX_MAX_VERTICES) return check_frame(s, err, errlen);
    size_t want = FRAME_HEAD + np * sizeof(gx_polygon) + nv * sizeof(gx_vertex);
    if (s->size != want) return check_frame(s, err, errlen);
    memcpy(&f->regs, s->data, sizeof f->regs);
    f->npolys = np;
    f->nverts = nv;
    const uint8_t *polys = s->data + FRAME_HEAD;
    const uint8_t *verts = polys + np * sizeof(gx_polygon);
    const vtx_masks vm = vertex_masks();
    const poly_masks pm = polygon_masks();
    uint64_t bad = 0;
    for (uint32_t i = 0; i < nv; i++) {
        const uint8_t *v = verts + i * sizeof(gx_vertex);
        bad |= vertex_bad(v, &vm);
        PREFETCH_WRITE(&f->verts[i]);
        PREFETCH_READ(v);
        memcpy(&f->verts[i], v, sizeof(gx_vertex));
    }
    for (uint32_t i = 0; i < np; i++) {
        const uint8_t *p = polys + i * sizeof(gx_polygon);
        bad |= polygon_bad(p, nv, &pm);
        PREFETCH_WRITE(&f->polys[i]); /* (148 bytes a step: two lines each) */
        PREFETCH_WRITE((const uint8_t *)&f->polys[i] + 64);
        PREFETCH_READ(p);
        PREFETCH_READ(p + 64);
        memcpy(&f->polys[i], p, sizeof(gx_polygon));
    }
    return bad ? check_frame(s, err, errlen) : 0; /* (finds the entry, for the message) */
}

/* ---- VRAM: the mapping registers, then each bank's used byte range ---- */

static void write_vram(dsgx_state_out *o, const gx_vram *v)
{
    size_t at = dsgx_state_begin(o, DSGX_STATE_TAG("GVRM"));
    dsgx_state_put(o, v->cnt, VRAM_NBANKS);
    for (unsigned b = 0; b < VRAM_NBANKS; b++) {
        uint32_t lo = v->used_lo[b], hi = v->used_hi[b];
        if (lo >= hi) lo = hi = 0;
        dsgx_state_put_u32(o, lo);
        dsgx_state_put_u32(o, hi);
        dsgx_state_put(o, v->bank[b] + lo, hi - lo);
    }
    dsgx_state_end(o, at);
}

static int check_vram(const dsgx_state_section *s, char *err, size_t errlen)
{
    size_t pos = VRAM_NBANKS;
    if (s->size < pos) return dsgx_state_fail(err, errlen, s->offset, "VRAM section too short");
    for (unsigned b = 0; b < VRAM_NBANKS; b++) {
        if (s->size - pos < 8)
            return dsgx_state_fail(err, errlen, s->offset + pos, "VRAM section truncated");
        uint32_t lo = dsgx_state_get_u32(s->data + pos), hi = dsgx_state_get_u32(s->data + pos + 4);
        if (lo > hi || hi > gx_vram_bank_size(b))
            return dsgx_state_fail(err, errlen, s->offset + pos,
                                   "VRAM bank %c range %X..%X outside the bank", 'A' + b, lo, hi);
        pos += 8;
        if (s->size - pos < hi - lo)
            return dsgx_state_fail(err, errlen, s->offset + pos, "VRAM bank %c truncated", 'A' + b);
        pos += hi - lo;
    }
    if (pos != s->size)
        return dsgx_state_fail(err, errlen, s->offset + pos, "%zu stray bytes after VRAM",
                               s->size - pos);
    return 0;
}

static void apply_vram(gx_vram *v, const dsgx_state_section *s)
{
    memcpy(v->cnt, s->data, VRAM_NBANKS);
    size_t pos = VRAM_NBANKS;
    for (unsigned b = 0; b < VRAM_NBANKS; b++) {
        uint32_t lo = dsgx_state_get_u32(s->data + pos), hi = dsgx_state_get_u32(s->data + pos + 4);
        pos += 8;
        if (v->used_lo[b] < v->used_hi[b])
            memset(v->bank[b] + v->used_lo[b], 0, v->used_hi[b] - v->used_lo[b]);
        memcpy(v->bank[b] + lo, s->data + pos, hi - lo);
        v->used_lo[b] = lo;
        v->used_hi[b] = hi;
        pos += hi - lo;
    }
    v->dirty = true; /* the views are rebuilt from the banks (their own ranges stay valid) */
}

/* ---- the deferred queue (entries written while a swap waits for VBlank) ---- */

static void write_deferred(dsgx_state_out *o, const gx_cmd_state *c)
{
    size_t at = dsgx_state_begin(o, DSGX_STATE_TAG("GDEF"));
    for (size_t i = c->deferred_head; i < c->ndeferred; i++) {
        uint8_t op = c->deferred[i].opcode;
        dsgx_state_put(o, &op, 1);
        dsgx_state_put_u32(o, c->deferred[i].param);
    }
    dsgx_state_end(o, at);
}

/* ---- the engine ---- */

void gx_state_write(const gx_engine *gx, dsgx_state_out *o)
{
    const uint8_t *base = (const uint8_t *)gx;
    for (size_t i = 0; i < NPODS; i++) {
        size_t at = dsgx_state_begin(o, DSGX_STATE_TAG(pods[i].tag));
        if (pods[i].offset == offsetof(gx_engine, cmd)) {
            /* without the queue's pointer and bookkeeping: the blob holds no addresses */
            gx_cmd_state c = gx->cmd;
            c.deferred = NULL;
            c.ndeferred = c.deferred_cap = c.deferred_head = 0;
            dsgx_state_put(o, &c, sizeof c);
        } else {
            dsgx_state_put(o, base + pods[i].offset, pods[i].size);
        }
        dsgx_state_end(o, at);
    }
    write_deferred(o, &gx->cmd);
    write_vram(o, &gx->vram);
    write_frame(o, "GBLD", gx->build);
    write_frame(o, "GRND", gx->render);
}

/* the sections every gx blob has, after the pods: */
static const char *const other_tags[] = {"GDEF", "GVRM", "GBLD", "GRND"};
#define NTAGS (NPODS + sizeof other_tags / sizeof other_tags[0])

static const char *tag_name(size_t k)
{
    return k < NPODS ? pods[k].tag : other_tags[k - NPODS];
}

/* index of the tag in pods + other_tags, or -1 */
static int tag_index(uint32_t tag)
{
    for (size_t k = 0; k < NTAGS; k++)
        if (DSGX_STATE_TAG(tag_name(k)) == tag) return (int)k;
    return -1;
}

static int check_section(size_t k, const dsgx_state_section *s, char *err, size_t errlen)
{
    if (k < NPODS) {
        if (s->size != pods[k].size)
            return dsgx_state_fail(err, errlen, s->offset,
                                   "section %s has %u bytes, this build expects %zu", pods[k].tag,
                                   s->size, pods[k].size);
        const char *why = pods[k].check ? pods[k].check(s->data) : NULL;
        if (why) return dsgx_state_fail(err, errlen, s->offset, "section %s: %s", pods[k].tag, why);
        return 0;
    }
    const char *tag = other_tags[k - NPODS];
    if (!strcmp(tag, "GDEF")) {
        if (s->size % 5)
            return dsgx_state_fail(err, errlen, s->offset, "GDEF size not a multiple of 5");
        return 0;
    }
    if (!strcmp(tag, "GVRM")) return check_vram(s, err, errlen);
    return check_frame(s, err, errlen);
}

static int apply_deferred(gx_engine *gx, const dsgx_state_section *s)
{
    gx_cmd_state *c = &gx->cmd;
    size_t n = s->size / 5;
    if (n > c->deferred_cap) {
        gx_fifo_entry *q = realloc(c->deferred, n * sizeof *q);
        if (!q) return -1;
        c->deferred = q;
        c->deferred_cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        c->deferred[i].opcode = s->data[i * 5];
        c->deferred[i].param = dsgx_state_get_u32(s->data + i * 5 + 1);
    }
    c->ndeferred = n;
    c->deferred_head = 0;
    return 0;
}

int gx_state_load(gx_engine *gx, const dsgx_state_section *s, size_t n, char *err, size_t errlen)
{
    const dsgx_state_section *found[NTAGS] = {0};
    for (size_t i = 0; i < n; i++) {
        if ((s[i].tag & 0xFFu) != 'G') continue;
        int k = tag_index(s[i].tag);
        if (k < 0) {
            char t[5] = {0};
            for (int j = 0; j < 4; j++) {
                unsigned c = (s[i].tag >> (8 * j)) & 0xFFu;
                t[j] = c >= 0x20 && c <= 0x7E ? (char)c : '?';
            }
            return dsgx_state_fail(err, errlen, s[i].offset - 8, "unknown section %s", t);
        }
        if (found[k])
            return dsgx_state_fail(err, errlen, s[i].offset - 8, "section %s twice",
                                   tag_name((size_t)k));
        found[k] = &s[i];
    }
    for (size_t k = 0; k < NTAGS; k++)
        if (!found[k]) return dsgx_state_fail(err, errlen, 0, "section %s missing", tag_name(k));
    if (!gx) {
        for (size_t k = 0; k < NTAGS; k++)
            if (check_section(k, found[k], err, errlen)) return -1;
        return 0;
    }
    /* restore: check every section but the frames, then load the frames into the spare frames
     * (checked as they are copied), and only then change the engine */
    size_t kbuild = (size_t)tag_index(DSGX_STATE_TAG("GBLD"));
    size_t krender = (size_t)tag_index(DSGX_STATE_TAG("GRND"));
    for (size_t k = 0; k < NTAGS; k++)
        if (k != kbuild && k != krender && check_section(k, found[k], err, errlen)) return -1;
    for (int i = 0; i < 2; i++)
        if (!gx->spare[i] && !(gx->spare[i] = malloc(sizeof(gx_frame))))
            return dsgx_state_fail(err, errlen, 0, "out of memory");
    if (load_frame(gx->spare[0], found[kbuild], err, errlen) ||
        load_frame(gx->spare[1], found[krender], err, errlen))
        return -1;
    /* a strip continues from a polygon of the RAM being built (polygon.c): it must be there */
    int32_t last_strip;
    FIELD(found[tag_index(DSGX_STATE_TAG("GGEO"))]->data, gx_geom_state, last_strip_poly,
          last_strip);
    if (last_strip >= (int32_t)gx->spare[0]->npolys)
        return dsgx_state_fail(err, errlen, found[tag_index(DSGX_STATE_TAG("GGEO"))]->offset,
                               "strip polygon %d beyond the %u polygons built", last_strip,
                               gx->spare[0]->npolys);
    /* the one step left that can fail (memory) first */
    if (apply_deferred(gx, found[tag_index(DSGX_STATE_TAG("GDEF"))]))
        return dsgx_state_fail(err, errlen, 0, "out of memory");
    gx_fifo_entry *keep = gx->cmd.deferred;
    size_t keep_cap = gx->cmd.deferred_cap;
    size_t nq = gx->cmd.ndeferred;
    uint8_t *base = (uint8_t *)gx;
    for (size_t k = 0; k < NPODS; k++) memcpy(base + pods[k].offset, found[k]->data, pods[k].size);
    gx->cmd.deferred = keep;
    gx->cmd.deferred_cap = keep_cap;
    gx->cmd.ndeferred = nq;
    gx->cmd.deferred_head = 0;
    gx_light_products(&gx->geom); /* derived from the restored colours, not taken from the blob */
    apply_vram(&gx->vram, found[tag_index(DSGX_STATE_TAG("GVRM"))]);
    gx_frame *old_build = gx->build, *old_render = gx->render;
    gx->build = gx->spare[0];
    gx->render = gx->spare[1];
    gx->spare[0] = old_build;
    gx->spare[1] = old_render;
    return 0;
}
