/* cmd_info.c - placeholder until the owning work lands; reports that the command is missing. */
#include <stdio.h>

#include "tools/commands.h"

int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "dsgx info: not available in this build\n");
    return 2;
}
