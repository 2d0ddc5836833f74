/*
 * dsgx_api.h - version macros and the export macros of libdsgx (installed as dsgx/dsgx_api.h).
 *
 * The library is built with hidden visibility: only what the installed headers declare between
 * DSGX_BEGIN_DECLS and DSGX_END_DECLS (or mark DSGX_API) is exported from the shared library.
 * The exported names are listed in cmake/dsgx.symbols and checked by the test
 * cli.package_symbols (README.md "Installing and embedding").
 */
#ifndef DSGX_API_H
#define DSGX_API_H

/* The library version; CMakeLists.txt reads it from here (one place). */
#define DSGX_VERSION_MAJOR 0
#define DSGX_VERSION_MINOR 1
#define DSGX_VERSION_PATCH 0
/** The ABI version: the shared library's soname is libdsgx.so.DSGX_ABI_VERSION. Bumped when an
 *  exported function or a public struct changes incompatibly. */
#define DSGX_ABI_VERSION 0

#define DSGX_STRINGIFY_(x) #x
#define DSGX_STRINGIFY(x)  DSGX_STRINGIFY_(x)
/** "MAJOR.MINOR.PATCH" of the headers. */
#define DSGX_VERSION_STRING                                                                        \
    DSGX_STRINGIFY(DSGX_VERSION_MAJOR)                                                             \
    "." DSGX_STRINGIFY(DSGX_VERSION_MINOR) "." DSGX_STRINGIFY(DSGX_VERSION_PATCH)
/** MAJOR << 16 | MINOR << 8 | PATCH, for comparisons in #if. */
#define DSGX_VERSION_NUMBER                                                                        \
    ((DSGX_VERSION_MAJOR << 16) | (DSGX_VERSION_MINOR << 8) | DSGX_VERSION_PATCH)

/** Marks one declaration as exported. */
#if defined(_WIN32) || defined(__CYGWIN__)
#define DSGX_API
#elif defined(__GNUC__) || defined(__clang__)
#define DSGX_API __attribute__((visibility("default")))
#else
#define DSGX_API
#endif

/** Open and close a block of public declarations: C linkage for C++ callers, and default
 *  visibility for every function declared inside (so a function added to a public header is
 *  exported without further marking). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define DSGX_VISIBILITY_PUSH_ _Pragma("GCC visibility push(default)")
#define DSGX_VISIBILITY_POP_  _Pragma("GCC visibility pop")
#else
#define DSGX_VISIBILITY_PUSH_
#define DSGX_VISIBILITY_POP_
#endif
#ifdef __cplusplus
#define DSGX_BEGIN_DECLS                                                                           \
    extern "C" {                                                                                   \
    DSGX_VISIBILITY_PUSH_
#define DSGX_END_DECLS                                                                             \
    DSGX_VISIBILITY_POP_                                                                           \
    }
#else
#define DSGX_BEGIN_DECLS DSGX_VISIBILITY_PUSH_
#define DSGX_END_DECLS   DSGX_VISIBILITY_POP_
#endif

DSGX_BEGIN_DECLS

/** The library's version string ("0.1.0"); compare with DSGX_VERSION_STRING to detect a
 *  header/library mismatch. Thread-safe. */
const char *dsgx_version(void);
/** The library's DSGX_VERSION_NUMBER. Thread-safe. */
unsigned dsgx_version_number(void);

DSGX_END_DECLS

#endif
