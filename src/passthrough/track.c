/* track.c: the pass-through watches a few calls and forwards each one
 * unchanged. Always: cuInit (the device's name, for the exit summary and
 * the reports) and the allocations (memory in use and its peak, for the
 * summary). In verify mode also what a launch check needs:
 *   allocations   cuMemAlloc*, cuMemAllocManaged, cuMemAllocPitch,
 *                 cuMemAllocAsync, cuMemAllocFromPoolAsync, cuMemFree*,
 *                 cuMemMap / cuMemUnmap (virtual memory mappings)
 *                 (which device memory a kernel's pointer reaches);
 *   images        cuModuleLoadData(Ex), cuModuleLoadFatBinary,
 *                 cuLibraryLoadData (a copy, translated lazily);
 *   kernels       cuModuleGetFunction, cuLibraryGetKernel, cuLibraryGetModule,
 *                 cuKernelGetFunction (handle -> image and kernel name).
 * The maps are process-wide, guarded by track_lock.
 */
#include "passthrough/passthrough_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/module.h"
#include "inspect/inspect.h"

typedef struct alloc_rec {
    uint64_t base;
    size_t counted;           /* bytes counted in use (0 for a mapping) */
    size_t bytes;
} alloc_rec;

typedef struct image_rec {
    const void *key;          /* CUmodule or CUlibrary */
    int image;                /* index into images */
} image_rec;

typedef struct image {
    unsigned char *bytes;     /* owned copy, or NULL for a cudart wrapper (static) */
    const void *wrapper;
    size_t size;
    cb_translation *tr;       /* cubridge's translation, made on first use */
    cb_inspect_reference *reference;   /* ... and its module on the reference backend */
    int tried;
    char note[160];           /* why there is no translation */
} image;

typedef struct kernel_rec {
    const void *handle;       /* CUfunction or CUkernel */
    int image;
    const void *owner;        /* the CUlibrary or CUmodule it came from */
    int owner_is_library;
    char name[1024];          /* mangled names (Numba's) run past 256 */
} kernel_rec;

static cb_mutex track_lock = CB_MUTEX_INIT;
static struct {
    alloc_rec *allocs;
    size_t nallocs, capallocs;
    size_t in_use, peak;      /* bytes allocated (mappings not counted) */
    uint64_t allocations;     /* successful allocation calls */
    char device[256];         /* the real device 0's name, after cuInit */
    image_rec *keys;
    size_t nkeys, capkeys;
    image *images;
    size_t nimages, capimages;
    kernel_rec *kernels;
    size_t nkernels, capkernels;
} track;

/* Grows *arr (of elem bytes, *cap slots) to hold one more. 0, or -1. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *p = realloc(*arr, c * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

/* ---- allocations ---------------------------------------------------------- */

/* Records an allocation (counted: 1) or a mapping of one (0). */
static void alloc_record(CUresult r, const CUdeviceptr *p, size_t bytes, int counted)
{
    if (r != CUDA_SUCCESS || !p || !*p || !bytes)
        return;
    cb_mutex_lock(&track_lock);
    if (grow((void **)&track.allocs, &track.capallocs, track.nallocs, sizeof *track.allocs) == 0)
        track.allocs[track.nallocs++] = (alloc_rec){(uint64_t)*p, counted ? bytes : 0, bytes};
    size_t peak = 0;
    if (counted) {
        track.allocations++;
        track.in_use += bytes;
        if (track.in_use > track.peak)
            track.peak = track.in_use;
        peak = track.peak;
    }
    cb_mutex_unlock(&track_lock);
    if (peak && cb_inspect_active())
        cb_inspect_note_peak_memory(peak);
}

static void alloc_note(CUresult r, const CUdeviceptr *p, size_t bytes) { alloc_record(r, p, bytes, 1); }

static void alloc_forget(CUresult r, CUdeviceptr p)
{
    if (r != CUDA_SUCCESS)
        return;
    cb_mutex_lock(&track_lock);
    for (size_t i = 0; i < track.nallocs; i++) {
        if (track.allocs[i].base == (uint64_t)p) {
            track.in_use -= track.allocs[i].counted;
            track.allocs[i] = track.allocs[--track.nallocs];
            break;
        }
    }
    cb_mutex_unlock(&track_lock);
}

