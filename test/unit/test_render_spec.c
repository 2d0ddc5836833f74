/*
 * test_render_spec.c - render specs (tools/core/render_spec.h, golden/README.md "Render specs"):
 * keys become `dsgx render` options in order, file names are joined to the spec's directory,
 * frame-is chooses --frame or --model, and every malformed line is refused with its line number.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/core/render_spec.h"

static void join(char **argv, int argc, char *out, size_t size)
{
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < argc && o < size; i++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", i ? " " : "", argv[i]);
}

static void test_keys_to_options(void **state)
{
    (void)state;
    const char *text = "# a comment line\n"
                       "dsgx-render 1\n"
                       "file model.nsbmd   # the model\n"
                       "\n"
                       "tex /abs/t.nsbtx\r\n"
                       "anim a.nsbca:swing\n"
                       "model 2\n"
                       "eye 0 0.5 5\n"
                       "at 0 0 -1e-1\n"
                       "fov 30\n"
                       "near 0.5\n"
                       "far 16\n"
                       "clear 28C4\n"
                       "clear-alpha 31\n"
                       "light 0:0,-1,0:FFFFFF\n"
                       "edge\n"
                       "\tfog\n"
                       "aa\n";
    render_spec s = {0};
    char err[256] = "", line[1024];
    assert_int_equal(
        render_spec_parse(&s, "t.render", "golden/x", text, strlen(text), err, sizeof err), 0);
    join(s.argv, s.argc, line, sizeof line);
    assert_string_equal(line, "render golden/x/model.nsbmd --tex /abs/t.nsbtx --anim "
                              "golden/x/a.nsbca:swing --model 2 --eye 0 0.5 5 --at 0 0 -1e-1 "
                              "--fov 30 --near 0.5 --far 16 --clear 28C4 --clear-alpha 31 "
                              "--light 0:0,-1,0:FFFFFF --edge --fog --aa");
    assert_null(s.argv[s.argc]);
    assert_int_equal(s.frame_is, RENDER_SPEC_FRAME_ANIM);
    int argc;
    char **v = render_spec_argv(&s, 7, &argc);
    assert_non_null(v);
    assert_int_equal(argc, s.argc + 2);
    assert_string_equal(v[argc - 2], "--frame");
    assert_string_equal(v[argc - 1], "7");
    assert_null(v[argc]);
    render_spec_argv_free(v);
    render_spec_free(&s);
}

static void test_frame_is_model(void **state)
{
    (void)state;
    const char *text = "dsgx-render 1\nfile m.nsbmd\nframe-is model\n";
    render_spec s = {0};
    char err[256];
    assert_int_equal(render_spec_parse(&s, "t", NULL, text, strlen(text), err, sizeof err), 0);
    assert_string_equal(s.argv[1], "m.nsbmd"); /* no directory: as written */
    int argc;
    char **v = render_spec_argv(&s, 2, &argc);
    assert_string_equal(v[argc - 2], "--model");
    assert_string_equal(v[argc - 1], "2");
    render_spec_argv_free(v);
    render_spec_free(&s);
}

/* A T3DM spec: `anim` names an animation inside the model (passed as it is, wherever the
 * `file` line stands), `tex-dir` is a directory joined like any file name; a Nitro model's
 * `anim` stays a file. */
