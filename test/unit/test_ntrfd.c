/*
 * test_ntrfd.c - NTRFD reader, writer and conversion. Expected values come from the format's
 * definition (ndsframereplay "format implementation.txt": header 8 bytes, 129 bytes of
 * registers, 4696 bytes of state, 7 VRAMCNT bytes, then counts) and from the reference frames
 * (golden/ntrfd/manifest.tsv: the melonDS frame each dump must produce).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/core/ntrfd.h"
#include "tools/core/system.h"

#define DATA DSGX_GOLDEN_DIR "/ntrfd/"

/* hash of the one frame a trace emits, with melonDS's gap rule (the dumps' reference) */
static void render_hash(const dsgx_trace *t, char hex[17])
{
    dsgx_system *s = dsgx_system_create();
    assert_non_null(s);
    raster_set_melonds_gaps(s->raster, true);
    assert_int_equal(dsgx_system_replay(s, t, NULL, NULL), 1);
    dsgx_frame_hash_hex(&s->frame, hex);
    dsgx_system_destroy(s);
}

static void test_layout_of_a_real_dump(void **state)
{
    (void)state;
    dsgx_ntrfd fd;
    char err[256];
    assert_int_equal(dsgx_ntrfd_load(&fd, DATA "a_flat_triangle.frame000.ntrfd", err, sizeof err),
                     0);
    /* 4912 bytes = 8 + 129 + 4696 + 7 + 8 + ncmds + 4 * nparams, no VRAM banks saved */
    assert_int_equal(8 + 129 + 4696 + 7 + 8 + fd.ncmds + 4 * fd.nparams, 4912);
    assert_int_equal(fd.ncmds, 12);
    assert_int_equal(fd.nparams, 13);
    assert_int_equal(fd.cmds[fd.ncmds - 1], 0x50); /* the frame's SWAP_BUFFERS closes it */
    assert_int_equal(fd.viewport, 0xBF00BF00u);    /* reset state */
    assert_int_equal(fd.pos_mtx[0], 0x1000);       /* identity, 1.19.12 */
    dsgx_ntrfd_free(&fd);
}

static void test_bank_rule(void **state)
{
    (void)state;
    /* FrameDump.cpp: A/B saved when (cnt & 0x83) == 0x83, C..G when (cnt & 0x87) == 0x83 */
    assert_true(dsgx_ntrfd_bank_saved(0, 0x8B));  /* A, MST 3, OFS 1 */
    assert_true(dsgx_ntrfd_bank_saved(1, 0x87));  /* B ignores MST bit 2 */
    assert_false(dsgx_ntrfd_bank_saved(2, 0x87)); /* C with MST 7 is not texture */
    assert_false(dsgx_ntrfd_bank_saved(4, 0x03)); /* E disabled */
    assert_int_equal(dsgx_ntrfd_bank_size(4), 0x10000);
    assert_int_equal(dsgx_ntrfd_cmd_params(0x34), 32);
    assert_int_equal(dsgx_ntrfd_cmd_params(0xFF), 1);
    assert_int_equal(dsgx_ntrfd_cmd_params(0x72), 1);
    assert_int_equal(dsgx_ntrfd_cmd_params(0x42), -1);
}

static void check_dump(const char *file, const char *expected)
{
    dsgx_ntrfd fd;
    char err[256], path[512], hex[17];
    snprintf(path, sizeof path, DATA "%s", file);
    assert_int_equal(dsgx_ntrfd_load(&fd, path, err, sizeof err), 0);
    dsgx_trace t = {0};
    assert_int_equal(dsgx_ntrfd_to_trace(&fd, &t), 0);
    render_hash(&t, hex);
    assert_string_equal(hex, expected);
    dsgx_trace_free(&t);
    dsgx_ntrfd_free(&fd);
}

