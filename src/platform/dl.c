/* dl.c: dlopen of in-memory images through an anonymous memory file
 * (memfd_create), falling back to an unlinked temporary file. */
#include "platform/dl.h"
#include "platform/fs_at.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The fd stays open (and a fallback file stays on disk) while the object is
 * loaded: glibc matches dlopen paths by name, so a path must not be reused by
 * another image while this one lives. */
struct cb_dl {
    void *handle;
    int fd;
    int unlink_path;
    char path[4096];
};

/* An fd holding the bytes, and a path dlopen can open it by. */
static int image_fd(const void *bytes, size_t len, char *path, size_t pathlen, int *unlink_path)
{
    *unlink_path = 0;
    int fd = memfd_create("cubridge-kernels", MFD_CLOEXEC);
    if (fd >= 0) {
        snprintf(path, pathlen, "/proc/self/fd/%d", fd);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, pathlen, "%s/cubridge-so-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        fd = mkostemp(path, O_CLOEXEC);
        if (fd < 0)
            return -1;
        *unlink_path = 1;
    }
    if (cb_fs_write_fd(fd, bytes, len) != 0) { /* EFBIG past RLIMIT_FSIZE, not SIGXFSZ */
        int saved = errno;
        close(fd);
        if (*unlink_path)
            unlink(path);
        errno = saved;
        return -1;
    }
    return fd;
}

cb_dl *cb_dl_open_image(const void *bytes, size_t len, char *err, size_t errlen)
{
    cb_dl *dl = calloc(1, sizeof *dl);
    if (!dl) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    dl->fd = image_fd(bytes, len, dl->path, sizeof dl->path, &dl->unlink_path);
    if (dl->fd < 0) {
        snprintf(err, errlen, "cannot stage the shared object: %s", strerror(errno));
        free(dl);
        return NULL;
    }
    dl->handle = dlopen(dl->path, RTLD_NOW | RTLD_LOCAL);
    if (!dl->handle) {
        const char *why = dlerror();
        snprintf(err, errlen, "dlopen: %s", why ? why : "unknown error");
        cb_dl_close(dl);
        return NULL;
    }
    return dl;
}

cb_dl *cb_dl_open_system(const char *name, char *err, size_t errlen)
{
    cb_dl *dl = calloc(1, sizeof *dl);
    if (!dl) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    dl->fd = -1;
    dl->handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!dl->handle) {
        const char *why = dlerror();
        snprintf(err, errlen, "dlopen %s: %s", name, why ? why : "unknown error");
        free(dl);
        return NULL;
    }
    return dl;
}

void *cb_dl_sym(cb_dl *dl, const char *name) { return dlsym(dl->handle, name); }

void cb_dl_close(cb_dl *dl)
{
    if (!dl)
        return;
    if (dl->handle)
        dlclose(dl->handle);
    if (dl->unlink_path)
        unlink(dl->path);
    if (dl->fd >= 0)
        close(dl->fd);
    free(dl);
}

void *cb_dl_library_symbol(const char *soname, const char *symbol)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (!h)
        h = dlopen(soname, RTLD_NOW | RTLD_GLOBAL);
    if (!h)
        return NULL;
    return dlsym(h, symbol);   /* the handle stays open: the library stays loaded */
}
