/* nvjitlink.c: cubridge's libnvJitLink.so.13, a stand-in for NVIDIA's JIT
 * linker library that keeps PTX instead of compiling it to SASS.
 *
 * Clients such as Numba-CUDA link through nvJitLink (via cuda.core) and
 * load the "cubin" it returns. NVIDIA's nvJitLink turns PTX into SASS,
 * which cubridge cannot run; this library instead returns cubridge's own
 * container (cb_fatbin_make_container) holding every PTX text that was
 * added, and cubridge's libcuda.so.1 loads that container like any image.
 * `cubridge run` puts this library ahead of the toolkit's on
 * LD_LIBRARY_PATH. Inputs without PTX (SASS-only cubins, LTO-IR, host
 * objects) are refused, with the reason in the error log.
 *
 * No process-wide state: everything lives in the handles.
 */
#define NVJITLINK_NO_INLINE 1
#include <nvJitLink.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxlink/ptx_link.h"
#include "fatbin/fatbin.h"

#define NVJL_EXPORT __attribute__((visibility("default")))
#define NVJL_MAGIC 0x4e564a4cu /* "NVJL" */

struct nvJitLink {
    uint32_t magic;
    int lto;           /* -lto was given */
    cb_ptx_link link;  /* .sm from -arch=sm_NN; .image after nvJitLinkComplete */
    char *error_log;   /* malloc'd, NUL-terminated, or NULL */
    char *info_log;
};