void cbc_memory_stats(uint64_t *allocations, size_t *peak)
{
    cb_mutex_lock(&track_lock);
    *allocations = track.allocations;
    *peak = track.peak;
    cb_mutex_unlock(&track_lock);
}

int cbc_alloc_find(uint64_t addr, uint64_t *base, size_t *bytes)
{
    int found = 0;
    cb_mutex_lock(&track_lock);
    for (size_t i = 0; i < track.nallocs && !found; i++) {
        const alloc_rec *a = &track.allocs[i];
        if (addr >= a->base && addr - a->base < a->bytes) {
            *base = a->base;
            *bytes = a->bytes;
            found = 1;
        }
    }
    cb_mutex_unlock(&track_lock);
    return found;
}

static CUresult cbc_cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    CUresult r = CBC_REAL(cuMemAlloc_v2)(dptr, bytesize);
    alloc_note(r, dptr, bytesize);
    return r;
}

static CUresult cbc_cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    CUresult r = CBC_REAL(cuMemAllocManaged)(dptr, bytesize, flags);
    alloc_note(r, dptr, bytesize);
    return r;
}

static CUresult cbc_cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,
                                       unsigned int elem)
{
    CUresult r = CBC_REAL(cuMemAllocPitch_v2)(dptr, pitch, width, height, elem);
    if (r == CUDA_SUCCESS && pitch)
        alloc_note(r, dptr, *pitch * height);
    return r;
}

static CUresult cbc_cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream s)
{
    CUresult r = CBC_REAL(cuMemAllocAsync)(dptr, bytesize, s);
    alloc_note(r, dptr, bytesize);
    return r;
}

static CUresult cbc_cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream s)
{
    CUresult r = CBC_REAL(cuMemAllocAsync_ptsz)(dptr, bytesize, s);
    alloc_note(r, dptr, bytesize);
    return r;
}

static CUresult cbc_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream s)
{
    CUresult r = CBC_REAL(cuMemAllocFromPoolAsync)(dptr, bytesize, pool, s);
    alloc_note(r, dptr, bytesize);
    return r;
}

static CUresult cbc_cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream s)
{
    CUresult r = CBC_REAL(cuMemAllocFromPoolAsync_ptsz)(dptr, bytesize, pool, s);
    alloc_note(r, dptr, bytesize);
    return r;
}

static CUresult cbc_cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                             unsigned long long flags)
{
    CUresult r = CBC_REAL(cuMemMap)(ptr, size, offset, handle, flags);
    alloc_record(r, &ptr, size, 0);
    return r;
}

static CUresult cbc_cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CUresult r = CBC_REAL(cuMemUnmap)(ptr, size);
    alloc_forget(r, ptr);
    return r;
}

static CUresult cbc_cuMemFree_v2(CUdeviceptr dptr)
{
    CUresult r = CBC_REAL(cuMemFree_v2)(dptr);
    alloc_forget(r, dptr);
    return r;
}

static CUresult cbc_cuMemFreeAsync(CUdeviceptr dptr, CUstream s)
{
    CUresult r = CBC_REAL(cuMemFreeAsync)(dptr, s);
    alloc_forget(r, dptr);
    return r;
}

static CUresult cbc_cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream s)
{
    CUresult r = CBC_REAL(cuMemFreeAsync_ptsz)(dptr, s);
    alloc_forget(r, dptr);
    return r;
}

/* ---- the device ---------------------------------------------------------------- */

/* After the real cuInit: the name of device 0, for the summary and reports. */
static CUresult cbc_cuInit(unsigned int flags)
{
    CUresult r = CBC_REAL(cuInit)(flags);
    CUdevice d = 0;
    char name[256];
    if (r == CUDA_SUCCESS && CBC_REAL(cuDeviceGet) && CBC_REAL(cuDeviceGetName) &&
        CBC_REAL(cuDeviceGet)(&d, 0) == CUDA_SUCCESS &&
        CBC_REAL(cuDeviceGetName)(name, (int)sizeof name, d) == CUDA_SUCCESS) {
        name[sizeof name - 1] = 0;
        cb_mutex_lock(&track_lock);
        snprintf(track.device, sizeof track.device, "%s", name);
        cb_mutex_unlock(&track_lock);
        if (cb_inspect_active())
            cb_inspect_note_device(name);
    }
    return r;
}

