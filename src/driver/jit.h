/* jit.h: JIT options and logs shared by the linker (api_link.c) and
 * cuModuleLoadDataEx (api_module.c).
 *
 * cubridge has no PTX compiler to steer: the options that tune NVIDIA's
 * ptxas (optimisation level, register caps, cache modes ...) are accepted
 * and ignored. The output options are honoured: the info and error log
 * buffers receive cubridge's own messages, their size slots the bytes
 * written, CU_JIT_WALL_TIME the milliseconds spent.
 */
#ifndef CB_DRIVER_JIT_H
#define CB_DRIVER_JIT_H

#include "driver/driver.h"

/* The caller's log buffers and output slots, taken from an option list. */
typedef struct cb_jit_log {
    char *info;           /* CU_JIT_INFO_LOG_BUFFER, or NULL */
    size_t info_cap;      /* CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES */
    size_t info_len;      /* bytes written so far, without the NUL */
    void **info_size_slot;
    char *error;          /* CU_JIT_ERROR_LOG_BUFFER, or NULL */
    size_t error_cap;
    size_t error_len;
    void **error_size_slot;
    void **wall_time_slot; /* CU_JIT_WALL_TIME: a float is stored there */
    int target_sm;        /* CU_JIT_TARGET (e.g. 86), 0 if not given */
} cb_jit_log;

/* Reads n options into *log (zeroed first). Returns CUDA_ERROR_INVALID_VALUE
 * for n > 0 with NULL arrays or an option number cuda.h does not define. */
CUresult cb_jit_log_init(cb_jit_log *log, unsigned n, const CUjit_option *options, void **values);

/* Appends a line (printf-style, prefixed "cubridge: ") to the info or error log, truncating to the
 * buffer, NUL-terminated; updates the size slot. Also logged at info level
 * (info) or error level (error) on stderr. */
void cb_jit_info(cb_jit_log *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cb_jit_error(cb_jit_log *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends text to the error log only (it was logged on stderr already). */
void cb_jit_error_text(cb_jit_log *log, const char *text);

/* Stores the wall time in ms, if asked for. */
void cb_jit_wall_time(cb_jit_log *log, float ms);

#endif
