/*
 * batch.c - runs of vertex commands executed a batch at a time (the vertex batch).
 *
 * A lit, textured model is mostly COLOR (20h), NORMAL (21h), TEXCOORD (22h) and VTX_16 (23h,
 * two parameter words), repeated. gx_batch_ports takes the longest run of such writes to the
 * ports 04000480..0400048F (whole VTX_16 pairs, at most BATCH_VERTS vertices and BATCH_WORDS
 * writes; from gx_write32_run, and from gx_bus_write32_run in the cycle-driven mode);
 * gx_batch_packed_run / gx_batch_packed_words the longest run of packed GXFIFO words whose bytes
 * are those opcodes or NOP, each word with all its parameters (run to completion only: from
 * gx_write32_run and gx_write_gxfifo). Either is executed in three passes instead of entry by
 * entry:
 *   1. attributes, in write order: COLOR, NORMAL (lighting) and TEXCOORD run their handlers (a
 *      NORMAL already lit under the same lighting inputs, in this batch or an earlier one, takes
 *      that colour again from gx->normals: batch_begin; COLOR, and TEXCOORD in texgen
 *      mode 0, only set the value the batch keeps in a register); each vertex records its
 *      position and its colour and texture coordinates as they are when it is written (texgen
 *      mode 3 computed there, as gx_geom_submit_vertex does); run to completion, the charges of
 *      the attribute commands before each vertex are summed here;
 *   2. transform: every position of the batch through the clip matrix at once
 *      (gx_transform_batch, SSE2 where available);
 *   3. assembly and cycles, in write order: each entry's cycle charge (the same inline charges
 *      as the executor's, cycles_internal.h), each vertex assembled into polygons: separate
 *      triangles and quads whose polygon started in the batch straight from the batch's arrays
 *      (direct_vertex, polygon.c gx_geom_store_direct: culled, or stored without the clipper
 *      when wholly inside the view volume, from a polygon entry template made once per batch;
 *      else g->buf is filled and gx_geom_submit_polygon runs); triangle and quad strips the same
 *      way with their shared vertices (strip_vertex, polygon.c gx_geom_store_strip: the polygon
 *      buffer kept as references to the batch's vertices, gx/README.md); the others through
 *      the polygon buffer (gx_geom_assemble_vertex). The vertex attributes the batch kept in
 *      registers (g->vtx_color, cur_vtx, tex_raw/tex_cur, normal) and the polygon buffer slots the
 *      batch skipped are stored once, as the last entry leaves them. (Stores read back at once
 *      in other widths stalled on store forwarding: bench/README.md, geo3.)
 * Why the split is exact: the attribute handlers read and write only the vertex attributes,
 * the lights and the matrices (none of which passes 2-3 write), the vertices read only the
 * attributes and the clip matrix (which no command of the run changes), and polygon assembly
 * and the cycle model read neither. The cycle model runs in pass 3 in write order, so every
 * charge is the one the executor computes (waits on the vertex tail, the normal tail and the
 * polygon pipeline's vertex slots included). Summed: the attribute commands between two
 * vertices, run to completion (their charges depend only on the normal tail each of them sets
 * and, for COLOR, on the vertex tail, which only counts down; the polygon pipeline is read
 * only by the next vertex, and draining a then b cycles is draining a + b, cycles.c, so the
 * cycles of the run pass at once; after a vertex the two tails are always 0 and 4, so pass 1
 * can sum them), and the bookkeeping nothing reads in between: the frame's
 * cycles and commands, the last entry's charge, the last vertex's parameters and cycles
 * (exec_*). In the cycle-driven mode idle time passes after every entry (the per-entry charges
 * and idle drains of sched.c, which the batch runs only while every entry ends within its
 * slice: see GX_BATCH_MIN_SLICE), and the scheduler's clock moves once. Nothing outside observes
 * an entry in between either: the batch is not taken while a hook is set (the command, vertex
 * and polygon hooks see engine state per entry), a swap holds entries, entries are held, or a
 * command is collecting parameters.
 * test_gx_batch compares gx_write32_run, gx_bus_write32_run and gx_write_gxfifo (with this
 * batch) against gx_write32 (and gx_bus_write32 + gx_run) word by word, i.e. the executor entry
 * by entry, on random vertex-heavy streams, the saved state byte for byte after every run.
 */
#include <stddef.h>
#include <string.h>

#include "gx/cycles_internal.h"
#include "gx/exec_internal.h"
#include "gx/gx_internal.h"

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#include <emmintrin.h>
#endif
#if GX_SSE41_DISPATCH
#include <pmmintrin.h>
#include <smmintrin.h>
#endif

enum {
    BATCH_VERTS = 128,   /* vertices per batch (the transform's arrays) */
    BATCH_WORDS = 1024,  /* bus writes per batch */
    IDLE_MAX = 1u << 16, /* as sched.c: idle cycles that drain every pipeline */
    POWCNT1_GEOMETRY = 1u << 3,
    NORMAL_BITS = 0x3FFFFFFF,                 /* NORMAL's three 10-bit fields */
    NORMAL_CACHE_LOG2 = GX_NORMAL_CACHE_LOG2, /* normals remembered (gx->normals) */
};

/* The entry kinds of a batch: the port's index from COLOR on. */
enum { K_COLOR = 0, K_NORMAL = 1, K_TEXCOORD = 2, K_VTX16 = 3 };

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
/* Each product v * m (v 16-bit, m 32-bit signed) through pmuludq (unsigned 32 x 32 -> 64, SSE2;
 * the signed pmuldq is SSE4.1): with v' = v + 2^15 and m' = m + 2^31 (both unsigned),
 *   sum_k = v0 m0k + v1 m1k + v2 m2k + 2^12 m3k
 *         = sum_i v'_i m'_ik - 2^31 sum_i v'_i - 2^15 sum_i m'_ik + 3 * 2^46 + 2^12 m3k,
 * every term exact modulo 2^64, and out_k = bits 12..43 of sum_k (the arithmetic shift by 12
 * then wrapping to 32 bits keeps exactly those bits, whatever the shift fills in above), so
 * the 3 * 2^46 drops out. */
