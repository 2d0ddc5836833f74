/* cmd_golden.c - placeholder until the owning work lands; reports that the command is missing. */
#include <stdio.h>

#include "tools/commands.h"

int cmd_golden(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "dsgx golden: not available in this build\n");
    return 2;
}
