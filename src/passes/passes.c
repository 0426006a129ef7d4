/* passes.c: the pass list (passes.h). */
#include "passes/passes.h"

int cb_passes_run(ptx_module *m, char *err, size_t errlen)
{
    if (pass_kernels(m, err, errlen) < 0)
        return -1;
    if (pass_globals(m, err, errlen) < 0)
        return -1;
    if (pass_reach(m, err, errlen) < 0)
        return -1;
    if (pass_facts(m, err, errlen) < 0)
        return -1;
    if (pass_nan(m, err, errlen) < 0)
        return -1;
    if (pass_shared(m, err, errlen) < 0)
        return -1;
    if (pass_converge(m, err, errlen) < 0)
        return -1;
    if (pass_cfg(m, err, errlen) < 0)
        return -1;
    if (pass_lanes(m, err, errlen) < 0)
        return -1;
    return 0;
}
