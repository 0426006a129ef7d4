#!/usr/bin/env python3
"""gen_mma.py: writes mma.ptx and mma_cases.h, the tensor-core probe kernels
whose outputs regen_golden.sh records on a GPU (mma_golden.bin) and
tests/unit/test_cpu_mma_golden.c compares the CPU translation against.

Each kernel is one warp: lane l loads its fragment registers from 64 u32
words at in + 256*l (a, then b, then c; f64 registers take two words, even
aligned; sparse metadata at word 60), runs one instruction and stores its d
registers to out + 256*l. The word classes (mma_inputs.h) say how each input
word is drawn: most classes keep every product and partial sum exact, so a
mismatch points at fragment layout, metadata, input conversion (tf32 low
bits) or result rounding; the '*_rand' kernels use full-precision inputs and
are compared with a tolerance, to measure how the tensor cores accumulate.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# name, opcode, [(count, class)] for a, b, c, d count, d is f64, meta class, selector, check
M = "mma.sync.aligned."
SP = "mma.sp::ordered_metadata.sync.aligned."
CASES = [
    ("m8n8k4_rc_f32", M + "m8n8k4.row.col.f32.f16.f16.f32", (2, 'h'), (2, 'h'), (8, 'f'), 8, None, 0, 'x'),
    ("m8n8k4_cr_f16", M + "m8n8k4.col.row.f16.f16.f16.f16", (2, 'h'), (2, 'h'), (4, 'k'), 4, None, 0, 'x'),
    ("m8n8k4_rr_f32f16", M + "m8n8k4.row.row.f32.f16.f16.f16", (2, 'h'), (2, 'h'), (4, 'k'), 8, None, 0, 'x'),
    ("m8n8k4_cc_f32", M + "m8n8k4.col.col.f32.f16.f16.f32", (2, 'h'), (2, 'h'), (8, 'f'), 8, None, 0, 'x'),
    ("m8n8k4_rc_f32_rand", M + "m8n8k4.row.col.f32.f16.f16.f32", (2, 'H'), (2, 'H'), (8, 'F'), 8, None, 0, 'f'),
    ("f16_k16_f32_rand", M + "m16n8k16.row.col.f32.f16.f16.f32", (4, 'H'), (2, 'H'), (4, 'F'), 4, None, 0, 'f'),
    ("tf32_k8_lowbits", M + "m16n8k8.row.col.f32.tf32.tf32.f32", (4, 't'), (2, 'T'), (4, 'f'), 4, None, 0, 'x'),
    ("e4m3_k32_f32", M + "m16n8k32.row.col.f32.e4m3.e4m3.f32", (4, 'e'), (2, 'e'), (4, 'f'), 4, None, 0, 'x'),
    ("e5m2e4m3_k32_f16", M + "m16n8k32.row.col.f16.e5m2.e4m3.f16", (4, 'w'), (2, 'e'), (2, 'k'), 2, None, 0, 'x'),
    ("e4m3e5m2_k16_f32", M + "m16n8k16.row.col.f32.e4m3.e5m2.f32", (2, 'e'), (1, 'w'), (4, 'f'), 4, None, 0, 'x'),
    ("e4m3_k32_f32_rand", M + "m16n8k32.row.col.f32.e4m3.e4m3.f32", (4, 'E'), (2, 'E'), (4, 'F'), 4, None, 0, 'f'),
    ("sp_f16_k16_s0", SP + "m16n8k16.row.col.f32.f16.f16.f32", (2, 'h'), (2, 'h'), (4, 'f'), 4, 'm', 0, 'x'),
    ("sp_f16_k16_s2", "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", (2, 'h'), (2, 'h'), (2, 'k'), 2, 'm', 2, 'x'),
    ("sp_f16_k32_s1", SP + "m16n8k32.row.col.f32.f16.f16.f32", (4, 'h'), (4, 'h'), (4, 'f'), 4, 'm', 1, 'x'),
    ("sp_bf16_k32_s0", SP + "m16n8k32.row.col.f32.bf16.bf16.f32", (4, 'g'), (4, 'g'), (4, 'f'), 4, 'm', 0, 'x'),
    ("sp_tf32_k8_s1", SP + "m16n8k8.row.col.f32.tf32.tf32.f32", (2, 'u'), (2, 'T'), (4, 'f'), 4, 'n', 1, 'x'),
    ("sp_tf32_k16_s0", SP + "m16n8k16.row.col.f32.tf32.tf32.f32", (4, 'u'), (4, 'T'), (4, 'f'), 4, 'n', 0, 'x'),
    ("sp_s8_k32_s1", SP + "m16n8k32.row.col.s32.s8.s8.s32", (2, 'i'), (2, 'i'), (4, 'I'), 4, 'm', 1, 'x'),
    ("sp_u8s8_k64_s0", SP + "m16n8k64.row.col.satfinite.s32.u8.s8.s32", (4, 'i'), (4, 'i'), (4, 'I'), 4, 'm', 0, 'x'),
    ("sp_e4m3_k64_s0", SP + "m16n8k64.row.col.f32.e4m3.e4m3.f32", (4, 'e'), (4, 'e'), (4, 'f'), 4, 'm', 0, 'x'),
    ("s8u8_m8n8k16", M + "m8n8k16.row.col.s32.s8.u8.s32", (1, 'i'), (1, 'i'), (2, 'I'), 2, None, 0, 'x'),
    ("s4_m16n8k64", M + "m16n8k64.row.col.s32.s4.s4.s32", (4, 'i'), (2, 'i'), (4, 'I'), 4, None, 0, 'x'),
    ("b1_m8n8k128_xor", M + "m8n8k128.row.col.s32.b1.b1.s32.xor.popc", (1, 'i'), (1, 'i'), (2, 'I'), 2, None, 0, 'x'),
    ("b1_m16n8k256_and", M + "m16n8k256.row.col.s32.b1.b1.s32.and.popc", (4, 'i'), (2, 'i'), (4, 'I'), 4, None, 0, 'x'),
    ("f64_m16n8k8", M + "m16n8k8.row.col.f64.f64.f64.f64", (4, 'd'), (2, 'd'), (4, 'd'), 4, None, 0, 'x'),
    ("f64_m16n8k16", M + "m16n8k16.row.col.f64.f64.f64.f64", (8, 'd'), (4, 'd'), (4, 'd'), 4, None, 0, 'x'),
]


def kernel(case):
    name, op, a, b, c, nd, meta, sel, _ = case
    classes = ['z'] * 64
    lines = []
    word = 0
    ops = []
    reg = 10
    for (count, cls) in (a, b, c):
        wide = cls == 'd'
        regs = []
        for _ in range(count):
            if wide:
                word += word & 1
                classes[word] = classes[word + 1] = 'd'
                lines.append(f"\tld.global.b64 %rd{reg}, [%rin+{4 * word}];")
                regs.append(f"%rd{reg}")
                word += 2
            else:
                classes[word] = cls
                lines.append(f"\tld.global.b32 %r{reg}, [%rin+{4 * word}];")
                regs.append(f"%r{reg}")
                word += 1
            reg += 1
        ops.append(regs)
    assert word <= 60, name
    dwide = c[1] == 'd'
    dregs = [f"%rd{70 + i}" if dwide else f"%r{70 + i}" for i in range(nd)]
    tail = ""
    if meta:
        classes[60] = meta
        lines.append("\tld.global.b32 %r5, [%rin+240];")
        tail = f", %r5, {sel}"
    lines.append(f"\t{op} {{{', '.join(dregs)}}}, {{{', '.join(ops[0])}}}, "
                 f"{{{', '.join(ops[1])}}}, {{{', '.join(ops[2])}}}{tail};")
    for i, r in enumerate(dregs):
        step = 8 if dwide else 4
        lines.append(f"\tst.global.{'b64' if dwide else 'b32'} [%rout+{step * i}], {r};")
    body = "\n".join(lines)
    ptx = f""".visible .entry {name}(.param .u64 pin, .param .u64 pout)
{{
\t.reg .b32 %r<100>;
\t.reg .b64 %rd<100>, %rin, %rout;
\tld.param.u64 %rin, [pin];
\tld.param.u64 %rout, [pout];
\tmov.u32 %r1, %laneid;
\tmul.wide.u32 %rd1, %r1, 256;
\tadd.s64 %rin, %rin, %rd1;
\tadd.s64 %rout, %rout, %rd1;
{body}
\tret;
}}
"""
    return ptx, "".join(classes)


# ---- warp and cluster probes: hand-written bodies ------------------------------------------
# (name, input classes (64 chars), blocks, cluster size, body). The frame: %rin/%rout point at this
# thread's 64 words (one warp, blocks 1) or 16 words (blocks 4: thread g = 32 * ctaid + tid); %r1 is
# %laneid. Bodies load their inputs with ld.global [%rin+4*w] and store results to [%rout+4*w].
W = "i" * 16 + "z" * 48
WARP = []


def warp(name, body, classes=W, blocks=1, cluster=0):
    WARP.append((name, classes, blocks, cluster, body.strip("\n")))


warp("movmatrix_trans", """
	ld.global.b32 %r10, [%rin];
	movmatrix.sync.aligned.m8n8.trans.b16 %r70, %r10;
	st.global.b32 [%rout], %r70;
	movmatrix.sync.aligned.m8n8.trans.b16 %r71, %r70;
	st.global.b32 [%rout+4], %r71;
	ld.global.b32 %r11, [%rin+4];
	movmatrix.sync.aligned.m8n8.trans.b16 %r72, %r11;
	st.global.b32 [%rout+8], %r72;
