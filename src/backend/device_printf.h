/* device_printf.h: CUDA's device printf (vprintf(fmt, args)) -> text, for
 * every backend (device_printf.c). The CPU backend formats at the call; the
 * OpenCL backend formats the records its kernels wrote after the launch
 * (src/backend/opencl/printf_fifo.c). */
#ifndef CB_DEVICE_PRINTF_H
#define CB_DEVICE_PRINTF_H

#include <stddef.h>
#include <stdint.h>

/* The string of a %s argument, from its 8 bytes in the argument buffer, or
 * NULL (printed "(null)"). */
typedef const char *cb_printf_string_fn(void *ctx, uint64_t value);

/* Formats vprintf(fmt, args) into a malloc'd string in *out (length *outlen).
 * str resolves %s arguments (NULL: the value is a host pointer, as on the
 * CPU). Returns the number of arguments consumed, -1 for a NULL fmt, -2 out
 * of memory. */
int cb_device_printf_format(const char *fmt, const unsigned char *args, cb_printf_string_fn *str, void *ctx,
                            char **out, size_t *outlen);

#endif