static void test_t3dm_keys(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"dsgx-render 1\nfile bar.t3dm\nanim wave\ntex-dir sprites\ntex-dir /abs\n",
         "render g/bar.t3dm --anim wave --tex-dir g/sprites --tex-dir /abs"},
        {"dsgx-render 1\nanim 0\nfile sub/bar.t3dm\n", "render --anim 0 g/sub/bar.t3dm"},
        {"dsgx-render 1\nanim wave\nfile bar.nsbmd\n", "render --anim g/wave g/bar.nsbmd"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        render_spec s = {0};
        char err[256] = "", line[512];
        assert_int_equal(render_spec_parse(&s, "t.render", "g", cases[i].text,
                                           strlen(cases[i].text), err, sizeof err),
                         0);
        join(s.argv, s.argc, line, sizeof line);
        assert_string_equal(line, cases[i].want);
        render_spec_free(&s);
    }
    render_spec s = {0};
    char err[256] = "";
    const char *nine = "dsgx-render 1\nfile m.t3dm\ntex-dir a\ntex-dir a\ntex-dir a\ntex-dir "
                       "a\ntex-dir a\ntex-dir a\ntex-dir a\ntex-dir a\ntex-dir a\n";
    assert_int_equal(render_spec_parse(&s, "t", NULL, nine, strlen(nine), err, sizeof err), -1);
    assert_string_equal(err, "t:11: 'tex-dir' given more than 8 times");
    render_spec_free(&s);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"", "t.render:1: missing version line 'dsgx-render 1'"},
        {"file m\n", "t.render:1: missing version line 'dsgx-render 1'"},
        {"dsgx-render 2\n", "t.render:1: missing version line 'dsgx-render 1'"},
        {"dsgx-render 1\n", "t.render:1: no 'file' (the model file to draw)"},
        {"dsgx-render 1\nfile m\nbogus 1\n", "t.render:3: unknown key 'bogus'"},
        {"dsgx-render 1\nfile m\neye 1 2\n", "t.render:3: 'eye' takes 3 values"},
        {"dsgx-render 1\nfile m\neye 1 2 x\n", "t.render:3: 'eye' value 'x': not a number"},
        {"dsgx-render 1\nfile m\nfov 0\n", "t.render:3: 'fov' value '0': must be greater than 0"},
        {"dsgx-render 1\nfile m\nnear 1e9\n",
         "t.render:3: 'near' value '1e9': out of range (|v| < 1000000)"},
        {"dsgx-render 1\nfile m\nclear 8000\n",
         "t.render:3: 'clear' value '8000': not a 15-bit colour (0..7FFF)"},
        {"dsgx-render 1\nfile m\nclear-alpha 32\n",
         "t.render:3: 'clear-alpha' value '32': not in 0..31"},
        {"dsgx-render 1\nfile m\nfile n\n", "t.render:3: 'file' given more than 1 time"},
        {"dsgx-render 1\nfile m\nedge 1\n", "t.render:3: 'edge' takes 0 values"},
        {"dsgx-render 1\nfile m\nframe 3\n",
         "t.render:3: 'frame' is not a spec key: the manifest's frame column gives the frame"},
        {"dsgx-render 1\nfile m\nscale 2\n",
         "t.render:3: 'scale' is not a spec key: golden frames are compared at 256x192"},
        {"dsgx-render 1\nfile m\nframe-is both\n",
         "t.render:3: 'frame-is' takes 'anim' or 'model'"},
        {"dsgx-render 1\nfile m\nmodel 1\nframe-is model\n",
         "t.render:4: 'model' and 'frame-is model' exclude each other"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        render_spec s = {0};
        char err[256] = "";
        assert_int_equal(render_spec_parse(&s, "t.render", "d", cases[i].text,
                                           strlen(cases[i].text), err, sizeof err),
                         -1);
        assert_string_equal(err, cases[i].msg);
        render_spec_free(&s);
    }
}

static void test_limits(void **state)
{
    (void)state;
    /* a NUL inside, too many keys, too many bytes, a long token */
    char err[256];
    render_spec s = {0};
    const char nul[] = "dsgx-render 1\nfile m\0x\n";
    assert_int_equal(render_spec_parse(&s, "t", NULL, nul, sizeof nul - 1, err, sizeof err), -1);
    assert_string_equal(err, "t:2: NUL byte in the text");
    render_spec_free(&s);
    char *big = malloc(RENDER_SPEC_MAX_BYTES + 64);
    assert_non_null(big);
    size_t o = (size_t)sprintf(big, "dsgx-render 1\nfile m\n");
    for (unsigned i = 0; i < RENDER_SPEC_MAX_KEYS; i++)
        o += (size_t)sprintf(big + o, "frame-is anim\n");
    assert_int_equal(render_spec_parse(&s, "t", NULL, big, o, err, sizeof err), -1);
    assert_string_equal(err, "t:66: more than 64 keys"); /* file + 63: the 65th key */
    render_spec_free(&s);
    o = (size_t)sprintf(big, "dsgx-render 1\n");
    for (unsigned i = 0; i <= RENDER_SPEC_MAX_KEYS; i++) o += (size_t)sprintf(big + o, "tex t\n");
    assert_int_equal(render_spec_parse(&s, "t", NULL, big, o, err, sizeof err), -1);
    assert_string_equal(err, "t:8: 'tex' given more than 6 times");
    render_spec_free(&s);
    memset(big, ' ', RENDER_SPEC_MAX_BYTES + 1);
    assert_int_equal(
        render_spec_parse(&s, "t", NULL, big, RENDER_SPEC_MAX_BYTES + 1, err, sizeof err), -1);
    render_spec_free(&s);
    o = (size_t)sprintf(big, "dsgx-render 1\nfile m\nfov ");
    memset(big + o, '1', 100);
    assert_int_equal(render_spec_parse(&s, "t", NULL, big, o + 100, err, sizeof err), -1);
    assert_non_null(strstr(err, "too long"));
    render_spec_free(&s);
    free(big);
}

/* The committed Nitro and T3DM specs parse, and name files that exist beside them. */
static void test_committed_specs(void **state)
{
    (void)state;
    static const char *const specs[] = {"nitro/lit.render", "nitro/multi.render",
                                        "nitro-anim/all.render", "t3dm/animated.render",
                                        "t3dm/textured.render"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/%s", DSGX_GOLDEN_DIR, specs[i]);
        render_spec s = {0};
        assert_int_equal(render_spec_load(&s, path, err, sizeof err), 0);
        FILE *f = fopen(s.argv[1], "rb");
        assert_non_null(f);
        fclose(f);
        assert_int_equal(s.frame_is, i == 1 ? RENDER_SPEC_FRAME_MODEL : RENDER_SPEC_FRAME_ANIM);
        render_spec_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_to_options), cmocka_unit_test(test_frame_is_model),
        cmocka_unit_test(test_errors),          cmocka_unit_test(test_limits),
        cmocka_unit_test(test_committed_specs), cmocka_unit_test(test_t3dm_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
