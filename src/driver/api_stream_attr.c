/* api_stream_attr.c: stream and graph kernel node attributes
 * (cuStream{Set,Get,Copy}Attribute, cuGraphKernelNode{Set,Get,Copy}Attribute)
 * and cuStreamAttachMemAsync.
 *
 * The attributes a stream takes (an L2 access policy window, the
 * synchronisation policy, the memory-synchronisation domain and its map,
 * the priority) are hints that do not change results: they are checked as
 * CUDA checks them, kept, and read back; the CPU has no L2 set-aside or
 * domains to apply them to. A kernel node also takes the cooperative flag
 * (a cooperative node, checked against the cooperative limit) and a cluster
 * dimension of one block; larger clusters are not supported.
 */
#include "driver/driver.h"

#include <string.h>

#include "core/context.h"
#include "core/device.h"
#include "core/graph.h"
#include "core/launch.h"
#include "core/memory.h"
#include "core/stream.h"

/* CUDA's checks of an access policy window. */
static CUresult access_policy_check(const cb_device *d, const CUaccessPolicyWindow *w)
{
    int max = 0;
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, &max);
    if (w->num_bytes > (size_t)max || !(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f) ||
        (unsigned)w->hitProp > CU_ACCESS_PROPERTY_PERSISTING || (unsigned)w->missProp > CU_ACCESS_PROPERTY_PERSISTING ||
        w->missProp == CU_ACCESS_PROPERTY_PERSISTING)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult domain_check(CUlaunchMemSyncDomain domain)
{
    return domain == CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT || domain == CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE
               ? CUDA_SUCCESS
               : CUDA_ERROR_INVALID_VALUE;
}

/* ---- streams ---------------------------------------------------------------------- */

static CUresult attr_stream(CUstream h, int per_thread, cb_stream **out)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    return cb_stream_resolve_ex(h, ctx, per_thread, out);
}

static CUresult stream_set(CUstream h, CUstreamAttrID attr, const CUstreamAttrValue *v, int per_thread)
{
    cb_stream *s;
    CUresult r = attr_stream(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        r = access_policy_check(s->ctx->device, &v->accessPolicyWindow);
        break;
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        r = v->syncPolicy >= CU_SYNC_POLICY_AUTO && v->syncPolicy <= CU_SYNC_POLICY_BLOCKING_SYNC
                ? CUDA_SUCCESS
                : CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: break;   /* clamped into the range below */
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: r = domain_check(v->memSyncDomain); break;
    default: return CUDA_ERROR_INVALID_VALUE;   /* not a stream attribute */
    }
    if (r != CUDA_SUCCESS)
        return r;
    cb_mutex_lock(&s->lock);
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: s->access_policy = v->accessPolicyWindow; break;
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY: s->sync_policy = v->syncPolicy; break;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: s->priority = 0; break;   /* the only priority (range 0..0) */
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: s->domain_map = v->memSyncDomainMap; break;
    default: s->domain = v->memSyncDomain; break;
    }
    cb_mutex_unlock(&s->lock);
    return CUDA_SUCCESS;
}

static CUresult stream_get(CUstream h, CUstreamAttrID attr, CUstreamAttrValue *v, int per_thread)
{
    cb_stream *s;
    CUresult r = attr_stream(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    memset(v, 0, sizeof *v);
    cb_mutex_lock(&s->lock);
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: v->accessPolicyWindow = s->access_policy; break;
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        v->syncPolicy = s->sync_policy ? s->sync_policy : CU_SYNC_POLICY_AUTO;
        break;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: v->priority = s->priority; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: v->memSyncDomainMap = s->domain_map; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: v->memSyncDomain = s->domain; break;
    default: r = CUDA_ERROR_INVALID_VALUE; break;
    }
    cb_mutex_unlock(&s->lock);
    return r;
}

static CUresult stream_copy(CUstream dst, CUstream src, int per_thread)
{
    cb_stream *d, *s;
    CUresult r = attr_stream(dst, per_thread, &d);
    if (r == CUDA_SUCCESS)
        r = attr_stream(src, per_thread, &s);
    if (r != CUDA_SUCCESS || d == s)
        return r;
    cb_mutex_lock(&s->lock);
    CUaccessPolicyWindow w = s->access_policy;
    CUsynchronizationPolicy p = s->sync_policy;
    CUlaunchMemSyncDomainMap m = s->domain_map;
    CUlaunchMemSyncDomain dom = s->domain;
    cb_mutex_unlock(&s->lock);
    cb_mutex_lock(&d->lock);
    d->access_policy = w;
    d->sync_policy = p;
    d->domain_map = m;
    d->domain = dom;
    cb_mutex_unlock(&d->lock);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
    return stream_set(hStream, attr, value, 0);
}
CB_EXPORT CUresult cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
    return stream_set(hStream, attr, value, 1);
}
CB_EXPORT CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
    return stream_get(hStream, attr, value_out, 0);
}
CB_EXPORT CUresult cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
    return stream_get(hStream, attr, value_out, 1);
}
CB_EXPORT CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) { return stream_copy(dst, src, 0); }
CB_EXPORT CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src) { return stream_copy(dst, src, 1); }

