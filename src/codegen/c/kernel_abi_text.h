/* kernel_abi_text.h: the text of kernel_abi.h, with which every C unit begins.
 *
 * The C dialect emits kernel_abi.h verbatim at the top of each unit it
 * generates, so that the generated code and the runtime that calls it are
 * compiled from one declaration of the contract. Hand-made units (the CPU
 * backend's tests) begin with it too.
 */
#ifndef CB_KERNEL_ABI_TEXT_H
#define CB_KERNEL_ABI_TEXT_H

/* kernel_abi.h's bytes, NUL-terminated (kernel_abi_text.c). */
extern const char cb_kernel_abi_text[];

#endif
