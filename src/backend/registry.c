/* registry.c: backend types by name (backend.h).
 *
 * Process-wide state: `registry` below -- the table of types (the built-in
 * devices first, then what other layers register) and the device wrapper
 * name -- guarded by its lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "platform/thread.h"

#define REGISTRY_MAX 16

int cb_backend_env_warp_size(char *err, size_t errlen)
{
    const char *s = getenv("CUBRIDGE_WARP_SIZE");
    if (!s || !*s || !strcmp(s, "32"))
        return 32;
    if (!strcmp(s, "64"))
        return 64;
    snprintf(err, errlen, "CUBRIDGE_WARP_SIZE=%s: the warp size must be 32 or 64", s);
    return -1;
}

static cb_backend *cpu_type_create(const cb_backend_type *type, cb_backend *inner, char *err, size_t errlen)
{
    (void)type, (void)inner;
    int lanes = cb_backend_env_warp_size(err, errlen);
    if (lanes < 0)
        return NULL;
    cb_backend *b = cb_backend_cpu_create();
    if (!b)
        snprintf(err, errlen, "the cpu backend failed to start (no cache directory or worker threads)");
    else
        cb_cpu_set_warp_size(b, lanes);
    return b;
}

static const cb_backend_type cpu_type = {
    .name = "cpu",
    .description = "the host CPU: PTX -> C -> the system compiler, blocks on a worker pool (the reference)",
    .create = cpu_type_create,
};

static struct {
    cb_mutex lock;
    const cb_backend_type *types[REGISTRY_MAX];
    int n;
    const char *device_wrapper;
} registry = {.lock = CB_MUTEX_INIT, .types = {&cpu_type}, .n = 1};

int cb_backend_register(const cb_backend_type *type)
{
    if (!type || !type->name || !type->create)
        return -1;
    int rc = 0;
    cb_mutex_lock(&registry.lock);
    for (int i = 0; i < registry.n; i++)
        if (registry.types[i] == type)
            goto out;   /* registering the same type twice is harmless */
        else if (strcmp(registry.types[i]->name, type->name) == 0)
            rc = -1;
    if (rc == 0 && registry.n == REGISTRY_MAX)
        rc = -1;
    if (rc == 0)
        registry.types[registry.n++] = type;
out:
    cb_mutex_unlock(&registry.lock);
    return rc;
}

const cb_backend_type *cb_backend_find(const char *name)
{
    const cb_backend_type *t = NULL;
    if (!name)
        return NULL;
    cb_mutex_lock(&registry.lock);
    for (int i = 0; i < registry.n && !t; i++)
        if (strcmp(registry.types[i]->name, name) == 0)
            t = registry.types[i];
    cb_mutex_unlock(&registry.lock);
    return t;
}

const cb_backend_type *cb_backend_type_at(int i)
{
    const cb_backend_type *t = NULL;
    cb_mutex_lock(&registry.lock);
    if (i >= 0 && i < registry.n)
        t = registry.types[i];
    cb_mutex_unlock(&registry.lock);
    return t;
}

/* The registered names, comma separated, for messages. */
static void registry_names(char *buf, size_t len, int wrappers)
{
    size_t pos = 0;
    buf[0] = 0;
    cb_mutex_lock(&registry.lock);
    for (int i = 0; i < registry.n && pos < len; i++)
        if (registry.types[i]->is_wrapper == wrappers)
            pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "", registry.types[i]->name);
    cb_mutex_unlock(&registry.lock);
}

cb_backend *cb_backend_create(const char *name, char *err, size_t errlen)
{
    const cb_backend_type *t = cb_backend_find(name);
    if (!t || t->is_wrapper) {
        char have[256];
        registry_names(have, sizeof have, 0);
        snprintf(err, errlen, "no device backend named \"%s\" in this build (have: %s)", name ? name : "", have);
        return NULL;
    }
    return t->create(t, NULL, err, errlen);
}

cb_backend *cb_backend_wrap(const char *wrapper, cb_backend *inner, char *err, size_t errlen)
{
    const cb_backend_type *t = cb_backend_find(wrapper);
    if (!t || !t->is_wrapper) {
        char have[256];
        registry_names(have, sizeof have, 1);
        snprintf(err, errlen, "no backend wrapper named \"%s\" (have: %s)", wrapper ? wrapper : "",
                 have[0] ? have : "none");
        inner->shutdown(inner);
        return NULL;
    }
    cb_backend *b = t->create(t, inner, err, errlen);
    if (!b)
        inner->shutdown(inner);
    return b;
}

void cb_backend_set_device_wrapper(const char *wrapper)
{
    cb_mutex_lock(&registry.lock);
    registry.device_wrapper = wrapper;
    cb_mutex_unlock(&registry.lock);
}

const char *cb_backend_device_wrapper(void)
{
    cb_mutex_lock(&registry.lock);
    const char *w = registry.device_wrapper;
    cb_mutex_unlock(&registry.lock);
    return w;
}

/* Opens spec; explicit: a wrapper was named in it (no device wrapper then). */
static cb_backend *open_spec(const char *spec, int *explicit_wrapper, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':');
    if (!colon)
        return cb_backend_create(spec, err, errlen);
    char wrapper[64];
    size_t n = (size_t)(colon - spec);
    if (n >= sizeof wrapper) {
        snprintf(err, errlen, "device \"%s\": the wrapper name is too long", spec);
        return NULL;
    }
    memcpy(wrapper, spec, n);
    wrapper[n] = 0;
    cb_backend *inner = open_spec(colon + 1, explicit_wrapper, err, errlen);
    if (!inner)
        return NULL;
    *explicit_wrapper = 1;
    return cb_backend_wrap(wrapper, inner, err, errlen);
}

cb_backend *cb_backend_open(const char *spec, char *err, size_t errlen)
{
    int explicit_wrapper = 0;
    cb_backend *b = open_spec(spec, &explicit_wrapper, err, errlen);
    const char *w = cb_backend_device_wrapper();
    if (b && w && !explicit_wrapper)
        b = cb_backend_wrap(w, b, err, errlen);
    return b;
}
