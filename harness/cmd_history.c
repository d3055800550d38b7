/* placeholder replaced below */
#include "commands.h"
#include "exitcodes.h"
int mlab_cmd_history(int argc, char **argv)
{
    return MLAB_EXIT_INTERNAL;
}