static void test_real_dumps_render_their_frames(void **state)
{
    (void)state;
    check_dump("a_flat_triangle.frame000.ntrfd", "60d135fe01c621db");
    check_dump("c_textured_quad.frame000.ntrfd.png", "627d5ab286340256"); /* PNG, zero CRC */
    check_dump("dot_polygons.frame000.ntrfd", "a09be38bff2664bb");        /* 0xFF 1-dot depth */
    check_dump("multiframe_3.frame002.ntrfd", "cdafbd12fa872322");        /* non-reset state */
    check_dump("overflow_polyram.frame000.ntrfd", "bb5e45f8d5fb54a1");    /* DISP3DCNT bit 13 */
}

static void test_text_variant_0x72(void **state)
{
    (void)state;
    /* the same dump with the format text's 0x72 for 1-dot depth renders the same frame */
    uint8_t *buf;
    size_t n;
    char err[256], hex[17];
    assert_int_equal(dsgx_read_file(DATA "dot_polygons.frame000.ntrfd", &buf, &n, err, sizeof err),
                     0);
    dsgx_ntrfd fd;
    dsgx_ntrfd_error e;
    assert_int_equal(dsgx_ntrfd_parse(&fd, buf, n, &e), 0);
    unsigned swapped = 0;
    for (uint32_t i = 0; i < fd.ncmds; i++)
        if (fd.cmds[i] == 0xFF) fd.cmds[i] = 0x72, swapped++;
    assert_int_equal(swapped, 1);
    dsgx_trace t = {0};
    assert_int_equal(dsgx_ntrfd_to_trace(&fd, &t), 0);
    render_hash(&t, hex);
    assert_string_equal(hex, "a09be38bff2664bb");
    dsgx_trace_free(&t);
    dsgx_ntrfd_free(&fd);
    free(buf);
}

static void test_serialize_is_byte_exact(void **state)
{
    (void)state;
    uint8_t *buf, *out;
    size_t n, m;
    char err[256];
    assert_int_equal(
        dsgx_read_file(DATA "c_textured_quad.frame000.ntrfd", &buf, &n, err, sizeof err), 0);
    dsgx_ntrfd fd;
    dsgx_ntrfd_error e;
    assert_int_equal(dsgx_ntrfd_parse(&fd, buf, n, &e), 0);
    assert_int_equal(dsgx_ntrfd_serialize(&fd, &out, &m), 0);
    assert_int_equal(m, n);
    assert_memory_equal(out, buf, n);
    free(out);
    dsgx_ntrfd_free(&fd);
    free(buf);
}

static void test_errors(void **state)
{
    (void)state;
    uint8_t *buf;
    size_t n;
    char err[256];
    assert_int_equal(
        dsgx_read_file(DATA "a_flat_triangle.frame000.ntrfd", &buf, &n, err, sizeof err), 0);
    dsgx_ntrfd fd;
    /* truncated inside the state: offset of the field that does not fit */
    assert_int_equal(dsgx_ntrfd_load_buffer(&fd, "x", buf, 1000, err, sizeof err), -1);
    assert_non_null(strstr(err, "x: offset 0x"));
    assert_non_null(strstr(err, "truncated"));
    /* version 1 */
    buf[5] = 1;
    assert_int_equal(dsgx_ntrfd_load_buffer(&fd, "x", buf, n, err, sizeof err), -1);
    assert_string_equal(err, "x: offset 0x5: format version 1 is not supported (only version 0)");
    buf[5] = 0;
    /* an unknown command id: the first command byte is at 4840 + 8 */
    buf[4848] = 0x42;
    assert_int_equal(dsgx_ntrfd_load_buffer(&fd, "x", buf, n, err, sizeof err), -1);
    assert_string_equal(err, "x: offset 0x12F0: unknown command id 0x42");
    buf[4848] = 0x10;
    /* a trailing byte */
    assert_int_equal(dsgx_ntrfd_load_buffer(&fd, "x", buf, n + 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "unexpected bytes"));
    free(buf);
}