static void transform_sse2(const int32_t m[16], const int64_t (*pos)[3], int32_t (*out)[4],
                           size_t n)
{
    __m128i mcol[3][2];
    uint64_t kc[4];
    for (int k = 0; k < 4; k++) {
        uint64_t msum = 0;
        for (int i = 0; i < 3; i++) msum += (uint64_t)((uint32_t)m[i * 4 + k] ^ 0x80000000u);
        kc[k] = ((uint64_t)(int64_t)m[12 + k] << 12) - (msum << 15);
    }
    for (int i = 0; i < 3; i++) {
        const uint32_t *r = (const uint32_t *)&m[i * 4];
        mcol[i][0] = _mm_set_epi32(0, (int)(r[1] ^ 0x80000000u), 0, (int)(r[0] ^ 0x80000000u));
        mcol[i][1] = _mm_set_epi32(0, (int)(r[3] ^ 0x80000000u), 0, (int)(r[2] ^ 0x80000000u));
    }
    __m128i k01 = _mm_set_epi64x((long long)kc[1], (long long)kc[0]);
    __m128i k23 = _mm_set_epi64x((long long)kc[3], (long long)kc[2]);
    for (size_t j = 0; j < n; j++) {
        uint32_t v0 = (uint32_t)(pos[j][0] + 32768), v1 = (uint32_t)(pos[j][1] + 32768),
                 v2 = (uint32_t)(pos[j][2] + 32768);
        __m128i s = _mm_set1_epi64x((long long)((uint64_t)(v0 + v1 + v2) << 31));
        __m128i a0 = _mm_set1_epi32((int)v0), a1 = _mm_set1_epi32((int)v1),
                a2 = _mm_set1_epi32((int)v2);
        __m128i lo = _mm_sub_epi64(k01, s), hi = _mm_sub_epi64(k23, s);
        lo = _mm_add_epi64(lo, _mm_mul_epu32(a0, mcol[0][0]));
        hi = _mm_add_epi64(hi, _mm_mul_epu32(a0, mcol[0][1]));
        lo = _mm_add_epi64(lo, _mm_mul_epu32(a1, mcol[1][0]));
        hi = _mm_add_epi64(hi, _mm_mul_epu32(a1, mcol[1][1]));
        lo = _mm_add_epi64(lo, _mm_mul_epu32(a2, mcol[2][0]));
        hi = _mm_add_epi64(hi, _mm_mul_epu32(a2, mcol[2][1]));
        __m128 cols =
            _mm_shuffle_ps(_mm_castsi128_ps(_mm_srli_epi64(lo, 12)),
                           _mm_castsi128_ps(_mm_srli_epi64(hi, 12)), _MM_SHUFFLE(2, 0, 2, 0));
        _mm_storeu_ps((float *)out[j], cols);
    }
}
#endif

#if GX_SSE41_DISPATCH
/* The 64-bit integer at @p p in both lanes: one movddup load (no shuffle; loaded as an integer,
 * movq, so that no double is read through an int64_t: the compiler folds the two). */
__attribute__((target("sse4.1"))) static inline __m128i dup64(const int64_t *p)
{
    return _mm_castpd_si128(
        _mm_movedup_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(const void *)p))));
}

/* SSE4.1 (run-time dispatch: the build stays baseline x86-64): the signed products with pmuldq
 * (the low 32 bits of each 64-bit lane, signed), no bias: a vertex's columns 0-1 and 2-3 in two
 * registers, the matrix entries sign-extended to 64-bit lanes. The sum of the three products
 * and 2^12 m3k is exact in 64 bits (|v m| < 2^46); the logical shift by 12 and the low 32 bits
 * of each lane keep bits 12..43, as the scalar form's arithmetic shift and wrap do. (An AVX2
 * form, all four columns in one register, was slower: bench/README.md, geo5.) */
__attribute__((target("sse4.1"))) static void
transform_sse41(const int32_t m[16], const int64_t (*pos)[3], int32_t (*out)[4], size_t n)
{
    __m128i r[3][2];
    for (int i = 0; i < 3; i++) {
        __m128i row = _mm_loadu_si128((const __m128i *)&m[i * 4]);
        r[i][0] = _mm_cvtepi32_epi64(row);
        r[i][1] = _mm_cvtepi32_epi64(_mm_srli_si128(row, 8));
    }
    __m128i row3 = _mm_loadu_si128((const __m128i *)&m[12]);
    __m128i k01 = _mm_slli_epi64(_mm_cvtepi32_epi64(row3), 12);
    __m128i k23 = _mm_slli_epi64(_mm_cvtepi32_epi64(_mm_srli_si128(row3, 8)), 12);
    for (size_t j = 0; j < n; j++) {
        /* each coordinate in both 64-bit lanes by a load (movddup: no shuffle), the columns
         * gathered by one shufps: the shuffle unit was this loop's bottleneck */
        __m128i a0 = dup64(&pos[j][0]);
        __m128i a1 = dup64(&pos[j][1]);
        __m128i a2 = dup64(&pos[j][2]);
        __m128i lo = _mm_add_epi64(k01, _mm_mul_epi32(a0, r[0][0]));
        __m128i hi = _mm_add_epi64(k23, _mm_mul_epi32(a0, r[0][1]));
        lo = _mm_add_epi64(lo, _mm_mul_epi32(a1, r[1][0]));
        hi = _mm_add_epi64(hi, _mm_mul_epi32(a1, r[1][1]));
        lo = _mm_add_epi64(lo, _mm_mul_epi32(a2, r[2][0]));
        hi = _mm_add_epi64(hi, _mm_mul_epi32(a2, r[2][1]));
        __m128 cols =
            _mm_shuffle_ps(_mm_castsi128_ps(_mm_srli_epi64(lo, 12)),
                           _mm_castsi128_ps(_mm_srli_epi64(hi, 12)), _MM_SHUFFLE(2, 0, 2, 0));
        _mm_storeu_ps((float *)out[j], cols);
    }
}
#endif

/* The scalar form (gx_geom_transform's arithmetic). */
static void transform_scalar(const int32_t m[16], const int64_t (*pos)[3], int32_t (*out)[4],
                             size_t n)
{
    for (size_t j = 0; j < n; j++) {
        for (int k = 0; k < 4; k++) {
            int64_t sum =
                dsgx_mul64((int32_t)pos[j][0], m[k]) + dsgx_mul64((int32_t)pos[j][1], m[4 + k]) +
                dsgx_mul64((int32_t)pos[j][2], m[8 + k]) + dsgx_mul64(FX32_ONE, m[12 + k]);
            out[j][k] = dsgx_wrap32(dsgx_asr64(sum, 12));
        }
    }
}

bool gx_transform_batch_path(enum gx_simd_path path, const int32_t m[16], const int64_t (*pos)[3],
                             int32_t (*out)[4], size_t n)
{
    switch (path) {
    case GX_PATH_SCALAR: transform_scalar(m, pos, out, n); return true;
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
    case GX_PATH_SSE2: transform_sse2(m, pos, out, n); return true;
#endif
#if GX_SSE41_DISPATCH
    case GX_PATH_SSE41:
        if (!__builtin_cpu_supports("sse4.1")) return false;
        transform_sse41(m, pos, out, n);
        return true;
#endif
    default: return false;
    }
}

void gx_transform_batch(const int32_t m[16], const int64_t (*pos)[3], int32_t (*out)[4], size_t n)
{
#if GX_SSE41_DISPATCH
    if (__builtin_cpu_supports("sse4.1")) {
        transform_sse41(m, pos, out, n);
        return;
    }
#endif
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
    transform_sse2(m, pos, out, n);
#else
    transform_scalar(m, pos, out, n);
#endif
}

static inline int16_t lo16(uint32_t v)
{
    return (int16_t)(uint16_t)(v & 0xFFFFu);
}

/* Idle cycles after an entry in the cycle-driven mode (sched.c idle_for: the pipelines drain).
 * @return whether the engine stays busy */
static inline bool idle_after(gx_cycle_state *c, int64_t n)
{
    uint32_t idle = n > IDLE_MAX ? IDLE_MAX : (uint32_t)n;
    if (gx_cycles_idle_runs_out(c, idle)) return false;
    /* cycles.c gx_cycles_idle, inline on the batch's copy of the cycle model */
    if ((c->vp | c->np | c->pp) == 0) return false;
    if (idle) gx_cyc_run(c, idle);
    c->np = c->np > (int64_t)idle ? c->np - (int32_t)idle : 0;
    return c->vp != 0 || c->np != 0 || c->pp != 0;
}

