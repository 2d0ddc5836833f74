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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
