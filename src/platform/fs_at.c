/* fs_at.c: directories checked from the root and files relative to them
 * (see fs_at.h). The checks follow the rules OpenSSH applies to ~/.ssh
 * (every directory up to "/" owned by the user or root, none writable by
 * others) with the usual exception for sticky directories such as /tmp, and
 * follow symbolic links only where the kernel's fs.protected_symlinks would:
 * links owned by the user or root. */
#include "platform/fs_at.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define FS_MAX_LINKS 40

static void say(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || whylen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

void cb_fs_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

/* Checks the directory open as fd, shown as path: as a directory on the way
 * (owner root or the user; not writable by others unless sticky), or as the
 * directory itself (owner the user; writable by nobody else). */
static int check_dir(int fd, const char *path, int last, char *why, size_t whylen)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        say(why, whylen, "%s: cannot stat: %s", path, strerror(errno));
        return -1;
    }
    uid_t me = geteuid();
    unsigned mode = (unsigned)(st.st_mode & 07777);
    if (last) {
        if (st.st_uid != me) {
            say(why, whylen, "%s: owned by uid %u, not by the current user (uid %u)", path, (unsigned)st.st_uid,
                (unsigned)me);
            return -1;
        }
        if (mode & (S_IWGRP | S_IWOTH)) {
            say(why, whylen, "%s: writable by %s (mode %03o)", path, (mode & S_IWOTH) ? "others" : "its group",
                mode & 0777);
            return -1;
        }
        return 0;
    }
    if (st.st_uid != me && st.st_uid != 0) {
        say(why, whylen, "%s: a parent directory owned by uid %u, neither root nor the current user (uid %u)", path,
            (unsigned)st.st_uid, (unsigned)me);
        return -1;
    }
    if ((mode & (S_IWGRP | S_IWOTH)) && !(mode & S_ISVTX)) {
        say(why, whylen, "%s: a parent directory writable by %s (mode %03o, not sticky)", path,
            (mode & S_IWOTH) ? "others" : "its group", mode & 0777);
        return -1;
    }
    return 0;
}

/* Pops the first component of the slash-separated path in rest into comp.
 * Returns 1, 0 when there is none left, -1 when it is too long. */
static int pop_component(char *rest, char *comp, size_t complen)
{
    char *p = rest;
    while (*p == '/')
        p++;
    if (!*p) {
        rest[0] = 0;
        return 0;
    }
    size_t n = strcspn(p, "/");
    if (n >= complen)
        return -1;
    memcpy(comp, p, n);
    comp[n] = 0;
    p += strcspn(p, "/");
    memmove(rest, p, strlen(p) + 1);
    return 1;
}

/* Appends "/comp" to shown, or strips its last component for "..". */
static void shown_step(char *shown, size_t len, const char *comp)
{
    if (strcmp(comp, "..") == 0) {
        char *slash = strrchr(shown, '/');
        if (slash)
            *slash = 0;
        return;
    }
    size_t n = strlen(shown);
    snprintf(shown + n, len - n, "/%s", comp);
}

static int open_root(char *shown, char *why, size_t whylen)
{
    shown[0] = 0;
    int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        say(why, whylen, "/: %s", strerror(errno));
    return fd;
}

