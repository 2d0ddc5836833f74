/*
 * frame.c - canonical frame bytes, XXH3 hash, PNG and raw frame files (specs/frame.md).
 */
#include "raster/frame.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static uint32_t pixel_mask(void)
{
    return 0x1F3F3F3Fu;
}

void dsgx_frame_canonical(const dsgx_frame *f, uint8_t *out)
{
    for (size_t i = 0; i < DSGX_FRAME_PIXELS; i++) {
        uint32_t p = f->px[i] & pixel_mask();
        out[i * 4 + 0] = (uint8_t)p;
        out[i * 4 + 1] = (uint8_t)(p >> 8);
        out[i * 4 + 2] = (uint8_t)(p >> 16);
        out[i * 4 + 3] = (uint8_t)(p >> 24);
    }
}

void dsgx_frame_from_canonical(dsgx_frame *f, const uint8_t *in)
{
    for (size_t i = 0; i < DSGX_FRAME_PIXELS; i++) {
        uint32_t p = (uint32_t)in[i * 4] | ((uint32_t)in[i * 4 + 1] << 8) |
                     ((uint32_t)in[i * 4 + 2] << 16) | ((uint32_t)in[i * 4 + 3] << 24);
        f->px[i] = p & pixel_mask();
    }
}

uint64_t dsgx_frame_hash(const dsgx_frame *f)
{
    static const uint32_t probe = 1;
    if (*(const uint8_t *)&probe == 1) {
        /* little-endian host: the pixel array is the canonical byte string once masked */
        XXH3_state_t st;
        XXH3_64bits_reset(&st);
        uint32_t chunk[1024];
        for (size_t i = 0; i < DSGX_FRAME_PIXELS; i += 1024) {
            for (size_t k = 0; k < 1024; k++) chunk[k] = f->px[i + k] & pixel_mask();
            XXH3_64bits_update(&st, chunk, sizeof chunk);
        }
        return XXH3_64bits_digest(&st);
    }
    uint8_t *bytes = malloc(DSGX_FRAME_BYTES);
    if (!bytes) return 0;
    dsgx_frame_canonical(f, bytes);
    uint64_t h = XXH3_64bits(bytes, DSGX_FRAME_BYTES);
    free(bytes);
    return h;
}

void dsgx_frame_hash_hex(const dsgx_frame *f, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)dsgx_frame_hash(f));
}

static int fail(char *err, size_t errlen, const char *path, const char *why)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, why);
    return -1;
}

/* PNG settings, chosen for speed (bench/README.md "Screenshots"): zlib level 1 and no row
 * filter. On model screenshots and the reference frames this encodes 4-5x faster than libpng's
 * defaults (level 6, adaptive filters) for files ~1.3-1.7x larger; the decoded pixels are the
 * same (PNG is lossless whatever the settings). */
enum { PNG_ZLIB_LEVEL = 1 };

int dsgx_png_write_rgba(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                        char *err, size_t errlen)
{
    FILE *fp = fopen(path, "wb");
    if (!fp) return fail(err, errlen, path, strerror(errno));
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        fclose(fp);
        return fail(err, errlen, path, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(fp);
        return fail(err, errlen, path, "PNG write error");
    }
    png_init_io(png, fp);
    png_set_compression_level(png, PNG_ZLIB_LEVEL);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, rgba + (size_t)y * width * 4);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(fp) != 0) return fail(err, errlen, path, strerror(errno));
    return 0;
}

void dsgx_frame_rgba8(const dsgx_frame *f, uint8_t *out)
{
    static const uint32_t probe = 1;
    if (*(const uint8_t *)&probe == 1) {
        /* little-endian host: the words are the bytes; one store per pixel */
        uint32_t row[DSGX_FRAME_W];
        for (size_t y = 0; y < DSGX_FRAME_H; y++) {
            for (size_t x = 0; x < DSGX_FRAME_W; x++)
                row[x] = dsgx_pixel_rgba8(f->px[y * DSGX_FRAME_W + x]);
            memcpy(out + y * DSGX_FRAME_W * 4, row, sizeof row);
        }
        return;
    }
    for (size_t i = 0; i < DSGX_FRAME_PIXELS; i++) {
        uint32_t v = dsgx_pixel_rgba8(f->px[i]);
        for (unsigned k = 0; k < 4; k++) out[i * 4 + k] = (uint8_t)(v >> (8 * k));
    }
}

int dsgx_frame_write_png(const dsgx_frame *f, const char *path, char *err, size_t errlen)
{
    uint8_t *rgba = malloc(DSGX_FRAME_BYTES);
    if (!rgba) return fail(err, errlen, path, "out of memory");
    dsgx_frame_rgba8(f, rgba);
    int rc = dsgx_png_write_rgba(path, rgba, DSGX_FRAME_W, DSGX_FRAME_H, err, errlen);
    free(rgba);
    return rc;
}

