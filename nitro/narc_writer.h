/*
 * narc_writer.h - builds NARC archives (NitroARC) for test fixtures: one root directory, files
 * in order, with or without names. Layout as nitro/narc.c reads it (GBATEK "DS Cartridge
 * NitroROM and NitroARC File Systems"): header, BTAF, BTNF, GMIF; file data 4-byte aligned.
 */
#ifndef DSGX_NITRO_NARC_WRITER_H
#define DSGX_NITRO_NARC_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "nitro/writer.h"

typedef struct nitro_wnarc_file {
    const char *name; /**< 1..127 bytes, no '/'; ignored when the archive has no names */
    const uint8_t *data;
    uint32_t size;
} nitro_wnarc_file;

/** Write an archive of n files (names when `names`) into out, which must be empty (the data
 *  alignment counts from its start). @return false on a bad name or out of memory (out->oom). */
bool nitro_write_narc(const nitro_wnarc_file *files, unsigned n, bool names, nitro_buf *out);

#endif
