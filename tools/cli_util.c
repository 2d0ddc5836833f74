/* cli_util.c - see cli_util.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_log(void *user, enum dsgx_log_level level, const char *msg)
{
    (void)user;
    if (level >= DSGX_LOG_WARN) fprintf(stderr, "dsgx: %s\n", msg);
}

int cli_mkdirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    return 0;
}

void cli_stem(const char *path, char *out, unsigned outlen)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, outlen, "%s", b);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

unsigned cli_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (n > 8 ? 8u : (unsigned)n);
}

int cli_parse_threads(const char *cmd, const char *arg, unsigned *out)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || n < 1 || n > 8) {
        fprintf(stderr, "dsgx %s: --threads wants a number from 1 to 8, not '%s'\n", cmd, arg);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}
