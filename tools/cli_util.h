/* cli_util.h - small helpers shared by the subcommands (logging to stderr, paths). */
#ifndef DSGX_CLI_UTIL_H
#define DSGX_CLI_UTIL_H

#include <stdbool.h>

#include "gx/gx.h"

/** Log callback printing warnings and errors to stderr, prefixed with "dsgx: ". */
void cli_log(void *user, enum dsgx_log_level level, const char *msg);
/** mkdir -p. @return 0 or -1. */
int cli_mkdirs(const char *path);
/** Base name of a path without directory and extension, into out. */
void cli_stem(const char *path, char *out, unsigned outlen);

#endif
