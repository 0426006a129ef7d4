/* globals.c: pass_globals -- slots in cb_module_globals. */
#include "passes/passes.h"

int pass_globals(ptx_module *m, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_global || m->vars[i].space == PTX_SPACE_const)
            m->vars[i].index = n++;
    m->nglobals = n;
    return 0;
}
