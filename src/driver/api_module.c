/* api_module.c: cuModule*, cuLibrary* and cuKernel* entry points.
 *
 * A CUlibrary here is a module loaded into one context: the current one,
 * or device 0's primary context (retained for the library's lifetime) when
 * no context is current. A CUkernel is the module's CUfunction.
 */
#include "driver/driver.h"
#include "driver/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/handles.h"
#include "core/module.h"
#include "platform/sysinfo.h"

/* The current, usable context for a module operation. */
static CUresult module_context(cb_context **out)
{
    CB_REQUIRE_INIT();
    return cb_ctx_require_usable(out);
}

/* CUmodule is a cb_module (core.h). */
static cb_module *module_of(CUmodule h)
{
    return (cb_module *)(void *)h;
}

static CUmodule module_handle_of(cb_module *m)
{
    return (CUmodule)(void *)m;
}

static CUresult module_handle(CUmodule hmod)
{
    CB_REQUIRE_INIT();
    return cb_module_valid(module_of(hmod)) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult module_load_image(CUmodule *module, const void *image, size_t size, const char *name)
{
    cb_context *ctx;
    CUresult r = module_context(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    cb_module *m;
    CUresult r2 = cb_module_load(ctx, image, size, name, &m);
    if (r2 == CUDA_SUCCESS)
        *module = module_handle_of(m);
    return r2;
}

CB_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return module_load_image(module, image, 0, "<module image>");
}

/* Loads image into ctx, reporting to the JIT logs of log (jit.h); the
 * reason for a failure also goes to msg. */
static CUresult module_load_logged(cb_context *ctx, const void *image, const char *name, cb_jit_log *log,
                                   cb_module **out, char *msg, size_t msgcap)
{
    uint64_t t0 = cb_sys_monotonic_ns();
    CUresult r = cb_module_load_msg(ctx, image, 0, name, out, msg, msgcap);
    if (r == CUDA_SUCCESS)
        cb_jit_info(log, cb_module_lazy_loading() ? "%s: registered %u kernels for the %s backend (each is translated "
                                                    "from PTX at its first use)"
                                                  : "%s: translated %u kernels from PTX for the %s backend",
                    name, (*out)->nkernels, ctx->device->backend->name);
    else
        cb_jit_error_text(log, msg[0] ? msg : "the module could not be loaded");
    cb_jit_wall_time(log, (float)(cb_sys_monotonic_ns() - t0) / 1e6f);
    return r;
}

/* JIT options steer NVIDIA's PTX compiler; cubridge's translation has no
 * use for them, so they are accepted and ignored, except the logs and the
 * wall time, which are filled (jit.h). */
CB_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                      CUjit_option *options, void **optionValues)
{
    cb_jit_log log;
    CUresult r = cb_jit_log_init(&log, numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    cb_context *ctx;
    r = module_context(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    cb_module *m;
    char msg[1024];
    r = module_load_logged(ctx, image, "<module image>", &log, &m, msg, sizeof msg);
    if (r == CUDA_SUCCESS)
        *module = module_handle_of(m);
    return r;
}

CB_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return module_load_image(module, fatCubin, 0, "<fatbin>");
}

/* Reads a whole file, NUL-terminated; NULL on failure. */
static char *module_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (cap - n < 65536) {
            size_t ncap = cap ? cap * 2 : 65536 + 1;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

CB_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    cb_context *ctx;
    CUresult r = module_context(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!module || !fname)
        return CUDA_ERROR_INVALID_VALUE;
    size_t len = 0;
    char *image = module_read_file(fname, &len);
    if (!image) {
        cb_log(CB_LOG_ERROR, "cuModuleLoad: cannot read %s", fname);
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    cb_module *m;
    r = cb_module_load(ctx, image, len, fname, &m);
    free(image);
    if (r == CUDA_SUCCESS)
        *module = module_handle_of(m);
    return r;
}

CB_EXPORT CUresult cuModuleUnload(CUmodule hmod)
{
    CUresult r = module_handle(hmod);
    if (r != CUDA_SUCCESS)
        return r;
    cb_ctx_synchronize(module_of(hmod)->ctx);
    cb_module_unload(module_of(hmod));
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CUresult r = module_handle(hmod);
    if (r != CUDA_SUCCESS)
        return r;
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_module_get_function(module_of(hmod), name, hfunc);
}

CB_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    CUresult r = module_handle(hmod);
    if (r != CUDA_SUCCESS)
        return r;
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t addr = 0;
    size_t size = 0;
    r = cb_module_get_global(module_of(hmod), name, &addr, &size);
    if (r != CUDA_SUCCESS)
        return r;
    if (dptr)
        *dptr = (CUdeviceptr)addr;
    if (bytes)
        *bytes = size;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    CUresult r = module_handle(mod);
    if (r != CUDA_SUCCESS)
        return r;
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = module_of(mod)->nkernels;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    CUresult r = module_handle(mod);
    if (r != CUDA_SUCCESS)
        return r;
    if (!functions)
        return CUDA_ERROR_INVALID_VALUE;
    cb_module *m = module_of(mod);
    for (unsigned i = 0; i < numFunctions && i < m->nkernels; i++) {
        r = cb_module_function_at(m, i, &functions[i]);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

/* Lazy unless CUDA_MODULE_LOADING=EAGER (core/module.h). */
CB_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = cb_module_lazy_loading() ? CU_MODULE_LAZY_LOADING : CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

/* ---- libraries ------------------------------------------------------------ */

/* A library: its module (whose owner field points back here) and the
 * primary context it retained. Entered in the core's handle table
 * (core/handles.h), so that handles are checked, not trusted. */
typedef struct library {
    uint32_t magic;
    cb_module *module;
    cb_device *released_primary; /* device whose primary context we retained, or NULL */
} library;

static library *library_find(CUlibrary h)
{
    return cb_handle_live(h, CB_MAGIC_LIBRARY) ? (library *)h : NULL;
}

CB_EXPORT CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jitOptions,
                                     void **jitOptionsValues, unsigned int numJitOptions,
                                     CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                     unsigned int numLibraryOptions)
{
    (void)libraryOptions;
    (void)libraryOptionValues;
    (void)numLibraryOptions;
    CB_REQUIRE_INIT();
    if (!lib || !code)
        return CUDA_ERROR_INVALID_VALUE;
    cb_jit_log log;
    CUresult rl = cb_jit_log_init(&log, numJitOptions, jitOptions, jitOptionsValues);
    if (rl != CUDA_SUCCESS)
        return rl;
    library *l = calloc(1, sizeof *l);
    if (!l)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r == CUDA_ERROR_INVALID_CONTEXT) {
        l->released_primary = cb_device_get(0);
        r = cb_primary_retain(l->released_primary, &ctx);
        if (r != CUDA_SUCCESS)
            l->released_primary = NULL;
    }
    char name[128];
    cb_module_image_name(code, "library image", name, sizeof name);
    if (r == CUDA_SUCCESS) {
        char msg[1024];
        r = module_load_logged(ctx, code, name, &log, &l->module, msg, sizeof msg);
        /* No code for this device: as NVIDIA's lazily loading driver does,
         * the library loads and its kernels fail when used. cudart loads
         * every image of a program this way, and one refusal here made every
         * later runtime call fail (cudaGetDevice included, which CUB turns
         * into "invalid device ordinal"). PTX the translator rejects is
         * the same case: a lazy driver compiles it at first use, so the
         * kernels, not the load, fail (with CUDA_ERROR_INVALID_PTX). */
        if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_PTX)
            r = cb_module_create_unavailable(ctx, name, r, msg, &l->module);
    }
    if (r != CUDA_SUCCESS) {
        if (l->released_primary)
            cb_primary_release(l->released_primary);
        free(l);
        return r;
    }
    l->magic = CB_MAGIC_LIBRARY;
    l->module->owner = l;
    cb_handle_add(l);
    *lib = (CUlibrary)l;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *lib, const char *fileName, CUjit_option *jitOptions,
                                         void **jitOptionsValues, unsigned int numJitOptions,
                                         CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                         unsigned int numLibraryOptions)
{
    CB_REQUIRE_INIT();
    if (!lib || !fileName)
        return CUDA_ERROR_INVALID_VALUE;
    size_t len = 0;
    char *image = module_read_file(fileName, &len);
    if (!image) {
        cb_log(CB_LOG_ERROR, "cuLibraryLoadFromFile: cannot read %s", fileName);
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    CUresult r = cuLibraryLoadData(lib, image, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                                   libraryOptionValues, numLibraryOptions);
    free(image);
    return r;
}

CB_EXPORT CUresult cuLibraryUnload(CUlibrary lib)
{
    CB_REQUIRE_INIT();
    if (!cb_handle_take(lib, CB_MAGIC_LIBRARY))
        return CUDA_ERROR_INVALID_HANDLE;
    library *found = (library *)lib;
    if (cb_module_valid(found->module)) {
        cb_ctx_synchronize(found->module->ctx);
        cb_module_unload(found->module);
    }
    if (found->released_primary)
        cb_primary_release(found->released_primary);
    found->magic = CB_MAGIC_DEAD;
    free(found);
    return CUDA_SUCCESS;
}

/* The live module of a library handle. */
static CUresult library_module(CUlibrary h, cb_module **out)
{
    CB_REQUIRE_INIT();
    library *l = library_find(h);
    if (!l || !cb_module_valid(l->module))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = l->module;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary lib, const char *name)
{
    cb_module *m;
    CUresult r = library_module(lib, &m);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pKernel || !name)
        return CUDA_ERROR_INVALID_VALUE;
    cb_function *f;
    r = cb_module_get_function(m, name, &f);
    if (r == CUDA_SUCCESS)
        *pKernel = (CUkernel)f;
    cb_log(CB_LOG_DEBUG, "cuLibraryGetKernel(%s) -> %d", name, (int)r);
    return r;
}

