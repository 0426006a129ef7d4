/* ptx_merge.h: several PTX texts -> one, as a device linker would join them
 * (src/ptxlink/ptx_merge.c).
 *
 * Used when one image carries PTX in several fatbins: cubridge's linker
 * container (cuLinkComplete, nvJitLink) and `-rdc` registrations. The
 * merged text has one header (the highest .version and .target), every
 * module-scope variable first, then every module's functions in order.
 * An .extern declaration of something another text defines becomes a
 * forward declaration with the definition's linkage (or is dropped, for
 * variables); repeated .weak/.common definitions and repeated declarations
 * are kept once.
 */
#ifndef CB_PTXLINK_PTX_MERGE_H
#define CB_PTXLINK_PTX_MERGE_H

#include <stddef.h>

/* Merges n PTX texts (NUL-terminated). On success returns 0 and sets *out
 * (malloc'd, NUL-terminated) and *len. Returns -1 with a reason in err when
 * out of memory or when two texts define the same non-weak symbol. */
int cb_ptx_merge(const char *const *texts, size_t n, char **out, size_t *len, char *err, size_t errlen);

#endif
