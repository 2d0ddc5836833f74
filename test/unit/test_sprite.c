/*
 * test_sprite.c - the libdragon `.sprite` reader and its DS conversion (t3dm/sprite.h): files
 * from our writer (t3dm/sprite_writer.h) in every format and header version, parsed fields
 * checked against the layout worked out by hand, each conversion checked against texels and
 * palettes computed by hand from the rule in t3dm/sprite.md (q(v, from, to) =
 * (v * to + from / 2) / from after RDP-style widening), and bad input giving an error with its
 * offset. With DSGX_SPRITE_CORPUS=DIR set, also writes the fuzz seed files into DIR; the test
 * checks that the committed seeds are exactly what the writer makes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t3dm/sprite.h"
#include "t3dm/sprite_writer.h"

typedef struct file {
    uint8_t *data;
    size_t size;
} file;

static file make(const t3dm_sprite_spec *spec)
{
    file f;
    assert_int_equal(t3dm_sprite_write(spec, &f.data, &f.size), 0);
    return f;
}

static t3dm_sprite parse_ok(const file *f)
{
    t3dm_sprite s;
    t3dm_sprite_error err;
    int rc = t3dm_sprite_parse(f->data, f->size, &s, &err);
    if (rc != 0) fail_msg("parse failed at 0x%zx: %s", err.offset, err.reason);
    return s;
}

static t3dm_ds_texture convert_ok(const t3dm_sprite *s, const t3dm_ds_options *o)
{
    t3dm_ds_texture t;
    t3dm_sprite_error err;
    int rc = t3dm_sprite_to_ds(s, o, &t, &err);
    if (rc != 0) fail_msg("conversion failed: %s", err.reason);
    return t;
}

static void expect_error(const file *f, size_t offset, const char *needle)
{
    t3dm_sprite s;
    t3dm_sprite_error err;
    assert_int_equal(t3dm_sprite_parse(f->data, f->size, &s, &err), -1);
    if (!strstr(err.reason, needle)) fail_msg("reason \"%s\" lacks \"%s\"", err.reason, needle);
    assert_int_equal(err.offset, offset);
    assert_int_equal(s.width, 0); /* nothing half-filled */
}

static uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* ---- parsing ---- */

static const uint32_t rgba16_2x2[4] = {0xF801, 0x07C1, 0x003F, 0x0000};

static void test_rgba16_v4_layout(void **state)
{
    (void)state;
    t3dm_sprite_spec sp = {.image = {2, 2, rgba16_2x2},
                           .format = T3DM_SPRITE_RGBA16,
                           .hslices = 1,
                           .vslices = 1,
                           .ext_version = 4};
    file f = make(&sp);
    /* 8 header + 8 image = 16 (aligned), ext 124 -> 140, aligned 144 */
    assert_int_equal(f.size, 144);
    static const uint8_t head[16] = {0x00, 0x02, 0x00, 0x02, 0x00, 0x82, 0x01, 0x01,
                                     0xF8, 0x01, 0x07, 0xC1, 0x00, 0x3F, 0x00, 0x00};
    assert_memory_equal(f.data, head, 16);
    assert_int_equal(f.data[16] << 8 | f.data[17], 124); /* ext size */
    assert_int_equal(f.data[19], 4);                     /* ext version */
    t3dm_sprite s = parse_ok(&f);
    assert_int_equal(s.width, 2);
    assert_int_equal(s.height, 2);
    assert_int_equal(s.format, T3DM_SPRITE_RGBA16);
    assert_int_equal(s.bits, 16);
    assert_int_equal(s.flags, 0x82);
    assert_int_equal(s.ext_version, 4);
    assert_false(s.legacy);
    assert_int_equal(s.image.offset, 8);
    assert_int_equal(s.image.stride, 4);
    assert_int_equal(s.lod_count, 0);
    assert_null(s.palette);
    assert_int_equal(t3dm_sprite_texel(&s.image, 1, 0), 0x07C1);
    assert_int_equal(t3dm_sprite_texel(&s.image, 0, 1), 0x003F);
    uint8_t rgba[16];
    assert_int_equal(t3dm_sprite_decode_rgba8(&s, 0, rgba), 0);
    static const uint8_t want[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0};
    assert_memory_equal(rgba, want, 16);
    assert_int_equal(t3dm_sprite_decode_rgba8(&s, 1, rgba), -1); /* no LOD 1 */
    free(f.data);
}