/* ---- graph kernel nodes -------------------------------------------------------------- */

static cb_graph_node *kernel_node(CUgraphNode h)
{
    cb_graph_node *n = (cb_graph_node *)h;
    return cb_graph_node_valid(n) && n->type == CU_GRAPH_NODE_TYPE_KERNEL && n->u.kernel.f ? n : NULL;
}

CB_EXPORT CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                 const CUkernelNodeAttrValue *value)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = kernel_node(hNode);
    if (!n || !value)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        if ((r = access_policy_check(n->u.kernel.f->module->ctx->device, &value->accessPolicyWindow)) == CUDA_SUCCESS)
            n->u.kernel.access_policy = value->accessPolicyWindow;
        return r;
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: {
        cb_launch_config probe = n->u.kernel.cfg;
        probe.cooperative = value->cooperative != 0;
        if (probe.cooperative && (r = cb_launch_check_cooperative(n->u.kernel.f, &probe)) != CUDA_SUCCESS)
            return r;
        n->u.kernel.cfg.cooperative = probe.cooperative;
        return CUDA_SUCCESS;
    }
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: n->u.kernel.priority = 0; return CUDA_SUCCESS;   /* range 0..0 */
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: n->u.kernel.domain_map = value->memSyncDomainMap; return r;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        if ((r = domain_check(value->memSyncDomain)) == CUDA_SUCCESS)
            n->u.kernel.domain = value->memSyncDomain;
        return r;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        if (value->clusterDim.x <= 1 && value->clusterDim.y <= 1 && value->clusterDim.z <= 1)
            return CUDA_SUCCESS;
        return cb_driver_not_supported("cuGraphKernelNodeSetAttribute(CLUSTER_DIMENSION)",
                                       "thread block clusters are not supported");
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        return CUDA_SUCCESS;   /* hints without an effect on the CPU */
    case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
        return cb_driver_not_supported("cuGraphKernelNodeSetAttribute(DEVICE_UPDATABLE_KERNEL_NODE)",
                                       "device-updatable graph kernel nodes are not supported");
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CB_EXPORT CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                 CUkernelNodeAttrValue *value_out)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = kernel_node(hNode);
    if (!n || !value_out)
        return CUDA_ERROR_INVALID_VALUE;
    memset(value_out, 0, sizeof *value_out);
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: value_out->accessPolicyWindow = n->u.kernel.access_policy; break;
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: value_out->cooperative = (int)n->u.kernel.cfg.cooperative; break;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: value_out->priority = n->u.kernel.priority; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: value_out->memSyncDomainMap = n->u.kernel.domain_map; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: value_out->memSyncDomain = n->u.kernel.domain; break;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        value_out->clusterDim.x = value_out->clusterDim.y = value_out->clusterDim.z = 1;
        break;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        value_out->clusterSchedulingPolicyPreference = CU_CLUSTER_SCHEDULING_POLICY_DEFAULT;
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
    CB_REQUIRE_INIT();
    cb_graph_node *d = kernel_node(dst), *s = kernel_node(src);
    if (!d || !s)
        return CUDA_ERROR_INVALID_VALUE;
    if (s->u.kernel.cfg.cooperative && !d->u.kernel.cfg.cooperative) {
        cb_launch_config probe = d->u.kernel.cfg;
        probe.cooperative = 1;
        CUresult r = cb_launch_check_cooperative(d->u.kernel.f, &probe);
        if (r != CUDA_SUCCESS)
            return r;
    }
    d->u.kernel.cfg.cooperative = s->u.kernel.cfg.cooperative;
    d->u.kernel.access_policy = s->u.kernel.access_policy;
    d->u.kernel.priority = s->u.kernel.priority;
    d->u.kernel.domain_map = s->u.kernel.domain_map;
    d->u.kernel.domain = s->u.kernel.domain;
    return CUDA_SUCCESS;
}

/* ---- cuStreamAttachMemAsync ----------------------------------------------------------- */

/* Host and kernels share managed memory on the CPU backend, so an
 * attachment changes no access: after CUDA's checks it is a stream-ordered
 * marker (it takes effect once earlier work in the stream is done). */
static CUresult attach_mem(CUstream h, CUdeviceptr dptr, size_t length, unsigned flags, int per_thread)
{
    cb_stream *s;
    CUresult r = attr_stream(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mem_info info = cb_mem_lookup(dptr);
    /* Managed memory only: pageable host memory would need PAGEABLE_MEMORY_ACCESS, which is 0. For a
     * managed allocation, the whole of it (length 0 or its size), from its start. */
    if (info.kind != CB_MEM_MANAGED || info.base != dptr || (length != 0 && length != info.size)) {
        cb_log(CB_LOG_WARN, "cuStreamAttachMemAsync: 0x%llx (%zu bytes) is not a whole managed allocation",
               (unsigned long long)dptr, length);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cb_op *op = cb_op_new(CB_OP_MARKER);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = cb_stream_submit(s, op, NULL)) != CUDA_SUCCESS)
        cb_op_free(op);
    return r;
}

CB_EXPORT CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    return attach_mem(hStream, dptr, length, flags, 0);
}
CB_EXPORT CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    return attach_mem(hStream, dptr, length, flags, 1);
}
