/* ptx_link.c: the PTX list of a device link (see ptx_link.h). */
#include "ptxlink/ptx_link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxlink/ptx_merge.h"

int cb_ptx_arch_number(const char *s)
{
    if (strncmp(s, "sm_", 3) == 0)
        return atoi(s + 3);
    if (strncmp(s, "compute_", 8) == 0)
        return atoi(s + 8);
    if (strncmp(s, "lto_", 4) == 0)
        return atoi(s + 4);
    return 0;
}

int cb_ptx_target(const char *ptx)
{
    const char *t = strstr(ptx, ".target");
    if (!t)
        return 0;
    t += 7;
    while (*t == ' ' || *t == '\t')
        t++;
    return strncmp(t, "lto_", 4) == 0 ? 0 : cb_ptx_arch_number(t);
}

/* Appends a malloc'd copy of text[0..len) to l's list. */
static cb_ptx_link_status link_keep(cb_ptx_link *l, const char *text, size_t len)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 4;
        char **np = realloc(l->ptx, ncap * sizeof *np);
        if (!np)
            return CB_PTX_LINK_NOMEM;
        l->ptx = np;
        l->cap = ncap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return CB_PTX_LINK_NOMEM;
    memcpy(copy, text, len);
    copy[len] = '\0';
    l->ptx[l->n++] = copy;
    return CB_PTX_LINK_OK;
}

cb_ptx_link_status cb_ptx_link_add(cb_ptx_link *l, const char *text, size_t len, int check_target, int *target)
{
    while (len > 0 && text[len - 1] == '\0')
        len--;
    cb_ptx_link_status st = link_keep(l, text, len);
    if (st != CB_PTX_LINK_OK || !check_target)
        return st;
    int t = cb_ptx_target(l->ptx[l->n - 1]);
    if (target)
        *target = t;
    if (t > l->sm) {
        free(l->ptx[--l->n]);
        return CB_PTX_LINK_NEWER_TARGET;
    }
    return CB_PTX_LINK_OK;
}

cb_fatbin_status cb_ptx_link_add_container(cb_ptx_link *l, const void *data, size_t size, char *err, size_t errlen)
{
    cb_fatbin_module *mods = NULL;
    size_t n = 0;
    cb_fatbin_status st = cb_fatbin_extract_modules(data, size, (uint32_t)l->sm, &mods, &n, NULL, err, errlen);
    if (st != CB_FATBIN_OK)
        return st;
    for (size_t i = 0; i < n && st == CB_FATBIN_OK; i++)
        if (link_keep(l, mods[i].ptx, mods[i].len) != CB_PTX_LINK_OK)
            st = CB_FATBIN_ERR_NOMEM;
    cb_fatbin_modules_free(mods, n);
    return st;
}

cb_ptx_link_status cb_ptx_link_complete(cb_ptx_link *l, char *err, size_t errlen)
{
    if (l->image)
        return CB_PTX_LINK_OK;
    if (l->n == 0)
        return CB_PTX_LINK_EMPTY;
    /* One merged text: a loader given no size (cuModuleLoadData) finds only
     * a container's first fatbin. */
    char *merged = NULL;
    size_t merged_len = 0;
    if (l->n > 1 && cb_ptx_merge((const char *const *)l->ptx, l->n, &merged, &merged_len, err, errlen) != 0)
        return CB_PTX_LINK_MERGE;
    const char *one[1] = {merged};
    cb_fatbin_status st =
        merged ? cb_fatbin_make_container(one, 1, (uint32_t)l->sm, &l->image, &l->image_size)
               : cb_fatbin_make_container((const char *const *)l->ptx, l->n, (uint32_t)l->sm, &l->image,
                                          &l->image_size);
    free(merged);
    if (st != CB_FATBIN_OK) {
        l->image = NULL;
        l->image_size = 0;
        snprintf(err, errlen, "could not build the linked image");
        return st == CB_FATBIN_ERR_NOMEM ? CB_PTX_LINK_NOMEM : CB_PTX_LINK_IMAGE;
    }
    return CB_PTX_LINK_OK;
}

void cb_ptx_link_clear(cb_ptx_link *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->ptx[i]);
    free(l->ptx);
    free(l->image);
    l->ptx = NULL;
    l->n = l->cap = 0;
    l->image = NULL;
    l->image_size = 0;
}