CB_EXPORT CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary lib)
{
    cb_module *m;
    CUresult r = library_module(lib, &m);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pMod)
        return CUDA_ERROR_INVALID_VALUE;
    *pMod = module_handle_of(m);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name)
{
    cb_module *m;
    CUresult r = library_module(lib, &m);
    if (r != CUDA_SUCCESS)
        return r;
    r = cuModuleGetGlobal_v2(dptr, bytes, module_handle_of(m), name);
    cb_log(CB_LOG_DEBUG, "cuLibraryGetGlobal(%s) -> %d", name ? name : "(null)", (int)r);
    return r;
}

/* A __managed__ variable. On a device whose memory has a host view at its
 * addresses (the CPU's), the global's storage serves as the managed
 * allocation; other devices have none. */
CB_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name)
{
    cb_module *m;
    CUresult r = library_module(lib, &m);
    if (r != CUDA_SUCCESS)
        return r;
    if (!m->ctx->device->info.managed_memory)
        return cb_driver_not_supported("cuLibraryGetManaged", "the device has no managed memory");
    return cuModuleGetGlobal_v2(dptr, bytes, module_handle_of(m), name);
}

CB_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    cb_module *m;
    CUresult r = library_module(lib, &m);
    return r != CUDA_SUCCESS ? r : cuModuleGetFunctionCount(count, module_handle_of(m));
}

