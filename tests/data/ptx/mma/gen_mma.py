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


def main():
    ptx = ["// Generated by gen_mma.py: tensor-core probe kernels (see test_cpu_mma_golden.c).",
           ".version 8.7", ".target sm_90", ".address_size 64", ""]
    cases = ["/* Generated by gen_mma.py: { kernel, input word classes (mma_inputs.h), check } */"]
    for case in CASES:
        text, classes = kernel(case)
        ptx.append(text)
        cases.append(f'MMA_CASE("{case[0]}", "{classes}", \'{case[8]}\')')
    with open(os.path.join(HERE, "mma.ptx"), "w") as f:
        f.write("\n".join(ptx))
    with open(os.path.join(HERE, "mma_cases.h"), "w") as f:
        f.write("\n".join(cases) + "\n")


if __name__ == "__main__":
    main()