/* Appends a line to *log (grown with realloc; a failed growth drops it). */
static void nvjl_append(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void nvjl_append(char **log, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t old = *log ? strlen(*log) : 0, add = strlen(line);
    char *grown = realloc(*log, old + add + 2);
    if (!grown)
        return;
    memcpy(grown + old, line, add);
    grown[old + add] = '\n';
    grown[old + add + 1] = '\0';
    *log = grown;
}

static int nvjl_valid(nvJitLinkHandle h)
{
    return h && h->magic == NVJL_MAGIC;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle *handle, uint32_t numOptions,
                                                    const char *const *options)
{
    if (!handle || (numOptions && !options))
        return NVJITLINK_ERROR_NULL_INPUT;
    nvJitLinkHandle h = calloc(1, sizeof *h);
    if (!h)
        return NVJITLINK_ERROR_INTERNAL;
    h->magic = NVJL_MAGIC;
    for (uint32_t i = 0; i < numOptions; i++) {
        const char *o = options[i];
        if (!o)
            continue;
        if (strncmp(o, "-arch=", 6) == 0)
            h->link.sm = cb_ptx_arch_number(o + 6);
        else if (strcmp(o, "-arch") == 0 && i + 1 < numOptions && options[i + 1])
            h->link.sm = cb_ptx_arch_number(options[++i]);
        else if (strcmp(o, "-lto") == 0)
            h->lto = 1;
        /* every other option steers NVIDIA's code generation: ignored */
    }
    if (h->link.sm <= 0) {
        free(h);
        return NVJITLINK_ERROR_MISSING_ARCH;
    }
    *handle = h;
    return NVJITLINK_SUCCESS;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle *handle)
{
    if (!handle || !nvjl_valid(*handle))
        return NVJITLINK_ERROR_INVALID_INPUT;
    nvJitLinkHandle h = *handle;
    cb_ptx_link_clear(&h->link);
    free(h->error_log);
    free(h->info_log);
    h->magic = 0;
    free(h);
    *handle = NULL;
    return NVJITLINK_SUCCESS;
}

static nvJitLinkResult nvjl_add_ptx(nvJitLinkHandle h, const char *data, size_t size, const char *name)
{
    int target = 0;
    switch (cb_ptx_link_add(&h->link, data, strnlen(data, size), 1, &target)) {
    case CB_PTX_LINK_OK:
        return NVJITLINK_SUCCESS;
    case CB_PTX_LINK_NEWER_TARGET:
        nvjl_append(&h->error_log, "cubridge nvJitLink: %s: PTX .target sm_%d is newer than -arch=sm_%d", name,
                    target, h->link.sm);
        return NVJITLINK_ERROR_ARCH_MISMATCH;
    default:
        return NVJITLINK_ERROR_INTERNAL;
    }
}

static nvJitLinkResult nvjl_add_container(nvJitLinkHandle h, const void *data, size_t size, const char *name)
{
    char err[256] = "";
    cb_fatbin_status st = cb_ptx_link_add_container(&h->link, data, size, err, sizeof err);
    if (st == CB_FATBIN_OK)
        return NVJITLINK_SUCCESS;
    nvjl_append(&h->error_log,
                st == CB_FATBIN_ERR_NO_PTX
                    ? "cubridge nvJitLink: %s: no PTX for sm_%d or any other (%s); cubridge links PTX only, not SASS"
                    : "cubridge nvJitLink: %s: not an image cubridge can link (sm_%d): %s",
                name, h->link.sm, err[0] ? err : "unrecognised");
    return st == CB_FATBIN_ERR_NOMEM ? NVJITLINK_ERROR_INTERNAL : NVJITLINK_ERROR_INVALID_INPUT;
}

/* What NVJITLINK_INPUT_ANY holds: PTX text, or a container. */
static nvJitLinkInputType nvjl_guess(const void *data, size_t size)
{
    const unsigned char *p = data;
    if (size >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F')
        return NVJITLINK_INPUT_CUBIN;
    if (size >= 4 && p[0] == 0x50 && p[1] == 0xED && p[2] == 0x55 && p[3] == 0xBA)
        return NVJITLINK_INPUT_FATBIN;
    if (size >= 2 && p[0] == 'B' && p[1] == 'C')
        return NVJITLINK_INPUT_LTOIR;
    return NVJITLINK_INPUT_PTX;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                                     const void *data, size_t size, const char *name)
{
    if (!nvjl_valid(handle))
        return NVJITLINK_ERROR_INVALID_INPUT;
    if (!data)
        return NVJITLINK_ERROR_NULL_INPUT;
    nvJitLinkHandle h = handle;
    if (!name)
        name = "<input>";
    if (h->link.image) {
        nvjl_append(&h->error_log, "cubridge nvJitLink: %s: the link is already complete", name);
        return NVJITLINK_ERROR_INVALID_INPUT;
    }
    if (inputType == NVJITLINK_INPUT_ANY)
        inputType = nvjl_guess(data, size);
    switch (inputType) {
    case NVJITLINK_INPUT_PTX:
        return nvjl_add_ptx(h, data, size, name);
    case NVJITLINK_INPUT_CUBIN:
    case NVJITLINK_INPUT_FATBIN:
        return nvjl_add_container(h, data, size, name);
    case NVJITLINK_INPUT_LTOIR:
        nvjl_append(&h->error_log,
                    "cubridge nvJitLink: %s: LTO-IR cannot be linked: cubridge translates PTX; "
                    "compile to PTX instead of LTO-IR",
                    name);
        return NVJITLINK_ERROR_INCORRECT_INPUT_TYPE;
    default:
        nvjl_append(&h->error_log,
                    "cubridge nvJitLink: %s: input type %d (host object, library or index) cannot be linked; "
                    "cubridge links PTX only",
                    name, (int)inputType);
        return NVJITLINK_ERROR_UNRECOGNIZED_INPUT;
    }
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                                     const char *fileName)
{
    if (!nvjl_valid(handle))
        return NVJITLINK_ERROR_INVALID_INPUT;
    if (!fileName)
        return NVJITLINK_ERROR_NULL_INPUT;
    FILE *f = fopen(fileName, "rb");
    if (!f) {
        nvjl_append(&handle->error_log, "cubridge nvJitLink: cannot read %s", fileName);
        return NVJITLINK_ERROR_INVALID_INPUT;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536) {
            char *nb = realloc(buf, cap ? cap * 2 : 65536 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return NVJITLINK_ERROR_INTERNAL;
            }
            buf = nb;
            cap = cap ? cap * 2 : 65536 + 1;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    nvJitLinkResult r = __nvJitLinkAddData_13_0(handle, inputType, buf, n, fileName);
    free(buf);
    return r;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle handle)
{
    if (!nvjl_valid(handle))
        return NVJITLINK_ERROR_INVALID_INPUT;
    nvJitLinkHandle h = handle;
    if (h->link.image)
        return NVJITLINK_SUCCESS;
    char err[256] = "";
    switch (cb_ptx_link_complete(&h->link, err, sizeof err)) {
    case CB_PTX_LINK_OK:
        break;
    case CB_PTX_LINK_EMPTY:
        nvjl_append(&h->error_log, "cubridge nvJitLink: nothing to link: no PTX was added");
        return NVJITLINK_ERROR_INVALID_INPUT;
    case CB_PTX_LINK_MERGE:
        nvjl_append(&h->error_log, "cubridge nvJitLink: %s", err);
        return NVJITLINK_ERROR_PTX_COMPILE;
    default:
        return NVJITLINK_ERROR_INTERNAL;
    }
    nvjl_append(&h->info_log, "cubridge nvJitLink: kept %zu PTX module%s for sm_%d (no SASS is generated)",
                h->link.n, h->link.n == 1 ? "" : "s", h->link.sm);
    return NVJITLINK_SUCCESS;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle handle, size_t *size)
{
    if (!nvjl_valid(handle) || !size)
        return NVJITLINK_ERROR_INVALID_INPUT;
    if (!handle->link.image)
        return NVJITLINK_ERROR_INVALID_INPUT;
    *size = handle->link.image_size;
    return NVJITLINK_SUCCESS;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle handle, void *cubin)
{
    if (!nvjl_valid(handle) || !cubin || !handle->link.image)
        return NVJITLINK_ERROR_INVALID_INPUT;
    memcpy(cubin, handle->link.image, handle->link.image_size);
    return NVJITLINK_SUCCESS;
}

/* Linked PTX exists only when the link holds exactly one PTX text: cubridge
 * does not merge several into one. */
static nvJitLinkResult nvjl_single_ptx(nvJitLinkHandle h, const char **out)
{
    if (!h->link.image)
        return NVJITLINK_ERROR_INVALID_INPUT;
    if (h->link.n != 1) {
        nvjl_append(&h->error_log, "cubridge nvJitLink: linked PTX is available for one PTX input only (have %zu)",
                    h->link.n);
        return NVJITLINK_ERROR_INTERNAL;
    }
    *out = h->link.ptx[0];
    return NVJITLINK_SUCCESS;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtxSize_13_0(nvJitLinkHandle handle, size_t *size)
{
    const char *ptx;
    if (!nvjl_valid(handle) || !size)
        return NVJITLINK_ERROR_INVALID_INPUT;
    nvJitLinkResult r = nvjl_single_ptx(handle, &ptx);
    if (r == NVJITLINK_SUCCESS)
        *size = strlen(ptx) + 1;
    return r;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtx_13_0(nvJitLinkHandle handle, char *ptx)
{
    const char *text;
    if (!nvjl_valid(handle) || !ptx)
        return NVJITLINK_ERROR_INVALID_INPUT;
    nvJitLinkResult r = nvjl_single_ptx(handle, &text);
    if (r == NVJITLINK_SUCCESS)
        memcpy(ptx, text, strlen(text) + 1);
    return r;
}

static nvJitLinkResult nvjl_log_size(nvJitLinkHandle h, const char *log, size_t *size)
{
    if (!nvjl_valid(h) || !size)
        return NVJITLINK_ERROR_INVALID_INPUT;
    *size = (log ? strlen(log) : 0) + 1;
    return NVJITLINK_SUCCESS;
}

static nvJitLinkResult nvjl_log_copy(nvJitLinkHandle h, const char *log, char *out)
{
    if (!nvjl_valid(h) || !out)
        return NVJITLINK_ERROR_INVALID_INPUT;
    const char *text = log ? log : "";
    memcpy(out, text, strlen(text) + 1);
    return NVJITLINK_SUCCESS;
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle handle, size_t *size)
{
    return nvjl_log_size(handle, nvjl_valid(handle) ? handle->error_log : NULL, size);
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetErrorLog_13_0(nvJitLinkHandle handle, char *log)
{
    return nvjl_log_copy(handle, nvjl_valid(handle) ? handle->error_log : NULL, log);
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetInfoLogSize_13_0(nvJitLinkHandle handle, size_t *size)
{
    return nvjl_log_size(handle, nvjl_valid(handle) ? handle->info_log : NULL, size);
}

NVJL_EXPORT nvJitLinkResult __nvJitLinkGetInfoLog_13_0(nvJitLinkHandle handle, char *log)
{
    return nvjl_log_copy(handle, nvjl_valid(handle) ? handle->info_log : NULL, log);
}

/* nvJitLinkVersion is deliberately absent. Clients take its presence to
 * mean "nvJitLink 12.3 or newer, with LTO" (numba-cuda then compiles to
 * LTO-IR, which cubridge cannot translate; cuda.core prefers nvJitLink over
 * the driver's cuLink*). Without it they compile to PTX and link with the
 * driver's cuLink* APIs, which cubridge implements (src/driver/api_link.c);
 * this library then only shadows the toolkit's nvJitLink, whose SASS
 * cubridge could not run, and serves programs that call it directly. */

/* ---- the unversioned names (dlsym'd by bindings such as cuda.bindings) ---- */

NVJL_EXPORT nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle, uint32_t numOptions, const char **options);
NVJL_EXPORT nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle, uint32_t numOptions, const char **options)
{
    return __nvJitLinkCreate_13_0(handle, numOptions, options);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *handle);
NVJL_EXPORT nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *handle)
{
    return __nvJitLinkDestroy_13_0(handle);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle handle, nvJitLinkInputType inputType, const void *data,
                                             size_t size, const char *name);
NVJL_EXPORT nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle handle, nvJitLinkInputType inputType, const void *data,
                                             size_t size, const char *name)
{
    return __nvJitLinkAddData_13_0(handle, inputType, data, size, name);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                             const char *fileName);
NVJL_EXPORT nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                             const char *fileName)
{
    return __nvJitLinkAddFile_13_0(handle, inputType, fileName);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle handle);
NVJL_EXPORT nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle handle)
{
    return __nvJitLinkComplete_13_0(handle);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle handle, size_t *size);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle handle, size_t *size)
{
    return __nvJitLinkGetLinkedCubinSize_13_0(handle, size);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle handle, void *cubin);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle handle, void *cubin)
{
    return __nvJitLinkGetLinkedCubin_13_0(handle, cubin);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle handle, size_t *size);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle handle, size_t *size)
{
    return __nvJitLinkGetLinkedPtxSize_13_0(handle, size);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle handle, char *ptx);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle handle, char *ptx)
{
    return __nvJitLinkGetLinkedPtx_13_0(handle, ptx);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle handle, size_t *size);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle handle, size_t *size)
{
    return __nvJitLinkGetErrorLogSize_13_0(handle, size);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle handle, char *log);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle handle, char *log)
{
    return __nvJitLinkGetErrorLog_13_0(handle, log);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle handle, size_t *size);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle handle, size_t *size)
{
    return __nvJitLinkGetInfoLogSize_13_0(handle, size);
}

NVJL_EXPORT nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle handle, char *log);
NVJL_EXPORT nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle handle, char *log)
{
    return __nvJitLinkGetInfoLog_13_0(handle, log);
}
