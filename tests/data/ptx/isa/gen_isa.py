#!/usr/bin/env python3
"""Writes the hand-written ISA test kernels: one PTX file per instruction
family (isa_<family>.ptx) and isa_cases.h, the table that both
test_codegen_isa.c and the GPU golden generator (golden_gpu.c) read.

Every kernel has the same frame: thread i (global index) reads the four
words in[4i..4i+3] into %a %b %c %d, computes up to eight words %o0..%o7
(zero unless set) and stores them to out[8i..8i+7]. Each output word has a
check kind: x = bit-exact; h = two halves (f16 or bf16, by the kernel's
'fmt'), each within 2 units in the last place; f = f32 within 4 ulp.
Usage: gen_isa.py (rewrites the files next to this script).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

FRAME_HEAD = """
.visible .entry {name}(.param .u64 pin, .param .u64 pout)
{{
\t.reg .b32 %a, %b, %c, %d, %o<8>, %t<8>, %i;
\t.reg .b16 %h<16>;
\t.reg .pred %p<8>;
\t.reg .f32 %f<8>;
\t.reg .f64 %fd<8>;
\t.reg .b64 %l<8>, %rin, %rout;
\tld.param.u64 %rin, [pin];
\tld.param.u64 %rout, [pout];
\tmov.u32 %i, %tid.x;
\tmov.u32 %t0, %ctaid.x;
\tmov.u32 %t1, %ntid.x;
\tmad.lo.u32 %i, %t0, %t1, %i;
\tmul.wide.u32 %l0, %i, 16;
\tadd.s64 %rin, %rin, %l0;
\tld.global.v4.u32 {{%a, %b, %c, %d}}, [%rin];
\tmul.wide.u32 %l0, %i, 32;
\tadd.s64 %rout, %rout, %l0;
\tmov.b32 %o0, 0; mov.b32 %o1, 0; mov.b32 %o2, 0; mov.b32 %o3, 0;
\tmov.b32 %o4, 0; mov.b32 %o5, 0; mov.b32 %o6, 0; mov.b32 %o7, 0;
"""
FRAME_TAIL = """\tst.global.v4.u32 [%rout], {%o0, %o1, %o2, %o3};
\tst.global.v4.u32 [%rout+16], {%o4, %o5, %o6, %o7};
\tret;
}
"""

# family -> list of (kernel, checks (8 chars), fmt for 'h' checks, body)
FAMILIES = {}


def kernel(family, name, checks, body, fmt="f16"):
    FAMILIES.setdefault(family, []).append((name, checks, fmt, body.strip("\n")))


# ---- half precision -------------------------------------------------------
kernel("half", "h_arith", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tmov.b32 {%h2, %h3}, %b;
\tadd.f16 %h4, %h0, %h1;
\tsub.f16 %h5, %h0, %h1;
\tmov.b32 %o0, {%h4, %h5};
\tmul.f16 %h4, %h0, %h1;
\tfma.rn.f16 %h5, %h0, %h1, %h2;
\tmov.b32 %o1, {%h4, %h5};
\tadd.ftz.f16 %h4, %h0, %h2;
\tmul.sat.f16 %h5, %h0, %h3;
\tmov.b32 %o2, {%h4, %h5};
\tfma.rn.relu.f16 %h4, %h0, %h1, %h3;
\tfma.rn.sat.f16 %h5, %h2, %h1, %h0;
\tmov.b32 %o3, {%h4, %h5};
\tmin.f16 %h4, %h0, %h1;
\tmax.f16 %h5, %h0, %h1;
\tmov.b32 %o4, {%h4, %h5};
\tmin.NaN.f16 %h4, %h0, %h1;
\tmax.xorsign.abs.f16 %h5, %h0, %h1;
\tmov.b32 %o5, {%h4, %h5};
\tneg.f16 %h4, %h0;
\tabs.f16 %h5, %h1;
\tmov.b32 %o6, {%h4, %h5};
\tfma.rn.ftz.f16 %h4, %h0, %h1, %h3;
\tsub.ftz.sat.f16 %h5, %h3, %h2;
\tmov.b32 %o7, {%h4, %h5};
""")
kernel("half", "h_pair", "xxxxxxxx", """
\tadd.f16x2 %o0, %a, %b;
\tsub.f16x2 %o1, %a, %b;
\tmul.f16x2 %o2, %a, %b;
\tfma.rn.f16x2 %o3, %a, %b, %c;
\tmin.f16x2 %o4, %a, %b;
\tmax.NaN.f16x2 %o5, %a, %b;
\tneg.f16x2 %o6, %a;
\tfma.rn.relu.f16x2 %o7, %a, %b, %c;
""")
kernel("half", "bf_arith", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tmov.b32 {%h2, %h3}, %b;
\tadd.bf16 %h4, %h0, %h1;
\tsub.bf16 %h5, %h0, %h1;
\tmov.b32 %o0, {%h4, %h5};
\tmul.bf16 %h4, %h0, %h1;
\tfma.rn.bf16 %h5, %h0, %h1, %h2;
\tmov.b32 %o1, {%h4, %h5};
\tmin.bf16 %h4, %h0, %h1;
\tmax.bf16 %h5, %h0, %h1;
\tmov.b32 %o2, {%h4, %h5};
\tmin.NaN.bf16 %h4, %h0, %h1;
\tmax.xorsign.abs.bf16 %h5, %h0, %h1;
\tmov.b32 %o3, {%h4, %h5};
\tneg.bf16 %h4, %h0;
\tabs.bf16 %h5, %h1;
\tmov.b32 %o4, {%h4, %h5};
\tfma.rn.relu.bf16 %h4, %h0, %h1, %h3;
\tadd.rn.bf16 %h5, %h2, %h3;
\tmov.b32 %o5, {%h4, %h5};
\tadd.bf16x2 %o6, %a, %b;
\tfma.rn.bf16x2 %o7, %a, %b, %c;
""", fmt="bf16")
kernel("half", "h_cmp", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tmov.b32 {%h2, %h3}, %b;
\tset.eq.u32.f16 %o0, %h0, %h2;
\tset.ltu.u32.f16 %o1, %h0, %h2;
\tset.gtu.f16.f16 %h4, %h0, %h2;
\tset.num.f16.f16 %h5, %h1, %h3;
\tmov.b32 %o2, {%h4, %h5};
\tset.le.u32.f16x2 %o3, %a, %b;
\tset.nan.f16x2.f16x2 %o4, %a, %b;
\tsetp.ne.f16x2 %p0|%p1, %a, %b;
\tselp.u32 %t0, 1, 0, %p0;
\tselp.u32 %t1, 2, 0, %p1;
\tor.b32 %o5, %t0, %t1;
\tsetp.geu.bf16 %p2, %h0, %h2;
\tsetp.lt.or.bf16 %p3, %h1, %h3, %p2;
\tselp.u32 %t0, 1, 0, %p2;
\tselp.u32 %t1, 2, 0, %p3;
\tor.b32 %o6, %t0, %t1;
\tset.lt.bf16x2.bf16x2 %o7, %a, %b;
""")
kernel("half", "h_cvt", "xxxxxxxx", """
\tmov.b32 %f0, %a;
\tmov.b32 {%h0, %h1}, %b;
\tcvt.rn.f16.f32 %h2, %f0;
\tcvt.rz.f16.f32 %h3, %f0;
\tmov.b32 %o0, {%h2, %h3};
\tcvt.rm.f16.f32 %h2, %f0;
\tcvt.rp.f16.f32 %h3, %f0;
\tmov.b32 %o1, {%h2, %h3};
\tcvt.rn.bf16.f32 %h2, %f0;
\tcvt.rz.bf16.f32 %h3, %f0;
\tmov.b32 %o2, {%h2, %h3};
\tcvt.rm.bf16.f32 %h2, %f0;
\tcvt.rp.bf16.f32 %h3, %f0;
\tmov.b32 %o3, {%h2, %h3};
\tcvt.f32.f16 %f1, %h0;
\tmov.b32 %o4, %f1;
\tcvt.f32.bf16 %f1, %h1;
\tmov.b32 %o5, %f1;
\tmov.b32 %f1, %b;
\tcvt.rn.f16x2.f32 %o6, %f0, %f1;
\tcvt.rn.relu.bf16x2.f32 %o7, %f0, %f1;
""")
kernel("half", "h_cvt2", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %b;
\tcvt.rn.f16.s32 %h2, %a;
\tcvt.rz.f16.u32 %h3, %a;
\tmov.b32 %o0, {%h2, %h3};
\tmov.b64 %fd0, {%a, %c};
\tcvt.rn.bf16.s32 %h2, %a;
\tcvt.rn.f16.f64 %h3, %fd0;
\tmov.b32 %o1, {%h2, %h3};
\tcvt.rni.s32.f16 %o2, %h0;
\tcvt.rzi.u32.f16 %o3, %h1;
\tcvt.rmi.s16.f16 %h2, %h0;
\tcvt.rpi.u16.bf16 %h3, %h1;
\tmov.b32 %o4, {%h2, %h3};
\tmov.b64 %l1, {%a, %c};
\tcvt.rm.bf16.f64 %h2, %fd0;
\tcvt.rn.f16.s64 %h3, %l1;
\tmov.b32 %o5, {%h2, %h3};
\tcvt.f64.f16 %fd1, %h0;
\tcvt.rn.f32.f64 %f0, %fd1;
\tmov.b32 %o6, %f0;
\tmov.b32 %f1, %a;
\tcvt.rna.tf32.f32 %o7, %f1;
""")
kernel("half", "h_approx", "hhhhxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tex2.approx.f16 %h2, %h0;
\tex2.approx.ftz.bf16 %h3, %h1;
\tmov.b32 %o0, {%h2, %h3};
\tex2.approx.f16x2 %o1, %a;
\ttanh.approx.f16 %h2, %h0;
\ttanh.approx.f16 %h3, %h1;
\tmov.b32 %o2, {%h2, %h3};
\ttanh.approx.f16x2 %o3, %a;
""")


def write():
    names = []
    for fam, kernels in FAMILIES.items():
        path = os.path.join(HERE, "isa_%s.ptx" % fam)
        with open(path, "w") as f:
            f.write("// Generated by gen_isa.py: ISA tests for %s (see test_codegen_isa.c).\n" % fam)
            f.write(".version 8.4\n.target sm_90\n.address_size 64\n")
            for name, checks, fmt, body in kernels:
                f.write(FRAME_HEAD.format(name=name))
                f.write(body + "\n")
                f.write(FRAME_TAIL)
                names.append((fam, name, checks, fmt))
    with open(os.path.join(HERE, "isa_cases.h"), "w") as f:
        f.write("/* Generated by gen_isa.py: the ISA test kernels, in golden-file order.\n")
        f.write(" * { PTX file, kernel, checks per output word, half format for 'h' checks } */\n")
        for fam, name, checks, fmt in names:
            f.write('ISA_CASE("isa_%s.ptx", "%s", "%s", "%s")\n' % (fam, name, checks, fmt))


if __name__ == "__main__":
    write()
