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

int render_sequence(render_draw_fn draw, void *user, long a, long b, long step, const char *pattern,
                    const char *sheet, unsigned scale)
{
    unsigned total = (unsigned)((b - a) / step + 1), every = 1;
    nitro_sheet sh;
    bool have_sheet = false;
    char msg[512];
    if (sheet) {
        every = (total + MAX_SHEET - 1) / MAX_SHEET;
        if (every > 1)
            fprintf(stderr, "dsgx render: the sheet shows every %u%s frame of %u (at most %u)\n",
                    every,
                    every == 2   ? "nd"
                    : every == 3 ? "rd"
                                 : "th",
                    total, MAX_SHEET);
        if (!nitro_sheet_init(&sh, (total + every - 1) / every, 1, true)) {
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
    progress_init_stderr(&pr, "render", "frames", total);
    int rc = 0;
    unsigned i = 0;
    for (long f = a; f <= b; f += step, i++) {
        if (!draw(user, f, frame)) {
            progress_clear(&pr);
            fprintf(stderr, "dsgx render: out of memory\n");
            rc = 1;
            break;
        }
        char hex[17], path[1024];
        dsgx_frame_hash_hex(frame, hex);
        if (pattern) {
            render_pattern_format(pattern, f, path, sizeof path);
            render_make_parent_dirs(path);
            if (render_write_scaled(frame, scale, path, msg, sizeof msg)) {
                progress_clear(&pr);
                fprintf(stderr, "dsgx render: %s\n", msg);
                rc = 1;
                break;
            }
        }
        if (have_sheet && i % every == 0) {
            char label[32];
            snprintf(label, sizeof label, "frame %ld", f);
            nitro_sheet_put(&sh, i / every, frame, label, true);
        }
        progress_clear(&pr);
        printf("frame %ld %s\n", f, hex);
        fflush(stdout);
        progress_update(&pr, i + 1);
    }
    progress_finish(&pr);
    free(frame);
    if (have_sheet) {
        if (!rc && nitro_sheet_write_png(&sh, sheet, msg, sizeof msg)) {
            fprintf(stderr, "dsgx render: %s\n", msg);
            rc = 1;
        } else if (!rc) {
            printf("%s %ux%u, %u frame(s)\n", sheet, sh.width, sh.height,
                   (total + every - 1) / every);
        }
        nitro_sheet_free(&sh);
    }
    return rc;
}