CB_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
    cb_module *m;
    CUresult r = library_module(lib, &m);
    return r != CUDA_SUCCESS ? r : cuModuleEnumerateFunctions((CUfunction *)kernels, numKernels, module_handle_of(m));
}

/* ---- kernels ---------------------------------------------------------------- */

CB_EXPORT CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    CB_REQUIRE_INIT();
    if (!pFunc)
        return CUDA_ERROR_INVALID_VALUE;
    if (!cb_function_valid((cb_function *)kernel))
        return CUDA_ERROR_INVALID_HANDLE;
    cb_log(CB_LOG_DEBUG, "cuKernelGetFunction(%s)", ((cb_function *)kernel)->info->name);
    *pFunc = (CUfunction)kernel;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    CB_REQUIRE_INIT();
    if (!cb_device_get(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

CB_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    CB_REQUIRE_INIT();
    if (!cb_device_get(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

CB_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    CB_REQUIRE_INIT();
    if (!cb_device_get(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetCacheConfig((CUfunction)kernel, config);
}

CB_EXPORT CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    return cuFuncGetName(name, (CUfunction)hfunc);
}

CB_EXPORT CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    return cuFuncGetParamInfo((CUfunction)kernel, paramIndex, paramOffset, paramSize);
}

CB_EXPORT CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    CB_REQUIRE_INIT();
    if (!pLib)
        return CUDA_ERROR_INVALID_VALUE;
    cb_function *f = (cb_function *)kernel;
    if (!cb_function_valid(f))
        return CUDA_ERROR_INVALID_HANDLE;
    library *l = f->module->owner;
    if (!library_find((CUlibrary)l))
        return CUDA_ERROR_INVALID_HANDLE;   /* a module loaded without a library */
    *pLib = (CUlibrary)l;
    return CUDA_SUCCESS;
}