/* Whether the cycle-driven scheduler is in its common state between two bus writes: the clock
 * caught up with the host, nothing in progress or queued, not halted, not in a line callback
 * (then each entry of the batch starts at once: sched.c push_now, and ends within its slice:
 * run_inline's common case). */
static bool sched_fresh(const gx_engine *gx)
{
    const gx_sched_state *s = &gx->sched;
    return s->cycle_mode && s->now == s->host && s->rem == 0 &&
           (s->pipe_ring.count | s->fifo_ring.count | s->stall_ring.count | s->in_callback) == 0 &&
           (gx->powcnt1 & POWCNT1_GEOMETRY) != 0;
}

/* What pass 1 gathers for passes 2-3. */
typedef struct batch {
    int64_t pos[BATCH_VERTS][3]; /* 16-bit values (gx_transform_batch's form) */
    int32_t clip[BATCH_VERTS][4];
    uint32_t color[BATCH_VERTS]; /* packed: gx_unpack_color */
    int16_t tex[BATCH_VERTS][2];
    uint8_t kind[BATCH_WORDS]; /* (cycle-driven mode) per command: K_* */
    /* run to completion: the attribute commands before vertex j as one sum of cycles
     * (batch_command; 0: none; the normal tail they leave is cleared by the vertex unread) */
    int32_t attr_sum[BATCH_VERTS];
    bool texgen0, texgen2, texgen3;
} batch;

/* The counts of a batch, apart from its arrays (kept in registers: the arrays' address is
 * passed to the transform). */
typedef struct batch_count {
    size_t nv, ncmd;
    uint32_t last_vtx[2]; /* the last vertex's two words */
    uint32_t color;       /* the vertex colour, packed (g->vtx_color: stored once, in pass 3) */
    uint32_t tex;         /* texgen mode 0: the texture coordinates as TEXCOORD's word (g->tex_raw
                           * and tex_cur: stored once, when tex_set) */
    bool tex_set;
    uint32_t normal; /* the last NORMAL's word (g->normal: stored once, when normal_set) */
    bool normal_set;
    /* the attribute commands since the last vertex (run to completion): their cycles, the
     * normal and vertex tails they found (the cycle model's at the start of the batch; after a
     * vertex always 0 and 4: gx_cyc_vertex_work sets 7 and counts down 3, or its after1 form 8
     * and 4), the last one's charge; NORMAL's work */
    int32_t sum, np, vp, last, normal_work;
} batch_count;

/* The counts of an empty batch. */
static batch_count batch_counts(const gx_engine *gx)
{
    const gx_cycle_state *c = &gx->cmd.cyc;
    uint32_t lights = gx->geom.lights_enabled_count;
    uint32_t tex = (uint16_t)gx->geom.tex_cur[0] | (uint32_t)(uint16_t)gx->geom.tex_cur[1] << 16;
    return (batch_count){.color = gx_pack_color(gx->geom.vtx_color),
                         .tex = tex,
                         .np = c->np,
                         .vp = c->vp,
                         .normal_work = lights < 1 ? 1 : (int32_t)lights};
}

/* Whether the batch may start: no hook observes an entry, no swap or held entries wait, no
 * command is collecting parameters. */
static bool batch_allowed(const gx_engine *gx)
{
    const gx_cmd_state *s = &gx->cmd;
    return s->exec_count == 0 && !s->swap_pending && s->deferred_head >= s->ndeferred &&
           gx->hooks.command == NULL && gx->hooks.vertex == NULL && gx->hooks.polygon == NULL;
}

static void batch_begin(gx_engine *gx, batch *b)
{
    uint32_t texgen = teximage_texgen(gx->geom.teximage);
    b->texgen0 = texgen == 0;
    b->texgen2 = texgen == 2;
    b->texgen3 = texgen == 3;
    if (b->texgen2) return; /* (the normals are not remembered: batch_command) */
    /* NORMAL's colour is a function of its 30 bits and of the lighting inputs, which no command
     * of a batch changes: the colours remembered stay right while the inputs are those they
     * were lit with */
    gx_normal_cache *nc = &gx->normals;
    gx_light_inputs in;
    gx_light_inputs_of(gx, &in);
    if (!nc->valid || memcmp(&in, &nc->in, sizeof(in)) != 0) {
        memcpy(&nc->in, &in, sizeof(in));
        memset(nc->entry, 0xFF, sizeof(nc->entry));
        nc->valid = true;
    }
}

/* The instances of pass 1 (a constant in each): the ports run to completion (F_RTC), the
 * cycle-driven mode (F_CYC: each command's kind recorded, pass 3 charges entry by entry), the
 * ports run to completion in texgen mode 0 (F_TG0: the batch's texgen flags known, not tested
 * per command), packed words (F_PACKED). The port forms run to completion count their commands
 * at the end (each write one command, but a VTX_16's two), the others per command. */
enum { F_RTC = 0, F_CYC = 1, F_TG0 = 2, F_PACKED = 3 };

static inline bool texgen0_in(const batch *b, const int form)
{
    return form == F_TG0 || b->texgen0;
}

static inline bool texgen2_in(const batch *b, const int form)
{
    return form != F_TG0 && b->texgen2;
}

static inline bool texgen3_in(const batch *b, const int form)
{
    return form != F_TG0 && b->texgen3;
}

/* Pass 1 for one command (K_*) with its parameter word(s) (@p v1: a VTX_16's second), in write
 * order: the attribute handlers run, a vertex is recorded (@p form: F_*). */
static GX_ALWAYS_INLINE void batch_command(gx_engine *gx, batch *b, batch_count *n, unsigned kd,
                                           uint32_t v0, uint32_t v1, const int form)
{
    gx_geom_state *g = &gx->geom;
    const uint32_t params[1] = {v0};
    if (form == F_CYC) b->kind[n->ncmd] = (uint8_t)kd;
    if (form == F_CYC || form == F_PACKED) n->ncmd++;
    if (kd != K_VTX16) {
        /* its charge run to completion (pass 3 of the cycle-driven mode charges it itself):
         * the charges read only the normal tail (which each sets: 0, or 7 after NORMAL) and,
         * for COLOR, the vertex tail, which only counts down between them */
        int32_t ch;
        if (kd == K_NORMAL) {
            ch = n->np + 1 + n->normal_work;
            n->np = GX_NP_NORMAL;
        } else if (kd == K_COLOR && n->vp - n->sum > 2) {
            ch = n->vp - n->sum - 1; /* (vp - 2) + 1: gx_cyc_vp_wait */
            n->np = 0;
        } else { /* TEXCOORD, or COLOR after the vertex tail */
            ch = n->np + 1;
            n->np = 0;
        }
        n->sum += ch;
        n->last = ch;
    }
    switch (kd) {
    case K_COLOR: n->color = gx_pack_rgb15(v0); break; /* gx_cmd_color */
    case K_NORMAL: {
        /* a normal lit before under the same lighting inputs: its colour again (texgen mode 2
         * is not remembered, since its NORMAL also sets the texture coordinates) */
        if (texgen2_in(b, form)) {
            n->color = gx_light_normal(gx, v0); /* gx_cmd_normal */
            break;
        }
        uint64_t key = v0 & NORMAL_BITS;
        uint64_t *e = &gx->normals.entry[(uint32_t)(key * 0x9E3779B1u) >> (32 - NORMAL_CACHE_LOG2)];
        n->normal = v0; /* (g->normal: stored once, in batch_finish) */
        n->normal_set = true;
        if ((uint32_t)*e == key) {
            n->color = (uint32_t)(*e >> 32);
            break;
        }
        n->color = gx_light_normal(gx, v0); /* gx_cmd_normal */
        *e = key | (uint64_t)n->color << 32;
        break;
    }
    case K_TEXCOORD:
        if (texgen0_in(b, form)) { /* gx_cmd_texcoord: the coordinates as written */
            n->tex = v0;
            n->tex_set = true;
        } else {
            gx_cmd_texcoord(gx, params);
        }
        break;
    default: { /* K_VTX16 */
        size_t j = n->nv++;
        b->attr_sum[j] = n->sum;
        n->sum = 0;
        n->np = 0;
        n->vp = GX_VP_AFTER_VERTEX; /* (see batch_count) */
        /* (g->cur_vtx, like the colour and mode 0's coordinates, is stored once: pass 3) */
        b->pos[j][0] = lo16(v0);
        b->pos[j][1] = (int16_t)(uint16_t)(v0 >> 16);
        b->pos[j][2] = lo16(v1);
        b->color[j] = n->color;
        if (texgen0_in(b, form)) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            memcpy(b->tex[j], &n->tex, sizeof(b->tex[j])); /* (s in the low half: one store) */
#else
            b->tex[j][0] = lo16(n->tex);
            b->tex[j][1] = (int16_t)(uint16_t)(n->tex >> 16);
#endif
        } else if (texgen3_in(b, form)) {
            const int16_t pos[3] = {lo16(v0), (int16_t)(uint16_t)(v0 >> 16), lo16(v1)};
            gx_texgen_vertex(gx, pos, b->tex[j]);
        } else {
            memcpy(b->tex[j], g->tex_cur, sizeof(b->tex[j]));
        }
        n->last_vtx[0] = v0;
        n->last_vtx[1] = v1;
        break;
    }
    }
}

