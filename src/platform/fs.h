/* fs.h: files and directories by path (the JIT cache itself works
 * relative to a checked directory: fs_at.h). All
 * functions return 0 on success and -1 on failure with errno set, unless
 * they say otherwise. */
#ifndef CB_PLATFORM_FS_H
#define CB_PLATFORM_FS_H

#include <stddef.h>

/* Creates directory path and any missing parents with mode (existing
 * directories are left alone). */
int cb_fs_mkdirs(const char *path, unsigned mode);
/* Creates a fresh directory, mode 0700, under $TMPDIR (or /tmp) named
 * prefix + random characters; writes its path into out. */
int cb_fs_make_temp_dir(const char *prefix, char *out, size_t outlen);
/* Reads a whole file into a malloc'd buffer (NUL-terminated beyond *len). */
int cb_fs_read_file(const char *path, unsigned char **data, size_t *len);
/* Replaces path's contents with data (truncating or creating, mode 0600). */
int cb_fs_write_file(const char *path, const void *data, size_t len);
/* Removes a directory and the plain files directly inside it. */
int cb_fs_remove_flat_dir(const char *path);
/* The effective user's home directory, or NULL. */
const char *cb_fs_home_dir(void);

#endif