void cbc_device_name(char *out, size_t len)
{
    cb_mutex_lock(&track_lock);
    snprintf(out, len, "%s", track.device);
    cb_mutex_unlock(&track_lock);
}

/* ---- images ---------------------------------------------------------------- */

/* A copy of image (fatbin, PTX text), or the cudart wrapper itself (static
 * data of the program). ELF/cubin images have no PTX: noted. */
static image image_capture(const void *p)
{
    image im;
    memset(&im, 0, sizeof im);
    const unsigned char *b = p;
    uint32_t magic;
    memcpy(&magic, b, 4);
    if (magic == 0x466243B1u) {
        im.wrapper = p;
    } else if (magic == 0xBA55ED50u) {
        uint16_t hdr;
        uint64_t files;
        memcpy(&hdr, b + 6, 2);
        memcpy(&files, b + 8, 8);
        im.size = (size_t)hdr + (size_t)files;
    } else if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
        snprintf(im.note, sizeof im.note, "the module was loaded from a cubin (no PTX to translate)");
    } else {
        im.size = strlen((const char *)p) + 1;
    }
    if (im.size) {
        im.bytes = malloc(im.size);
        if (im.bytes)
            memcpy(im.bytes, p, im.size);
        else
            snprintf(im.note, sizeof im.note, "out of memory for the image copy");
    }
    return im;
}

static void image_note(CUresult r, const void *key, const void *code)
{
    if (r != CUDA_SUCCESS || !key || !code)
        return;
    image im = image_capture(code);
    cb_mutex_lock(&track_lock);
    if (grow((void **)&track.images, &track.capimages, track.nimages, sizeof *track.images) == 0 &&
        grow((void **)&track.keys, &track.capkeys, track.nkeys, sizeof *track.keys) == 0) {
        track.images[track.nimages] = im;
        track.keys[track.nkeys++] = (image_rec){key, (int)track.nimages++};
        im.bytes = NULL;
    }
    cb_mutex_unlock(&track_lock);
    free(im.bytes);
}

/* The image of a module or library handle, or -1. Lock held. */
static int image_of(const void *key)
{
    for (size_t i = track.nkeys; i-- > 0;)
        if (track.keys[i].key == key)
            return track.keys[i].image;
    return -1;
}

static void key_alias(CUresult r, const void *key, const void *existing)
{
    if (r != CUDA_SUCCESS || !key)
        return;
    cb_mutex_lock(&track_lock);
    int im = image_of(existing);
    if (im >= 0 && grow((void **)&track.keys, &track.capkeys, track.nkeys, sizeof *track.keys) == 0)
        track.keys[track.nkeys++] = (image_rec){key, im};
    cb_mutex_unlock(&track_lock);
}

static CUresult cbc_cuModuleLoadData(CUmodule *module, const void *image)
{
    CUresult r = CBC_REAL(cuModuleLoadData)(module, image);
    image_note(r, module ? *module : NULL, image);
    return r;
}

static CUresult cbc_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int n, CUjit_option *options,
                                       void **values)
{
    CUresult r = CBC_REAL(cuModuleLoadDataEx)(module, image, n, options, values);
    image_note(r, module ? *module : NULL, image);
    return r;
}

static CUresult cbc_cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    CUresult r = CBC_REAL(cuModuleLoadFatBinary)(module, fatCubin);
    image_note(r, module ? *module : NULL, fatCubin);
    return r;
}

static CUresult cbc_cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                      void **jitOptionsValues, unsigned int numJitOptions,
                                      CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                      unsigned int numLibraryOptions)
{
    CUresult r = CBC_REAL(cuLibraryLoadData)(library, code, jitOptions, jitOptionsValues, numJitOptions,
                                             libraryOptions, libraryOptionValues, numLibraryOptions);
    image_note(r, library ? *library : NULL, code);
    return r;
}

static CUresult cbc_cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    CUresult r = CBC_REAL(cuLibraryGetModule)(pMod, library);
    key_alias(r, pMod ? *pMod : NULL, library);
    return r;
}

/* ---- kernels ------------------------------------------------------------- */