static void test_writer_round_trip(void **state)
{
    (void)state;
    /* trace -> dump -> trace renders the trace's own first frame */
    const char *traces[] = {DSGX_GOLDEN_DIR "/ref/c_textured_quad.trace",
                            DSGX_GOLDEN_DIR "/ref/dot_polygons.trace",
                            DSGX_GOLDEN_DIR "/ref/geo_packed_zero_param.trace",
                            DSGX_GOLDEN_DIR "/ref/fog_table_shift.trace"};
    for (size_t k = 0; k < sizeof traces / sizeof traces[0]; k++) {
        dsgx_trace t = {0}, back = {0};
        char err[256], want[17], got[17];
        assert_int_equal(dsgx_trace_load(&t, traces[k], err, sizeof err), 0);
        dsgx_system *s = dsgx_system_create();
        raster_set_melonds_gaps(s->raster, true);
        for (size_t i = 0; i < t.n && t.items[i].op != TRACE_FRAME; i++)
            dsgx_system_exec(s, &t, &t.items[i]);
        dsgx_system_frame(s);
        dsgx_frame_hash_hex(&s->frame, want);
        dsgx_system_destroy(s);
        dsgx_ntrfd fd, fd2;
        assert_int_equal(dsgx_ntrfd_from_trace(&fd, &t, 0, err, sizeof err), 0);
        uint8_t *bytes;
        size_t n;
        dsgx_ntrfd_error e;
        assert_int_equal(dsgx_ntrfd_serialize(&fd, &bytes, &n), 0);
        assert_int_equal(dsgx_ntrfd_parse(&fd2, bytes, n, &e), 0);
        assert_int_equal(dsgx_ntrfd_to_trace(&fd2, &back), 0);
        render_hash(&back, got);
        assert_string_equal(got, want);
        free(bytes);
        dsgx_ntrfd_free(&fd);
        dsgx_ntrfd_free(&fd2);
        dsgx_trace_free(&t);
        dsgx_trace_free(&back);
    }
}

/* hashes of every frame of a trace (dsgx's own rule, or melonDS's gaps) */
static unsigned trace_hashes(const dsgx_trace *t, bool melonds_gaps, char hex[][17], unsigned max)
{
    dsgx_system *s = dsgx_system_create();
    assert_non_null(s);
    raster_set_melonds_gaps(s->raster, melonds_gaps);
    unsigned n = 0;
    size_t i = 0;
    while (i < t->n) {
        for (; i < t->n && t->items[i].op != TRACE_FRAME; i++) dsgx_system_exec(s, t, &t->items[i]);
        if (i == t->n) break;
        i++;
        dsgx_system_frame(s);
        if (n < max) dsgx_frame_hash_hex(&s->frame, hex[n]);
        n++;
    }
    dsgx_system_destroy(s);
    return n;
}

/* dump frame @p frame of @p t, write it to bytes, read it back, replay it */
static void dump_replay_hash(const dsgx_trace *t, unsigned frame, bool melonds_gaps, char hex[17],
                             dsgx_ntrfd *keep)
{
    char err[256];
    dsgx_ntrfd fd, fd2;
    assert_int_equal(dsgx_ntrfd_from_trace(&fd, t, frame, err, sizeof err), 0);
    uint8_t *bytes;
    size_t n;
    dsgx_ntrfd_error e;
    assert_int_equal(dsgx_ntrfd_serialize(&fd, &bytes, &n), 0);
    assert_int_equal(dsgx_ntrfd_parse(&fd2, bytes, n, &e), 0);
    dsgx_trace back = {0};
    assert_int_equal(dsgx_ntrfd_to_trace(&fd2, &back), 0);
    char one[1][17];
    dsgx_system *s = dsgx_system_create();
    raster_set_melonds_gaps(s->raster, melonds_gaps);
    assert_int_equal(dsgx_system_replay(s, &back, NULL, NULL), 1); /* one dump, one frame */
    dsgx_frame_hash_hex(&s->frame, one[0]);
    dsgx_system_destroy(s);
    memcpy(hex, one[0], 17);
    free(bytes);
    dsgx_trace_free(&back);
    dsgx_ntrfd_free(&fd);
    if (keep)
        *keep = fd2;
    else
        dsgx_ntrfd_free(&fd2);
}