int cb_fs_dir_open_checked(const char *path, int flags, char *why, size_t whylen)
{
    int create = flags & CB_FS_CREATE;
    char rest[8192], shown[4096], comp[256];
    if (!path || !*path) {
        say(why, whylen, "empty path");
        errno = EINVAL;
        return -1;
    }
    if (path[0] == '/') {
        if ((size_t)snprintf(rest, sizeof rest, "%s", path) >= sizeof rest)
            goto too_long;
    } else {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd)) {
            say(why, whylen, "%s: the working directory is unknown: %s", path, strerror(errno));
            return -1;
        }
        if ((size_t)snprintf(rest, sizeof rest, "%s/%s", cwd, path) >= sizeof rest)
            goto too_long;
    }
    int fd = open_root(shown, why, whylen);
    if (fd < 0)
        return -1;
    int links = 0, checked = 0, more;
    while ((more = pop_component(rest, comp, sizeof comp)) != 0) {
        if (more < 0) {
            close(fd);
            goto too_long;
        }
        if (strcmp(comp, ".") == 0)
            continue;
        /* fd is a directory on the way: it gets the rule for those. */
        if (!checked && check_dir(fd, shown[0] ? shown : "/", 0, why, whylen) != 0) {
            close(fd);
            errno = EPERM;
            return -1;
        }
        checked = 1;
        const char *at = shown[0] ? shown : "";
        struct stat st;
        if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            int e = errno;
            if (e == ENOENT && create && strcmp(comp, "..") != 0) {
                if (mkdirat(fd, comp, 0700) != 0 && errno != EEXIST) {
                    e = errno;
                    say(why, whylen, "cannot create %s/%s: %s", at, comp, strerror(e));
                    close(fd);
                    errno = e;
                    return -1;
                }
                e = fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : errno;
            }
            if (e) {
                say(why, whylen, "%s/%s: %s", at, comp, strerror(e));
                close(fd);
                errno = e;
                return -1;
            }
        }
        if (S_ISLNK(st.st_mode)) {
            char target[4096];
            ssize_t n = -1;
            if (st.st_uid != geteuid() && st.st_uid != 0) {
                say(why, whylen, "%s/%s: a symbolic link owned by uid %u, neither root nor the current user", at, comp,
                    (unsigned)st.st_uid);
                errno = EPERM;
            } else if (++links > FS_MAX_LINKS) {
                say(why, whylen, "%s/%s: too many symbolic links", at, comp);
                errno = ELOOP;
            } else if ((n = readlinkat(fd, comp, target, sizeof target - 1)) <= 0) {
                say(why, whylen, "%s/%s: cannot read the symbolic link: %s", at, comp, strerror(errno));
                n = -1;
            } else {
                target[n] = 0;
                char joined[8192];
                if ((size_t)snprintf(joined, sizeof joined, "%s/%s", target, rest) >= sizeof joined) {
                    close(fd);
                    goto too_long;
                }
                memcpy(rest, joined, strlen(joined) + 1);
            }
            if (n < 0) {
                int e = errno;
                close(fd);
                errno = e;
                return -1;
            }
            if (target[0] == '/') {
                close(fd);
                if ((fd = open_root(shown, why, whylen)) < 0)
                    return -1;
                checked = 0;
            }
            continue;
        }
        int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) {
            int e = errno;
            say(why, whylen, "%s/%s: %s", at, comp,
                e == ELOOP ? "became a symbolic link while being checked" : strerror(e));
            close(fd);
            errno = e;
            return -1;
        }
        close(fd);
        fd = next;
        checked = 0;
        shown_step(shown, sizeof shown, comp);
    }
    if (check_dir(fd, shown[0] ? shown : "/", !(flags & CB_FS_SHARED), why, whylen) != 0) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;

too_long:
    say(why, whylen, "%.200s...: path too long", path);
    errno = ENAMETOOLONG;
    return -1;
}

int cb_fs_dir_open_unchecked(const char *path) { return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC); }

/* ---- private temporary directories ------------------------------------- */

/* Removes the regular files and links inside dirfd. */
static void empty_dir_at(int dirfd)
{
    cb_fs_entry *e;
    size_t n;
    if (cb_fs_at_list(dirfd, &e, &n) != 0)
        return;
    for (size_t i = 0; i < n; i++)
        unlinkat(dirfd, e[i].name, 0);
    free(e);
}

/* Removes the abandoned directories prefix* in the directory open as tmpfd
 * (path tmp): owned by the user, unlocked, unchanged for min_age seconds. */
static void sweep_abandoned(int tmpfd, const char *prefix, unsigned min_age)
{
    cb_fs_entry *e;
    size_t n;
    if (cb_fs_at_list(tmpfd, &e, &n) != 0)
        return;
    time_t now = time(NULL);
    size_t plen = strlen(prefix);
    for (size_t i = 0; i < n; i++) {
        if (e[i].is_file || strncmp(e[i].name, prefix, plen) != 0 || now - e[i].mtime < (time_t)min_age)
            continue;
        int fd = openat(tmpfd, e[i].name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && now - st.st_mtime >= (time_t)min_age &&
            flock(fd, LOCK_EX | LOCK_NB) == 0) {
            empty_dir_at(fd);
            unlinkat(tmpfd, e[i].name, AT_REMOVEDIR);
        }
        close(fd); /* releases the lock after the directory is gone */
    }
    free(e);
}