/* Batch vertex @p j as gx_geom_submit_vertex leaves it in the polygon buffer. */
static inline void batch_vertex(const batch *b, size_t j, gx_vertex *v)
{
    memset(v, 0, sizeof(*v));
    memcpy(v->clip, b->clip[j], sizeof(v->clip));
    for (int k = 0; k < 3; k++)
        v->color5[k] = (int32_t)((((b->color[j] >> (8 * k)) & 31u) << 12) | 0xFFFu);
    v->texcoord[0] = b->tex[j][0];
    v->texcoord[1] = b->tex[j][1];
}

/* gx_geom_assemble_vertex for separate triangles and quads (no hook is set) whose polygon
 * started in this batch: the vertex stays in the batch's arrays (its polygon buffer slot is
 * noted in @p last_j, filled once at the end of the batch) and a completed polygon goes to
 * gx_geom_store_direct, or, when the clipper or a full RAM is involved, to
 * gx_geom_submit_polygon from the polygon buffer. */
static GX_ALWAYS_INLINE void direct_vertex(gx_engine *gx, const batch *b, size_t j,
                                           const gx_polygon *tmpl, int32_t last_j[4])
{
    gx_geom_state *g = &gx->geom;
    uint32_t slot = g->vtx_in_poly, n = g->prim_type == 0 ? 3u : 4u;
    last_j[slot] = (int32_t)j;
    g->poly_completed = false;
    g->poly_rejected = false;
    if (slot + 1 < n) {
        g->vtx_in_poly = slot + 1;
    } else {
        size_t j0 = j + 1 - n;
        g->vtx_in_poly = 0;
        if (gx_geom_store_direct(gx, tmpl, b->clip + j0, b->color + j0, b->tex + j0, (int)n) ==
            GX_DIRECT_LEFT) {
            for (uint32_t k = 0; k < n; k++) batch_vertex(b, j0 + k, &g->buf[k]);
            gx_geom_submit_polygon(gx);
        }
        g->strip_polys++;
    }
    g->incomplete = !g->poly_completed;
}

/* Pass 3's running figures. */
typedef struct batch_pass3 {
    int64_t charged, vertex_cycles; /* the last entry's charge, the last vertex's cycles */
    uint64_t total;                 /* cycles charged */
    bool busy;                      /* (cycle-driven mode) the engine busy after the last entry */
    bool direct;                    /* separate triangles or quads through direct_vertex */
    bool strip;                     /* strips through strip_vertex */
    gx_polygon tmpl;                /* (once direct or strip) */
    int32_t last_j[4];              /* the vertex direct_vertex put last in each slot */
    /* (strip) the polygon buffer as references: slot k holds batch vertex ref[k], or, from
     * BATCH_VERTS on, the slot ref[k] - BATCH_VERTS as the batch found it (saved) */
    int32_t ref[4];
    gx_vertex saved[4];
} batch_pass3;

/* Slot @p k of the polygon buffer as strip_vertex's references leave it. */
static void strip_slot(const batch *b, const batch_pass3 *p, int k, gx_vertex *out)
{
    int32_t r = p->ref[k];
    if (r < BATCH_VERTS)
        batch_vertex(b, (size_t)r, out);
    else
        memcpy(out, &p->saved[r - BATCH_VERTS], sizeof(*out));
}

/* A completed strip polygon of @p n vertices, g->buf[0..n-1] as the references give them: to
 * gx_geom_store_strip from the batch's arrays, or, when it cannot store it, through the
 * polygon buffer to the submit path after the winding test (gx_geom_submit_faced). */
static GX_ALWAYS_INLINE void strip_polygon(gx_engine *gx, const batch *b, const batch_pass3 *p,
                                           const int n)
{
    const int32_t *clip[4];
    const int16_t *tex[4];
    uint32_t color[4];
    unsigned fresh = 0;
    for (int i = 0; i < n; i++) {
        int32_t r = p->ref[i];
        if (r < BATCH_VERTS) {
            clip[i] = b->clip[r];
            color[i] = b->color[r];
            tex[i] = b->tex[r];
            fresh |= 1u << i;
        } else {
            clip[i] = p->saved[r - BATCH_VERTS].clip;
            color[i] = 0;
            tex[i] = NULL;
        }
    }
    int64_t dot;
    if (!gx_geom_store_strip(gx, &p->tmpl, clip, color, tex, fresh, &dot, n)) {
        for (int i = 0; i < n; i++) strip_slot(b, p, i, &gx->geom.buf[i]);
        gx_geom_submit_faced(gx, dot);
    }
}

/* gx_geom_assemble_vertex for triangle and quad strips (no hook is set): the same steps on the
 * references p->ref instead of the polygon buffer (filled once at the end of the batch), each
 * completed polygon through strip_polygon. */
static GX_ALWAYS_INLINE void strip_vertex(gx_engine *gx, const batch *b, batch_pass3 *p, size_t j)
{
    gx_geom_state *g = &gx->geom;
    int32_t *ref = p->ref, t;
    ref[g->vtx_in_poly] = (int32_t)j;
    g->poly_completed = false;
    g->poly_rejected = false;
    g->vtx_in_poly++;
    if (g->prim_type == 2) {
        if (g->strip_polys & 1u) { /* odd: the two earlier vertices swapped */
            t = ref[0];
            ref[0] = ref[1];
            ref[1] = t;
            g->vtx_in_poly = 2;
            strip_polygon(gx, b, p, 3);
            g->strip_polys++;
            ref[1] = ref[2];
        } else if (g->vtx_in_poly == 3) {
            g->vtx_in_poly = 2;
            strip_polygon(gx, b, p, 3);
            g->strip_polys++;
            ref[0] = ref[1];
            ref[1] = ref[2];
        }
    } else if (g->vtx_in_poly == 4) { /* quad strip: the last two swapped */
        t = ref[2];
        ref[2] = ref[3];
        ref[3] = t;
        g->vtx_in_poly = 2;
        strip_polygon(gx, b, p, 4);
        g->strip_polys++;
        ref[0] = ref[3];
        ref[1] = ref[2];
    }
    g->incomplete = !g->poly_completed;
}

