/* coverage.h: NVIDIA's exports against cubridge's, for `cubridge coverage`
 * and the reports. Depends on the platform layer only (no driver state), so
 * the CLI can use it on its own. */
#ifndef CB_INSPECT_COVERAGE_H
#define CB_INSPECT_COVERAGE_H

#include <stddef.h>

typedef enum cbi_cov_status {
    CBI_COV_ABSENT = 0,        /* our library does not export it */
    CBI_COV_NOT_SUPPORTED,     /* exported as a weak stub: CUDA_ERROR_NOT_SUPPORTED */
    CBI_COV_IMPLEMENTED,       /* a real (strong) definition */
} cbi_cov_status;

/* One of NVIDIA's exports (coverage_data.inc, generated at build time by
 * scripts/gen_coverage.py). */
typedef struct cbi_cov_entry {
    const char *library;   /* "driver", "cudart", "cublas" ... */
    const char *symbol;
    const char *tested_by; /* the first test that calls it, or NULL */
} cbi_cov_entry;
extern const cbi_cov_entry cbi_cov_entries[];
extern const size_t cbi_cov_count;

/* The file name of cubridge's library that stands in for `library`
 * ("driver" -> "libcuda.so.1"), or NULL. */
const char *cbi_cov_soname(const char *library);

/* Calls visit(name, weak, ctx) for each function or object that the ELF
 * shared object at path defines in its dynamic symbol table. Returns 0, or
 * -1 when the file cannot be read or is not a 64-bit little-endian ELF. */
int cbi_elf_dynamic_symbols(const char *path, void (*visit)(const char *name, int weak, void *ctx), void *ctx);

#endif
