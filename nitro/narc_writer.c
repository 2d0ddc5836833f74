/*
 * narc_writer.c - NARC archives for fixtures (see narc_writer.h).
 */
#include "nitro/narc_writer.h"

#include <string.h>

bool nitro_write_narc(const nitro_wnarc_file *files, unsigned n, bool names, nitro_buf *out)
{
    if (n > 0xFFFFu) return false;
    for (unsigned i = 0; names && i < n; i++) {
        size_t len = files[i].name ? strlen(files[i].name) : 0;
        if (len == 0 || len > 127 || strchr(files[i].name, '/')) return false;
    }
    nitro_buf_bytes(out, "NARC", 4);
    nitro_buf_u16(out, 0xFFFE);
    nitro_buf_u16(out, 0x0100);
    size_t total_at = out->size;
    nitro_buf_u32(out, 0);
    nitro_buf_u16(out, 16);
    nitro_buf_u16(out, 3);
    /* BTAF: (start, end) of each file relative to the GMIF data, starts 4-byte aligned */
    nitro_buf_bytes(out, "BTAF", 4);
    nitro_buf_u32(out, 12u + 8u * n);
    nitro_buf_u16(out, (uint16_t)n);
    nitro_buf_u16(out, 0);
    uint32_t at = 0;
    for (unsigned i = 0; i < n; i++) {
        nitro_buf_u32(out, at);
        nitro_buf_u32(out, at + files[i].size);
        at = (at + files[i].size + 3u) & ~3u;
    }
    /* BTNF: the root entry (subtable right after it, first file 0, one directory) */
    size_t fnt = out->size;
    nitro_buf_bytes(out, "BTNF", 4);
    nitro_buf_u32(out, 0);
    nitro_buf_u32(out, 8);
    nitro_buf_u16(out, 0);
    nitro_buf_u16(out, 1);
    for (unsigned i = 0; names && i < n; i++) {
        size_t len = strlen(files[i].name);
        nitro_buf_u8(out, (uint8_t)len);
        nitro_buf_bytes(out, files[i].name, len);
    }
    nitro_buf_u8(out, 0);
    nitro_buf_align(out, 4);
    if (!out->oom) nitro_buf_put32(out, fnt + 4, (uint32_t)(out->size - fnt));
    /* GMIF */
    nitro_buf_bytes(out, "GMIF", 4);
    nitro_buf_u32(out, 8u + at);
    for (unsigned i = 0; i < n; i++) {
        nitro_buf_bytes(out, files[i].data, files[i].size);
        nitro_buf_align(out, 4);
    }
    if (!out->oom) nitro_buf_put32(out, total_at, (uint32_t)out->size);
    return !out->oom;
}