static void test_later_frames_replay_like_their_trace(void **state)
{
    (void)state;
    /* every frame of these multi-frame traces (depth mode, sorting, fog, clear plane, blending,
     * textures and state carried across frames), dumped and replayed, is the trace's frame */
    const char *traces[] = {
        DSGX_GOLDEN_DIR "/ref/wbuffer_vs_zbuffer.trace",
        DSGX_GOLDEN_DIR "/ref/multiframe_3.trace",
        DSGX_GOLDEN_DIR "/ref/fog_table_shift.trace",
        DSGX_GOLDEN_DIR "/ref/clear_plane.trace",
        DSGX_GOLDEN_DIR "/ref/manual_sort.trace",
        DSGX_GOLDEN_DIR "/ref/alpha_blend_onoff.trace",
        DSGX_GOLDEN_DIR "/scenes/multiframe_depth_sort_fog.trace",
        DSGX_GOLDEN_DIR "/scenes/multiframe_swap_attrs.trace",
        DSGX_GOLDEN_DIR "/scenes/multiframe_texture_anim.trace",
        DSGX_GOLDEN_DIR "/scenes/game_flyover.trace",
    };
    unsigned checked = 0;
    for (size_t k = 0; k < sizeof traces / sizeof traces[0]; k++) {
        dsgx_trace t = {0};
        char err[256], want[8][17], got[17];
        assert_int_equal(dsgx_trace_load(&t, traces[k], err, sizeof err), 0);
        unsigned n = trace_hashes(&t, false, want, 8);
        assert_true(n >= 2);
        for (unsigned f = 0; f < n && f < 8; f++) {
            dump_replay_hash(&t, f, false, got, NULL);
            if (strcmp(got, want[f]))
                fail_msg("%s frame %u: dump replays to %s, the trace to %s", traces[k], f, got,
                         want[f]);
            checked++;
        }
        dsgx_trace_free(&t);
    }
    assert_true(checked >= 30);
}

static void test_saved_swap_parameter_sets_the_depth_mode(void **state)
{
    (void)state;
    /* frame 1 of wbuffer_vs_zbuffer follows a W-buffered swap: its dump's saved swap parameter
     * (melonDS saves FlushAttributes, the previous swap's) has bit 1, which must be applied by a
     * swap and a VBlank before the stream; without it the frame replays Z-buffered */
    dsgx_trace t = {0};
    char err[256], want[4][17], got[17];
    assert_int_equal(
        dsgx_trace_load(&t, DSGX_GOLDEN_DIR "/ref/wbuffer_vs_zbuffer.trace", err, sizeof err), 0);
    assert_int_equal(trace_hashes(&t, true, want, 4), 3);
    dsgx_ntrfd fd;
    dump_replay_hash(&t, 1, true, got, &fd);
    assert_int_equal(fd.swap_param & 2u, 2u);
    assert_string_equal(got, want[1]);

    dsgx_trace back = {0};
    assert_int_equal(dsgx_ntrfd_to_trace(&fd, &back), 0);
    unsigned vblanks = 0;
    for (size_t i = 0; i < back.n; i++) vblanks += back.items[i].op == TRACE_VBLANK;
    assert_int_equal(vblanks, 1);
    dsgx_trace_free(&back);

    fd.swap_param &= ~2u; /* the old conversion: the saved parameter ignored */
    assert_int_equal(dsgx_ntrfd_to_trace(&fd, &back), 0);
    for (size_t i = 0; i < back.n; i++) assert_int_not_equal(back.items[i].op, TRACE_VBLANK);
    render_hash(&back, got);
    assert_string_not_equal(got, want[1]);
    dsgx_trace_free(&back);
    dsgx_ntrfd_free(&fd);
    dsgx_trace_free(&t);
}

