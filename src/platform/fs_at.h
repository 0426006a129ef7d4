/* fs_at.h: directories checked from the root, and files relative to them
 * that are never reached through a symbolic link (the JIT cache). A
 * directory is opened once, by cb_fs_dir_open_checked, and every later
 * operation names a file inside it relative to its descriptor: nobody can
 * redirect a name by swapping a directory or a link on the path.
 * All functions return 0 (or a descriptor) on success and -1 on failure with
 * errno set, unless they say otherwise. */
#ifndef CB_PLATFORM_FS_AT_H
#define CB_PLATFORM_FS_AT_H

#include <stddef.h>
#include <stdint.h>

enum { CB_FS_CREATE = 1, CB_FS_SHARED = 2 };

/* Opens directory path (relative paths start at the working directory) and
 * returns its descriptor. Each directory on the way is opened relative to the
 * one before it with O_NOFOLLOW, starting at "/", and must be owned by the
 * effective user or root and not writable by its group or others unless it is
 * sticky (like /tmp). A symbolic link on the way is followed by reading it
 * and walking its target the same way (at most 40), and only when root or the
 * effective user owns it. The last directory must be owned by the effective
 * user and writable by nobody else, unless flags has CB_FS_SHARED (then the
 * rule for the directories on the way applies to it too). With CB_FS_CREATE
 * missing directories are created (mode 0700). On failure why says which
 * directory is wrong and how ("/x/y: a parent directory writable by others
 * (mode 777, not sticky)"). */
int cb_fs_dir_open_checked(const char *path, int flags, char *why, size_t whylen);

/* Opens directory path without any of those checks (for reports only). */
int cb_fs_dir_open_unchecked(const char *path);

/* Makes a fresh private directory $TMPDIR/prefixXXXXXX (or under /tmp when
 * $TMPDIR is unset, relative or fails the checks above), opens it checked, and holds a
 * shared lock on it (flock) for as long as the descriptor stays open; writes
 * its path into out. Before that it removes the directories with the same
 * prefix that the effective user owns, that nobody holds a lock on (their
 * process has ended) and that were not changed for min_age seconds: the
 * folders of processes that were killed. Returns the descriptor. */
int cb_fs_temp_dir_open(const char *prefix, unsigned min_age, char *out, size_t outlen, char *why, size_t whylen);
/* Removes the files inside the directory open as dirfd, then the directory
 * path itself if it is still that directory. Closes dirfd. */
int cb_fs_temp_dir_remove(int dirfd, const char *path);

/* Opens the regular file name in dirfd for reading, never following a
 * symbolic link (ELOOP) and never blocking on a FIFO (a file that is not a
 * regular one: EINVAL). Returns the descriptor. */
int cb_fs_at_open_read(int dirfd, const char *name);
/* Reads a whole regular file (as cb_fs_at_open_read) into a malloc'd buffer,
 * NUL-terminated beyond *len; *mtime (may be NULL) gets its modification
 * time in seconds. */
int cb_fs_at_read(int dirfd, const char *name, unsigned char **data, size_t *len, int64_t *mtime);
/* Creates a new file prefixXXXXXXsuffix in dirfd (random, exclusive, mode
 * 0600), writes its name into name and returns a descriptor open for writing. */
int cb_fs_at_create_temp(int dirfd, const char *prefix, const char *suffix, char *name, size_t namelen);
/* Writes all of data to fd. Refuses (EFBIG, nothing written) a write that
 * would pass the file size limit (RLIMIT_FSIZE) instead of being killed by
 * SIGXFSZ. */
int cb_fs_write_fd(int fd, const void *data, size_t len);
/* Replaces name in dirfd with data atomically: a new file under a random
 * name in dirfd, written and synced, then renamed over name. */
int cb_fs_at_write_atomic(int dirfd, const char *name, const void *data, size_t len);
/* Renames inside dirfd (atomically, replacing to). */
int cb_fs_at_rename(int dirfd, const char *from, const char *to);
/* Removes the file name in dirfd; a missing file is not an error. */
int cb_fs_at_remove(int dirfd, const char *name);
/* Sets the modification time of name in dirfd to now (a link itself, never
 * its target). */
int cb_fs_at_touch(int dirfd, const char *name);

/* One entry of a directory listing. */
typedef struct cb_fs_entry {
    char name[256];
    uint64_t size;       /* apparent size in bytes */
    int64_t mtime;       /* modification time, seconds */
    int is_file;         /* a regular file (not a link, directory or other) */
} cb_fs_entry;
/* Lists dirfd (without "." and ".."; links are not followed) into a malloc'd
 * array of *n entries. */
int cb_fs_at_list(int dirfd, cb_fs_entry **out, size_t *n);

/* Opens (creating, mode 0600) the regular file name in dirfd for reading
 * and writing, never following a symbolic link. Returns the descriptor. */
int cb_fs_at_open_rw(int dirfd, const char *name);
/* Takes an advisory lock (flock) on fd: exclusive or shared; when wait is 0
 * and another holds a conflicting lock, fails at once (EWOULDBLOCK). */
int cb_fs_lock(int fd, int exclusive, int wait);
/* Releases the lock on fd. */
void cb_fs_unlock(int fd);
/* pread: returns the number of bytes read (short at the end), or -1. */
int cb_fs_pread(int fd, void *buf, size_t len, uint64_t off);
/* pwrite of all len bytes, refusing (EFBIG) to pass the file size limit as
 * cb_fs_write_fd does. */
int cb_fs_pwrite(int fd, const void *buf, size_t len, uint64_t off);

/* Bytes an unprivileged user may still write on dirfd's file system, or -1. */
int64_t cb_fs_at_free_bytes(int dirfd);
/* 1 when err says the disk or a quota or the file size limit is full
 * (ENOSPC, EDQUOT, EFBIG). */
int cb_fs_err_is_full(int err);
/* Closes fd (if >= 0). */
void cb_fs_close(int fd);

#endif
