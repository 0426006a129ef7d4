/* cl_load.c: the OpenCL ICD loader, opened on first use (opencl_internal.h).
 *
 * Process-wide state: the ocl_cl* pointers and `loader` below, written once
 * under loader.once and only read afterwards.
 */
#define OCL_LOADER
#include <stdio.h>
#include <stdlib.h>

#include "backend/opencl/opencl_internal.h"
#include "platform/dl.h"

#define OCL_DEFINE(f) __typeof__(f) *ocl_##f;
OCL_FUNCS(OCL_DEFINE)
#undef OCL_DEFINE
ocl_svm_alloc_fn *ocl_svm_alloc;
ocl_svm_free_fn *ocl_svm_free;
ocl_set_arg_svm_fn *ocl_set_arg_svm;

static struct {
    cb_once once;
    int ok;
    char why[300];
} loader = {.once = CB_ONCE_INIT};

static void load_once(void)
{
    const char *name = getenv("CUBRIDGE_OPENCL_LIB");
    cb_dl *dl = cb_dl_open_system(name && *name ? name : "libOpenCL.so.1", loader.why, sizeof loader.why);
    if (!dl)
        return;   /* kept loaded for the process's life once it opens */
#define OCL_RESOLVE(f)                                                                         \
    if (!(ocl_##f = (__typeof__(f) *)cb_dl_sym(dl, #f))) {                                      \
        snprintf(loader.why, sizeof loader.why, "the OpenCL loader has no %s (OpenCL 1.2 needed)", #f); \
        return;                                                                                \
    }
    OCL_FUNCS(OCL_RESOLVE)
#undef OCL_RESOLVE
    /* all three or none: a loader of OpenCL 1.2 has none, and the backend keeps to heap mode */
    ocl_svm_alloc = (ocl_svm_alloc_fn *)cb_dl_sym(dl, "clSVMAlloc");
    ocl_svm_free = (ocl_svm_free_fn *)cb_dl_sym(dl, "clSVMFree");
    ocl_set_arg_svm = (ocl_set_arg_svm_fn *)cb_dl_sym(dl, "clSetKernelArgSVMPointer");
    if (!ocl_svm_alloc || !ocl_svm_free || !ocl_set_arg_svm)
        ocl_svm_alloc = NULL, ocl_svm_free = NULL, ocl_set_arg_svm = NULL;
    loader.ok = 1;
}

int ocl_load(char *err, size_t errlen)
{
    cb_run_once(&loader.once, load_once);
    if (!loader.ok)
        snprintf(err, errlen, "no OpenCL: %s (Debian: ocl-icd-libopencl1 and a driver, e.g. pocl-opencl-icd)",
                 loader.why);
    return loader.ok ? 0 : -1;
}