""")
# stmatrix x1/x2/x4 (.trans) into zeroed shared memory, read back 16 bytes a lane (smem + 16 * lane),
# then ldmatrix of the same matrices with the same .trans
STM = """
\tld.global.b32 %r10, [%rin];
\tld.global.b32 %r11, [%rin+4];
\tld.global.b32 %r12, [%rin+8];
\tld.global.b32 %r13, [%rin+12];
\tmov.u32 %r20, smem;
\tmov.u32 %r30, 0;
\tshl.b32 %r24, %r1, 4;
\tadd.u32 %r24, %r20, %r24;
\tst.shared.v4.b32 [%r24], {{%r30, %r30, %r30, %r30}};
\tshr.u32 %r21, %r1, 3;
\tand.b32 %r22, %r1, 7;
\tmad.lo.u32 %r23, %r21, 128, %r20;
\tmad.lo.u32 %r23, %r22, 16, %r23;
\tbar.warp.sync 0xffffffff;
\tstmatrix.sync.aligned.m8n8.{x}{tr}.shared.b16 [%r23], {{{regs}}};
\tbar.warp.sync 0xffffffff;
\tld.shared.v4.b32 {{%r40, %r41, %r42, %r43}}, [%r24];
\tst.global.v4.b32 [%rout], {{%r40, %r41, %r42, %r43}};
\tldmatrix.sync.aligned.m8n8.{x}{tr}.shared.b16 {{{outs}}}, [%r23];
\tst.global.v4.b32 [%rout+16], {{{outs4}}};
"""
for x, regs in [("x1", "%r10"), ("x2", "%r10, %r11"), ("x4", "%r10, %r11, %r12, %r13")]:
    n = regs.count("%")
    outs = ", ".join("%%r%d" % (50 + i) for i in range(n))
    for tr in ["", ".trans"]:
        warp("stmatrix_%s%s" % (x, tr.replace(".", "_")),
             STM.format(x=x, tr=tr, regs=regs, outs=outs, outs4=outs + ", %r30" * (4 - n)))
warp("elect_sync", """
	mov.u32 %r30, 0;
	elect.sync %r70|%p1, 0xffffffff;
	selp.u32 %r71, 1, 0, %p1;
	st.global.v2.b32 [%rout], {%r70, %r71};
	and.b32 %r20, %r1, 1;
	setp.eq.u32 %p2, %r20, 0;
	@%p2 bra EVEN;
	elect.sync %r72|%p3, 0xaaaaaaaa;
	bra.uni JOIN;
