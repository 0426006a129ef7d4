/* fs.h: the files and directories cubridge needs (the JIT cache). All
 * functions return 0 on success and -1 on failure with errno set, unless
 * they say otherwise. */
#ifndef CB_PLATFORM_FS_H
#define CB_PLATFORM_FS_H

#include <stddef.h>

/* Creates directory path and any missing parents with mode (existing
 * directories are left alone). */
int cb_fs_mkdirs(const char *path, unsigned mode);
/* 0 if path is a directory owned by the effective user that neither group
 * nor others may write; otherwise -1 and a reason in why. */
int cb_fs_dir_is_private(const char *path, char *why, size_t whylen);
/* Changes the permission bits of path. */
int cb_fs_chmod(const char *path, unsigned mode);
/* Creates a fresh directory, mode 0700, under $TMPDIR (or /tmp) named
 * prefix + random characters; writes its path into out. */
int cb_fs_make_temp_dir(const char *prefix, char *out, size_t outlen);
/* Creates a new empty file dir/prefixXXXXXXsuffix (random, exclusive,
 * mode 0600) and writes its path into out. */
int cb_fs_make_temp_file(const char *dir, const char *prefix, const char *suffix, char *out, size_t outlen);
/* Reads a whole file into a malloc'd buffer (NUL-terminated beyond *len). */
int cb_fs_read_file(const char *path, unsigned char **data, size_t *len);
/* Replaces path's contents with data (truncating or creating, mode 0600). */
int cb_fs_write_file(const char *path, const void *data, size_t len);
/* Writes data to path atomically: a unique temporary name in the same
 * directory, then rename, so readers see the old file or the new, never part. */
int cb_fs_write_atomic(const char *path, const void *data, size_t len);
/* Renames atomically (same file system). */
int cb_fs_rename(const char *from, const char *to);
/* Removes a file; a missing file is not an error. */
int cb_fs_remove(const char *path);
/* Removes a directory and the plain files directly inside it. */
int cb_fs_remove_flat_dir(const char *path);
/* The effective user's home directory, or NULL. */
const char *cb_fs_home_dir(void);

#endif
