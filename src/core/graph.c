/* graph.c: graphs and their nodes (see graph.h). */
#include "core/graph.h"

#include <stdlib.h>
#include <string.h>

#include "core/graph_mem.h"
#include "core/graph_cond.h"
#include "core/handles.h"
#include "core/launch.h"
#include "core/module.h"

int cb_graph_valid(const void *g) { return cb_handle_live(g, CB_MAGIC_GRAPH); }
int cb_graph_node_valid(const void *n) { return cb_handle_live(n, CB_MAGIC_GRAPH_NODE); }

CUresult cb_graph_create(cb_graph **out)
{
    cb_graph *g = calloc(1, sizeof *g);
    if (!g)
        return CUDA_ERROR_OUT_OF_MEMORY;
    g->magic = CB_MAGIC_GRAPH;
    cb_handle_add(g);
    *out = g;
    return CUDA_SUCCESS;
}

static void node_free(cb_graph_node *n)
{
    cb_handle_remove(n);
    if (n->type == CU_GRAPH_NODE_TYPE_KERNEL) {
        free((void *)n->u.kernel.cfg.params);
        free(n->u.kernel.argv);
    }
    if ((n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE) && n->u.mem)
        cb_graph_mem_unref(n->u.mem);
    if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        cb_cond_node_free(n->u.cond);
    if (n->type == CU_GRAPH_NODE_TYPE_HOST && n->u.host.fn == cb_lib_op_host_fn)
        cb_lib_op_unref(n->u.host.userData);   /* a captured library call */
    free(n->deps);
    n->magic = CB_MAGIC_DEAD;
    free(n);
}

void cb_graph_remove_last(cb_graph *g)
{
    if (g->n)
        node_free(g->nodes[--g->n]);
}

void cb_graph_destroy(cb_graph *g)
{
    cb_handle_remove(g);
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    cb_graph_conds_free(g);
    g->magic = CB_MAGIC_DEAD;
    free(g);
}

static int node_add_dep(cb_graph_node *n, cb_graph_node *d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d)
            return 0;
    if (n->ndeps == n->capdeps) {
        size_t cap = n->capdeps ? n->capdeps * 2 : 4;
        cb_graph_node **grown = realloc(n->deps, cap * sizeof *grown);
        if (!grown)
            return -1;
        n->deps = grown;
        n->capdeps = cap;
    }
    n->deps[n->ndeps++] = d;
    return 0;
}

CUresult cb_graph_add_node(cb_graph *g, CUgraphNodeType type, cb_graph_node *const *deps, size_t ndeps,
                           cb_graph_node **out)
{
    if (ndeps && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < ndeps; i++)
        if (!cb_graph_node_valid(deps[i]) || deps[i]->graph != g)
            return CUDA_ERROR_INVALID_VALUE;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        cb_graph_node **grown = realloc(g->nodes, cap * sizeof *grown);
        if (!grown)
            return CUDA_ERROR_OUT_OF_MEMORY;
        g->nodes = grown;
        g->cap = cap;
    }
    cb_graph_node *n = calloc(1, sizeof *n);
    if (!n)
        return CUDA_ERROR_OUT_OF_MEMORY;
    n->magic = CB_MAGIC_GRAPH_NODE;
    n->graph = g;
    n->index = g->n;
    n->type = type;
    for (size_t i = 0; i < ndeps; i++) {
        if (node_add_dep(n, deps[i]) != 0) {
            free(n->deps);
            free(n);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    g->nodes[g->n++] = n;
    cb_handle_add(n);
    *out = n;
    return CUDA_SUCCESS;
}

/* Builds the argv array (pointers into the packed buffer) of a kernel node. */
static CUresult kernel_build_argv(cb_graph_node *n)
{
    const cb_kernel_info *info = n->u.kernel.f->info;
    free(n->u.kernel.argv);
    n->u.kernel.argv = NULL;
    if (!info || !info->nparams)
        return CUDA_SUCCESS;
    n->u.kernel.argv = calloc(info->nparams, sizeof(void *));
    if (!n->u.kernel.argv)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < info->nparams; i++)
        n->u.kernel.argv[i] = (void *)(n->u.kernel.cfg.params + info->params[i].offset);
    return CUDA_SUCCESS;
}