EVEN:
	elect.sync %r72|%p3, 0x55555555;
JOIN:
	selp.u32 %r73, 1, 0, %p3;
	st.global.v2.b32 [%rout+8], {%r72, %r73};
	setp.lt.u32 %p4, %r1, 20;
	@%p4 bra LOW;
	elect.sync %r74|%p5, 0xfff00000;
	selp.u32 %r75, 1, 0, %p5;
	st.global.v2.b32 [%rout+16], {%r74, %r75};
LOW:
""")
warp("redux_match", """
	ld.global.b32 %r10, [%rin];
	ld.global.b32 %r11, [%rin+4];
	and.b32 %r12, %r11, 3;
	redux.sync.add.u32 %r70, %r10, 0xffffffff;
	redux.sync.min.s32 %r71, %r10, 0xffffffff;
	redux.sync.max.u32 %r72, %r10, 0xffffffff;
	redux.sync.and.b32 %r73, %r10, 0xffffffff;
	redux.sync.or.b32 %r74, %r10, 0xffffffff;
	redux.sync.xor.b32 %r75, %r10, 0xffffffff;
	match.any.sync.b32 %r76, %r12, 0xffffffff;
	match.all.sync.b32 %r77|%p1, %r12, 0xffffffff;
	st.global.v4.b32 [%rout], {%r70, %r71, %r72, %r73};
	st.global.v4.b32 [%rout+16], {%r74, %r75, %r76, %r77};
