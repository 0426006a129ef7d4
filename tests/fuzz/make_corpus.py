#!/usr/bin/env python3
"""make_corpus.py: (re)writes the seed corpora under tests/fuzz/corpus/.

  corpus/fatbin/     the containers of tests/data/fatbin, bare PTX, the
                     same fatbins behind a wrapper header (see
                     fuzz_fatbin.c), truncations at telling points and
                     header fields set to edge values.
  corpus/ptx_parse/  PTX of tests/data/ptx (the small, non -G files), of
  corpus/translate/  tests/data/ptx/isa and, when nvcc is on PATH, of each
                     tests/cuda program (nvcc -ptx -arch=sm_86), plus a few
                     hand-written malformed texts.
Deterministic: the same inputs give the same files. Run from anywhere.
"""
import glob, os, shutil, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
WRAPPER_MAGIC = 0x466243B1


def write(kind, name, data):
    d = os.path.join(OUT, kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def wrapper(version, body, a=0, b=0):
    return struct.pack("<IIQQ", WRAPPER_MAGIC, version, a, b) + body


def fatbin_seeds():
    files = sorted(glob.glob(os.path.join(ROOT, "tests/data/fatbin/*.fatbin")))
    files += [os.path.join(ROOT, "tests/data/fatbin", n) for n in ("prog.nv_fatbin", "add86.cubin", "add75.ptx")]
    for path in files:
        base = os.path.basename(path).replace(".", "_")
        data = open(path, "rb").read()
        write("fatbin", base, data)
        if not data.startswith(b"\x50\xed\x55\xba"):
            continue
        write("fatbin", base + "_wrap1", wrapper(1, data))
        write("fatbin", base + "_wrap2", wrapper(2, data + data, 0, len(data)))
        for cut in (4, 8, 15, 16, 24, 63, 64, 65, len(data) // 2, len(data) - 1):
            if 0 < cut < len(data):
                write("fatbin", "%s_cut%d" % (base, cut), data[:cut])
        # header_size, files_size and the first entry's kind/offset/size set to edges.
        for off, fmt, vals in ((6, "<H", (0, 8, 0xffff)), (8, "<Q", (0, 1, 2**63)),
                               (16, "<H", (0, 3, 0xffff)), (20, "<I", (0, 0xffffffff)),
                               (24, "<Q", (0, 2**64 - 1))):
            for v in vals:
                if off + struct.calcsize(fmt) <= len(data):
                    m = bytearray(data)
                    struct.pack_into(fmt, m, off, v)
                    write("fatbin", "%s_f%d_%x" % (base, off, v), bytes(m))


BAD_PTX = {
    "bad_opcode.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1, 1;\n\tret;\n}\n",
    "bad_reg.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.u32 %r9, %r1, 1;\n\tret;\n}\n",
    "unterminated.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k(\n\t.param .u64 p\n",
    "empty_entry.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n}\n",
    "label_loop.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<2>;\nL1:\n@%p1 bra L1;\nbra.uni L2;\nL2:\nret;\n}\n",
}


def ptx_seeds():
    paths = [p for p in sorted(glob.glob(os.path.join(ROOT, "tests/data/ptx/*.ptx"))) if not p.endswith(".debug.ptx")]
    paths += sorted(glob.glob(os.path.join(ROOT, "tests/data/ptx/isa/*.ptx")))
    texts = {os.path.basename(p): open(p, "rb").read() for p in paths}
    texts.update(BAD_PTX)
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if nvcc:
        with tempfile.TemporaryDirectory() as tmp:
            for cu in sorted(glob.glob(os.path.join(ROOT, "tests/cuda/*.cu"))):
                out = os.path.join(tmp, "k.ptx")
                r = subprocess.run([nvcc, "-ptx", "-arch=sm_86", "-I", os.path.dirname(cu), cu, "-o", out],
                                   capture_output=True)
                if r.returncode == 0:
                    texts["cuda_" + os.path.basename(cu)[:-3] + ".ptx"] = open(out, "rb").read()
    for name, data in texts.items():
        write("ptx_parse", name, data)
        write("translate", name, data)


def main():
    for kind in ("fatbin", "ptx_parse", "translate"):
        shutil.rmtree(os.path.join(OUT, kind), ignore_errors=True)
    fatbin_seeds()
    ptx_seeds()
    for kind in ("fatbin", "ptx_parse", "translate"):
        print(kind, len(os.listdir(os.path.join(OUT, kind))))


if __name__ == "__main__":
    sys.exit(main())