/* A later frame's state as dsgx records it equals what melonDS's writer recorded for the same
 * trace and frame (golden/ntrfd), but for two documented fields (ntrfd_writer.c):
 * DISP_1DOT_DEPTH (melonDS's engine held limit 0 there, ours the reset limit 0x7FFF) and the high
 * half of the last vertex's xy, which melonDS's writer fills with the sign of a negative x. */
static void test_later_frame_state_matches_melonds_writer(void **state)
{
    (void)state;
    const struct {
        const char *trace, *dump;
        unsigned frame;
    } cases[] = {
        {"multiframe_3", "multiframe_3.frame001.ntrfd", 1},
        {"multiframe_3", "multiframe_3.frame002.ntrfd", 2},
        {"fog_table_shift", "fog_table_shift.frame001.ntrfd", 1},
        {"fog_table_shift", "fog_table_shift.frame002.ntrfd", 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[512], err[256];
        snprintf(path, sizeof path, DSGX_GOLDEN_DIR "/ref/%s.trace", cases[k].trace);
        dsgx_trace t = {0};
        assert_int_equal(dsgx_trace_load(&t, path, err, sizeof err), 0);
        dsgx_ntrfd ours, theirs;
        assert_int_equal(dsgx_ntrfd_from_trace(&ours, &t, cases[k].frame, err, sizeof err), 0);
        snprintf(path, sizeof path, DATA "%s", cases[k].dump);
        assert_int_equal(dsgx_ntrfd_load(&theirs, path, err, sizeof err), 0);

        assert_int_equal(ours.zdot_depth, 0x7FFF);
        assert_int_equal(theirs.zdot_depth, 0);
        assert_int_equal(ours.vtx_xy & 0xFFFFu, theirs.vtx_xy & 0xFFFFu);
        if (ours.vtx_xy & 0x8000u)
            assert_int_equal(theirs.vtx_xy >> 16, 0xFFFFu);
        else
            assert_int_equal(ours.vtx_xy >> 16, theirs.vtx_xy >> 16);
        ours.zdot_depth = theirs.zdot_depth;
        ours.vtx_xy = theirs.vtx_xy;

        uint8_t *a, *b;
        size_t na, nb;
        assert_int_equal(dsgx_ntrfd_serialize(&ours, &a, &na), 0);
        assert_int_equal(dsgx_ntrfd_serialize(&theirs, &b, &nb), 0);
        assert_int_equal(na, nb);
        for (size_t i = 0; i < na; i++)
            if (a[i] != b[i])
                fail_msg("%s: byte %zu: dsgx %02X, melonDS %02X", cases[k].dump, i, a[i], b[i]);
        free(a);
        free(b);
        dsgx_ntrfd_free(&ours);
        dsgx_ntrfd_free(&theirs);
        dsgx_trace_free(&t);
    }
}

static void test_param_state_after_reset_is_the_reset_dump_state(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    gx_param_state p;
    gx_get_param_state(gx, &p);
    dsgx_ntrfd r;
    dsgx_ntrfd_init_reset(&r);
    assert_int_equal(p.viewport, r.viewport);
    assert_int_equal(p.vtx_color, r.vtx_color);
    assert_int_equal(p.poly_attr, r.poly_attr);
    assert_int_equal(p.mtx_mode, r.mtx_mode);
    assert_int_equal(p.swap_param, 0);
    for (unsigned i = 0; i < 16; i++) {
        assert_int_equal((uint32_t)p.proj[i], r.proj_mtx[i]);
        assert_int_equal((uint32_t)p.pos[i], r.pos_mtx[i]);
        assert_int_equal((uint32_t)p.vec[i], r.vec_mtx[i]);
        assert_int_equal((uint32_t)p.tex[i], r.tex_mtx[i]);
    }
    for (unsigned l = 0; l < 4; l++) {
        assert_int_equal(p.light_vec[l], r.light_vec[l]);
        assert_int_equal(p.light_color[l], r.light_color[l]);
    }
    gx_destroy(gx);
}

static void test_frames_that_cannot_be_dumped(void **state)
{
    (void)state;
    dsgx_trace t = {0};
    char err[256];
    dsgx_ntrfd fd;
    assert_int_equal(
        dsgx_trace_load(&t, DSGX_GOLDEN_DIR "/scenes/multiframe_reemit.trace", err, sizeof err), 0);
    assert_int_equal(dsgx_ntrfd_from_trace(&fd, &t, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "no SWAP_BUFFERS"));
    dsgx_ntrfd_free(&fd);
    assert_int_equal(dsgx_ntrfd_from_trace(&fd, &t, 2, err, sizeof err), -1);
    dsgx_ntrfd_free(&fd);
    assert_int_equal(dsgx_ntrfd_from_trace(&fd, &t, 7, err, sizeof err), -1);
    assert_non_null(strstr(err, "no frame 7"));
    dsgx_ntrfd_free(&fd);
    dsgx_trace_free(&t);
}

static void test_zero_dot_depth_means_never_written(void **state)
{
    (void)state;
    /* dot_depth_cutoff without its DISP_1DOT_DEPTH write: the far 1-dot polygons stay (reset
     * limit). Its dump records 0 there, as melonDS's writer does after reset; replaying must not
     * write 0 (limit 0x1FF), which would drop them */
    dsgx_trace src = {0}, t = {0};
    char err[256], want[2][17], got[17];
    assert_int_equal(
        dsgx_trace_load(&src, DSGX_GOLDEN_DIR "/scenes/dot_depth_cutoff.trace", err, sizeof err),
        0);
    unsigned dropped = 0;
    for (size_t i = 0; i < src.n; i++) {
        const dsgx_trace_item *it = &src.items[i];
        if (it->op == TRACE_W16 && it->addr == 0x04000610u) {
            dropped++;
            continue;
        }
        if (it->op == TRACE_DATA)
            assert_int_equal(
                dsgx_trace_add_data(&t, it->addr, src.data + it->data_off, it->data_len), 0);
        else
            assert_int_equal(dsgx_trace_add(&t, it->op, it->addr, it->value), 0);
    }
    assert_int_equal(dropped, 1);
    assert_int_equal(trace_hashes(&t, false, want, 2), 1);
    dsgx_ntrfd fd;
    dump_replay_hash(&t, 0, false, got, &fd);
    assert_int_equal(fd.zdot_depth, 0);
    assert_string_equal(got, want[0]);

    /* the limit matters for this frame: an explicit DISP_1DOT_DEPTH 0 draws another one */
    dsgx_trace back = {0};
    assert_int_equal(dsgx_trace_add(&back, TRACE_W16, 0x04000610u, 0), 0);
    assert_int_equal(dsgx_ntrfd_to_trace(&fd, &back), 0);
    dsgx_system *s = dsgx_system_create();
    assert_int_equal(dsgx_system_replay(s, &back, NULL, NULL), 1);
    dsgx_frame_hash_hex(&s->frame, got);
    dsgx_system_destroy(s);
    assert_string_not_equal(got, want[0]);
    dsgx_trace_free(&back);
    dsgx_ntrfd_free(&fd);
    dsgx_trace_free(&t);
    dsgx_trace_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_of_a_real_dump),
        cmocka_unit_test(test_bank_rule),
        cmocka_unit_test(test_real_dumps_render_their_frames),
        cmocka_unit_test(test_text_variant_0x72),
        cmocka_unit_test(test_serialize_is_byte_exact),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_writer_round_trip),
        cmocka_unit_test(test_later_frames_replay_like_their_trace),
        cmocka_unit_test(test_saved_swap_parameter_sets_the_depth_mode),
        cmocka_unit_test(test_later_frame_state_matches_melonds_writer),
        cmocka_unit_test(test_param_state_after_reset_is_the_reset_dump_state),
        cmocka_unit_test(test_frames_that_cannot_be_dumped),
        cmocka_unit_test(test_zero_dot_depth_means_never_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