/* The assembly modes of pass 3 (batch_pass3: direct, strip; neither: through the polygon
 * buffer). */
enum { MODE_BUFFER, MODE_DIRECT, MODE_STRIP, MODE_ANY };

/* Pass 3's assembly of batch vertex @p j in @p mode (MODE_ANY: chosen here, once the batch can
 * take the direct or strip path; the primitive type stays through a batch). */
static GX_ALWAYS_INLINE void batch_assemble(gx_engine *gx, const batch *b, batch_pass3 *p, size_t j,
                                            const int mode)
{
    gx_geom_state *g = &gx->geom;
    if (mode == MODE_ANY && !p->direct && !p->strip) {
        if (g->prim_type < 2 && g->vtx_in_poly == 0) {
            p->direct = true;
            gx_geom_polygon_template(g, &p->tmpl);
        } else if (g->prim_type >= 2) {
            p->strip = true;
            gx_geom_polygon_template(g, &p->tmpl);
            memcpy(p->saved, g->buf, sizeof(p->saved));
            for (int k = 0; k < 4; k++) p->ref[k] = BATCH_VERTS + k;
        }
    }
    if (mode == MODE_DIRECT || (mode == MODE_ANY && p->direct)) {
        direct_vertex(gx, b, j, &p->tmpl, p->last_j);
    } else if (mode == MODE_STRIP || (mode == MODE_ANY && p->strip)) {
        strip_vertex(gx, b, p, j);
    } else {
        batch_vertex(b, j, &g->buf[g->vtx_in_poly]);
        gx_geom_assemble_vertex(gx);
    }
}

/* Pass 3 for batch vertex @p j in the cycle-driven mode: both entries' charges, the idle time
 * after each (@p slice), and its assembly. */
static GX_ALWAYS_INLINE void batch_vertex_step(gx_engine *gx, gx_cycle_state *c, const batch *b,
                                               batch_pass3 *p, size_t j, uint32_t slice)
{
    int64_t charged = gx_cyc_issue(c, GX_WAIT_VERTEX);
    p->total += (uint64_t)charged;
    p->vertex_cycles = charged;
    idle_after(c, (int64_t)slice - charged);
    batch_assemble(gx, b, p, j, MODE_ANY);
    charged = 1 + gx_cyc_vertex_work_after1(c, &gx->geom);
    p->vertex_cycles += charged;
    p->total += (uint64_t)charged;
    p->charged = charged;
    p->busy = idle_after(c, (int64_t)slice - charged);
}

/* Pass 3 run to completion for batch vertices @p j .. @p end - 1 in @p mode, up to the vertex
 * that chooses a mode (MODE_ANY): the attribute commands before each vertex as one sum (pass
 * 1, batch_command), whose cycles pass at once (draining a then b cycles is draining a + b:
 * cycles.c; the normal tail they leave is cleared by the vertex's issue unread), the vertex's
 * issue wait, its assembly, its work (its second entry's 1 and the work's 3 cycles,
 * gx_cyc_vertex_work_after1). @p *issue: the last vertex's issue charge; @p *total: the cycles
 * charged. @return the next vertex */
static GX_ALWAYS_INLINE size_t batch_vertices_rtc(gx_engine *gx, const batch *b, batch_pass3 *p,
                                                  size_t j, size_t end, int64_t *issue,
                                                  uint64_t *total, const int mode)
{
    /* the cycle model in a local copy, stored once (the assembly does not read it): its fields
     * stay in registers across the polygon stores' calls */
    gx_cycle_state cl = gx->cmd.cyc, *c = &cl;
    uint64_t t = *total;
    int64_t is = *issue;
    for (; j < end; j++) {
        int32_t a = b->attr_sum[j];
        if (a) gx_cyc_run(c, a);
        is = gx_cyc_issue(c, GX_WAIT_VERTEX);
        t += (uint64_t)a + (uint64_t)is + 1 + GX_VERTEX_WORK;
        batch_assemble(gx, b, p, j, mode);
        gx_cyc_vertex_work_after1(c, &gx->geom);
        if (mode == MODE_ANY && (p->direct || p->strip)) {
            j++;
            break;
        }
    }
    gx->cmd.cyc = cl;
    *issue = is;
    *total = t;
    return j;
}

/* A separate triangle or quad that gx_geom_store_direct left (GX_DIRECT_LEFT: the clipper or a
 * full RAM), from the direct loops (direct_polygon): the assembly state as direct_vertex hands
 * it back (@p strip_polys: the polygons completed before this one), the polygon buffer from
 * batch vertices @p v .. @p v + @p n - 1, and gx_geom_submit_polygon. Rare, and out of line so
 * that the loops keep their state in registers. @return the outcome as gx_geom_store_direct's
 * (GX_DIRECT_REJECTED: culled, clipped away, 1-dot or no room; GX_DIRECT_STORED_QUAD: stored
 * with four vertices after clipping, which can make a quad of a triangle; GX_DIRECT_STORED) */
static GX_NOINLINE int direct_hand_back(gx_engine *gx, const batch *b, size_t v, uint32_t n,
                                        uint32_t strip_polys)
{
    gx_geom_state *g = &gx->geom;
    g->poly_completed = false;
    g->poly_rejected = false;
    g->vtx_in_poly = 0;
    g->strip_polys = strip_polys;
    g->incomplete = true;
    for (uint32_t i = 0; i < n; i++) batch_vertex(b, v + i, &g->buf[i]);
    gx_geom_submit_polygon(gx);
    return g->poly_rejected              ? GX_DIRECT_REJECTED
           : g->poly_nverts_clipped == 4 ? GX_DIRECT_STORED_QUAD
                                         : GX_DIRECT_STORED;
}

/* The polygon of batch vertices @p v .. @p v + @p n - 1 completed in a direct loop
 * (batch_direct_rtc, batch_direct_cyc): gx_geom_store_direct, or the hand-back to the submit
 * path, and the polygon's outcome handed to the cycle model (@p c; @p vtail: with the vertex
 * tail, gx_cyc_vertex_end, or without it, gx_cyc_vertex_end_pp: batch_direct_rtc). */
static GX_ALWAYS_INLINE void direct_polygon(gx_engine *gx, gx_cycle_state *c, const batch *b,
                                            const gx_polygon *tmpl, size_t v, uint32_t n,
                                            uint32_t strip_polys, const bool vtail)
{
    int done = gx_geom_store_direct(gx, tmpl, b->clip + v, b->color + v, b->tex + v, (int)n);
    if (done == GX_DIRECT_LEFT) done = direct_hand_back(gx, b, v, n, strip_polys);
    if (vtail)
        gx_cyc_vertex_end(c, true, done == GX_DIRECT_REJECTED, done == GX_DIRECT_STORED_QUAD,
                          false);
    else
        gx_cyc_vertex_end_pp(c, true, done == GX_DIRECT_REJECTED, done == GX_DIRECT_STORED_QUAD,
                             false);
}

