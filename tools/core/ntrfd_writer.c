/*
 * ntrfd_writer.c - write an NTRFD dump of a trace's first frame (dsgx_ntrfd_from_trace).
 *
 * What is recorded, as melonDS's frame-dump writer records it (src/FrameDump.cpp, framedump
 * branch): the geometry commands the engine executed for the frame, in order, through its
 * command hook (so packed GXFIFO words arrive unpacked), without NOPs, END_VTXS and the other
 * parameterless commands except MTX_PUSH and MTX_IDENTITY, and without BOX_TEST and VEC_TEST;
 * DISP_1DOT_DEPTH writes as command 0xFF; the rendering registers latched at the frame's
 * VBlank; VRAMCNT A..G and the banks mapped to texture image or palette when the frame is
 * rendered. Any frame N can be dumped: the initial state of frame 0 is the state after reset
 * (dsgx_ntrfd_init_reset); a later frame's is taken from the engine (gx_get_param_state) at
 * the VBlank that latched frame N - 1, before the commands held behind that swap run, which is
 * where melonDS's writer takes it (StartFrameDump; its swap parameter is FlushAttributes, the
 * previous swap's). Recording stops at the VBlank that latches frame N. A frame without a
 * SWAP_BUFFERS of its own (a re-emission) cannot be dumped, nor the frame after one.
 *
 * Where our dumps differ from melonDS's writer (commit 1b0c2035) for the same frame, checked on
 * the real dumps in golden/ntrfd: DISP_1DOT_DEPTH (melonDS records 0, as its engine held a
 * zero W limit there; ours records the engine's limit, 0x7FFF after reset, so the dump replays
 * what the trace drew), and the packed last vertex (and texture coordinates): melonDS ORs a
 * sign-extended x (s) into the y (t) half when x is negative (`CurVertex[1] << 16 |
 * CurVertex[0]` on signed 16-bit values); ours keeps both halves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/core/ntrfd.h"
#include "tools/core/system.h"

#define REG_VRAMCNT_A  0x04000240u
#define REG_1DOT_DEPTH 0x04000610u
#define VRAM_LCDC      0x06800000u
#define VRAM_LCDC_END  0x06898000u /* end of bank G in the LCDC window */

typedef struct capture {
    uint8_t *cmds;
    uint32_t *params;
    uint32_t ncmds, nparams, cap_cmds, cap_params;
    uint8_t vramcnt[NTRFD_NBANKS];
    uint8_t *bank[NTRFD_NBANKS];
    bool oom;
} capture;

static void add_cmd(capture *c, uint8_t id, const uint32_t *p, unsigned n)
{
    if (c->oom) return;
    if (c->ncmds + 1 > c->cap_cmds) {
        uint32_t nc = c->cap_cmds ? c->cap_cmds * 2 : 1024;
        uint8_t *q = realloc(c->cmds, nc);
        if (!q) goto oom;
        c->cmds = q;
        c->cap_cmds = nc;
    }
    if (c->nparams + n > c->cap_params) {
        uint32_t nc = c->cap_params ? c->cap_params : 1024;
        while (nc < c->nparams + n) nc *= 2;
        uint32_t *q = realloc(c->params, (size_t)nc * 4);
        if (!q) goto oom;
        c->params = q;
        c->cap_params = nc;
    }
    c->cmds[c->ncmds++] = id;
    memcpy(c->params + c->nparams, p, (size_t)n * 4);
    c->nparams += n;
    return;
oom:
    c->oom = true;
}

static void on_command(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    (void)gx;
    capture *c = user;
    int np = dsgx_ntrfd_cmd_params(ev->opcode);
    if (np < 0 || ev->opcode == 0x70 || ev->opcode == 0x72) return;  /* tests, unknown ids */
    if (np == 0 && ev->opcode != 0x11 && ev->opcode != 0x15) return; /* NOP, END_VTXS */
    if ((unsigned)np > ev->nparams) return;
    add_cmd(c, ev->opcode, ev->params, (unsigned)np);
}

/* Bank b occupies [start, start + size) in the LCDC window when mapped there (MST 0). */
static uint32_t lcdc_start(unsigned b)
{
    static const uint32_t off[NTRFD_NBANKS] = {0x00000, 0x20000, 0x40000, 0x60000,
                                               0x80000, 0x90000, 0x94000};
    return VRAM_LCDC + off[b];
}