""")
# clusters: 4 blocks of 32 threads; words 0..15 of thread g
CL = "i" * 64   # thread g reads the words 16g .. 16g+15: all of them are inputs
warp("cluster_regs_4", """
	mov.u32 %r70, %cluster_ctarank;
	mov.u32 %r71, %cluster_nctarank;
	mov.u32 %r72, %clusterid.x;
	mov.u32 %r73, %nclusterid.x;
	mov.u32 %r74, %cluster_ctaid.x;
	mov.u32 %r75, %cluster_nctaid.x;
	mov.pred %p1, %is_explicit_cluster;
	selp.u32 %r76, 1, 0, %p1;
	mov.u32 %r77, %ctaid.x;
	st.global.v4.b32 [%rout], {%r70, %r71, %r72, %r73};
	st.global.v4.b32 [%rout+16], {%r74, %r75, %r76, %r77};
""", CL, 4, 4)
warp("cluster_regs_2", WARP[-1][4], CL, 4, 2)
DSM = """
	ld.global.b32 %r10, [%rin];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %cluster_ctarank;
	mov.u32 %r4, %cluster_nctarank;
	add.u32 %r5, %r3, 1;
	rem.u32 %r5, %r5, %r4;
	mov.u32 %r20, smem;
	shl.b32 %r21, %r2, 2;
	add.u32 %r22, %r20, %r21;
	st.shared.b32 [%r22], %r10;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 st.shared.b32 [%r20+256], 0;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	add.u32 %r23, %r2, 1;
	and.b32 %r23, %r23, 31;
	shl.b32 %r23, %r23, 2;
	add.u32 %r23, %r20, %r23;
	cvt.u64.u32 %rd11, %r23;
	cvta.shared.u64 %rd12, %rd11;
	mapa.u64 %rd13, %rd12, %r5;
	ld.u32 %r70, [%rd13];
	mapa.shared::cluster.u32 %r24, %r23, %r5;
	ld.shared::cluster.u32 %r71, [%r24];
	getctarank.u64 %r72, %rd13;
	getctarank.shared::cluster.u32 %r73, %r24;
	isspacep.shared::cluster %p2, %rd13;
	selp.u32 %r74, 1, 0, %p2;
	isspacep.shared %p3, %rd13;
	selp.u32 %r75, 1, 0, %p3;
	add.u32 %r25, %r20, 256;
	mapa.shared::cluster.u32 %r26, %r25, 0;
	and.b32 %r27, %r10, 255;
	atom.shared::cluster.add.u32 %r28, [%r26], %r27;
	red.shared::cluster.add.u32 [%r26], 1;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	ld.shared::cluster.u32 %r76, [%r26];
	mov.u32 %r77, %r4;
	st.global.v4.b32 [%rout], {%r70, %r71, %r72, %r73};
	st.global.v4.b32 [%rout+16], {%r74, %r75, %r76, %r77};
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
"""
warp("cluster_dsmem_4", DSM, CL, 4, 4)
warp("cluster_dsmem_2", DSM, CL, 4, 2)
warp("cluster_st_async_4", """
	ld.global.b32 %r10, [%rin];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %cluster_ctarank;
	mov.u32 %r4, %cluster_nctarank;
	mov.u32 %r20, smem;
	or.b32 %r21, %r2, %r3;
	setp.eq.u32 %p1, %r21, 0;
	@%p1 mbarrier.init.shared.b64 [%r20+512], 1;
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
	setp.eq.u32 %p2, %r3, 0;
	@%p2 bra RANK0;
	mad.lo.u32 %r22, %r3, 32, %r2;
	shl.b32 %r22, %r22, 2;
	add.u32 %r22, %r20, %r22;
	mapa.shared::cluster.u32 %r23, %r22, 0;
	add.u32 %r24, %r20, 512;
	mapa.shared::cluster.u32 %r25, %r24, 0;
	st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r23], %r10, [%r25];
	bra.uni DONE;