/* The assembly state as the direct loops (batch_direct_rtc, batch_direct_cyc) leave it after
 * their last vertex, @p end - 1: @p strip_polys polygons so far, @p s vertices of the polygon in
 * progress (which began at vertex @p first), and the last @p n vertices' entries. Once a batch. */
static GX_ALWAYS_INLINE void direct_loop_end(gx_geom_state *g, batch_pass3 *p, size_t first,
                                             size_t end, uint32_t n, uint32_t strip_polys,
                                             uint32_t s)
{
    g->strip_polys = strip_polys;
    g->vtx_in_poly = s;
    if (s != 0) {
        g->poly_completed = false;
        g->poly_rejected = false;
    }
    g->incomplete = !g->poly_completed;
    for (size_t v = end - (end - first < n ? end - first : n); v < end; v++)
        p->last_j[(v - first) % n] = (int32_t)v;
}

/* Pass 3 run to completion for batch vertices @p j .. @p end - 1 of separate triangles or quads
 * once the batch took the direct path (p->direct: every polygon completed here started in the
 * batch): batch_vertices_rtc's loop with direct_vertex's assembly reduced to what the vertex
 * completing a polygon does (gx_geom_store_direct, or, where it leaves the polygon alone, the
 * polygon buffer and gx_geom_submit_polygon), the polygon's outcome handed to the cycle model
 * (gx_cyc_vertex_end) as it leaves it in the geometry state. The assembly state direct_vertex
 * updates per vertex (slot, polygon count, the completion flags) is kept in registers and set
 * as the last vertex leaves it (nothing reads it in between but a hand-back, before which it
 * is set), the polygon buffer's slots (p->last_j) as the last vertices left them. The cycle
 * model's vertex and normal tails are not kept per vertex either (gx_cyc_issue_vertex_pp,
 * gx_cyc_vertex_end_pp): the attribute commands' charges were summed in pass 1, so nothing in
 * the loop reads them, and each vertex sets them anew (NP 0 at its issue, VP 7 at its work, 4
 * after it); VP is set once after the last vertex, NP by batch_finish (the commands after it).
 * g_heavy_1's geometry -4.5% instructions (bench/README.md, geo10). */
static GX_ALWAYS_INLINE void batch_direct_rtc(gx_engine *gx, const batch *b, batch_pass3 *p,
                                              size_t j, size_t end, int64_t *issue, uint64_t *total)
{
    gx_geom_state *g = &gx->geom;
    if (j >= end) return;
    const uint32_t n = g->prim_type == 0 ? 3u : 4u;
    const size_t first = j - g->vtx_in_poly; /* the first vertex of the polygon in progress */
    const uint32_t strip_polys = g->strip_polys;
    uint32_t s = g->vtx_in_poly, npoly = 0;
    gx_cycle_state cl = gx->cmd.cyc, *c = &cl;
    uint64_t t = *total;
    int64_t is = *issue;
    for (; j < end; j++) {
        int32_t a = b->attr_sum[j];
        if (a) gx_cyc_run_pp(c, a);
        is = gx_cyc_issue_vertex_pp(c);
        t += (uint64_t)a + (uint64_t)is + 1 + GX_VERTEX_WORK;
        if (++s < n) {
            gx_cyc_vertex_end_pp(c, false, false, false, false);
            continue;
        }
        s = 0;
        direct_polygon(gx, c, b, &p->tmpl, j + 1 - n, n, strip_polys + npoly, false);
        npoly++;
    }
    cl.vp = GX_VP_AFTER_VERTEX; /* (gx_cyc_vertex_end; NP: batch_finish sets it) */
    gx->cmd.cyc = cl;
    *issue = is;
    *total = t;

    direct_loop_end(g, p, first, end, n, strip_polys + npoly, s);
}

/* The charge of attribute entry @p kind (K_COLOR, K_NORMAL, K_TEXCOORD) in the cycle-driven
 * mode, as the executor computes it (@p normal_work: NORMAL's work). @return the cycles charged */
static GX_ALWAYS_INLINE int64_t attr_entry(gx_cycle_state *c, unsigned kind, int64_t normal_work)
{
    int64_t charged;
    switch (kind) {
    case K_COLOR: charged = gx_cyc_vp_wait(c, 2); break;
    case K_NORMAL: /* the issue wait and the work in one count-down */
        charged = (int64_t)c->np + 1 + normal_work;
        gx_cyc_run(c, charged);
        c->np = GX_NP_NORMAL;
        break;
    default: /* K_TEXCOORD */
        charged = c->np + 1;
        gx_cyc_run(c, charged);
        c->np = 0;
        break;
    }
    return charged;
}

/* Pass 3 in the cycle-driven mode for entries @p e .. @p ncmd - 1 (entry @p e a vertex, batch
 * vertex @p j) once the batch took the direct path (p->direct): the slice loop of batch_finish
 * with batch_direct_rtc's assembly (the assembly state in registers, set as the last vertex
 * leaves it, or before a hand-back; the polygon's outcome from gx_geom_store_direct handed to
 * the cycle model), and p's running figures in registers too. A vertex's second entry charges
 * 1 + GX_VERTEX_WORK whatever its outcome (gx_cyc_vertex_end). */
static GX_ALWAYS_INLINE void batch_direct_cyc(gx_engine *gx, gx_cycle_state *c, const batch *b,
                                              batch_pass3 *p, size_t e, size_t ncmd, size_t j,
                                              uint32_t slice, int64_t normal_work)
{
    gx_geom_state *g = &gx->geom;
    const uint8_t *kind = b->kind;
    const uint32_t n = g->prim_type == 0 ? 3u : 4u;
    const size_t first = j - g->vtx_in_poly; /* the first vertex of the polygon in progress */
    const uint32_t strip_polys = g->strip_polys;
    uint32_t s = g->vtx_in_poly, npoly = 0;
    uint64_t t = p->total;
    int64_t charged = p->charged, vertex_cycles = p->vertex_cycles;
    bool busy = p->busy;
    for (; e < ncmd; e++) {
        unsigned k = kind[e];
        if (k != K_VTX16) {
            charged = attr_entry(c, k, normal_work);
            t += (uint64_t)charged;
            busy = idle_after(c, (int64_t)slice - charged);
            continue;
        }
        int64_t is = gx_cyc_issue(c, GX_WAIT_VERTEX);
        t += (uint64_t)is + 1 + GX_VERTEX_WORK;
        vertex_cycles = is + 1 + GX_VERTEX_WORK;
        charged = 1 + GX_VERTEX_WORK;
        idle_after(c, (int64_t)slice - is);
        if (++s < n) {
            gx_cyc_vertex_end(c, false, false, false, false);
        } else {
            s = 0;
            direct_polygon(gx, c, b, &p->tmpl, j + 1 - n, n, strip_polys + npoly, true);
            npoly++;
        }
        busy = idle_after(c, (int64_t)slice - charged);
        j++;
    }
    p->total = t;
    p->charged = charged;
    p->vertex_cycles = vertex_cycles;
    p->busy = busy;

    direct_loop_end(g, p, first, j, n, strip_polys + npoly, s);
}

