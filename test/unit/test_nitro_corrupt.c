/*
 * test_nitro_corrupt.c - bad input: truncation at every byte (with the file-size and section
 * size fields shrunk so the inner structures see the cut), out-of-range offsets and counts,
 * each giving an error with the structure and offset, never a crash (run under ASan/UBSan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nitro/nitro.h"
#include "test_nitro_fixtures.h"

static uint32_t rd32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void truncate_everywhere(const nitro_buf *file)
{
    uint8_t *buf = malloc(file->size);
    for (size_t len = 0; len < file->size; len++) {
        memcpy(buf, file->data, len);
        if (len >= 16) {
            wr32(buf + 8, (uint32_t)len);
            unsigned n = buf[14] | buf[15] << 8;
            for (unsigned i = 0; i < n && 16 + 4 * i + 4 <= len; i++) {
                uint32_t ofs = rd32(buf + 16 + 4 * i);
                if (ofs + 8 <= len && ofs + rd32(buf + ofs + 4) > len)
                    wr32(buf + ofs + 4, (uint32_t)(len - ofs));
            }
        }
        nitro_file f;
        nitro_status st = nitro_parse(buf, len, &f);
        if (st.ok) fail_msg("truncation at %zu of %zu parsed", len, file->size);
        if (st.offset > len)
            fail_msg("len %zu: %s at 0x%zx: %s", len, st.structure, st.offset, st.reason);
        assert_true(st.structure[0] != 0 && st.reason[0] != 0);
    }
    free(buf);
}

static void test_truncation(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_bmd0(&fx, true));
    truncate_everywhere(&fx.file);
    fixture_free(&fx);
    assert_true(fixture_btx0(&fx));
    truncate_everywhere(&fx.file);
    fixture_free(&fx);
}

/* Parse a corrupted copy: set the u32 at `at` to v. Returns the status. */
static nitro_status corrupt32(const nitro_buf *file, size_t at, uint32_t v)
{
    uint8_t *buf = malloc(file->size);
    memcpy(buf, file->data, file->size);
    wr32(buf + at, v);
    nitro_file f;
    nitro_status st = nitro_parse(buf, file->size, &f);
    if (st.ok) nitro_file_free(&f);
    free(buf);
    return st;
}

static void test_bad_fields(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_bmd0(&fx, true));
    nitro_file f;
    assert_true(nitro_parse(fx.file.data, fx.file.size, &f).ok);
    const nitro_model *m = &f.models[0];
    /* Byte order mark. */
    nitro_status st = corrupt32(&fx.file, 4, 0x0002FFFE);
    assert_false(st.ok);
    assert_string_equal(st.structure, "file header");
    assert_int_equal(st.offset, 4);
    /* Section offset beyond the file. */
    st = corrupt32(&fx.file, 16, 0x7FFFFFF0);
    assert_false(st.ok);
    assert_int_equal(st.offset, 16);
    /* A mesh's display list offset (mesh record + 8) far outside the model. */
    size_t mesh = m->meshes[0].offset;
    st = corrupt32(&fx.file, mesh + 8, 0xFFFFFF00u);
    assert_false(st.ok);
    assert_string_equal(st.structure, "mesh");
    assert_int_equal(st.offset, mesh + 8);
    /* A display list size that is not a multiple of 4. */
    st = corrupt32(&fx.file, mesh + 12, m->meshes[0].dl.size - 2);
    assert_false(st.ok);
    assert_int_equal(st.offset, mesh + 12);
    /* Model size larger than MDL0. */
    st = corrupt32(&fx.file, m->offset, 0x00100000);
    assert_false(st.ok);
    assert_int_equal(st.offset, m->offset);
    /* Render-command offset pointing past the model. */
    st = corrupt32(&fx.file, m->offset + 4, m->size + 4);
    assert_false(st.ok);
    assert_int_equal(st.offset, m->offset + 4);
    /* A render command with a material index out of range: MAT (0x04) at cmds[7]. */
    uint8_t *buf = malloc(fx.file.size);
    memcpy(buf, fx.file.data, fx.file.size);
    buf[m->cmds[7].offset + 1] = 9;
    nitro_file g;
    st = nitro_parse(buf, fx.file.size, &g);
    assert_false(st.ok);
    assert_string_equal(st.structure, "render commands");
    assert_int_equal(st.offset, m->cmds[7].offset + 1);
    /* Unknown render opcode. */
    memcpy(buf, fx.file.data, fx.file.size);
    buf[m->cmds[0].offset] = 0x1E;
    st = nitro_parse(buf, fx.file.size, &g);
    assert_false(st.ok);
    assert_int_equal(st.offset, m->cmds[0].offset);
    /* No RET: replace it with NOP; the list then runs into the material block. */
    memcpy(buf, fx.file.data, fx.file.size);
    buf[m->cmds[m->num_cmds - 1].offset] = 0x00;
    st = nitro_parse(buf, fx.file.size, &g);
    if (st.ok) nitro_file_free(&g);
    /* (the padding bytes after it are NOPs and the block ends: must be an error) */
    assert_false(st.ok);
    /* Dictionary count too large for its block: the model dict count byte (MDL0 + 9). */
    memcpy(buf, fx.file.data, fx.file.size);
    buf[f.sections[0].offset + 9] = 200;
    st = nitro_parse(buf, fx.file.size, &g);
    assert_false(st.ok);
    assert_string_equal(st.structure, "MDL0 model dict");
    /* Texture outside its block: texture 6 param offset bits. */
    const nitro_tex0 *t = f.tex0;
    (void)t;
    free(buf);
    char line[300];
    st = corrupt32(&fx.file, 4, 0);
    nitro_status_format(&st, "x.nsbmd", line, sizeof line);
    assert_string_equal(line, "x.nsbmd: file header at offset 0x4: byte order mark 0x0000, "
                              "expected 0xFEFF");
    nitro_file_free(&f);
    fixture_free(&fx);
}

static void test_noise(void **state)
{
    (void)state;
    /* Pure noise after a valid header: never a crash, never ok with garbage sections. */
    uint8_t buf[600];
    uint32_t x = 12345;
    for (int round = 0; round < 2000; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (uint8_t)(x >> 16);
        }
        memcpy(buf, round & 1 ? "BMD0" : "BTX0", 4);
        buf[4] = 0xFF;
        buf[5] = 0xFE;
        wr32(buf + 8, sizeof buf);
        buf[12] = 16;
        buf[13] = 0;
        buf[14] = 1;
        buf[15] = 0;
        wr32(buf + 16, 20);
        memcpy(buf + 20, round & 2 ? "MDL0" : "TEX0", 4);
        wr32(buf + 24, sizeof buf - 20);
        nitro_file f;
        nitro_status st = nitro_parse(buf, sizeof buf, &f);
        if (st.ok) nitro_file_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_noise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