RANK0:
	@%p1 mbarrier.arrive.expect_tx.shared.b64 _, [%r20+512], 384;
WAIT:
	mbarrier.try_wait.parity.shared.b64 %p3, [%r20+512], 0;
	@!%p3 bra WAIT;
	shl.b32 %r26, %r2, 2;
	add.u32 %r26, %r20, %r26;
	ld.shared.b32 %r70, [%r26+128];
	ld.shared.b32 %r71, [%r26+256];
	ld.shared.b32 %r72, [%r26+384];
	st.global.v4.b32 [%rout], {%r70, %r71, %r72, %r10};
DONE:
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
""", CL, 4, 4)


def warp_kernel(case):
    name, classes, blocks, cluster, body = case
    per = 256 if blocks == 1 else 64
    index = ("\tmov.u32 %r1, %laneid;\n\tmul.wide.u32 %rd1, %r1, 256;\n" if blocks == 1 else
             "\tmov.u32 %r1, %laneid;\n\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n"
             "\tmad.lo.u32 %r4, %r3, 32, %r2;\n\tmul.wide.u32 %rd1, %r4, 64;\n")
    del per
    return f""".visible .entry {name}(.param .u64 pin, .param .u64 pout)
{{
\t.reg .b32 %r<100>;
\t.reg .b64 %rd<100>, %rin, %rout;
\t.reg .pred %p<8>;
\t.shared .align 16 .b8 smem[1024];
\tld.param.u64 %rin, [pin];
\tld.param.u64 %rout, [pout];
\tmov.u64 %rd0, 0;
{index}\tadd.s64 %rin, %rin, %rd1;
\tadd.s64 %rout, %rout, %rd1;
{body}
\tret;
}}
"""


def main():
    ptx = ["// Generated by gen_mma.py: tensor-core probe kernels (see test_cpu_mma_golden.c).",
           ".version 8.7", ".target sm_90", ".address_size 64", ""]
    cases = ["/* Generated by gen_mma.py: { kernel, input word classes (mma_inputs.h), check, blocks of 32",
             " * threads, cluster size (0: no cluster launch) } */"]
    for case in CASES:
        text, classes = kernel(case)
        ptx.append(text)
        cases.append(f'MMA_CASE("{case[0]}", "{classes}", \'{case[8]}\', 1, 0)')
    for case in WARP:
        ptx.append(warp_kernel(case))
        cases.append(f'MMA_CASE("{case[0]}", "{case[1]}", \'x\', {case[2]}, {case[3]})')
    with open(os.path.join(HERE, "mma.ptx"), "w") as f:
        f.write("\n".join(ptx))
    with open(os.path.join(HERE, "mma_cases.h"), "w") as f:
        f.write("\n".join(cases) + "\n")


if __name__ == "__main__":
    main()