/* Passes 2-3 over what pass 1 gathered (@p nwords bus writes: the cycle-driven mode's clock). */
static GX_ALWAYS_INLINE void batch_finish(gx_engine *gx, batch *b, batch_count n, size_t nwords,
                                          uint32_t slice)
{
    gx_cmd_state *s = &gx->cmd;
    gx_geom_state *g = &gx->geom;
    const uint8_t *kind = b->kind;
    size_t ncmd = n.ncmd;
    gx_unpack_color(n.color, g->vtx_color);
    if (n.tex_set) {
        g->tex_raw[0] = g->tex_cur[0] = lo16(n.tex);
        g->tex_raw[1] = g->tex_cur[1] = (int16_t)(uint16_t)(n.tex >> 16);
    }
    if (n.normal_set) /* gx_light_normal's store */
        for (int k = 0; k < 3; k++) g->normal[k] = (int16_t)dsgx_sext(n.normal >> (10 * k), 10);
    if (n.nv) {
        g->cur_vtx[0] = lo16(n.last_vtx[0]);
        g->cur_vtx[1] = (int16_t)(uint16_t)(n.last_vtx[0] >> 16);
        g->cur_vtx[2] = lo16(n.last_vtx[1]);
    }

    /* pass 2: the positions through the clip matrix */
    if (n.nv)
        gx_transform_batch(gx_mtx_clip_of(&gx->mtx), (const int64_t(*)[3])b->pos, b->clip, n.nv);

    /* pass 3: the cycle charges (and in the cycle-driven mode the idle time after each entry)
     * and polygon assembly, in write order */
    gx_cycle_state *c = &s->cyc;
    /* (field by field: an initializer would zero the template and the saved slots too, 416
     * bytes a batch, which only the direct and strip paths read, after they set them) */
    batch_pass3 p;
    p.charged = p.vertex_cycles = 0;
    p.total = 0;
    p.busy = true;
    p.direct = p.strip = false;
    for (int k = 0; k < 4; k++) p.last_j[k] = -1;
    if (slice == 0) {
        /* run to completion (batch_vertices_rtc): up to the vertex that chooses the direct or
         * strip path, then the rest in that mode */
        int64_t issue = 0;
        uint64_t total = 0;
        size_t j = batch_vertices_rtc(gx, b, &p, 0, n.nv, &issue, &total, MODE_ANY);
        if (p.direct)
            batch_direct_rtc(gx, b, &p, j, n.nv, &issue, &total);
        else if (p.strip)
            batch_vertices_rtc(gx, b, &p, j, n.nv, &issue, &total, MODE_STRIP);
        p.total = total;
        if (n.nv) {
            p.vertex_cycles = issue + 1 + GX_VERTEX_WORK;
            p.charged = 1 + GX_VERTEX_WORK;
        }
        if (n.sum) { /* the attribute commands after the last vertex */
            gx_cyc_run(c, n.sum);
            p.total += (uint64_t)n.sum;
            p.charged = n.last;
        }
        c->np = n.np;
    } else {
        /* the cycle model in a local copy, stored once (as batch_vertices_rtc) */
        int64_t normal_work = n.normal_work;
        size_t j = 0;
        gx_cycle_state cl = *c;
        c = &cl;
        for (size_t e = 0; e < ncmd; e++) {
            if (kind[e] == K_VTX16) {
                if (p.direct) { /* the rest through the direct loop */
                    batch_direct_cyc(gx, c, b, &p, e, ncmd, j, slice, normal_work);
                    break;
                }
                batch_vertex_step(gx, c, b, &p, j++, slice);
                continue;
            }
            int64_t charged = attr_entry(c, kind[e], normal_work);
            p.charged = charged;
            p.total += (uint64_t)charged;
            p.busy = idle_after(c, (int64_t)slice - charged);
        }
        s->cyc = cl;
        c = &s->cyc;
    }

    /* the polygon buffer as the vertices left it */
    if (p.direct)
        for (int k = 0; k < 4; k++)
            if (p.last_j[k] >= 0) batch_vertex(b, (size_t)p.last_j[k], &g->buf[k]);
    if (p.strip)
        for (int k = 0; k < 4; k++) strip_slot(b, &p, k, &g->buf[k]);

    /* the bookkeeping, as the executor leaves it after the last entry */
    c->charged = p.charged;
    s->frame_cycles += p.total;
    s->frame_commands += (uint32_t)ncmd;
    if (n.nv) {
        s->exec_op = GX_OP_VTX_16;
        s->exec_cycles = (uint64_t)p.vertex_cycles;
        s->exec_params[0] = n.last_vtx[0];
        s->exec_params[1] = n.last_vtx[1];
    }
    if (slice) { /* ... and the scheduler after the last write's gx_run */
        gx_sched_state *t = &gx->sched;
        t->host += (uint64_t)slice * nwords;
        t->now = t->host;
        t->busy = p.busy;
        t->stalled_write = false;
    }
}

/* GX_BATCH_MIN_SLICE (64), the shortest slice (cycles between two writes) taken in the
 * cycle-driven mode, is more than any entry of a batch costs, so each ends within its slice and
 * the engine is idle at the next write: the longest charge is a VTX_16's wait for a vertex slot,
 * at most the polygon pipeline's 35 cycles (the longest it is set to, cycles_internal.h) plus
 * a 10-cycle grid step (cycles.c gx_cycles_next_vertex_slot); NORMAL costs at most 8 + 4 (the
 * normal tail, four lights), COLOR and TEXCOORD at most 8, a vertex's second entry 4. */
/* The ports of the four bus writes at @p w as one word: byte k is write k's address, its low
 * two bits dropped, minus REG_PORT_COLOR when that is a port of the batch (0 COLOR, 4 NORMAL,
 * 8 TEXCOORD, 0Ch VTX_16), and a value other than those four for any other address (the SSE2
 * form: the difference narrowed to a byte with signed saturation, so that only 0..7Fh stay as
 * they are; the scalar form: 0FFh). */
static inline uint32_t port_group(const gx_bus_word *w)
{
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
    _Static_assert(sizeof(gx_bus_word) == 8 && offsetof(gx_bus_word, addr) == 0,
                   "port_group's layout");
    __m128 w01 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)&w[0]));
    __m128 w23 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)&w[2]));
    __m128i a = _mm_castps_si128(_mm_shuffle_ps(w01, w23, _MM_SHUFFLE(2, 0, 2, 0)));
    a = _mm_sub_epi32(_mm_and_si128(a, _mm_set1_epi32(~3)), _mm_set1_epi32(REG_PORT_COLOR));
    a = _mm_packs_epi32(a, a);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packs_epi16(a, a));
#else
    uint32_t key = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t off = (w[k].addr & ~3u) - REG_PORT_COLOR;
        key |= (off < REG_PORT_VERTEX_END - REG_PORT_COLOR ? off : 0xFFu) << (8 * k);
    }
    return key;
#endif
}

/* The vertex groups pass 1 decodes a group at a time (port_group's bytes, first write in the
 * low byte): TEXCOORD and NORMAL in either order, NORMAL, TEXCOORD or COLOR alone, then a
 * VTX_16 pair; a VTX_16 pair alone. */
enum {
    GROUP_TNV = 0x0C0C0408u,
    GROUP_NTV = 0x0C0C0804u,
    GROUP_NV = 0x0C0C04u,
    GROUP_TV = 0x0C0C08u,
    GROUP_CV = 0x0C0C00u,
    GROUP_V = 0x0C0Cu,
};

/* gx_batch_ports for @p slice 0 (run to completion) or not, each @p form its own instance
 * (F_*). */