static void kernel_note(CUresult r, const void *handle, const void *owner, int is_library, const char *name)
{
    if (r != CUDA_SUCCESS || !handle || !name)
        return;
    cb_mutex_lock(&track_lock);
    int im = image_of(owner);
    if (im >= 0 && grow((void **)&track.kernels, &track.capkernels, track.nkernels, sizeof *track.kernels) == 0) {
        kernel_rec *k = &track.kernels[track.nkernels++];
        k->handle = handle;
        k->image = im;
        k->owner = owner;
        k->owner_is_library = is_library;
        snprintf(k->name, sizeof k->name, "%s", name);
    }
    cb_mutex_unlock(&track_lock);
}

/* The record of a kernel handle, copied out; 0 if unknown. Lock held. */
static int kernel_find(const void *handle, kernel_rec *out)
{
    for (size_t i = track.nkernels; i-- > 0;) {
        if (track.kernels[i].handle == handle) {
            *out = track.kernels[i];
            return 1;
        }
    }
    return 0;
}

static CUresult cbc_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CUresult r = CBC_REAL(cuModuleGetFunction)(hfunc, hmod, name);
    kernel_note(r, hfunc ? *hfunc : NULL, hmod, 0, name);
    return r;
}

static CUresult cbc_cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    CUresult r = CBC_REAL(cuLibraryGetKernel)(pKernel, library, name);
    kernel_note(r, pKernel ? *pKernel : NULL, library, 1, name);
    return r;
}

static CUresult cbc_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    CUresult r = CBC_REAL(cuKernelGetFunction)(pFunc, kernel);
    if (r != CUDA_SUCCESS || !pFunc || !*pFunc)
        return r;
    cb_mutex_lock(&track_lock);
    kernel_rec k;
    if (kernel_find(kernel, &k) &&
        grow((void **)&track.kernels, &track.capkernels, track.nkernels, sizeof *track.kernels) == 0) {
        k.handle = *pFunc;
        track.kernels[track.nkernels++] = k;
    }
    cb_mutex_unlock(&track_lock);
    return r;
}

/* ---- the reference side ------------------------------------------------------- */

/* The compute capability the reference translates for: CUBRIDGE_SM when set,
 * else the real GPU 0's, so that it translates the PTX the GPU runs. */
static int reference_sm(void)
{
    const char *s = getenv("CUBRIDGE_SM");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 30 && v <= 129)
            return (int)v;
    }
    int major = 0, minor = 0;
    __typeof__(&cuDeviceGetAttribute) attribute = CBC_REAL(cuDeviceGetAttribute); /* NULL if the driver lacks it */
    if (attribute && attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0) == CUDA_SUCCESS &&
        attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0) == CUDA_SUCCESS)
        return major * 10 + minor;
    return 86;
}

/* Translates image i for the reference backend on first use. Lock held. */
static int image_translate(image *im, char *note, size_t notelen)
{
    if (!im->tried) {
        im->tried = 1;
        char msg[200] = "";
        int dialect = im->note[0] ? -1 : cb_inspect_reference_dialect();
        CUresult r = im->note[0] ? CUDA_ERROR_NO_BINARY_FOR_GPU : dialect < 0 ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
        if (r == CUDA_SUCCESS)
            r = cb_module_translate(im->wrapper ? im->wrapper : im->bytes, im->wrapper ? 0 : im->size, reference_sm(),
                                    dialect, "<cuda backend image>", &im->tr, msg, sizeof msg);
        if (r == CUDA_SUCCESS && !(im->reference = cb_inspect_reference_new(im->tr))) {
            cb_translation_free(im->tr);
            im->tr = NULL;
            snprintf(msg, sizeof msg, "out of memory");
        }
        if (!im->tr && !im->note[0])
            snprintf(im->note, sizeof im->note, "no CPU translation of the module: %.120s",
                     msg[0] ? msg : dialect < 0 ? "the reference backend did not start" : "translation failed");
    }
    if (!im->tr)
        snprintf(note, notelen, "%s", im->note);
    return im->tr ? 0 : -1;
}

