/*
 * render_util.c - the trace-recording bus writer and the frame-number helpers of `dsgx render`
 * (see render_util.h).
 */
#include "tools/render_util.h"

#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "nitro/sheet.h"
#include "tools/cli_util.h"
#include "tools/progress.h"
#include "tools/sheet.h"

#define MAX_SHEET 64u

void render_tracer_flush(render_tracer *t)
{
    if (!t->f || !t->run_len) return;
    fprintf(t->f, "data %08X ", t->run_addr);
    for (uint32_t i = 0; i < t->run_len; i++) fprintf(t->f, "%02X", t->run[i]);
    fputc('\n', t->f);
    t->run_len = 0;
}

static void run_append(render_tracer *t, uint32_t val)
{
    for (int i = 0; i < 4; i++) t->run[t->run_len++] = (uint8_t)(val >> (8 * i));
}

void render_tracer_write(void *tracer, uint32_t addr, uint32_t val, unsigned bytes)
{
    render_tracer *t = tracer;
    if (bytes == 1)
        gx_write8(t->gx, addr, (uint8_t)val);
    else
        gx_write32(t->gx, addr, val);
    if (!t->f) return;
    bool lcdc = bytes == 4 && addr >= REG_VRAM_LCDC_BASE && addr < REG_VRAM_LCDC_END;
    if (lcdc && t->run_len && addr == t->run_addr + t->run_len && t->run_len + 4 <= sizeof t->run) {
        run_append(t, val);
        return;
    }
    render_tracer_flush(t);
    if (lcdc) {
        t->run_addr = addr;
        run_append(t, val);
        return;
    }
    if (bytes == 1)
        fprintf(t->f, "w8 %08X %02X\n", addr, val & 0xffu);
    else
        fprintf(t->f, "w32 %08X %08X\n", addr, val);
}

uint32_t render_tracer_read(void *tracer, uint32_t addr)
{
    return gx_read32(((render_tracer *)tracer)->gx, addr);
}

void render_null_write(void *user, uint32_t addr, uint32_t val, unsigned bytes)
{
    (void)user;
    (void)addr;
    (void)val;
    (void)bytes;
}

bool render_parse_frame(const char *s, const char *end, long *out)
{
    if (s == end || end - s > 9) return false;
    long v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return v < RENDER_MAX_FRAMES;
}

bool render_parse_range(const char *s, long *a, long *b, long *step)
{
    const char *dots = strstr(s, ".."), *colon = strchr(s, ':');
    if (!dots || (colon && colon < dots)) return false;
    const char *bend = colon ? colon : s + strlen(s);
    *step = 1;
    if (!render_parse_frame(s, dots, a) || !render_parse_frame(dots + 2, bend, b)) return false;
    if (colon && !render_parse_frame(colon + 1, colon + strlen(colon), step)) return false;
    return *a <= *b && *step >= 1;
}

int render_pattern_convs(const char *pattern)
{
    int n = 0;
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        const char *q = p + 1;
        if (*q == '0') q++;
        if (*q >= '1' && *q <= '9') q++;
        if (*q != 'd') return -1;
        n++;
        p = q;
    }
    return n;
}

void render_pattern_format(const char *pattern, long v, char *out, size_t size)
{
    size_t o = 0;
    for (const char *p = pattern; *p && o + 1 < size; p++) {
        if (*p != '%') {
            out[o++] = *p;
            continue;
        }
        if (p[1] == '%') {
            out[o++] = '%';
            p++;
            continue;
        }
        const char *q = p + 1;
        bool zero = *q == '0';
        if (zero) q++;
        int width = (*q >= '1' && *q <= '9') ? *q++ - '0' : 0;
        char digits[24];
        int nd = snprintf(digits, sizeof digits, "%ld", v);
        for (int i = nd; i < width && o + 1 < size; i++) out[o++] = zero ? '0' : ' ';
        for (int i = 0; i < nd && o + 1 < size; i++) out[o++] = digits[i];
        p = q;
    }
    out[o] = 0;
}

void render_make_parent_dirs(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return;
    *slash = 0;
    cli_mkdirs(dir);
}

