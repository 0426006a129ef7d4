/* target.c: the OpenCL C dialect (CB_DIALECT_OPENCL) -- a skeleton.
 *
 * OpenCL C is C with address spaces, work-item built-ins and its own kernel
 * ABI, so this dialect will start from the C dialect's table and override
 * what differs, the way a PoCL device starts from pocl_basic's ops. Nothing
 * is overridden yet; until it is, its unit fails at once, and
 * cb_translate_ptx reports "the OpenCL dialect is not implemented" rather
 * than return C under another name.
 */
#include "codegen/c/c.h"

static void opencl_begin(cg *c)
{
    cg_fail(c, "the OpenCL dialect is not implemented");
}

void cg_target_opencl_init(cg_target *t)
{
    cg_target_c_init(t);
    t->name = "opencl";
    t->begin = opencl_begin;
}
