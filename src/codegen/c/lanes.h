/* lanes.h: the lanes entry's parts (c/lanes.c, c/lanes_warp.c), internal to
 * the C dialect. See lanes.c for the model. */
#ifndef CB_CODEGEN_C_LANES_H
#define CB_CODEGEN_C_LANES_H

#include "codegen/c/c.h"

/* One lanes entry being emitted. */
typedef struct lanes {
    cg *c;
    const ptx_func *f;
    const ptx_kernel *k;
    const ptx_cfg *g;
    int32_t loop_pred;  /* the block being emitted: its back edge's predicate for its run, else -1 */
    int loop_neg;
    int trips;          /* its runs that counted the back edge's lanes (lanes_emit_run) */
    int runs;           /* its runs */
} lanes;

/* Whether register r is an array over the lanes (pass_lanes). */
int lanes_is_varying(const lanes *e, int32_t r);
/* "    / * line: text * /" for instruction in. */
void lanes_comment(lanes *e, const ptx_instr *in);
/* Opens a loop over the lanes cbL for which mask (C, NULL: every lane)
 * holds: the varying registers of regs[] as locals of their own names, the
 * lane's ids (cbB_tx ... cbB_flat), the per-lane variables marked in vars[]
 * (may be NULL), and with identity the lane's ids stored into *t. */
void lanes_loop_open(lanes *e, const char *mask, const int32_t *regs, uint32_t nregs, const unsigned char *vars,
                     int identity);
/* Stores the varying registers of defs[] back into their arrays; closes the loop. */
void lanes_loop_close(lanes *e, const int32_t *defs, uint32_t ndefs);
/* Inside a lane loop over cbL: the lane's ids as locals (cbB_tx, cbB_ty, cbB_tz, cbB_flat its
 * index in its block, cbB_bk its block in the run of a lanes_multi entry, else 0). */
void lanes_ids(lanes *e);
/* Stores a lane's identity into *t (C expressions of its ids), and, in a lanes_multi entry, its
 * block's ctaid.x into the runtime's block, so that a fault or the runtime names its thread. */
void lanes_identity(lanes *e, const char *tx, const char *ty, const char *tz, const char *flat, const char *bk);
/* Marks in vars[] the function's variables that operand o names. */
void lanes_note_vars(const ptx_operand *o, unsigned char *vars);
/* Binds, inside a lane loop, each per-lane variable marked in vars[] to its lane's slice. */
void lanes_bind_vars(lanes *e, const unsigned char *vars);
/* Whether in may fault or call the runtime: a lane stores its identity into *t first. */
int lanes_needs_identity(const ptx_instr *in);

/* A run: consecutive per-lane instructions of one block, one loop over the
 * lanes (lanes_run.c). */
typedef struct lanes_run {
    const ptx_instr **ins;      /* in program order */
    uint32_t n;
    const char *mask;           /* which lanes run it (C over cbL), NULL: all */
    int divergent;              /* of a divergent block: the fast form needs every lane active */
    int tail;                   /* of a tail, for the lanes leaving: no fast form */
    const uint64_t *live_after; /* the registers read after it (ptx_kernel.live_words words) */
    int32_t loop_pred;          /* of a block that branches back to itself on this varying predicate
                                   (negated: loop_neg), else -1: see lanes_run.c, "Trips of a loop" */
    int loop_neg;
} lanes_run;
/* Emits run r; returns 1 when its fast form counts the lanes taking the back
 * edge in cbQ (r->loop_pred; lanes_run.c, "Trips of a loop"). */
int lanes_emit_run(lanes *e, const lanes_run *r);

/* A block barrier or warp collective of a block every live lane runs (lanes_warp.c). */
void lanes_emit_collective(lanes *e, const ptx_instr *in);
/* mma or wmma.mma, the same (c/mma.c). */
void c_lanes_emit_matrix(lanes *e, const ptx_instr *in);

#endif
