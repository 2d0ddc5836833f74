/*
 * line_error.h - the error message of a line-oriented text parser (traces, render specs):
 * "NAME:LINE: reason" into the caller's buffer. Internal to the library (not installed).
 */
#ifndef DSGX_TOOLS_CORE_LINE_ERROR_H
#define DSGX_TOOLS_CORE_LINE_ERROR_H

#include <stddef.h>

/** Format "@p name:@p line: " and the printf-style reason into @p err (nothing when @p err is
 *  NULL or @p errlen 0); returns -1, the parsers' error result. Defined in trace.c. */
int dsgx_line_error(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
