/* fatbin.h: NVIDIA's fatbin containers, read safely.
 *
 * Input is whatever an application hands the driver as a "fat binary" or
 * module image:
 *   - a fatbin wrapper  {u32 magic 0x466243B1, u32 version, ptr data, ptr ...}
 *     (version 1: data is a fatbin; version 2: also a NULL-terminated array
 *     of prelinked fatbins),
 *   - a fatbin          {u32 magic 0xBA55ED50, u16 version, u16 header_size, u64 files_size},
 *   - NUL-terminated PTX text,
 *   - an ELF cubin (SASS only: cannot be run, reported as such),
 *   - cubridge's own linker container (see cb_fatbin_make_container).
 * The parser checks every size against its container and never reads past
 * a bound it can know. A corrupt container is an error code, never a crash.
 */
#ifndef CB_FATBIN_H
#define CB_FATBIN_H

#include <stddef.h>
#include <stdint.h>

typedef enum cb_fatbin_status {
    CB_FATBIN_OK = 0,
    CB_FATBIN_ERR_INVALID = 1,      /* not a container we know, or corrupt  -> CUDA_ERROR_INVALID_IMAGE */
    CB_FATBIN_ERR_NO_PTX = 2,       /* valid, but holds no PTX (SASS only)  -> CUDA_ERROR_NO_BINARY_FOR_GPU */
    CB_FATBIN_ERR_DECOMPRESS = 3,   /* a payload failed to decompress       -> CUDA_ERROR_INVALID_IMAGE */
    CB_FATBIN_ERR_NOMEM = 4,        /*                                      -> CUDA_ERROR_OUT_OF_MEMORY */
} cb_fatbin_status;

/* What a container held, for messages and the inspector. */
typedef struct cb_fatbin_summary {
    uint32_t n_fatbins;        /* fatbins seen (a v2 wrapper can hold several) */
    uint32_t n_ptx;            /* PTX entries */
    uint32_t n_elf;            /* SASS/ELF entries (not runnable) */
    uint32_t n_other;          /* entries of other kinds */
    uint32_t chosen_sm;        /* the sm of the chosen PTX entry, 0 if none */
    uint32_t chosen_above;     /* 1 if a chosen PTX is for an sm above device_sm (no PTX at or below) */
    uint32_t chosen_ptx_version; /* major*0x10000+minor as stored, 0 if none */
    uint32_t compressed;       /* 0 none, 1 LZ4, 2 zstd: how the chosen entry was stored */
    uint32_t sms_elf[16];      /* the sm of up to 16 ELF entries */
} cb_fatbin_summary;

/* Extracts the best PTX from image: the highest sm at or below device_sm
 * (e.g. 86 for compute capability 8.6); if none is at or below, the lowest
 * one above (the CPU runs any PTX the translator knows; summary->chosen_above
 * says so). CB_FATBIN_ERR_NO_PTX only when there is no PTX at all.
 * size is the number of readable bytes at image, or 0 when unknown (a
 * wrapper handed over by cudart; the container's own sizes bound the read).
 * On success *ptx_out is a malloc'd NUL-terminated string (free() it) and
 * *len_out its length without the NUL. summary may be NULL. On failure err
 * (may be NULL) gets a one-line reason. */
cb_fatbin_status cb_fatbin_extract_ptx(const void *image, size_t size, uint32_t device_sm, char **ptx_out,
                                       size_t *len_out, cb_fatbin_summary *summary, char *err, size_t errlen);

/* ---- additions (fatbin engineer) ----------------------------------------
 *
 * One registration can carry its PTX in several fatbins: a program built
 * with `nvcc -rdc=true` registers one version 2 wrapper whose prelinked
 * array holds one fatbin per translation unit, each with its own
 * (relocatable) PTX, and the module's kernels are the union of them.
 * (Without -rdc, cudart registers one version 1 wrapper per translation
 * unit, observed with nvcc 13.0.) cb_fatbin_extract_ptx returns only the
 * single best entry; use cb_fatbin_extract_modules to get
 * every translation unit's PTX. */

/* One PTX text taken from one fatbin (or a bare PTX image). */
typedef struct cb_fatbin_module {
    char *ptx;                 /* malloc'd, NUL-terminated */
    size_t len;                /* without the NUL */
    uint32_t sm;               /* the entry's sm (a bare PTX: its .target) */
    uint32_t ptx_version;      /* major*0x10000+minor */
    uint32_t fatbin_index;     /* which fatbin of the image, in walk order */
} cb_fatbin_module;

/* Extracts one PTX per fatbin that carries PTX (chosen as in
 * cb_fatbin_extract_ptx; fatbins with SASS only are skipped and counted).
 * Returns CB_FATBIN_ERR_NO_PTX if no fatbin carries PTX. On success *modules_out is a
 * malloc'd array of *n_out >= 1 modules: free it with
 * cb_fatbin_modules_free. summary's chosen_* describe the first module. */
cb_fatbin_status cb_fatbin_extract_modules(const void *image, size_t size, uint32_t device_sm,
                                           cb_fatbin_module **modules_out, size_t *n_out,
                                           cb_fatbin_summary *summary, char *err, size_t errlen);
void cb_fatbin_modules_free(cb_fatbin_module *modules, size_t n);

/* Builds cubridge's linker container (what our cuLinkComplete hands out
 * as a "cubin"): a plain fatbin per PTX text, one after another, each
 * with one uncompressed PTX entry for sm. cb_fatbin_extract_modules reads
 * every text back given the returned size (and NVIDIA's tools read it).
 * ptx[i] are NUL-terminated. *out is malloc'd (free() it). */
cb_fatbin_status cb_fatbin_make_container(const char *const *ptx, size_t n, uint32_t sm, void **out,
                                          size_t *size_out);

#endif
