/* texture.h: CUDA arrays, texture objects and surface objects.
 *
 * A CUDA array is device memory (cb_mem_alloc) laid out densely: rows of
 * width * element bytes, slices of height rows, then depth slices (or
 * layers). A texture or surface object is a cb_texobj (kernel_abi.h) in
 * host memory, which the generated code reads directly; the handle
 * (CUtexObject/CUsurfObject) is its address. */
#ifndef CB_CORE_TEXTURE_H
#define CB_CORE_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef struct cb_array cb_array;

/* Creates an array per a CUDA_ARRAY3D_DESCRIPTOR (Depth 0 for 1D/2D).
 * Returns CUDA_ERROR_INVALID_VALUE for bad sizes, formats, channel counts
 * or flags, CUDA_ERROR_NOT_SUPPORTED for cubemaps, sparse and deferred
 * arrays, CUDA_ERROR_OUT_OF_MEMORY. */
CUresult cb_array_create(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, cb_array **out);
CUresult cb_array_destroy(cb_array *a);
/* The descriptor it was made with; NULL handles give CUDA_ERROR_INVALID_HANDLE. */
CUresult cb_array_descriptor(const cb_array *a, CUDA_ARRAY3D_DESCRIPTOR *out);
/* Where its elements live: device address, row pitch and rows per slice.
 * Returns CUDA_ERROR_INVALID_HANDLE for anything that is not a live array. */
CUresult cb_array_storage(CUarray a, uint64_t *addr, size_t *pitch, size_t *rows);

/* Texture and surface objects (cuTexObjectCreate, cuSurfObjectCreate). */
CUresult cb_texobj_create(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                          const CUDA_RESOURCE_VIEW_DESC *view, int is_surface, unsigned long long *out);
CUresult cb_texobj_destroy(unsigned long long obj, int is_surface);
CUresult cb_texobj_resource(unsigned long long obj, int is_surface, CUDA_RESOURCE_DESC *out);
CUresult cb_texobj_texture_desc(unsigned long long obj, CUDA_TEXTURE_DESC *out);

#endif