static GX_ALWAYS_INLINE size_t batch_ports(gx_engine *gx, const gx_bus_word *w, size_t n,
                                           uint32_t slice, const int form)
{
    batch b;
    batch_count c = batch_counts(gx);
    batch_begin(gx, &b);
    if (n > BATCH_WORDS) n = BATCH_WORDS;

    /* pass 1: the run ends at any other write, at a VTX_16 whose second word is not next, or
     * when the vertex arrays are full; each command through its own instance of batch_command.
     * Where the next four writes are one of the common vertex groups (port_group), the group's
     * commands are decoded at once: the same commands in the same order as one by one. */
    size_t i = 0;
    while (i < n) {
        if (n - i >= 4 && c.nv < BATCH_VERTS) {
            uint32_t key = port_group(w + i);
            if (key == GROUP_TNV || key == GROUP_NTV) {
                if (key == GROUP_TNV) {
                    batch_command(gx, &b, &c, K_TEXCOORD, w[i].value, 0, form);
                    batch_command(gx, &b, &c, K_NORMAL, w[i + 1].value, 0, form);
                } else {
                    batch_command(gx, &b, &c, K_NORMAL, w[i].value, 0, form);
                    batch_command(gx, &b, &c, K_TEXCOORD, w[i + 1].value, 0, form);
                }
                batch_command(gx, &b, &c, K_VTX16, w[i + 2].value, w[i + 3].value, form);
                i += 4;
                continue;
            }
            uint32_t key3 = key & 0xFFFFFFu;
            if (key3 == GROUP_NV || key3 == GROUP_TV || key3 == GROUP_CV) {
                if (key3 == GROUP_NV)
                    batch_command(gx, &b, &c, K_NORMAL, w[i].value, 0, form);
                else if (key3 == GROUP_TV)
                    batch_command(gx, &b, &c, K_TEXCOORD, w[i].value, 0, form);
                else
                    batch_command(gx, &b, &c, K_COLOR, w[i].value, 0, form);
                batch_command(gx, &b, &c, K_VTX16, w[i + 1].value, w[i + 2].value, form);
                i += 3;
                continue;
            }
            if ((key & 0xFFFFu) == GROUP_V) {
                batch_command(gx, &b, &c, K_VTX16, w[i].value, w[i + 1].value, form);
                i += 2;
                continue;
            }
        }
        uint32_t off = (w[i].addr & ~3u) - REG_PORT_COLOR;
        if (off >= REG_PORT_VERTEX_END - REG_PORT_COLOR) break;
        switch (off >> 2) {
        case K_COLOR: batch_command(gx, &b, &c, K_COLOR, w[i].value, 0, form); break;
        case K_NORMAL: batch_command(gx, &b, &c, K_NORMAL, w[i].value, 0, form); break;
        case K_TEXCOORD: batch_command(gx, &b, &c, K_TEXCOORD, w[i].value, 0, form); break;
        default:
            if (c.nv == BATCH_VERTS || i + 1 == n || (w[i + 1].addr & ~3u) != (w[i].addr & ~3u))
                goto end;
            batch_command(gx, &b, &c, K_VTX16, w[i].value, w[i + 1].value, form);
            i++;
        }
        i++;
    }
end:
    if (i == 0) return 0;
    if (form != F_CYC) c.ncmd = i - c.nv;
    batch_finish(gx, &b, c, i, slice);
    return i;
}

size_t gx_batch_ports(gx_engine *gx, const gx_bus_word *w, size_t n, uint32_t slice)
{
    if (!batch_allowed(gx)) return 0;
    if (slice == 0)
        return teximage_texgen(gx->geom.teximage) == 0 ? batch_ports(gx, w, n, 0, F_TG0)
                                                       : batch_ports(gx, w, n, 0, F_RTC);
    if (slice < GX_BATCH_MIN_SLICE || !sched_fresh(gx)) return 0;
    return batch_ports(gx, w, n, slice, F_CYC);
}

/* A packed GXFIFO word of vertex commands only: every byte COLOR, NORMAL, TEXCOORD, VTX_16 or
 * NOP, not all NOP. @return its parameter words, 0 if it is not one */
static inline unsigned packed_vertex_params(uint32_t word)
{
    unsigned need = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t op = (word >> (8 * k)) & 0xFFu;
        if (op == 0) continue;
        if (op - GX_OP_COLOR > GX_OP_VTX_16 - GX_OP_COLOR) return 0;
        need += op == GX_OP_VTX_16 ? 2u : 1u;
    }
    return need;
}

/* The packed form (run to completion): whole packed words of vertex commands with all their
 * parameters, decoded as fifo.c's gx_fifo_write does (the entries of its opcodes in byte order,
 * NOP bytes skipped); @p w bus writes (each a GXFIFO write) or @p words plain GXFIFO words. */
static GX_ALWAYS_INLINE size_t batch_packed(gx_engine *gx, const gx_bus_word *w,
                                            const uint32_t *words, size_t n)
{
    gx_cmd_state *s = &gx->cmd;
    if (s->packed_left != 0 || !batch_allowed(gx)) return 0;
    batch b;
    batch_count c = batch_counts(gx);
    batch_begin(gx, &b);
    if (n > BATCH_WORDS) n = BATCH_WORDS;

    size_t i = 0;
    uint32_t last_need = 0;
    while (i < n) {
        uint32_t word = w ? w[i].value : words[i];
        if (w && (w[i].addr & ~3u) - REG_GXFIFO >= REG_CMD_PORTS - REG_GXFIFO) break;
        unsigned need = packed_vertex_params(word);
        if (need == 0 || i + need >= n || c.nv + 4 > BATCH_VERTS) break;
        if (w) { /* its parameters must be GXFIFO writes too */
            size_t k = 1;
            while (k <= need && (w[i + k].addr & ~3u) - REG_GXFIFO < REG_CMD_PORTS - REG_GXFIFO)
                k++;
            if (k <= need) break;
        }
        size_t p = i + 1;
        for (int k = 0; k < 4; k++) {
            unsigned op = (word >> (8 * k)) & 0xFFu;
            if (op == 0) continue;
            uint32_t v0 = w ? w[p].value : words[p];
            if (op == GX_OP_VTX_16) {
                batch_command(gx, &b, &c, K_VTX16, v0, w ? w[p + 1].value : words[p + 1], F_PACKED);
                p += 2;
                last_need = 2;
            } else {
                batch_command(gx, &b, &c, op - GX_OP_COLOR, v0, 0, F_PACKED);
                p++;
                last_need = 1;
            }
        }
        if ((word >> 24) == 0) last_need = 0; /* trailing NOP bytes: fifo.c ends on them */
        i = p;
    }
    if (i == 0) return 0;
    batch_finish(gx, &b, c, i, 0);
    /* the decoder as gx_fifo_write leaves it after the last parameter of a whole word: every
     * slot done, the counts of the last byte's opcode (0 for a NOP) */
    s->packed = 0;
    s->packed_left = 0;
    s->param_got = (uint8_t)last_need;
    s->param_need = (uint8_t)last_need;
    return i;
}

size_t gx_batch_packed_run(gx_engine *gx, const gx_bus_word *w, size_t n)
{
    return batch_packed(gx, w, NULL, n);
}

size_t gx_batch_packed_words(gx_engine *gx, const uint32_t *words, size_t n)
{
    return batch_packed(gx, NULL, words, n);
}
