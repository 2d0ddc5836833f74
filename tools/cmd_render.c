/* cmd_render.c - placeholder until the owning work lands; reports that the command is missing. */
#include <stdio.h>

#include "tools/commands.h"

int cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "dsgx render: not available in this build\n");
    return 2;
}
