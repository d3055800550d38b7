/* env.h: what the run ran on and with, for results files. */
#ifndef MLAB_ENV_H
#define MLAB_ENV_H

#include "results.h" /* mlab_env */

/* Fill the host and program fields of env (version, commit, dirty flag,
 * compilers and flags from build_info.h, host name, CPU model, UTC time,
 * the command line). The device fields are left for mlab_gpu_open. */
void mlab_env_fill_host(mlab_env *env, int argc, char **argv);

#endif
