/* cmd_convert.c - placeholder until the owning work lands; reports that the command is missing. */
#include <stdio.h>

#include "tools/commands.h"

int cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "dsgx convert: not available in this build\n");
    return 2;
}