int render_frame_options(const char *frame, const char *frames, const char *out, const char *sheet,
                         const char *trace, long *a, long *b, long *step)
{
    *a = *b = 0;
    *step = 1;
    if (frame && frames) {
        fprintf(stderr, "dsgx render: --frame and --frames exclude each other\n");
        return 2;
    }
    if (frame && !render_parse_frame(frame, frame + strlen(frame), a)) {
        fprintf(stderr, "dsgx render: bad --frame '%s' (want a whole frame number 0..%ld)\n", frame,
                RENDER_MAX_FRAMES - 1);
        return 2;
    }
    if (frames && !render_parse_range(frames, a, b, step)) {
        fprintf(stderr,
                "dsgx render: bad --frames '%s' (want A..B or A..B:STEP, whole frames, A <= B, "
                "STEP >= 1, below %ld)\n",
                frames, RENDER_MAX_FRAMES);
        return 2;
    }
    if (!frames) *b = *a;
    if (frames && out) {
        int n = render_pattern_convs(out);
        if (n < 0 || n > 1 || (n == 0 && *b > *a)) {
            fprintf(stderr,
                    "dsgx render: with --frames, -o needs one %%d conversion (e.g. "
                    "'out/frame%%03d.png'), got '%s'\n",
                    out);
            return 2;
        }
    }
    if (sheet && !frames) {
        fprintf(stderr, "dsgx render: --sheet needs --frames A..B\n");
        return 2;
    }
    if (trace && frames) {
        fprintf(stderr, "dsgx render: --trace records one frame; use --frame N\n");
        return 2;
    }
    return 0;
}

int render_cells(const render_cells_job *job)
{
    unsigned n = job->count, every = 1;
    nitro_sheet sh;
    bool have_sheet = false;
    char msg[512];
    if (job->sheet) {
        every = (n + MAX_SHEET - 1) / MAX_SHEET;
        if (every > 1)
            fprintf(stderr, "dsgx render: the sheet shows every %u%s %s of %u (at most %u)\n",
                    every,
                    every == 2   ? "nd"
                    : every == 3 ? "rd"
                                 : "th",
                    job->item, n, MAX_SHEET);
        if (!nitro_sheet_init(&sh, (n + every - 1) / every, job->sheet_scale, true)) {
            fprintf(stderr, "dsgx render: out of memory for the sheet\n");
            return 1;
        }
        have_sheet = true;
    }
    dsgx_frame *frame = malloc(sizeof *frame);
    if (!frame) {
        if (have_sheet) nitro_sheet_free(&sh);
        fprintf(stderr, "dsgx render: out of memory\n");
        return 1;
    }
    progress pr;
    progress_init_stderr(&pr, "render", job->unit, n);
    int rc = 0;
    for (unsigned k = 0; k < n && !rc; k++) {
        char label[128] = "", hex[17];
        msg[0] = 0;
        rc = job->cell(job->user, k, frame, label, sizeof label, msg, sizeof msg);
        progress_clear(&pr);
        if (rc) {
            fprintf(stderr, "dsgx render: %s\n", msg[0] ? msg : "out of memory");
            break;
        }
        dsgx_frame_hash_hex(frame, hex);
        if (have_sheet && k % every == 0) nitro_sheet_put(&sh, k / every, frame, label, true);
        if (job->label_first)
            printf("%s %s\n", label, hex);
        else
            printf("%s %s\n", hex, label);
        fflush(stdout);
        progress_update(&pr, k + 1);
    }
    progress_finish(&pr);
    free(frame);
    if (have_sheet) {
        if (!rc && nitro_sheet_write_png(&sh, job->sheet, msg, sizeof msg)) {
            fprintf(stderr, "dsgx render: %s\n", msg);
            rc = 1;
        } else if (!rc) {
            printf("%s %ux%u, %u %s(s)%s\n", job->sheet, sh.width, sh.height,
                   (n + every - 1) / every, job->item, job->tail ? job->tail : "");
        }
        nitro_sheet_free(&sh);
    }
    return rc;
}