static void vram_byte(capture *c, uint32_t addr, uint8_t v)
{
    if (addr < VRAM_LCDC || addr >= VRAM_LCDC_END) return;
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) {
        uint32_t s = lcdc_start(b);
        uint8_t mst = c->vramcnt[b] & (b < 2 ? 3u : 7u); /* A/B: 2-bit MST */
        bool lcdc = (c->vramcnt[b] & 0x80) && mst == 0;
        if (lcdc && addr >= s && addr - s < dsgx_ntrfd_bank_size(b)) c->bank[b][addr - s] = v;
    }
}

/** Follow the bus writes that matter to the dump but are not geometry commands (VRAM always;
 *  DISP_1DOT_DEPTH writes while the frame is recorded: earlier ones are in its initial state). */
static void observe(capture *c, const dsgx_trace *t, const dsgx_trace_item *it, bool recording)
{
    unsigned width = it->op == TRACE_W32 ? 4 : it->op == TRACE_W16 ? 2 : it->op == TRACE_W8 ? 1 : 0;
    if (it->op == TRACE_DATA) {
        for (uint32_t k = 0; k < it->data_len; k++)
            vram_byte(c, it->addr + k, t->data[it->data_off + k]);
        return;
    }
    if (!width) return;
    for (unsigned k = 0; k < width; k++) {
        uint32_t a = (it->addr & ~(uint32_t)(width - 1)) + k;
        uint8_t v = (uint8_t)(it->value >> (8 * k));
        if (a >= REG_VRAMCNT_A && a < REG_VRAMCNT_A + NTRFD_NBANKS)
            c->vramcnt[a - REG_VRAMCNT_A] = v;
        vram_byte(c, a, v);
    }
    if (recording && (it->addr & ~3u) == REG_1DOT_DEPTH && width >= 2) {
        uint32_t p = it->value & 0xFFFFu;
        add_cmd(c, NTRFD_CMD_1DOT_DEPTH, &p, 1);
    }
}

static void fill_registers(dsgx_ntrfd *fd, const gx_render_regs *r)
{
    fd->disp3dcnt = r->disp3dcnt;
    memcpy(fd->edge_color, r->edge_color, sizeof fd->edge_color);
    fd->alpha_ref = r->alpha_ref;
    fd->clear_color = r->clear_color;
    fd->clear_depth = (uint32_t)r->clear_depth | (uint32_t)r->clear_offset << 16;
    fd->fog_color = r->fog_color;
    fd->fog_offset = r->fog_offset;
    memcpy(fd->fog_table, r->fog_table, sizeof fd->fog_table);
    memcpy(fd->toon_table, r->toon_table, sizeof fd->toon_table);
}

/* The state a dump of the next frame starts from: gx_get_param_state in the dump's fields. */
static void fill_initial_state(dsgx_ntrfd *fd, const gx_param_state *p)
{
    fd->zdot_depth = (uint16_t)p->dot_depth;
    fd->poly_attr = p->poly_attr;
    fd->poly_attr_unset = p->poly_attr_unset;
    fd->vtx_color = p->vtx_color;
    fd->viewport = p->viewport;
    memcpy(fd->proj_stack, p->proj_stack, sizeof fd->proj_stack);
    memcpy(fd->pos_stack, p->pos_stack, sizeof fd->pos_stack);
    memcpy(fd->vec_stack, p->vec_stack, sizeof fd->vec_stack);
    memcpy(fd->tex_stack, p->tex_stack, sizeof fd->tex_stack);
    memcpy(fd->proj_mtx, p->proj, sizeof fd->proj_mtx);
    memcpy(fd->pos_mtx, p->pos, sizeof fd->pos_mtx);
    memcpy(fd->vec_mtx, p->vec, sizeof fd->vec_mtx);
    memcpy(fd->tex_mtx, p->tex, sizeof fd->tex_mtx);
    fd->mtx_mode = p->mtx_mode;
    fd->polygon = p->polygon;
    fd->vtx_xy = p->vtx_xy;
    fd->vtx_z = (uint16_t)p->vtx_z;
    fd->texcoord = p->texcoord;
    fd->teximage_param = p->teximage_param;
    fd->pltt_base = p->pltt_base;
    fd->dif_amb = p->dif_amb;
    fd->spe_emi = p->spe_emi;
    memcpy(fd->shininess, p->shininess, sizeof fd->shininess);
    memcpy(fd->light_vec, p->light_vec, sizeof fd->light_vec);
    memcpy(fd->light_color, p->light_color, sizeof fd->light_color);
    fd->swap_param = p->swap_param;
}

