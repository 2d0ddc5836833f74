/*
 * test_raster_lines.c - frames drawn one scanline at a time (raster_lines_*) are the frames of
 * raster_render: on every golden/ref and golden/rdlines trace, the lines read one at a time
 * assemble to the same frame hash, RDLINES_COUNT and underflow bit; reading a line twice or out
 * of order changes nothing; an emulator's loop (cycle-driven geometry of the next frame while
 * the lines of the last one are read) gives the same frames, and so does a frame restored from a
 * save state in the middle (raster_lines_resume); the API refuses bad calls.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, dirent (cycle_replay.h) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cycle_replay.h"
#include "raster/raster_internal.h"
#include "tools/core/savestate.h"

/* the order lines are read in: in order, backwards after the first half, every line twice;
 * the emulator's loop (replay_emulator); a save state restored mid-frame (replay_resume) */
enum { ORDER_FORWARD, ORDER_MIXED, ORDER_TWICE, ORDER_EMULATOR, ORDER_RESUMED };

static void read_frame(raster_engine *r, int order, dsgx_frame *f)
{
    uint32_t line[256];
    for (int i = 0; i < 192; i++) {
        int y = i;
        if (order == ORDER_MIXED && i >= 96) y = 191 - (i - 96);
        assert_true(raster_lines_read(r, y, line));
        memcpy(&f->px[y * 256], line, sizeof line);
        if (order == ORDER_TWICE) {
            uint32_t again[256];
            assert_true(raster_lines_read(r, y, again));
            assert_memory_equal(line, again, sizeof line);
        }
    }
}

/* Replay @p t to completion, drawing each frame line by line. */
static void replay_lines(const dsgx_trace *t, int order, replay_out *o)
{
    memset(o, 0, sizeof(*o));
    dsgx_system *s = dsgx_system_create();
    for (size_t i = 0; i < t->n; i++) {
        const dsgx_trace_item *it = &t->items[i];
        if (it->op != TRACE_FRAME) {
            dsgx_system_exec(s, t, it);
            continue;
        }
        /* dsgx_system_frame with the line API instead of raster_render */
        bool fresh = gx_vblank(s->gx);
        if (fresh || !s->have_frame) {
            raster_lines_begin(s->raster, gx_render_frame(s->gx));
            read_frame(s->raster, order, &s->frame);
            raster_lines_end(s->raster, &s->result);
            gx_report_render(s->gx, s->result.rdlines, s->result.underflow);
            s->have_frame = true;
        }
        replay_collect(o, s);
    }
    dsgx_system_destroy(s);
}

/* A save state in the middle of each frame (after line 77): dsgx_state_save, restored into a
 * new engine pair (dsgx_state_restore resumes the open line frame); it finishes the frame. */
static void replay_resume(const dsgx_trace *t, replay_out *o)
{
    memset(o, 0, sizeof(*o));
    dsgx_system *s = dsgx_system_create();
    uint32_t line[256];
    for (size_t i = 0; i < t->n; i++) {
        const dsgx_trace_item *it = &t->items[i];
        if (it->op != TRACE_FRAME) {
            dsgx_system_exec(s, t, it);
            continue;
        }
        bool fresh = gx_vblank(s->gx);
        if (fresh || !s->have_frame) {
            raster_lines_begin(s->raster, gx_render_frame(s->gx));
            for (int y = 0; y < 192; y++) {
                if (y == 77) { /* a real save state (dsgx_state_save: RLIN section) into
                                * a new engine pair; the restore resumes the line frame */
                    size_t n = dsgx_state_size(s->gx, s->raster);
                    uint8_t *blob = malloc(n);
                    assert_non_null(blob);
                    assert_int_equal(dsgx_state_save(s->gx, s->raster, blob, n, 0), n);
                    gx_engine *g2 = gx_create();
                    raster_engine *r2 = raster_create();
                    assert_non_null(g2);
                    assert_non_null(r2);
                    char err[256];
                    assert_int_equal(dsgx_state_restore(g2, r2, blob, n, err, sizeof err), 0);
                    free(blob);
                    gx_destroy(s->gx);
                    raster_destroy(s->raster);
                    s->gx = g2;
                    s->raster = r2;
                    uint32_t again[256]; /* a line read before the save reads the same */
                    assert_true(raster_lines_read(r2, 76, again));
                    assert_memory_equal(again, &s->frame.px[76 * 256], sizeof again);
                }
                assert_true(raster_lines_read(s->raster, y, line));
                memcpy(&s->frame.px[y * 256], line, sizeof line);
            }
            raster_lines_end(s->raster, &s->result);
            gx_report_render(s->gx, s->result.rdlines, s->result.underflow);
            s->have_frame = true;
        }
        replay_collect(o, s);
    }
    dsgx_system_destroy(s);
}

/* The emulator's loop: geometry in the cycle-driven mode (one bus write, then 64 cycles), and
 * the frame latched at VBlank read out line by line WHILE the next frame's commands are
 * written, one line per trace item, the rest before the next VBlank. */
