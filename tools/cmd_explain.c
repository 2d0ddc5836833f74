/*
 * cmd_explain.c - `dsgx explain TRACE [--frame N] [--summary]`: what each command did.
 *
 * Every line starts with a keyword so the output greps well:
 *   cmd   <frame>.<index> <NAME> <params...> cycles <C>      one executed GX command
 *   mtx   <which> <16 entries as decimals>                   matrix after a matrix command
 *   vtx   clip <x y z w> color <r g b> tex <s t>             a transformed vertex
 *   poly  <n> <fate> ...                                     a completed polygon
 *   pv    <poly>.<k> screen <x y> z <Z> w <W> color <r g b> tex <s t>
 *   frame N geometry_cycles C commands K polygons P vertices V [fits_60hz yes|no]
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/input.h"
#include "tools/core/system.h"

typedef struct explain_ctx {
    int only_frame; /* -1: all */
    bool summary;
    unsigned frame;
    unsigned cmd_index;
    unsigned poly_index;
    unsigned mtx_mode;
    /* vertex and polygon lines happen while a command executes; they are printed after the
     * command's own line so the output reads in order */
    char *pending;
    size_t pending_len, pending_cap;
} explain_ctx;

static void pend(explain_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pend(explain_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (c->pending_len + (size_t)n + 1 > c->pending_cap) {
        size_t cap = (c->pending_len + (size_t)n + 1) * 2;
        char *p = realloc(c->pending, cap);
        if (!p) return;
        c->pending = p;
        c->pending_cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(c->pending + c->pending_len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    c->pending_len += (size_t)n;
}

static void flush_pending(explain_ctx *c)
{
    if (c->pending_len) fputs(c->pending, stdout);
    c->pending_len = 0;
}

static bool verbose(const explain_ctx *c)
{
    return !c->summary && (c->only_frame < 0 || (unsigned)c->only_frame == c->frame);
}

/* 1.19.12 (or any .12 value) as a decimal with 4 fraction digits, without floating point */
static void fx_str(int32_t v, char *out, size_t n)
{
    int64_t a = v < 0 ? -(int64_t)v : v;
    int64_t frac = ((a & 0xFFF) * 10000 + 2048) / 4096;
    int64_t ip = a >> 12;
    if (frac >= 10000) ip++, frac -= 10000;
    snprintf(out, n, "%s%" PRId64 ".%04" PRId64, v < 0 ? "-" : "", ip, frac);
}

static const char *fate_name(enum gx_poly_fate f)
{
    switch (f) {
    case GX_POLY_STORED: return "stored";
    case GX_POLY_CULLED_BACK: return "culled_back";
    case GX_POLY_CULLED_FRONT: return "culled_front";
    case GX_POLY_CLIPPED_AWAY: return "clipped_away";
    case GX_POLY_DOT_REJECTED: return "dot_rejected";
    case GX_POLY_RAM_FULL: return "ram_full";
    }
    return "?";
}

static void on_cmd(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    explain_ctx *c = user;
    unsigned idx = c->cmd_index++;
    if (ev->opcode == 0x10 && ev->nparams) c->mtx_mode = ev->params[0] & 3;
    if (!verbose(c)) return;
    const char *name = gx_opcode_name(ev->opcode);
    printf("cmd   %u.%u %s", c->frame, idx, name ? name : "UNKNOWN");
    if (!name) printf("(%02X)", ev->opcode);
    for (unsigned i = 0; i < ev->nparams; i++) printf(" %08X", ev->params[i]);
    printf(" cycles %u\n", ev->cycles);
    flush_pending(c);
    if (ev->opcode >= 0x11 && ev->opcode <= 0x1C) {
        static const char *names[] = {"proj", "pos", "vec", "tex"};
        int which = c->mtx_mode == 0 ? 0 : c->mtx_mode == 3 ? 3 : 1;
        int32_t m[16];
        gx_get_matrix(gx, which, m);
        printf("mtx   %s", names[which]);
        for (int i = 0; i < 16; i++) {
            char b[32];
            fx_str(m[i], b, sizeof b);
            printf(" %s", b);
        }
        printf("\n");
    }
}

static void on_vertex(void *user, gx_engine *gx, const int32_t clip[4], const int32_t color5[3],
                      const int16_t texcoord[2])
{
    (void)gx;
    explain_ctx *c = user;
    if (!verbose(c)) return;
    char b[4][32];
    for (int i = 0; i < 4; i++) fx_str(clip[i], b[i], sizeof b[i]);
    pend(c, "vtx   clip %s %s %s %s color %d %d %d tex %d %d\n", b[0], b[1], b[2], b[3],
         (int)(color5[0] >> 12), (int)(color5[1] >> 12), (int)(color5[2] >> 12), texcoord[0],
         texcoord[1]);
}

static void on_polygon(void *user, gx_engine *gx, enum gx_poly_fate fate, const gx_polygon *p,
                       const gx_vertex *verts)
{
    (void)gx;
    explain_ctx *c = user;
    unsigned idx = c->poly_index;
    if (fate == GX_POLY_STORED) c->poly_index++;
    if (!verbose(c)) return;
    if (fate != GX_POLY_STORED || !p) {
        pend(c, "poly  - %s\n", fate_name(fate));
        return;
    }
    pend(c,
         "poly  %u stored verts %u attr %08X teximage %08X pltt %04X %s%s%s%s%s%s depth %s "
         "y %d..%d\n",
         idx, p->nverts, p->attr, p->teximage, p->pltt_base, p->facing_front ? "front" : "back",
         p->translucent ? " translucent" : "", p->shadow_mask ? " shadow_mask" : "",
         p->shadow ? " shadow" : "", p->degenerate ? " line" : "",
         polyattr_alpha(p->attr) == 0 ? " wireframe" : "", p->wbuffer ? "w" : "z", p->ytop,
         p->ybottom);
    for (unsigned k = 0; k < p->nverts; k++) {
        const gx_vertex *v = &verts[p->vtx[k]];
        pend(c, "pv    %u.%u screen %d %d z %d w %d color %u %u %u tex %d %d%s\n", idx, k, v->sx,
             v->sy, p->z[k], p->w[k], v->color[0], v->color[1], v->color[2], v->texcoord[0],
             v->texcoord[1], v->clipped ? " clipped" : "");
    }
}

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    explain_ctx *c = user;
    const gx_frame_stats *st = &s->stats;
    if (c->only_frame < 0 || (unsigned)c->only_frame == index)
        printf("frame %u geometry_cycles %" PRIu64 " commands %u polygons %u vertices %u%s\n",
               index, st->cycles, st->commands, st->polygons, st->vertices,
               c->summary
                   ? ""
                   : (st->cycles <= GX_CYCLES_PER_FRAME ? " fits_60hz yes" : " fits_60hz no"));
    c->frame = index + 1;
    c->cmd_index = 0;
    c->poly_index = 0;
}

int cmd_explain(int argc, char **argv)
{
    explain_ctx c = {.only_frame = -1};
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frame") && i + 1 < argc)
            c.only_frame = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--summary"))
            c.summary = true;
        else if (!strcmp(argv[i], "--help")) {
            printf("usage: dsgx explain TRACE [--frame N] [--summary]\n"
                   "  per command: decoded opcode, parameters, cycles charged, resulting matrices\n"
                   "  and vertices; per frame: the polygon list (screen vertices, depth, W, "
                   "colours,\n  texcoords, attributes, culled/clipped reasons).\n"
                   "  --summary: one line per frame: frame N geometry_cycles C commands K "
                   "polygons P vertices V\n");
            return 0;
        } else if (!file)
            file = argv[i];
        else {
            fprintf(stderr, "dsgx explain: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: dsgx explain TRACE [--frame N] [--summary]\n");
        return 2;
    }
    dsgx_trace t = {0};
    char err[512];
    int bad = dsgx_input_load(file, &t, err, sizeof err);
    dsgx_system *s = dsgx_system_create();
    if (!s) return 1;
    dsgx_system_set_log(s, cli_log, NULL);
    gx_hooks h = {.user = &c, .command = on_cmd, .vertex = on_vertex, .polygon = on_polygon};
    gx_set_hooks(s->gx, &h);
    dsgx_system_replay(s, &t, on_frame, &c);
    dsgx_system_destroy(s);
    dsgx_trace_free(&t);
    free(c.pending);
    if (bad) {
        fprintf(stderr, "dsgx explain: %s\n", err);
        return 1;
    }
    return 0;
}
