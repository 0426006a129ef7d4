/* ptx_link.h: the PTX list of a device link, shared by the driver's
 * cuLink* (src/driver/api_link.c) and cubridge's libnvJitLink.so.13
 * (src/nvjitlink/nvjitlink.c). Both keep PTX instead of compiling it: the
 * "linked image" is cubridge's container (cb_fatbin_make_container) holding
 * one PTX text, merged from every input (cb_ptx_merge).
 *
 * No process-wide state; the caller owns and locks each cb_ptx_link.
 */
#ifndef CB_PTXLINK_PTX_LINK_H
#define CB_PTXLINK_PTX_LINK_H

#include <stddef.h>

#include "fatbin/fatbin.h"

typedef struct cb_ptx_link {
    int sm;            /* the link's target architecture, e.g. 86 */
    char **ptx;        /* every PTX text added, malloc'd, NUL-terminated */
    size_t n, cap;
    void *image;       /* the container, once cb_ptx_link_complete succeeded */
    size_t image_size;
} cb_ptx_link;

typedef enum cb_ptx_link_status {
    CB_PTX_LINK_OK = 0,
    CB_PTX_LINK_NOMEM,
    CB_PTX_LINK_NEWER_TARGET,  /* the text's .target is newer than the link's sm */
    CB_PTX_LINK_EMPTY,         /* complete with nothing added */
    CB_PTX_LINK_MERGE,         /* the texts do not merge (err says why) */
    CB_PTX_LINK_IMAGE,         /* the container could not be built */
} cb_ptx_link_status;

/* "sm_NN", "compute_NN" or "lto_NN" -> NN; 0 for anything else. */
int cb_ptx_arch_number(const char *s);

/* The NN of a PTX text's ".target sm_NN" directive; 0 if there is none. */
int cb_ptx_target(const char *ptx);

/* Adds a copy of text (len bytes; trailing NULs dropped). With check_target,
 * a text whose .target is newer than l->sm is refused (NEWER_TARGET, its
 * target in *target when target is not NULL) and nothing is added. */
cb_ptx_link_status cb_ptx_link_add(cb_ptx_link *l, const char *text, size_t len, int check_target, int *target);

/* Adds every PTX text (at or below l->sm) of a fatbin, or of a container an
 * earlier link made. Returns the extractor's status; err gets its reason. */
cb_fatbin_status cb_ptx_link_add_container(cb_ptx_link *l, const void *data, size_t size, char *err,
                                           size_t errlen);

/* Builds l->image from the texts added (once; later calls return OK). */
cb_ptx_link_status cb_ptx_link_complete(cb_ptx_link *l, char *err, size_t errlen);

/* Frees the texts and the image; l is left empty (sm kept). */
void cb_ptx_link_clear(cb_ptx_link *l);

#endif