static void test_legacy_and_plain_headers(void **state)
{
    (void)state;
    const uint32_t px = 0x11223344u;
    t3dm_sprite_spec sp = {.image = {1, 1, &px}, .format = T3DM_SPRITE_RGBA32, .legacy = true};
    file f = make(&sp);
    assert_int_equal(f.size, 16); /* 8 + 4, aligned */
    assert_int_equal(f.data[4], 4);
    assert_int_equal(f.data[5], 0);
    t3dm_sprite s = parse_ok(&f);
    assert_true(s.legacy);
    assert_int_equal(s.format, T3DM_SPRITE_RGBA32);
    assert_int_equal(s.ext_version, 0);
    assert_int_equal(t3dm_sprite_texel(&s.image, 0, 0), 0x11223344u);
    f.data[4] = 3; /* bit depth neither 2 nor 4 */
    expect_error(&f, 4, "bit depth");
    free(f.data);

    /* format in the flags byte but no extended header */
    const uint32_t i8 = 200;
    t3dm_sprite_spec sp2 = {.image = {1, 1, &i8}, .format = T3DM_SPRITE_I8};
    f = make(&sp2);
    assert_int_equal(f.data[5], T3DM_SPRITE_I8);
    s = parse_ok(&f);
    assert_int_equal(s.format, T3DM_SPRITE_I8);
    assert_int_equal(s.ext_version, 0);
    free(f.data);
}

