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
/** Rendering threads when none are asked for: the online cores, at most 8. */
unsigned cli_default_threads(void);
/** Parse the value of --threads (1..8) for subcommand @p cmd; prints the error.
 *  @return 0 or -1. */
int cli_parse_threads(const char *cmd, const char *arg, unsigned *out);

#endif