static void replay_emulator(const dsgx_trace *t, replay_out *o)
{
    memset(o, 0, sizeof(*o));
    dsgx_system *s = dsgx_system_create();
    assert_true(gx_set_cycle_mode(s->gx, true));
    bool open = false;
    int next_line = 0;
    uint32_t line[256];
    for (size_t i = 0; i < t->n; i++) {
        const dsgx_trace_item *it = &t->items[i];
        if (it->op != TRACE_FRAME) {
            if (it->op == TRACE_W32 && (it->addr & ~3u) != REG_POWCNT1)
                (void)gx_bus_write32(s->gx, it->addr, it->value);
            else
                dsgx_system_exec(s, t, it);
            gx_run(s->gx, 64);
            if (open && next_line < 192) {
                assert_true(raster_lines_read(s->raster, next_line, line));
                memcpy(&s->frame.px[next_line * 256], line, sizeof line);
                next_line++;
            }
            continue;
        }
        if (open) { /* the rest of the last frame's lines, before VBlank */
            for (; next_line < 192; next_line++) {
                assert_true(raster_lines_read(s->raster, next_line, line));
                memcpy(&s->frame.px[next_line * 256], line, sizeof line);
            }
            raster_lines_end(s->raster, &s->result);
            gx_report_render(s->gx, s->result.rdlines, s->result.underflow);
            replay_collect(o, s);
            open = false;
        }
        for (int k = 0;
             k < 1000 && !gx_swap_pending(s->gx) && (gx_read32(s->gx, REG_GXSTAT) & (1u << 27));
             k++)
            gx_run(s->gx, 4096);
        bool fresh = gx_vblank(s->gx);
        if (fresh || !s->have_frame) {
            raster_lines_begin(s->raster, gx_render_frame(s->gx));
            s->have_frame = true;
            open = true;
            next_line = 0;
        } else {
            replay_collect(o, s); /* re-emitted */
        }
    }
    if (open) {
        for (; next_line < 192; next_line++) {
            assert_true(raster_lines_read(s->raster, next_line, line));
            memcpy(&s->frame.px[next_line * 256], line, sizeof line);
        }
        raster_lines_end(s->raster, &s->result);
        replay_collect(o, s);
    }
    dsgx_system_destroy(s);
}

static void check_dir(const char *sub, unsigned min_traces)
{
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/%s", DSGX_GOLDEN_DIR, sub);
    char **names;
    unsigned n = replay_list(dir, &names);
    assert_true(n >= min_traces);
    for (unsigned i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        dsgx_trace t;
        assert_int_equal(replay_load(&t, path), 0);
        static replay_out ref, lines;
        replay_complete(&t, &ref);
        for (int order = ORDER_FORWARD; order <= ORDER_RESUMED; order++) {
            if (order == ORDER_EMULATOR)
                replay_emulator(&t, &lines);
            else if (order == ORDER_RESUMED)
                replay_resume(&t, &lines);
            else
                replay_lines(&t, order, &lines);
            assert_int_equal(lines.nframes, ref.nframes);
            for (unsigned f = 0; f < ref.nframes; f++) {
                if (lines.hash[f] != ref.hash[f] || lines.rdlines[f] != ref.rdlines[f] ||
                    lines.underflow[f] != ref.underflow[f])
                    fail_msg("%s order %d frame %u: %016llx rd %u uf %d, expected %016llx rd %u "
                             "uf %d",
                             names[i], order, f, (unsigned long long)lines.hash[f],
                             lines.rdlines[f], lines.underflow[f], (unsigned long long)ref.hash[f],
                             ref.rdlines[f], ref.underflow[f]);
            }
        }
        dsgx_trace_free(&t);
        free(names[i]);
    }
    free(names);
}

static void test_ref_traces(void **state)
{
    (void)state;
    check_dir("ref", 52);
}

static void test_rdlines_traces(void **state)
{
    (void)state;
    check_dir("rdlines", 10);
}

/* Reads outside a line frame or outside 0..191 are refused; ending without a frame reports
 * the register; raster_render closes an open line frame. */
static void test_bad_calls(void **state)
{
    (void)state;
    raster_engine *r = raster_create();
    assert_non_null(r);
    uint32_t line[256];
    assert_false(raster_lines_read(r, 0, line));
    raster_result res;
    raster_lines_end(r, &res);
    assert_int_equal(res.rdlines, 63); /* power-on value */
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    raster_lines_begin(r, gx_render_frame(gx));
    assert_false(raster_lines_read(r, -1, line));
    assert_false(raster_lines_read(r, 192, line));
    assert_true(raster_lines_read(r, 191, line));
    static dsgx_frame f;
    raster_render(r, gx_render_frame(gx), &f, NULL);
    assert_false(raster_lines_read(r, 0, line));
    gx_destroy(gx);
    raster_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_traces),
        cmocka_unit_test(test_rdlines_traces),
        cmocka_unit_test(test_bad_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
