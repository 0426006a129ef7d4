/* uniform.h: the parts of pass_uniform (uniform.c: the divergence analysis;
 * regions.c: the lock-step regions) that the two share. Private to
 * src/passes. */
#ifndef CB_PASSES_UNIFORM_H
#define CB_PASSES_UNIFORM_H

#include <stdint.h>

#include "ptx/ir.h"

/* A kernel's control-flow graph over its instructions. */
typedef struct un_cfg {
    uint32_t n;             /* instructions; node n is the virtual exit */
    uint32_t *succ;         /* 2 per node */
    uint8_t *nsucc;
    uint32_t *pred_start;   /* CSR of predecessors, n + 2 entries */
    uint32_t *preds;
} un_cfg;

/* ret, exit or trap. */
int un_ends_thread(const ptx_instr *in);
/* Marks d's register(s) divergent in div; 1 if any changed. */
int un_mark_dest(const ptx_operand *d, unsigned char *div);
/* Whether in splits control flow on a divergent value (a branch, or a guarded exit, ret, trap). */
int un_splits(const ptx_instr *in, const unsigned char *div);
/* regions.c: fills f->pred_region for the kernel's lock-step regions; 0, or -1 when out of memory. */
int un_find_regions(ptx_module *m, ptx_func *f, const un_cfg *g, uint32_t *ipdom, const unsigned char *div,
                    const unsigned char *dcf, const unsigned char *reached);
/* regions.c: fills f->barrier_join (the uniform joins after barrier code); 0, or -1 when out of memory. */
int un_find_barrier_joins(ptx_module *m, ptx_func *f, const un_cfg *g, uint32_t *stack, unsigned char *after);

#endif