/* One attempt at a temporary directory under tmp. */
static int temp_dir_under(const char *tmp, const char *prefix, unsigned min_age, char *out, size_t outlen, char *why,
                          size_t whylen)
{
    int tmpfd = cb_fs_dir_open_checked(tmp, CB_FS_SHARED, why, whylen);
    if (tmpfd < 0)
        return -1;
    sweep_abandoned(tmpfd, prefix, min_age);
    for (int attempt = 0; attempt < 8; attempt++) {
        if ((size_t)snprintf(out, outlen, "%s/%sXXXXXX", tmp, prefix) >= outlen) {
            close(tmpfd);
            say(why, whylen, "%s: path too long", tmp);
            errno = ENAMETOOLONG;
            return -1;
        }
        if (!mkdtemp(out)) {
            int e = errno;
            say(why, whylen, "cannot create a directory in %s: %s", tmp, strerror(e));
            close(tmpfd);
            errno = e;
            return -1;
        }
        const char *base = strrchr(out, '/') + 1;
        int fd = openat(tmpfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (check_dir(fd, out, 1, why, whylen) != 0) {
            close(fd);
            close(tmpfd);
            errno = EPERM;
            return -1;
        }
        /* A sweeper that took the lock first has removed it: start over. */
        struct stat st;
        if (flock(fd, LOCK_SH) == 0 && fstat(fd, &st) == 0 && st.st_nlink > 0) {
            close(tmpfd);
            return fd;
        }
        close(fd);
    }
    close(tmpfd);
    say(why, whylen, "%s: temporary directories keep disappearing", tmp);
    errno = EAGAIN;
    return -1;
}

int cb_fs_temp_dir_open(const char *prefix, unsigned min_age, char *out, size_t outlen, char *why, size_t whylen)
{
    const char *env = getenv("TMPDIR");
    if (env && env[0] == '/' && strcmp(env, "/tmp") != 0) {
        char reason[1024];
        int fd = temp_dir_under(env, prefix, min_age, out, outlen, reason, sizeof reason);
        if (fd >= 0)
            return fd;
        int e = errno;
        fd = temp_dir_under("/tmp", prefix, min_age, out, outlen, why, whylen);
        if (fd >= 0)
            return fd;
        say(why, whylen, "%s", reason);
        errno = e;
        return -1;
    }
    return temp_dir_under("/tmp", prefix, min_age, out, outlen, why, whylen);
}

int cb_fs_temp_dir_remove(int dirfd, const char *path)
{
    if (dirfd < 0)
        return -1;
    empty_dir_at(dirfd);
    struct stat mine, now;
    int rc = -1;
    if (fstat(dirfd, &mine) == 0 && lstat(path, &now) == 0 && mine.st_dev == now.st_dev && mine.st_ino == now.st_ino)
        rc = rmdir(path);
    close(dirfd);
    return rc;
}

/* ---- files relative to a directory ------------------------------------- */

int cb_fs_at_open_read(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

int cb_fs_at_read(int dirfd, const char *name, unsigned char **data, size_t *len, int64_t *mtime)
{
    *data = NULL;
    *len = 0;
    int fd = cb_fs_at_open_read(dirfd, name);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (mtime)
        *mtime = (int64_t)st.st_mtime;
    size_t cap = (size_t)st.st_size + 1, used = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    for (;;) {
        if (used + 1 >= cap) {
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                close(fd);
                errno = ENOMEM;
                return -1;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            close(fd);
            errno = e;
            return -1;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    buf[used] = 0;
    *data = buf;
    *len = used;
    return 0;
}

/* Six random letters and digits into out (7 bytes with the NUL). */
static void random_letters(char out[7])
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 20 ^ (uint64_t)(uintptr_t)out;
        for (int i = 0; i < 6; i++, x >>= 8)
            r[i] = (unsigned char)x;
    }
    for (int i = 0; i < 6; i++)
        out[i] = set[r[i] % (sizeof set - 1)];
    out[6] = 0;
}

int cb_fs_at_create_temp(int dirfd, const char *prefix, const char *suffix, char *name, size_t namelen)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        char letters[7];
        random_letters(letters);
        if ((size_t)snprintf(name, namelen, "%s%s%s", prefix, letters, suffix) >= namelen) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

int cb_fs_write_fd(int fd, const void *data, size_t len)
{
    struct rlimit rl;
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uint64_t)(at > 0 ? at : 0) + len > (uint64_t)rl.rlim_cur) {
        errno = EFBIG;
        return -1;
    }
    const unsigned char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int cb_fs_at_write_atomic(int dirfd, const char *name, const void *data, size_t len)
{
    char tmp[300];
    char prefix[280];
    if ((size_t)snprintf(prefix, sizeof prefix, "%s.tmp", name) >= sizeof prefix) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = cb_fs_at_create_temp(dirfd, prefix, "", tmp, sizeof tmp);
    if (fd < 0)
        return -1;
    if (cb_fs_write_fd(fd, data, len) != 0 || fsync(fd) != 0) {
        int e = errno;
        close(fd);
        unlinkat(dirfd, tmp, 0);
        errno = e;
        return -1;
    }
    if (close(fd) != 0 || renameat(dirfd, tmp, dirfd, name) != 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        errno = e;
        return -1;
    }
    return 0;
}

int cb_fs_at_rename(int dirfd, const char *from, const char *to) { return renameat(dirfd, from, dirfd, to); }

int cb_fs_at_remove(int dirfd, const char *name) { return unlinkat(dirfd, name, 0) == 0 || errno == ENOENT ? 0 : -1; }

int cb_fs_at_touch(int dirfd, const char *name) { return utimensat(dirfd, name, NULL, AT_SYMLINK_NOFOLLOW); }

int cb_fs_at_list(int dirfd, cb_fs_entry **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    size_t cap = 0, used = 0;
    cb_fs_entry *list = NULL;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 || strlen(de->d_name) >= 256)
            continue;
        struct stat st;
        if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; /* removed meanwhile */
        if (used == cap) {
            size_t bigger = cap ? cap * 2 : 64;
            cb_fs_entry *grown = realloc(list, bigger * sizeof *list);
            if (!grown) {
                free(list);
                closedir(d);
                errno = ENOMEM;
                return -1;
            }
            list = grown;
            cap = bigger;
        }
        cb_fs_entry *e = &list[used++];
        snprintf(e->name, sizeof e->name, "%s", de->d_name);
        e->size = (uint64_t)st.st_size;
        e->mtime = (int64_t)st.st_mtime;
        e->is_file = S_ISREG(st.st_mode);
    }
    closedir(d);
    *out = list;
    *n = used;
    return 0;
}