static const uint16_t ci4_pal[16] = {0xF801, 0x0000, 0x07C1, 0xFFFF, 0xFFFF, 0xFFFF,
                                     0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
                                     0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
static const uint32_t ci4_4x2[8] = {0, 1, 2, 1, 2, 2, 0, 1};

static void test_ci4_palette_versions(void **state)
{
    (void)state;
    static const unsigned versions[3] = {1, 4, 6};
    static const size_t ext_size[3] = {64, 124, 128};
    for (unsigned k = 0; k < 3; k++) {
        t3dm_sprite_spec sp = {.image = {4, 2, ci4_4x2},
                               .format = T3DM_SPRITE_CI4,
                               .ext_version = versions[k],
                               .palette = ci4_pal,
                               .palette_colors = 16};
        file f = make(&sp);
        static const uint8_t img[4] = {0x01, 0x21, 0x22, 0x01};
        assert_memory_equal(f.data + 8, img, 4);
        /* ext at 16; palette after it, 8-aligned */
        size_t pal = (16 + ext_size[k] + 7) & ~(size_t)7;
        assert_int_equal(f.size, pal + 32);
        t3dm_sprite s = parse_ok(&f);
        assert_int_equal(s.ext_version, versions[k]);
        assert_int_equal(s.palette_offset, pal);
        assert_int_equal(s.palette_colors, 16);
        assert_int_equal(t3dm_sprite_palette_entry(&s, 2), 0x07C1);
        assert_int_equal(t3dm_sprite_texel(&s.image, 1, 0), 1);
        assert_int_equal(t3dm_sprite_texel(&s.image, 2, 1), 0);
        free(f.data);
    }
}

static void test_v1_sixteen_bit_palette_position(void **state)
{
    (void)state;
    t3dm_sprite_spec sp = {.image = {4, 2, ci4_4x2},
                           .format = T3DM_SPRITE_CI4,
                           .ext_version = 1,
                           .palette = ci4_pal,
                           .palette_colors = 16};
    file f = make(&sp);
    /* rewrite the 32-bit position 0x00000050 as the 16-bit field + padding revision */
    assert_int_equal(f.data[16 + 7], 0x50);
    f.data[16 + 4] = 0x00, f.data[16 + 5] = 0x50, f.data[16 + 6] = 0, f.data[16 + 7] = 0;
    t3dm_sprite s = parse_ok(&f);
    assert_int_equal(s.palette_offset, 0x50);
    free(f.data);
}

static void test_lods_and_detail(void **state)
{
    (void)state;
    uint32_t l0[16], l1[4], l2[1] = {0x0001};
    for (unsigned i = 0; i < 16; i++) l0[i] = 0xF801;
    for (unsigned i = 0; i < 4; i++) l1[i] = 0x07C1;
    t3dm_sprite_spec sp = {.image = {4, 4, l0},
                           .format = T3DM_SPRITE_RGBA16,
                           .ext_version = 4,
                           .lod_count = 2,
                           .lods = {{2, 2, l1}, {1, 1, l2}}};
    file f = make(&sp);
    /* 8 + 32 = 40: ext 40..164, aligned 168: LOD1 168..176, LOD2 176..178, end 184 */
    assert_int_equal(f.size, 184);
    t3dm_sprite s = parse_ok(&f);
    assert_int_equal(s.lod_count, 2);
    assert_int_equal(s.ext_flags & 7, 2);
    assert_int_equal(s.lods[0].offset, 168);
    assert_int_equal(s.lods[1].offset, 176);
    assert_int_equal(s.lods[1].width, 1);
    assert_int_equal(t3dm_sprite_texel(&s.lods[0], 1, 1), 0x07C1);
    t3dm_ds_options o = {.level = 1};
    t3dm_ds_texture t = convert_ok(&s, &o);
    assert_int_equal(t.src_width, 2);
    assert_int_equal(le16(t.texels), 0x83E0);
    t3dm_ds_texture_free(&t);
    o.level = 3;
    t3dm_sprite_error err;
    assert_int_equal(t3dm_sprite_to_ds(&s, &o, &t, &err), -1);
    assert_non_null(strstr(err.reason, "level 3"));
    free(f.data);

    /* a detail texture in slot 7 is not counted as a LOD */
    uint32_t d[4] = {1, 1, 1, 1};
    t3dm_sprite_spec sd = sp;
    sd.lod_count = 7;
    for (unsigned i = 2; i < 6; i++) sd.lods[i] = (t3dm_sprite_spec_level){1, 1, l2};
    sd.lods[6] = (t3dm_sprite_spec_level){2, 2, d};
    sd.detail = true;
    f = make(&sd);
    s = parse_ok(&f);
    assert_true(s.has_detail);
    assert_int_equal(s.lod_count, 6);
    assert_int_equal(s.lods[6].width, 2);
    free(f.data);
}

static void test_versions_and_no_data(void **state)
{
    (void)state;
    t3dm_sprite_spec sp = {.image = {2, 2, rgba16_2x2},
                           .format = T3DM_SPRITE_RGBA16,
                           .hslices = 2,
                           .vslices = 3,
                           .ext_version = 4};
    file f = make(&sp);
    f.data[19] = 5; /* v5: same fields as v4 and v6 */
    t3dm_sprite s = parse_ok(&f);
    assert_int_equal(s.ext_version, 5);
    assert_int_equal(s.hslices, 2);
    assert_int_equal(s.vslices, 3);
    f.data[19] = 2;
    expect_error(&f, 18, "version 2 not supported");
    f.data[19] = 3;
    expect_error(&f, 18, "version 3 not supported");
    free(f.data);

    /* flag 0x40 "no data" (v6): the extended header right after the 8-byte header, the pixels
     * at data_ptr. Built by hand: 8 + 128 = 136, pixels at 136..144. */
    uint8_t nd[144] = {0x00, 0x02, 0x00, 0x02, 0x00, 0xC2, 0x01, 0x01, 0x00, 0x80, 0x00, 0x06};
    nd[8 + 124 + 3] = 136;
    static const uint8_t px[8] = {0xF8, 0x01, 0x07, 0xC1, 0x00, 0x3F, 0x00, 0x00};
    memcpy(nd + 136, px, 8);
    f = (file){nd, sizeof nd};
    s = parse_ok(&f);
    assert_int_equal(s.image.offset, 136);
    assert_int_equal(t3dm_sprite_texel(&s.image, 1, 0), 0x07C1);
    nd[8 + 124 + 3] = 100; /* inside the headers */
    expect_error(&f, 132, "data pointer 0x64");
    nd[8 + 124 + 3] = 140; /* runs past the end */
    expect_error(&f, 140, "truncated: image");
    nd[11] = 4; /* v4 has no data pointer */
    expect_error(&f, 5, "needs v6");
    nd[5] = 0x42; /* "no data" without the extended header */
    expect_error(&f, 5, "without an extended header");

    /* a LOD placed inside the headers */
    const uint32_t one = 0x0001;
    t3dm_sprite_spec sl = {.image = {2, 2, rgba16_2x2},
                           .format = T3DM_SPRITE_RGBA16,
                           .ext_version = 4,
                           .lod_count = 1,
                           .lods = {{1, 1, &one}}};
    f = make(&sl);
    f.data[16 + 12 + 3] = 0x20;
    expect_error(&f, 16 + 12, "LOD 1 at 0x20 inside the headers");
    free(f.data);
}

/* ---- conversions (expected values worked out by hand, see t3dm/sprite.md) ---- */

static void test_rgba16_to_direct(void **state)
{
    (void)state;
    t3dm_sprite_spec sp = {
        .image = {2, 2, rgba16_2x2}, .format = T3DM_SPRITE_RGBA16, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_DIRECT);
    assert_int_equal(t.width, 8);
    assert_int_equal(t.height, 8);
    assert_int_equal(t.size_s, 0);
    assert_int_equal(t.texel_bytes, 128);
    assert_null(t.palette);
    assert_false(t.lossy);
    assert_int_equal(le16(t.texels + 0), 0x801F);  /* red */
    assert_int_equal(le16(t.texels + 2), 0x83E0);  /* green */
    assert_int_equal(le16(t.texels + 16), 0xFC00); /* blue, row 1 */
    assert_int_equal(le16(t.texels + 18), 0x0000); /* transparent */
    assert_int_equal(le16(t.texels + 4), 0x0000);  /* padding */
    t3dm_ds_texture_free(&t);
    free(f.data);

    /* every 5-bit value survives the widen-then-round trip exactly */
    uint32_t ramp[32];
    for (unsigned v = 0; v < 32; v++) ramp[v] = (v << 11) | (v << 6) | (v << 1) | 1u;
    t3dm_sprite_spec sr = {.image = {32, 1, ramp}, .format = T3DM_SPRITE_RGBA16, .ext_version = 6};
    f = make(&sr);
    s = parse_ok(&f);
    t = convert_ok(&s, NULL);
    for (unsigned v = 0; v < 32; v++)
        assert_int_equal(le16(t.texels + 2 * v), 0x8000u | v | v << 5 | v << 10);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_ci4_remaps_transparent_colour(void **state)
{
    (void)state;
    t3dm_sprite_spec sp = {.image = {4, 2, ci4_4x2},
                           .format = T3DM_SPRITE_CI4,
                           .ext_version = 4,
                           .palette = ci4_pal,
                           .palette_colors = 16};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_PAL16);
    assert_true(t.color0_transparent);
    assert_int_equal(t.palette_colors, 16);
    /* index 1 (transparent) -> 0, 0 (red) -> 1, 2 (green) -> 2 */
    assert_int_equal(t.palette[0], 0);
    assert_int_equal(t.palette[1], 0x001F);
    assert_int_equal(t.palette[2], 0x03E0);
    assert_int_equal(t.palette[3], 0); /* unused entries dropped */
    static const uint8_t row0[4] = {0x01, 0x02, 0x00, 0x00}, row1[4] = {0x22, 0x01, 0, 0};
    assert_memory_equal(t.texels, row0, 4);
    assert_memory_equal(t.texels + 4, row1, 4);
    assert_false(t.lossy);
    t3dm_ds_texture_free(&t);
    free(f.data);

    /* transparent colour already at index 0: indices kept */
    uint16_t pal[16];
    memcpy(pal, ci4_pal, sizeof pal);
    pal[0] = 0x0000, pal[1] = 0xF801;
    sp.palette = pal;
    f = make(&sp);
    s = parse_ok(&f);
    t = convert_ok(&s, NULL);
    assert_true(t.color0_transparent);
    assert_int_equal(t.palette[1], 0x001F);
    assert_int_equal(t.palette[3], 0x7FFF);
    static const uint8_t keep0[2] = {0x10, 0x12};
    assert_memory_equal(t.texels, keep0, 2);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_ci8_identity(void **state)
{
    (void)state;
    uint16_t pal[256] = {0};
    pal[0] = 0x0001, pal[5] = 0x003F, pal[255] = 0xFFFF;
    const uint32_t px[3] = {0, 5, 255};
    t3dm_sprite_spec sp = {.image = {3, 1, px},
                           .format = T3DM_SPRITE_CI8,
                           .ext_version = 6,
                           .palette = pal,
                           .palette_colors = 256};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    assert_int_equal(s.palette_colors, 256);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_PAL256);
    assert_false(t.color0_transparent);
    static const uint8_t row[4] = {0, 5, 255, 0};
    assert_memory_equal(t.texels, row, 4);
    assert_int_equal(t.palette[5], 0x7C00);
    assert_int_equal(t.palette[255], 0x7FFF);
    assert_int_equal(t.palette[0], 0x0000);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_i4_i8_grey(void **state)
{
    (void)state;
    const uint32_t px[3] = {0, 15, 8};
    t3dm_sprite_spec sp = {.image = {3, 1, px}, .format = T3DM_SPRITE_I4, .ext_version = 4};
    file f = make(&sp);
    assert_int_equal(f.data[8], 0x0F); /* odd row: second byte padded with a zero nibble */
    assert_int_equal(f.data[9], 0x80);
    t3dm_sprite s = parse_ok(&f);
    assert_int_equal(s.image.stride, 2);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_PAL16);
    assert_false(t.color0_transparent);
    assert_int_equal(t.palette[15], 0x7FFF);
    assert_int_equal(t.palette[8], 0x4631); /* 8*17 = 136 -> 17 */
    assert_int_equal(t.texels[0], 0xF0);
    assert_int_equal(t.texels[1], 0x08);
    assert_false(t.lossy);
    t3dm_ds_texture_free(&t);

    /* alpha = intensity: 2 visible greys -> A5I3 */
    t3dm_ds_options o = {.intensity_alpha = true};
    t = convert_ok(&s, &o);
    assert_int_equal(t.format, T3DM_DS_A5I3);
    assert_int_equal(t.palette[0], 0x4631);
    assert_int_equal(t.palette[1], 0x7FFF);
    static const uint8_t a[3] = {0x00, 0xF9, 0x88};
    assert_memory_equal(t.texels, a, 3);
    t3dm_ds_texture_free(&t);
    free(f.data);

    const uint32_t v = 128;
    t3dm_sprite_spec s8 = {.image = {1, 1, &v}, .format = T3DM_SPRITE_I8, .ext_version = 4};
    f = make(&s8);
    s = parse_ok(&f);
    t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_PAL256);
    assert_int_equal(t.texels[0], 128);
    assert_int_equal(t.palette[128], 0x4210); /* (128*31 + 127) / 255 = 16 */
    assert_true(t.lossy);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_ia4_to_pal16(void **state)
{
    (void)state;
    const uint32_t px[2] = {0xF, 0x6}; /* I7 A1, I3 A0 */
    t3dm_sprite_spec sp = {.image = {2, 1, px}, .format = T3DM_SPRITE_IA4, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    uint8_t rgba[8];
    assert_int_equal(t3dm_sprite_decode_rgba8(&s, 0, rgba), 0);
    static const uint8_t want[8] = {255, 255, 255, 255, 109, 109, 109, 0};
    assert_memory_equal(rgba, want, 8);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_PAL16);
    assert_true(t.color0_transparent);
    assert_int_equal(t.palette[8], 0x7FFF);
    assert_int_equal(t.palette[4], 13 | 13 << 5 | 13 << 10); /* 109 -> 13 */
    assert_int_equal(t.texels[0], 0x08);
    assert_false(t.lossy);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_ia8_2x2_to_a5i3(void **state)
{
    (void)state;
    const uint32_t px[4] = {0xF0, 0xFF, 0x08, 0x7F};
    t3dm_sprite_spec sp = {.image = {2, 2, px}, .format = T3DM_SPRITE_IA8, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_A5I3);
    assert_int_equal(t.palette_colors, 8);
    assert_false(t.color0_transparent);
    /* visible greys: I0 -> 0, I7 (119) -> 14, I15 -> 31; ascending */
    assert_int_equal(t.palette[0], 0x0000);
    assert_int_equal(t.palette[1], 0x39CE);
    assert_int_equal(t.palette[2], 0x7FFF);
    assert_int_equal(t.texels[0], 0x00); /* alpha 0 */
    assert_int_equal(t.texels[1], 0xFA); /* alpha 31, grey 2 */
    assert_int_equal(t.texels[8], 0x88); /* A8 = 136 -> 17, grey 0 */
    assert_int_equal(t.texels[9], 0xF9); /* alpha 31, grey 1 */
    assert_false(t.lossy);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_ia8_4x4_to_a3i5(void **state)
{
    (void)state;
    uint32_t px[16];
    for (unsigned i = 0; i < 16; i++) px[i] = i << 4 | i; /* alpha = intensity = i */
    t3dm_sprite_spec sp = {.image = {4, 4, px}, .format = T3DM_SPRITE_IA8, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_A3I5);
    assert_int_equal(t.palette_colors, 32);
    /* 15 visible greys (I1..I15) -> 2,4,6,8,10,12,14,17,19,21,23,25,27,29,31 */
    static const unsigned g5[15] = {2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31};
    for (unsigned i = 0; i < 15; i++) assert_int_equal(t.palette[i], g5[i] * 0x421u);
    assert_int_equal(t.palette[15], 0);
    /* alpha level (119 i + 127) / 255 in bits 5-7, palette index i - 1 in bits 0-4 */
    static const uint8_t want[16] = {0x00, 0x00, 0x21, 0x22, 0x43, 0x44, 0x65, 0x66,
                                     0x87, 0x88, 0xA9, 0xAA, 0xCB, 0xCC, 0xED, 0xEE};
    for (unsigned i = 0; i < 16; i++) assert_int_equal(t.texels[(i / 4) * 8 + i % 4], want[i]);
    assert_true(t.lossy);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_ia16(void **state)
{
    (void)state;
    const uint32_t px[2] = {0xFF80, 0x40FF};
    t3dm_sprite_spec sp = {.image = {2, 1, px}, .format = T3DM_SPRITE_IA16, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_A5I3);
    assert_int_equal(t.palette[0], 0x2108); /* 64 -> 8 */
    assert_int_equal(t.palette[1], 0x7FFF);
    assert_int_equal(t.texels[0], 0x81); /* alpha 128 -> 16, grey 1 */
    assert_int_equal(t.texels[1], 0xF8);
    assert_true(t.lossy);
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_rgba32_paths(void **state)
{
    (void)state;
    const uint32_t bin[2] = {0xFF0000FFu, 0x00000000u};
    t3dm_sprite_spec sp = {.image = {2, 1, bin}, .format = T3DM_SPRITE_RGBA32, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_texture t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_DIRECT);
    assert_int_equal(le16(t.texels), 0x801F);
    assert_int_equal(le16(t.texels + 2), 0);
    t3dm_ds_texture_free(&t);
    free(f.data);

    const uint32_t graded[3] = {0xFF000080u, 0x00FF00FFu, 0x0000FF40u};
    sp.image = (t3dm_sprite_spec_level){3, 1, graded};
    f = make(&sp);
    s = parse_ok(&f);
    t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_A5I3);
    assert_int_equal(t.palette[0], 0x001F);
    assert_int_equal(t.palette[1], 0x03E0);
    assert_int_equal(t.palette[2], 0x7C00);
    static const uint8_t want[3] = {0x80, 0xF9, 0x42};
    assert_memory_equal(t.texels, want, 3);
    t3dm_ds_texture_free(&t);
    free(f.data);

    /* graded alpha with more than 32 colours: direct colour, alpha by threshold */
    uint32_t many[64];
    for (unsigned i = 0; i < 64; i++) { /* 64 distinct RGB15 colours, alpha 200 */
        unsigned k = i & 31u, r = (k << 3) | (k >> 2), g = (i >> 5) ? 255u : 0u;
        many[i] = r << 24 | g << 16 | 200u;
    }
    many[1] = 127u; /* black, alpha 127 */
    sp.image = (t3dm_sprite_spec_level){64, 1, many};
    f = make(&sp);
    s = parse_ok(&f);
    t = convert_ok(&s, NULL);
    assert_int_equal(t.format, T3DM_DS_DIRECT);
    assert_int_equal(t.width, 64);
    assert_int_equal(le16(t.texels + 2 * 2), 0x8002u);  /* R 16 -> 2, alpha 200 >= 128 */
    assert_int_equal(le16(t.texels + 2 * 1), 0x0000u);  /* alpha 127 < 128 */
    assert_int_equal(le16(t.texels + 2 * 63), 0x83FFu); /* R 255 G 255 */
    t3dm_ds_texture_free(&t);
    t3dm_ds_options o = {.alpha_threshold = 201};
    t = convert_ok(&s, &o);
    assert_int_equal(le16(t.texels + 2 * 2), 0x0002u); /* now transparent */
    t3dm_ds_texture_free(&t);
    free(f.data);
}

static void test_resize(void **state)
{
    (void)state;
    const uint32_t px[3] = {0xF801, 0x07C1, 0x003F}; /* red green blue */
    t3dm_sprite_spec sp = {.image = {3, 1, px}, .format = T3DM_SPRITE_RGBA16, .ext_version = 4};
    file f = make(&sp);
    t3dm_sprite s = parse_ok(&f);
    t3dm_ds_options o = {.resize = T3DM_DS_SCALE};
    t3dm_ds_texture t = convert_ok(&s, &o);
    /* sx = ((2 dx + 1) * 3) / 16: 0 0 0 1 1 2 2 2, every row the same */
    static const uint16_t want[8] = {0x801F, 0x801F, 0x801F, 0x83E0,
                                     0x83E0, 0xFC00, 0xFC00, 0xFC00};
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) assert_int_equal(le16(t.texels + 16 * y + 2 * x), want[x]);
    t3dm_ds_texture_free(&t);
    free(f.data);

    uint32_t *wide = calloc(1025, sizeof *wide);
    sp.image = (t3dm_sprite_spec_level){1025, 1, wide};
    f = make(&sp);
    s = parse_ok(&f);
    t3dm_sprite_error err;
    assert_int_equal(t3dm_sprite_to_ds(&s, NULL, &t, &err), -1);
    assert_non_null(strstr(err.reason, "1024"));
    assert_null(t.texels);
    free(f.data);
    sp.image = (t3dm_sprite_spec_level){1024, 1, wide};
    f = make(&sp);
    s = parse_ok(&f);
    t = convert_ok(&s, NULL);
    assert_int_equal(t.width, 1024);
    assert_int_equal(t.size_s, 7);
    assert_int_equal(t.height, 8);
    t3dm_ds_texture_free(&t);
    free(f.data);
    free(wide);
}

static void test_teximage_param(void **state)
{
    (void)state;
    t3dm_ds_texture t = {.format = T3DM_DS_PAL16,
                         .width = 16,
                         .height = 8,
                         .size_s = 1,
                         .size_t_ = 0,
                         .color0_transparent = true};
    /* 0x1000 / 8 = 0x200; repeat S bit 16, flip T bit 19, size S 1 << 20, format 3 << 26,
     * colour 0 bit 29, texgen 1 << 30 */
    assert_int_equal(t3dm_ds_teximage_param(&t, 0x1000, true, false, false, true, 1),
                     0x200u + 0x10000u + 0x80000u + 0x100000u + 0x0C000000u + 0x20000000u +
                         0x40000000u);
    assert_int_equal(t3dm_ds_pltt_base(&t, 0x60), 0x6);
    t.format = T3DM_DS_PAL4;
    assert_int_equal(t3dm_ds_pltt_base(&t, 0x60), 0xC);
}

/* ---- bad input ---- */

static void test_errors(void **state)
{
    (void)state;
    t3dm_sprite_spec sp = {.image = {4, 2, ci4_4x2},
                           .format = T3DM_SPRITE_CI4,
                           .ext_version = 4,
                           .palette = ci4_pal,
                           .palette_colors = 16};
    file f = make(&sp);
    uint8_t *keep = malloc(f.size);
    memcpy(keep, f.data, f.size);
    size_t ext = 16, pal = (16 + 124 + 7) & ~(size_t)7;

    f.data[5] = 0x85; /* format 5: no such code */
    expect_error(&f, 5, "unsupported texture format 5");
    f.data[5] = 0x86; /* YUV16 */
    expect_error(&f, 5, "YUV16");
    memcpy(f.data, keep, f.size);
    f.data[0] = f.data[1] = 0;
    expect_error(&f, 0, "size 0x2");
    memcpy(f.data, keep, f.size);
    f.data[0] = 0x40; /* width 0x4004: the image needs more than the file holds */
    expect_error(&f, 8, "truncated");
    memcpy(f.data, keep, f.size);
    f.data[ext + 3] = 7;
    expect_error(&f, ext + 2, "version 7");
    memcpy(f.data, keep, f.size);
    f.data[ext + 1] = 60; /* declared size below what v4 holds */
    expect_error(&f, ext, "size 60");
    memcpy(f.data, keep, f.size);
    memset(f.data + ext + 4, 0, 4); /* palette position 0 */
    expect_error(&f, ext + 4, "without a palette");
    memcpy(f.data, keep, f.size);
    f.data[ext + 7] = 0x20; /* palette inside the headers */
    expect_error(&f, ext + 4, "palette position 0x20");
    memcpy(f.data, keep, f.size);
    f.size = pal + 4; /* two palette entries left: index 2 has no colour */
    expect_error(&f, 9, "uses colour 2, palette has 2");
    f.size = pal + 32;
    memcpy(f.data, keep, f.size);
    f.data[ext + 8 + 1] = 2, f.data[ext + 8 + 3] = 2; /* LOD 1 2x2 at 0xFFFF */
    f.data[ext + 12] = T3DM_SPRITE_CI4, f.data[ext + 14] = 0xFF, f.data[ext + 15] = 0xFF;
    expect_error(&f, f.size, "LOD 1");
    memcpy(f.data, keep, f.size);
    f.data[ext + 12] = 0x1F, f.data[ext + 8 + 1] = 2; /* LOD with a bad format */
    expect_error(&f, ext + 8, "LOD 1: unsupported texture format 31");
    free(f.data);

    file g = {(uint8_t *)"DCA3\0\0\0\0", 8};
    expect_error(&g, 0, "compressed");
    g = (file){(uint8_t *)"LSPR\0\0\0\0", 8};
    expect_error(&g, 0, "lossy");
    g = (file){(uint8_t *)"\0\0\0\0BC1Q", 8};
    expect_error(&g, 4, "lossy");
    g = (file){NULL, 0};
    expect_error(&g, 0, "truncated");

    /* CI without any extended header: no palette */
    t3dm_sprite_spec np = sp;
    np.ext_version = 0;
    f = make(&np);
    expect_error(&f, 5, "no palette");
    free(f.data);

    /* every truncation fails with an offset inside the cut file, or parses consistently */
    f.data = malloc(pal + 32);
    memcpy(f.data, keep, pal + 32);
    for (size_t len = 0; len < pal + 32; len++) {
        t3dm_sprite s;
        t3dm_sprite_error err;
        int rc = t3dm_sprite_parse(f.data, len, &s, &err);
        if (len < pal + 6) { /* indices 0..2 need three palette entries */
            assert_int_equal(rc, -1);
            assert_true(err.offset <= len);
            assert_true(err.reason[0] != 0);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(s.palette_colors, (len - pal) / 2);
        }
    }
    free(f.data);
    free(keep);
    char msg[200];
    t3dm_sprite_error e = {0x2a, "why"};
    t3dm_sprite_error_format(&e, "tex.ci4.sprite", msg, sizeof msg);
    assert_string_equal(msg, "tex.ci4.sprite: sprite at offset 0x2A: why");
}

/* ---- the fuzz seeds: one file per format and header kind, from the writer ---- */

static file seed(unsigned n, char *name, size_t name_size)
{
    static const uint32_t rgba32[4] = {0xFF000080u, 0x00FF00FFu, 0x0000FF40u, 0u};
    static const uint32_t ia[4] = {0x0F, 0x7A, 0x33, 0xF0};
    static const uint32_t lod1[1] = {0xF801};
    uint16_t pal256[256];
    for (unsigned i = 0; i < 256; i++) pal256[i] = (uint16_t)(i * 0x0101u | 1u);
    t3dm_sprite_spec sp = {.image = {2, 2, ia}, .ext_version = 4, .hslices = 1, .vslices = 1};
    switch (n) {
    case 0: sp.format = T3DM_SPRITE_RGBA16, sp.image.texels = rgba16_2x2; break;
    case 1: sp.format = T3DM_SPRITE_RGBA32, sp.image.texels = rgba32, sp.ext_version = 6; break;
    case 2:
        sp.format = T3DM_SPRITE_CI4, sp.image = (t3dm_sprite_spec_level){4, 2, ci4_4x2};
        sp.palette = ci4_pal, sp.palette_colors = 16;
        break;
    case 3:
        sp.format = T3DM_SPRITE_CI8, sp.image = (t3dm_sprite_spec_level){4, 2, ci4_4x2};
        sp.palette = pal256, sp.palette_colors = 256, sp.ext_version = 6;
        break;
    case 4: sp.format = T3DM_SPRITE_I4; break;
    case 5: sp.format = T3DM_SPRITE_I8; break;
    case 6: sp.format = T3DM_SPRITE_IA4; break;
    case 7: sp.format = T3DM_SPRITE_IA8; break;
    case 8: sp.format = T3DM_SPRITE_IA16, sp.image.texels = rgba16_2x2; break;
    case 9:
        sp.format = T3DM_SPRITE_RGBA16, sp.image.texels = rgba16_2x2, sp.lod_count = 1;
        sp.lods[0] = (t3dm_sprite_spec_level){1, 1, lod1};
        break;
    case 10:
        sp.format = T3DM_SPRITE_RGBA32, sp.image.texels = rgba32, sp.ext_version = 0;
        sp.legacy = true;
        break;
    default:
        sp.format = T3DM_SPRITE_CI4, sp.image = (t3dm_sprite_spec_level){4, 2, ci4_4x2};
        sp.palette = ci4_pal, sp.palette_colors = 16, sp.ext_version = 1;
        break;
    }
    static const char *names[12] = {"rgba16", "rgba32_v6",  "ci4",           "ci8_v6",
                                    "i4",     "i8",         "ia4",           "ia8",
                                    "ia16",   "rgba16_lod", "rgba32_legacy", "ci4_v1"};
    snprintf(name, name_size, "%s.sprite", names[n]);
    return make(&sp);
}

static void test_seed_corpus(void **state)
{
    (void)state;
    const char *out = getenv("DSGX_SPRITE_CORPUS");
    for (unsigned n = 0; n < 12; n++) {
        char name[64], path[512];
        file f = seed(n, name, sizeof name);
        t3dm_sprite s = parse_ok(&f);
        t3dm_ds_texture t = convert_ok(&s, NULL);
        t3dm_ds_texture_free(&t);
        if (out) {
            snprintf(path, sizeof path, "%s/%s", out, name);
            FILE *w = fopen(path, "wb");
            assert_non_null(w);
            assert_int_equal(fwrite(f.data, 1, f.size, w), f.size);
            fclose(w);
        }
        snprintf(path, sizeof path, "%s/../fuzz/corpus/fuzz_sprite/%s", DSGX_TEST_DATA, name);
        FILE *r = fopen(path, "rb");
        if (!r) fail_msg("missing seed %s", path);
        uint8_t *buf = malloc(f.size + 1);
        size_t got = fread(buf, 1, f.size + 1, r);
        fclose(r);
        assert_int_equal(got, f.size);
        assert_memory_equal(buf, f.data, f.size);
        free(buf);
        free(f.data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rgba16_v4_layout),
        cmocka_unit_test(test_legacy_and_plain_headers),
        cmocka_unit_test(test_ci4_palette_versions),
        cmocka_unit_test(test_v1_sixteen_bit_palette_position),
        cmocka_unit_test(test_lods_and_detail),
        cmocka_unit_test(test_versions_and_no_data),
        cmocka_unit_test(test_rgba16_to_direct),
        cmocka_unit_test(test_ci4_remaps_transparent_colour),
        cmocka_unit_test(test_ci8_identity),
        cmocka_unit_test(test_i4_i8_grey),
        cmocka_unit_test(test_ia4_to_pal16),
        cmocka_unit_test(test_ia8_2x2_to_a5i3),
        cmocka_unit_test(test_ia8_4x4_to_a3i5),
        cmocka_unit_test(test_ia16),
        cmocka_unit_test(test_rgba32_paths),
        cmocka_unit_test(test_resize),
        cmocka_unit_test(test_teximage_param),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_seed_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
