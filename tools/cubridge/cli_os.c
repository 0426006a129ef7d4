/* cli_os.c: the only file of the command line that calls the OS directly
 * (POSIX and Linux's /proc). A port replaces this file, as src/platform/
 * is replaced for the library. */
#include <errno.h>
#include <dirent.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_os_exe_dir(char *out, size_t outlen)
{
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return -1;
    path[n] = 0;
    char *slash = strrchr(path, '/');
    if (!slash)
        return -1;
    *slash = 0;
    if ((size_t)snprintf(out, outlen, "%s", path[0] ? path : "/") >= outlen)
        return -1;
    return 0;
}

int cli_os_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

const char *cli_os_home_dir(void)
{
    const char *home = getenv("HOME");
    if (home && home[0])
        return home;
    struct passwd *pw = getpwuid(geteuid());
    return pw && pw->pw_dir && pw->pw_dir[0] ? pw->pw_dir : NULL;
}

int cli_os_setenv(const char *name, const char *value, int overwrite) { return setenv(name, value, overwrite); }

int cli_os_exec(char **argv)
{
    execvp(argv[0], argv);
    return -1;
}

/* Calls visit(path, st, ctx) for each entry under dir, children before
 * their directory, without following symbolic links. Stops at the first
 * nonzero result and returns it; -1 if a directory cannot be read. */
static int walk_tree(const char *dir, int (*visit)(const char *, const struct stat *, void *), void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        char path[4096];
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= sizeof path) {
            errno = ENAMETOOLONG;
            rc = -1;
        } else if (lstat(path, &st) != 0) {
            rc = -1;
        } else {
            if (S_ISDIR(st.st_mode))
                rc = walk_tree(path, visit, ctx);
            if (rc == 0)
                rc = visit(path, &st, ctx);
        }
    }
    closedir(d);
    return rc;
}

static int is_directory(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return 0;
    }
    return 1;
}

static int add_to_stats(const char *path, const struct stat *st, void *ctx)
{
    cli_tree_stats *stats = ctx;
    if (S_ISDIR(st->st_mode))
        return 0;
    size_t n = strlen(path);
    stats->files++;
    stats->bytes += (uint64_t)st->st_size;
    if (n > 3 && strcmp(path + n - 3, ".so") == 0)
        stats->shared_objects++;
    return 0;
}

int cli_os_tree_stats(const char *dir, cli_tree_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!is_directory(dir))
        return -1;
    return walk_tree(dir, add_to_stats, out) == 0 ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, void *ctx)
{
    (void)ctx;
    if ((S_ISDIR(st->st_mode) ? rmdir(path) : unlink(path)) != 0) {
        fprintf(stderr, "cubridge: cannot remove %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int cli_os_empty_dir(const char *dir)
{
    if (!is_directory(dir))
        return -1;
    return walk_tree(dir, remove_entry, NULL) == 0 ? 0 : -1;
}