int cbc_reference_kernel(const void *handle, cbc_reference *out, char *note, size_t notelen)
{
    int rc = -1;
    cb_mutex_lock(&track_lock);
    kernel_rec k;
    if (!kernel_find(handle, &k)) {
        snprintf(note, notelen, "kernel handle %p was not obtained through a watched call", handle);
    } else if (image_translate(&track.images[k.image], note, notelen) == 0) {
        image *im = &track.images[k.image];
        int i = cb_translation_find_kernel(im->tr, k.name);
        if (i < 0) {
            snprintf(note, notelen, "not in the CPU translation: kernel %s", k.name);
        } else {
            out->tr = im->tr;
            out->kernel = (uint32_t)i;
            out->reference = im->reference;
            out->owner = k.owner;
            out->owner_is_library = k.owner_is_library;
            rc = 0;
        }
    }
    cb_mutex_unlock(&track_lock);
    return rc;
}

void cbc_kernel_name(const void *handle, char *out, size_t outlen)
{
    kernel_rec k;
    cb_mutex_lock(&track_lock);
    int known = kernel_find(handle, &k);
    cb_mutex_unlock(&track_lock);
    snprintf(out, outlen, "%s", known ? k.name : "(unknown kernel)");
}

void cbc_globals_in(const cbc_reference *ref)
{
    const cb_translation *tr = ref->tr;
    if (!CBC_REAL(cuLibraryGetGlobal) || !CBC_REAL(cuModuleGetGlobal_v2) || !CBC_REAL(cuMemcpyDtoH_v2))
        return;
    for (uint32_t g = 0; g < tr->nglobals; g++) {
        CUdeviceptr d = 0;
        size_t n = 0;
        const char *name = tr->globals[g].name;
        CUresult r = ref->owner_is_library ? CBC_REAL(cuLibraryGetGlobal)(&d, &n, (CUlibrary)ref->owner, name)
                                           : CBC_REAL(cuModuleGetGlobal_v2)(&d, &n, (CUmodule)ref->owner, name);
        if (r != CUDA_SUCCESS || n != (size_t)tr->globals[g].size)
            continue;
        unsigned char *buf = malloc(n ? n : 1);
        /* an address the loader wrote (vtable, function table, pointer to a
         * global) is the GPU's in buf: the reference keeps its own */
        if (buf && CBC_REAL(cuMemcpyDtoH_v2)(buf, d, n) == CUDA_SUCCESS)
            cb_inspect_reference_set_global(ref->reference, g, buf, n);
        free(buf);
    }
}

/* ---- the hand-out ------------------------------------------------------------ */

/* Watched in every mode: the device's name and the allocations. */
#define CBC_COUNTED(X)                                                                                       \
    X(cuInit) X(cuMemAlloc_v2) X(cuMemAllocManaged) X(cuMemAllocPitch_v2) X(cuMemAllocAsync)               \
    X(cuMemAllocAsync_ptsz) X(cuMemAllocFromPoolAsync) X(cuMemAllocFromPoolAsync_ptsz) X(cuMemFree_v2)     \
    X(cuMemFreeAsync) X(cuMemFreeAsync_ptsz)

/* Watched in verify mode. */
#define CBC_WATCHED(X)                                                                                       \
    X(cuMemMap) X(cuMemUnmap) X(cuModuleLoadData) X(cuModuleLoadDataEx) X(cuModuleLoadFatBinary)             \
    X(cuLibraryLoadData) X(cuLibraryGetModule) X(cuModuleGetFunction) X(cuLibraryGetKernel)                \
    X(cuKernelGetFunction)

/* Process-wide: the entry point the real cuGetProcAddress gave per export
 * (one address per export and process), written atomically. */
static cb_export_fn handed[CB_EXP__COUNT];

cb_export_fn cbc_target(int id)
{
    cb_export_fn f = __atomic_load_n(&handed[id], __ATOMIC_ACQUIRE);
    return f ? f : cb_passthrough_real(id);
}

void *cbc_intercept(int id, void *real)
{
    __atomic_store_n(&handed[id], (cb_export_fn)real, __ATOMIC_RELEASE);
    void *l = cbc_launch_interceptor(id);
    if (l)
        return l;
    switch (id) {
#define CBC_CASE(sym)                                                                                        \
    case CB_EXP_##sym:                                                                                       \
        return (void *)&cbc_##sym;
        CBC_COUNTED(CBC_CASE)
    default:
        break;
    }
    if (!(cb_inspect_flags & CB_INSPECT_VERIFY))
        return real;
    switch (id) {
        CBC_WATCHED(CBC_CASE)
#undef CBC_CASE
    default:
        return real;
    }
}
