/* texture.h: CUDA arrays, texture objects and surface objects.
 *
 * A CUDA array is device memory (cb_mem_alloc) laid out densely: rows of
 * width * element bytes, slices of height rows, then depth slices (or
 * layers). A texture or surface object is made by the device's backend from
 * a backend-neutral cb_texture_desc (backend.h); the handle
 * (CUtexObject/CUsurfObject) is what the backend gave, and the core keeps
 * the descriptors it was made from for the cuTexObjectGet* queries. */
#ifndef CB_CORE_TEXTURE_H
#define CB_CORE_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef struct cb_array cb_array;
typedef struct cb_mipmap cb_mipmap;

/* Creates an array per a CUDA_ARRAY3D_DESCRIPTOR (Depth 0 for 1D/2D).
 * Cubemaps (CUDA_ARRAY3D_CUBEMAP) are stored as 6 layers (6n when also
 * layered), face f of cube c at layer 6c + f. Returns
 * CUDA_ERROR_INVALID_VALUE for bad sizes, formats, channel counts or flags
 * (a cubemap that is not square or has not 6 / 6n faces),
 * CUDA_ERROR_NOT_SUPPORTED for sparse, deferred-mapping, depth-texture and
 * color-attachment arrays, CUDA_ERROR_OUT_OF_MEMORY. */
CUresult cb_array_create(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, cb_array **out);
/* CUDA_ERROR_INVALID_HANDLE for dead handles and for the levels of a
 * mipmapped array (those die with it). */
CUresult cb_array_destroy(cb_array *a);

/* Mipmapped arrays (cuMipmappedArrayCreate): num_levels is clamped to
 * [1, 1 + floor(log2(largest extent))] as CUDA documents; level l has each
 * extent halved l times (at least 1), layer and face counts unchanged, and
 * is an ordinary array (copies, surfaces) owned by the mipmapped array.
 * Errors as cb_array_create. */
CUresult cb_mipmap_create(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned num_levels, cb_mipmap **out);
/* CUDA_ERROR_INVALID_HANDLE for NULL or dead handles. */
CUresult cb_mipmap_destroy(cb_mipmap *m);
/* Level `level`: CUDA_ERROR_INVALID_HANDLE for a dead handle,
 * CUDA_ERROR_INVALID_VALUE for a level >= the level count or a NULL out. */
CUresult cb_mipmap_level(cb_mipmap *m, unsigned level, cb_array **out);
/* The descriptor it was made with and its level count (either may be NULL). */
CUresult cb_mipmap_info(cb_mipmap *m, CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned *num_levels);
/* The descriptor it was made with; NULL handles give CUDA_ERROR_INVALID_HANDLE. */
CUresult cb_array_descriptor(const cb_array *a, CUDA_ARRAY3D_DESCRIPTOR *out);
/* Where its elements live: device address, row pitch and rows per slice.
 * Returns CUDA_ERROR_INVALID_HANDLE for anything that is not a live array. */
CUresult cb_array_storage(CUarray a, uint64_t *addr, size_t *pitch, size_t *rows);

/* Texture and surface objects (cuTexObjectCreate, cuSurfObjectCreate).
 * Resources: linear, pitch2D, arrays (also cubemap and layered cubemap) and
 * mipmapped arrays (textures only). CUDA_ERROR_NOT_SUPPORTED for resource
 * views and sRGB. */
CUresult cb_texobj_create(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                          const CUDA_RESOURCE_VIEW_DESC *view, int is_surface, unsigned long long *out);
CUresult cb_texobj_destroy(unsigned long long obj, int is_surface);
CUresult cb_texobj_resource(unsigned long long obj, int is_surface, CUDA_RESOURCE_DESC *out);
CUresult cb_texobj_texture_desc(unsigned long long obj, CUDA_TEXTURE_DESC *out);

#endif
