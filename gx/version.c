/* version.c - dsgx_version(): the version the library was built with (dsgx_api.h). */
#include "dsgx_api.h"

const char *dsgx_version(void)
{
    return DSGX_VERSION_STRING;
}

unsigned dsgx_version_number(void)
{
    return DSGX_VERSION_NUMBER;
}