/* Recording window: the VBlank that latches frame `frame - 1` starts it (the state is taken
 * there, before the commands held behind that swap run: they belong to the next frame), the
 * VBlank that latches frame `frame` ends it. */
typedef struct window {
    capture *c;
    dsgx_ntrfd *fd;
    bool start_armed, stop_armed, recording, done;
} window;

static void on_window_command(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    window *w = user;
    if (w->recording) on_command(w->c, gx, ev);
}

static void on_window_vblank(void *user, gx_engine *gx)
{
    window *w = user;
    if (w->stop_armed) {
        w->recording = false;
        w->done = true;
        w->stop_armed = false;
    } else if (w->start_armed) {
        gx_param_state p;
        gx_get_param_state(gx, &p);
        fill_initial_state(w->fd, &p);
        w->c->ncmds = w->c->nparams = 0; /* what was recorded so far is earlier frames' */
        w->recording = true;
        w->start_armed = false;
    }
}

int dsgx_ntrfd_from_trace(dsgx_ntrfd *fd, const dsgx_trace *t, unsigned frame, char *err,
                          size_t errlen)
{
    dsgx_ntrfd_init_reset(fd);
    capture c = {0};
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) {
        c.bank[b] = calloc(1, dsgx_ntrfd_bank_size(b));
        c.oom |= !c.bank[b];
    }
    dsgx_system *s = c.oom ? NULL : dsgx_system_create();
    int r = -1;
    if (!s) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* frame 0 starts from the state after reset, which dsgx_ntrfd_init_reset() holds */
    window w = {.c = &c, .fd = fd, .recording = frame == 0};
    gx_hooks hooks = {.user = &w, .command = on_window_command, .vblank = on_window_vblank};
    gx_set_hooks(s->gx, &hooks);
    unsigned index = 0;
    for (size_t i = 0; i < t->n && !w.done; i++) {
        const dsgx_trace_item *it = &t->items[i];
        if (it->op == TRACE_FRAME) {
            w.start_armed = index + 1 == frame;
            w.stop_armed = index == frame;
            bool fresh = dsgx_system_frame(s);
            if (index == frame && !fresh) {
                snprintf(err, errlen,
                         "frame %u has no SWAP_BUFFERS of its own (it re-emits the frame before): "
                         "there is no frame to dump",
                         frame);
                goto done;
            }
            if (w.start_armed) { /* no new frame latched: frame - 1 was a re-emission */
                snprintf(err, errlen,
                         "frame %u re-emits the frame before it (no SWAP_BUFFERS): frame %u "
                         "cannot be dumped",
                         frame - 1, frame);
                goto done;
            }
            index++;
            continue;
        }
        observe(&c, t, it, w.recording);
        dsgx_system_exec(s, t, it);
    }
    if (!w.done) {
        snprintf(err, errlen, "the trace has %u frame%s: no frame %u", index, index == 1 ? "" : "s",
                 frame);
        goto done;
    }
    if (c.oom) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    fill_registers(fd, &gx_render_frame(s->gx)->regs);
    memcpy(fd->vramcnt, c.vramcnt, sizeof fd->vramcnt);
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) {
        if (!dsgx_ntrfd_bank_saved(b, c.vramcnt[b])) continue;
        fd->vram[b] = c.bank[b];
        c.bank[b] = NULL;
    }
    fd->cmds = c.cmds;
    fd->params = c.params;
    fd->ncmds = c.ncmds;
    fd->nparams = c.nparams;
    c.cmds = NULL;
    c.params = NULL;
    r = 0;
done:
    dsgx_system_destroy(s);
    for (unsigned b = 0; b < NTRFD_NBANKS; b++) free(c.bank[b]);
    free(c.cmds);
    free(c.params);
    return r;
}