CUresult cb_graph_clone(const cb_graph *g, cb_graph **out)
{
    cb_graph *c = NULL;
    CUresult r = cb_graph_create(&c);
    if (r != CUDA_SUCCESS)
        return r;
    for (size_t i = 0; r == CUDA_SUCCESS && i < g->n; i++) {
        const cb_graph_node *src = g->nodes[i];
        cb_graph_node *n;
        r = cb_graph_add_node(c, src->type, NULL, 0, &n);
        if (r != CUDA_SUCCESS)
            break;
        n->u = src->u;
        if ((src->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || src->type == CU_GRAPH_NODE_TYPE_MEM_FREE) && n->u.mem)
            cb_graph_mem_ref(n->u.mem);
        if (src->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
            n->u.cond = NULL;
            r = cb_cond_node_clone(src->u.cond, &n->u.cond);
        }
        if (src->type == CU_GRAPH_NODE_TYPE_HOST && src->u.host.fn == cb_lib_op_host_fn)
            cb_lib_op_ref(src->u.host.userData);
        if (src->type == CU_GRAPH_NODE_TYPE_KERNEL) {
            n->u.kernel.argv = NULL;
            n->u.kernel.cfg.params = NULL;
            if (src->u.kernel.cfg.param_bytes) {
                unsigned char *p = malloc(src->u.kernel.cfg.param_bytes);
                if (!p) {
                    r = CUDA_ERROR_OUT_OF_MEMORY;
                    break;
                }
                memcpy(p, src->u.kernel.cfg.params, src->u.kernel.cfg.param_bytes);
                n->u.kernel.cfg.params = p;
            }
            if (r == CUDA_SUCCESS)
                r = kernel_build_argv(n);
        }
    }
    if (r == CUDA_SUCCESS)
        r = cb_graph_conds_clone(g, c);
    /* edges last: a dependency may point at a later node (cuGraphAddDependencies) */
    for (size_t i = 0; r == CUDA_SUCCESS && i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps && r == CUDA_SUCCESS; d++)
            if (node_add_dep(c->nodes[i], c->nodes[g->nodes[i]->deps[d]->index]) != 0)
                r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r != CUDA_SUCCESS) {
        cb_graph_destroy(c);
        return r;
    }
    *out = c;
    return CUDA_SUCCESS;
}

CUresult cb_graph_pack_params(cb_function *f, void **kernel_params, void **extra, unsigned char **out,
                              uint32_t *bytes)
{
    uint32_t size = f->info ? f->info->param_bytes : 0;
    *out = NULL;
    *bytes = size;
    unsigned char *buf = calloc(1, size ? size : 1);
    if (!buf)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = cb_launch_pack_params(f->info, kernel_params, extra, buf);
    if (r != CUDA_SUCCESS || size == 0) {
        free(buf);
        return r;
    }
    *out = buf;
    return CUDA_SUCCESS;
}

CUresult cb_graph_kernel_set(cb_graph_node *n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    cb_function *f = (cb_function *)(p->func ? (void *)p->func : (void *)p->kern);
    if (!cb_function_valid(f))
        return CUDA_ERROR_INVALID_VALUE;
    /* A cooperative node (captured from a cooperative launch) stays one. */
    uint32_t cooperative = n->u.kernel.cfg.cooperative;
    cb_launch_config probe = { .grid = { p->gridDimX, p->gridDimY, p->gridDimZ },
                               .block = { p->blockDimX, p->blockDimY, p->blockDimZ },
                               .dynamic_smem = p->sharedMemBytes, .cooperative = cooperative };
    CUresult r = cb_launch_validate(f, &probe);
    if (r == CUDA_SUCCESS && cooperative)
        r = cb_launch_check_cooperative(f, &probe);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned char *params;
    uint32_t bytes;
    r = cb_graph_pack_params(f, p->kernelParams, p->extra, &params, &bytes);
    if (r != CUDA_SUCCESS)
        return r;
    free((void *)n->u.kernel.cfg.params);
    memset(&n->u.kernel.cfg, 0, sizeof n->u.kernel.cfg);
    n->u.kernel.f = f;
    n->u.kernel.cfg.grid[0] = p->gridDimX;
    n->u.kernel.cfg.grid[1] = p->gridDimY;
    n->u.kernel.cfg.grid[2] = p->gridDimZ;
    n->u.kernel.cfg.block[0] = p->blockDimX;
    n->u.kernel.cfg.block[1] = p->blockDimY;
    n->u.kernel.cfg.block[2] = p->blockDimZ;
    n->u.kernel.cfg.dynamic_smem = p->sharedMemBytes;
    n->u.kernel.cfg.params = params;
    n->u.kernel.cfg.param_bytes = bytes;
    n->u.kernel.cfg.cooperative = cooperative;
    return kernel_build_argv(n);
}

CUresult cb_graph_kernel_adopt(cb_graph_node *n, cb_function *f, const cb_launch_config *cfg)
{
    n->u.kernel.f = f;
    n->u.kernel.cfg = *cfg;
    return kernel_build_argv(n);
}