int dsgx_frame_read_png(dsgx_frame *f, const char *path, char *err, size_t errlen)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return fail(err, errlen, path, img.message[0] ? img.message : "not a PNG file");
    if (img.width != DSGX_FRAME_W || img.height != DSGX_FRAME_H) {
        png_image_free(&img);
        return fail(err, errlen, path, "not a 256x192 frame");
    }
    img.format = PNG_FORMAT_RGBA;
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf) {
        png_image_free(&img);
        return fail(err, errlen, path, "out of memory");
    }
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        free(buf);
        return fail(err, errlen, path, img.message);
    }
    for (size_t i = 0; i < DSGX_FRAME_PIXELS; i++) {
        const uint8_t *p = buf + i * 4;
        f->px[i] = dsgx_pixel(p[0] >> 2, p[1] >> 2, p[2] >> 2, p[3] >> 3);
    }
    free(buf);
    return 0;
}

int dsgx_frame_write_raw(const dsgx_frame *f, const char *path, char *err, size_t errlen)
{
    uint8_t *bytes = malloc(DSGX_FRAME_BYTES);
    if (!bytes) return fail(err, errlen, path, "out of memory");
    dsgx_frame_canonical(f, bytes);
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        free(bytes);
        return fail(err, errlen, path, strerror(errno));
    }
    size_t n = fwrite(bytes, 1, DSGX_FRAME_BYTES, fp);
    free(bytes);
    if (fclose(fp) != 0 || n != DSGX_FRAME_BYTES) return fail(err, errlen, path, "write error");
    return 0;
}

int dsgx_frame_load(dsgx_frame *f, const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return fail(err, errlen, path, strerror(errno));
    uint8_t sig[8] = {0};
    size_t n = fread(sig, 1, 8, fp);
    if (n == 8 && !memcmp(sig, "\x89PNG\r\n\x1a\n", 8)) {
        fclose(fp);
        return dsgx_frame_read_png(f, path, err, errlen);
    }
    if (fseek(fp, 0, SEEK_END) != 0 || ftell(fp) != DSGX_FRAME_BYTES) {
        fclose(fp);
        return fail(err, errlen, path, "neither a PNG nor a 196608-byte raw frame");
    }
    rewind(fp);
    uint8_t *bytes = malloc(DSGX_FRAME_BYTES);
    if (!bytes) {
        fclose(fp);
        return fail(err, errlen, path, "out of memory");
    }
    n = fread(bytes, 1, DSGX_FRAME_BYTES, fp);
    fclose(fp);
    if (n != DSGX_FRAME_BYTES) {
        free(bytes);
        return fail(err, errlen, path, "short read");
    }
    dsgx_frame_from_canonical(f, bytes);
    free(bytes);
    return 0;
}

void dsgx_frame_compare(const dsgx_frame *a, const dsgx_frame *b, dsgx_frame_diff *d)
{
    d->differing = 0;
    d->x0 = d->y0 = d->x1 = d->y1 = -1;
    for (int y = 0; y < DSGX_FRAME_H; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            size_t i = (size_t)y * DSGX_FRAME_W + (size_t)x;
            if (((a->px[i] ^ b->px[i]) & pixel_mask()) == 0) continue;
            if (d->differing++ == 0) {
                d->x0 = d->x1 = x;
                d->y0 = d->y1 = y;
            }
            if (x < d->x0) d->x0 = x;
            if (x > d->x1) d->x1 = x;
            if (y > d->y1) d->y1 = y;
        }
    }
}

void dsgx_frame_diff_image(const dsgx_frame *a, const dsgx_frame *b, dsgx_frame *out)
{
    for (size_t i = 0; i < DSGX_FRAME_PIXELS; i++) {
        uint32_t pa = a->px[i], pb = b->px[i];
        uint32_t x = (pa ^ pb) & pixel_mask();
        if (!x) {
            unsigned grey = (dsgx_pixel_r(pa) + dsgx_pixel_g(pa) + dsgx_pixel_b(pa)) / 6;
            out->px[i] = dsgx_pixel(grey, grey, grey, 31);
            continue;
        }
        unsigned r = (x & 0x3Fu) ? 63 : 0, g = (x & 0x3F00u) ? 63 : 0,
                 bl = (x & 0x3F0000u) ? 63 : 0;
        if (!r && !g && !bl) r = g = bl = 63; /* alpha only: white */
        out->px[i] = dsgx_pixel(r, g, bl, 31);
    }
}