/* ---- locks and shared mappings ------------------------------------------ */

int cb_fs_at_open_rw(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

int cb_fs_lock(int fd, int exclusive, int wait)
{
    int op = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB);
    int rc;
    while ((rc = flock(fd, op)) != 0 && errno == EINTR)
        ;
    return rc;
}

void cb_fs_unlock(int fd) { flock(fd, LOCK_UN); }

int cb_fs_pread(int fd, void *buf, size_t len, uint64_t off)
{
    ssize_t n;
    while ((n = pread(fd, buf, len, (off_t)off)) < 0 && errno == EINTR)
        ;
    return n < 0 ? -1 : (int)n;
}

int cb_fs_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && off + len > (uint64_t)rl.rlim_cur) {
        errno = EFBIG;
        return -1;
    }
    ssize_t n;
    while ((n = pwrite(fd, buf, len, (off_t)off)) < 0 && errno == EINTR)
        ;
    if (n >= 0 && (size_t)n != len)
        errno = ENOSPC;
    return n >= 0 && (size_t)n == len ? 0 : -1;
}

int64_t cb_fs_at_free_bytes(int dirfd)
{
    struct statvfs sv;
    if (fstatvfs(dirfd, &sv) != 0)
        return -1;
    return (int64_t)sv.f_bavail * (int64_t)sv.f_frsize;
}

int cb_fs_err_is_full(int err) { return err == ENOSPC || err == EDQUOT || err == EFBIG; }
