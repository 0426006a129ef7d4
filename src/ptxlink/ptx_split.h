/* ptx_split.h: an index of a PTX module's top-level statements, and the
 * smaller modules cut from it (src/ptxlink/ptx_split.c).
 *
 * Lazy module loading (docs/cpu-backend.md, "Lazy loading") registers a
 * module by indexing its text, which costs one scan without a parse, and
 * translates a kernel only when it is first used. What that kernel needs is
 * cut from the text: the header, the .file directives, the kernel, and every
 * variable and function it names, directly or through the functions it
 * calls (a name is found as an identifier in a statement's text, so what is
 * named but not called, a function whose address is taken, comes too). The
 * cut is a valid PTX module that the whole translator accepts.
 *
 * The scan works on statements as ptx_merge.c does: a header directive (one
 * line), a directive ending in ';' at brace depth 0, or a function (or
 * .section) with its { body }. Comments and strings are skipped.
 */
#ifndef CB_PTXLINK_PTX_SPLIT_H
#define CB_PTXLINK_PTX_SPLIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct cb_ptx_index cb_ptx_index;

/* Indexes text (len bytes, kept by pointer: it must outlive the index).
 * Returns NULL when out of memory. Never fails on bad PTX: a module the
 * scan cannot cut safely says so in cb_ptx_index_whole_only. */
cb_ptx_index *cb_ptx_index_build(const char *text, size_t len);
void cb_ptx_index_free(cb_ptx_index *ix);

/* 1 when the module must be translated whole (it has .alias statements, or
 * a statement the scan does not know), with the reason; 0 otherwise. */
int cb_ptx_index_whole_only(const cb_ptx_index *ix, const char **why);

/* Its .entry definitions, in text order, and their PTX names. */
uint32_t cb_ptx_index_kernels(const cb_ptx_index *ix);
const char *cb_ptx_index_kernel_name(const cb_ptx_index *ix, uint32_t k);
/* The kernel named name, or -1. */
int cb_ptx_index_find_kernel(const cb_ptx_index *ix, const char *name);

/* The header and every module-scope variable, without functions: what
 * placing the module's globals needs. malloc'd, NUL-terminated; NULL when
 * out of memory. */
char *cb_ptx_index_globals_text(const cb_ptx_index *ix, size_t *len);
/* The header, the .file directives, kernel k and all it names (above).
 * malloc'd, NUL-terminated; NULL when out of memory. */
char *cb_ptx_index_kernel_text(const cb_ptx_index *ix, uint32_t k, size_t *len);
/* The same for the n kernels ks (a batch compiled together). */
char *cb_ptx_index_kernels_text(const cb_ptx_index *ix, const uint32_t *ks, uint32_t n, size_t *len);

#endif
