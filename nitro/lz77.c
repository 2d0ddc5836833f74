/*
 * lz77.c - Nintendo's LZ77 compression as used for files in DS games: type 0x10 (the BIOS
 * LZ77UnComp format) and type 0x11 (the "LZ11" extension with longer matches).
 *
 * Format (GBATEK "BIOS Decompression Functions", LZ77UnComp; LZ11 as documented by DSDecmp /
 * CUE's tools): u32 header = type | decompressed size << 8 (a size of 0 means a second u32
 * holds it). Then groups: one flag byte, 8 blocks MSB first; flag 0 = one literal byte, 1 = a
 * back-reference. Type 0x10 reference: 2 bytes, length (b0 >> 4) + 3, distance
 * ((b0 & 0xF) << 8 | b1) + 1. Type 0x11: b0 >> 4 == 0: 3 bytes, length
 * ((b0 & 0xF) << 4 | b1 >> 4) + 0x11; == 1: 4 bytes, length
 * ((b0 & 0xF) << 12 | b1 << 4 | b2 >> 4) + 0x111; otherwise 2 bytes, length (b0 >> 4) + 1;
 * distance from the last 12 bits + 1. Decompression stops when the output is full.
 * Errors: truncated input, a reference before the start of the output, size above max_out.
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro_internal.h"

bool nitro_lz77_detect(const uint8_t *data, size_t size)
{
    if (size < 5 || (data[0] != 0x10 && data[0] != 0x11)) return false;
    uint32_t out = (uint32_t)data[1] | ((uint32_t)data[2] << 8) | ((uint32_t)data[3] << 16);
    if (out == 0 && size >= 8)
        out = (uint32_t)data[4] | ((uint32_t)data[5] << 8) | ((uint32_t)data[6] << 16) |
              ((uint32_t)data[7] << 24);
    /* a stream cannot expand more than 8 literal-free references of 0x10110 bytes per 9+ bytes */
    return out != 0 && (uint64_t)out <= (uint64_t)size * 0x10110u;
}

static bool copy_ref(nitro_cursor *c, uint8_t *out, size_t *pos, size_t total, size_t dist,
                     size_t len, size_t at)
{
    if (dist > *pos)
        return nitro_cur_fail(c, at, "back-reference %zu bytes before output byte %zu", dist, *pos);
    for (size_t k = 0; k < len && *pos < total; k++, (*pos)++) out[*pos] = out[*pos - dist];
    return true;
}

static bool read_ref(nitro_cursor *c, unsigned type, size_t *len, size_t *dist)
{
    unsigned b0 = nitro_cur_u8(c), b1 = nitro_cur_u8(c);
    if (type == 0x10) {
        *len = (b0 >> 4) + 3u;
        *dist = (((b0 & 0xFu) << 8) | b1) + 1u;
    } else if ((b0 >> 4) == 0) {
        unsigned b2 = nitro_cur_u8(c);
        *len = (((b0 & 0xFu) << 4) | (b1 >> 4)) + 0x11u;
        *dist = (((b1 & 0xFu) << 8) | b2) + 1u;
    } else if ((b0 >> 4) == 1) {
        unsigned b2 = nitro_cur_u8(c), b3 = nitro_cur_u8(c);
        *len = (((b0 & 0xFu) << 12) | (b1 << 4) | (b2 >> 4)) + 0x111u;
        *dist = (((b2 & 0xFu) << 8) | b3) + 1u;
    } else {
        *len = (b0 >> 4) + 1u;
        *dist = (((b0 & 0xFu) << 8) | b1) + 1u;
    }
    return nitro_cur_ok(c);
}

nitro_status nitro_lz77_decompress(const uint8_t *data, size_t size, size_t max_out, uint8_t **out,
                                   size_t *out_size)
{
    nitro_status st = {.ok = true};
    *out = NULL;
    *out_size = 0;
    nitro_cursor c = nitro_cur_make(data, size, &st, "LZ77 header");
    uint32_t head = nitro_cur_u32(&c);
    if (!nitro_cur_ok(&c)) return st;
    unsigned type = head & 0xFFu;
    if (type != 0x10 && type != 0x11) {
        nitro_cur_fail(&c, 0, "compression type 0x%02X is not LZ77 (0x10/0x11)", type);
        return st;
    }
    size_t total = head >> 8;
    if (total == 0) total = nitro_cur_u32(&c);
    if (!nitro_cur_ok(&c)) return st;
    if (total > max_out) {
        nitro_cur_fail(&c, 1, "decompressed size %zu above the limit %zu", total, max_out);
        return st;
    }
    uint8_t *buf = malloc(total ? total : 1);
    if (!buf) {
        nitro_cur_fail(&c, 0, "out of memory");
        return st;
    }
    c.what = "LZ77 stream";
    size_t pos = 0;
    while (pos < total && nitro_cur_ok(&c)) {
        unsigned flags = nitro_cur_u8(&c);
        for (int bit = 7; bit >= 0 && pos < total && nitro_cur_ok(&c); bit--) {
            if (!((flags >> bit) & 1u)) {
                buf[pos++] = nitro_cur_u8(&c);
                continue;
            }
            size_t at = c.pos, len, dist;
            if (read_ref(&c, type, &len, &dist)) copy_ref(&c, buf, &pos, total, dist, len, at);
        }
    }
    if (!nitro_cur_ok(&c)) {
        free(buf);
        return st;
    }
    *out = buf;
    *out_size = total;
    return st;
}