/* A --frames sequence as cells: cell k is frame a + k * step. */
typedef struct sequence {
    render_draw_fn draw;
    void *user;
    long a, step;
    const char *pattern;
    unsigned scale;
} sequence;

static int sequence_cell(void *user, unsigned k, dsgx_frame *out, char *label, size_t size,
                         char *err, size_t errlen)
{
    const sequence *q = user;
    long f = q->a + (long)k * q->step;
    char path[1024];
    if (!q->draw(q->user, f, out)) return 1; /* out of memory */
    snprintf(label, size, "frame %ld", f);
    if (!q->pattern) return 0;
    render_pattern_format(q->pattern, f, path, sizeof path);
    render_make_parent_dirs(path);
    return render_write_scaled(out, q->scale, path, err, errlen) ? 1 : 0;
}

int render_sequence(render_draw_fn draw, void *user, long a, long b, long step, const char *pattern,
                    const char *sheet, unsigned scale)
{
    sequence q = {draw, user, a, step, pattern, scale};
    render_cells_job job = {
        (unsigned)((b - a) / step + 1), sequence_cell, &q, "frames", "frame", sheet, 1, true, NULL};
    return render_cells(&job);
}

void render_options_init(render_options *o)
{
    memset(o, 0, sizeof *o);
    o->cam.fov = 30;
    o->scale = 1;
}

/* The options with one argument: where each goes. */
static const char **string_option(render_options *o, const char *a)
{
    static const char *const names[] = {"-o",       "--trace", "--sheet", "--frame",
                                        "--frames", "--shard", "--model"};
    const char **slots[] = {&o->out,    &o->trace, &o->sheet, &o->frame,
                            &o->frames, &o->shard, &o->select};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(a, names[k])) return slots[k];
    return NULL;
}

int render_options_parse(render_options *o, int argc, char **argv, int i)
{
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    render_camera *c = &o->cam;
    const char **slot = string_option(o, a);
    bool *flag = !strcmp(a, "--edge")  ? &o->edge
                 : !strcmp(a, "--fog") ? &o->fog
                 : !strcmp(a, "--aa")  ? &o->aa
                 : !strcmp(a, "--all") ? &o->all
                                       : NULL;
    if (flag) {
        *flag = true;
        return 1;
    }
    if (a[0] != '-' && !o->model) {
        o->model = a;
        return 1;
    }
    if (!v) return 0;
    if (slot) {
        *slot = v;
    } else if (!strcmp(a, "--near") || !strcmp(a, "--far")) {
        *(a[2] == 'n' ? &c->near : &c->far) = atof(v);
    } else if (!strcmp(a, "--fov")) {
        c->fov = atof(v);
    } else if (!strcmp(a, "--scale")) {
        o->scale = (unsigned)atoi(v);
    } else if (!strcmp(a, "--clear")) {
        o->clear_rgb = (unsigned)strtoul(v, NULL, 16) & 0x7fffu;
    } else if (!strcmp(a, "--clear-alpha")) {
        o->clear_alpha = (unsigned)atoi(v) & 31u;
    } else if (!strcmp(a, "--light")) {
        if (!render_parse_light(v, o->lights)) {
            fprintf(stderr, "dsgx render: bad --light %s (want I:X,Y,Z:RRGGBB)\n", v);
            return -1;
        }
    } else if ((!strcmp(a, "--eye") || !strcmp(a, "--at") || !strcmp(a, "--orbit")) &&
               i + 3 < argc) {
        double *xyz = !strcmp(a, "--eye") ? c->eye : !strcmp(a, "--at") ? c->at : c->orbit;
        for (int k = 0; k < 3; k++) xyz[k] = atof(argv[i + 1 + k]);
        if (xyz == c->eye) c->have_eye = true;
        if (xyz == c->orbit) c->have_orbit = true;
        return 4;
    } else {
        return 0;
    }
    return 2;
}

int render_options_read(render_options *o, int argc, char **argv, render_extra_fn extra, void *user,
                        void (*usage)(FILE *))
{
    for (int i = 1; i < argc; i++) {
        int used = render_options_parse(o, argc, argv, i);
        if (!used) used = extra(user, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) {
            i += used - 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    return -1;
}
