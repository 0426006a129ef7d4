#!/usr/bin/env python3
"""Writes coverage_data.inc: NVIDIA's exports per library, and the test that calls each.

The build runs it (src/lib/CMakeLists.txt) into build/generated/inspect/, so the
data follows the toolkit and the tests; nothing is kept in src/.

For each library the list is the ELF dynamic symbol table of the installed
toolkit's library (`nm -D --defined-only`, functions only):
  driver    lib64/stubs/libcuda.so                      (cu*)
  cudart    the driver entry points NVIDIA's cudart asks cuGetProcAddress
            for: the strings of lib64/libcudart.so.13 that name an api of
            src/driver/exports.inc; the symbol recorded is the one that
            cuGetProcAddress(api, 13000) hands out
  cublas, cublasLt, cudnn, curand, cufft, cusparse, cusolver, nvrtc, nvJitLink
            lib64/lib<name>.so.N, read by scripts/gen_lib_exports.py (the
            export machine of the library facades: one reader for both)

"Tested": a function counts as tested when a test calls it. A call is
  1. its name (without _v2/_ptsz/_ptds suffixes), or a name that the
     library's header #defines to it (cublas_v2.h: cublasSgemm_64 ->
     cublasSgemm_v2_64), or a static inline function of the header that
     returns its call (cublasLt.h: cublasLtMatmulDescInit ->
     cublasLtMatmulDescInit_internal), followed by "(" in a test source: tests/unit/*.c,
     tests/cuda/*.cu, tests/lib/*, tests/inspect/*, tests/probe/*; the
     tests/lib programs also after the C preprocessor (their own lines), as
     they name calls through macros. A name the header renames counts only
     for its target: the legacy export cublasSgemm is not called by a test
     that writes cublasSgemm( under cublas_v2.h;
  2. or, with --observed FILE, a line "NAME TEST" of FILE: NAME was seen in
     the inspector's trace of test program TEST (tests/inspect/observe_calls.sh
     writes that file by running tests/cuda under CUBRIDGE_INSPECT=trace) --
     this is how the runtime-API test programs, which reach the driver only
     through cudart, count.
The first test found is recorded. Rerun after adding tests or a toolkit update.

Usage: scripts/gen_coverage.py --out FILE [--cuda /usr/local/cuda] [--observed data/coverage/observed_calls.txt]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_lib_exports  # noqa: E402

# (library, NVIDIA's file, headers whose #defines rename its exports)
LIBRARIES = [
    ("cublas", "libcublas.so.*", ["cublas_v2.h"]), ("cublasLt", "libcublasLt.so.*", ["cublasLt.h"]),
    ("cudnn", "libcudnn.so.*", []), ("curand", "libcurand.so.*", []), ("cufft", "libcufft.so.*", []),
    ("cusparse", "libcusparse.so.*", []), ("cusolver", "libcusolver.so.*", []), ("nvrtc", "libnvrtc.so.*", []),
    ("nvJitLink", "libnvJitLink.so.*", []),
]


def inline_wrappers(include_dir, headers):
    """`static inline` functions of the headers whose body returns one export's
    call (cublasLt.h: cublasLtMatmulDescInit -> cublasLtMatmulDescInit_internal):
    a test that calls the wrapper calls the export."""
    out = {}
    for h in headers:
        path = os.path.join(include_dir, h)
        if not os.path.exists(path):
            continue
        text = open(path, errors="replace").read()
        for m in re.finditer(r"static\s+inline\s+[\w\s\*]+?\b(\w+)\s*\([^)]*\)\s*\{\s*return\s+(\w+)\s*\(", text):
            out[m.group(1)] = m.group(2)
    return out


def functions(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in ("T", "W", "i"):
            syms.add(parts[2].split("@")[0])
    return sorted(syms)


def proc_rows():
    text = open(os.path.join(ROOT, "src/driver/exports.inc")).read()
    rows = re.findall(r"^CB_PROC\((\w+), (\d+), (\w+), (\d)\)", text, re.M)
    newest = {}
    for api, v, sym, pt in rows:
        if pt == "0" and int(v) <= 13000 and (api not in newest or int(v) > newest[api][0]):
            newest[api] = (int(v), sym)
    return {api: sym for api, (v, sym) in newest.items()}


def cudart_requests(cuda, apis):
    libs = sorted(glob.glob(os.path.join(cuda, "lib64/libcudart.so.*")))
    if not libs:
        return []
    data = open(libs[0], "rb").read()
    names = set(m.decode() for m in re.findall(rb"\x00(cu[A-Z]\w+)\x00", data))
    return sorted(n for n in names if n in apis)


def base_name(sym):
    return re.sub(r"(_v\d+)?(_ptsz|_ptds)?$", "", sym)


def expanded(path, cuda):
    """A test source after the preprocessor, its own lines only: the tests
    of tests/lib name their calls through macros (cublas##S##gemm), and
    cublas_v2.h renames them again; what the compiler sees is what counts."""
    cmd = [os.environ.get("CXX", "c++"), "-E", "-x", "c++", "-std=c++14", f"-I{cuda}/include",
           f"-I{os.path.dirname(path)}", path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gen_coverage: cannot preprocess {path}:\n{r.stderr[-2000:]}")
    keep, mine, out = os.path.realpath(path), False, []
    for line in r.stdout.splitlines():
        m = re.match(r'^# \d+ "([^"]+)"', line)
        if m:
            mine = os.path.realpath(m.group(1)) == keep
        elif mine:
            out.append(line)
    return "\n".join(out)


def test_sources(cuda):
    pats = ["tests/unit/*.c", "tests/unit/*.h", "tests/cuda/*.cu", "tests/cuda/*.h", "tests/lib/*.cu", "tests/lib/*.h",
            "tests/lib/*.c", "tests/inspect/*", "tests/probe/*.cu"]
    files = []
    for p in pats:
        files += sorted(glob.glob(os.path.join(ROOT, p)))
    out = []
    for f in files:
        if not os.path.isfile(f):
            continue
        text = open(f, errors="replace").read()
        if f.endswith(".cu") and os.path.basename(os.path.dirname(f)) == "lib":
            text += "\n" + expanded(f, cuda)
        out.append((os.path.relpath(f, ROOT), text))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    ap.add_argument("--observed", default=os.path.join(ROOT, "data/coverage/observed_calls.txt"))
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    entries = []
    entries += [("driver", s) for s in functions(os.path.join(a.cuda, "lib64/stubs/libcuda.so")) if s.startswith("cu")]
    apis = proc_rows()
    entries += [("cudart", apis[n]) for n in cudart_requests(a.cuda, apis)]
    aliases = {}
    inline = {}
    for lib, pattern, alias_headers in LIBRARIES:
        found = sorted(glob.glob(os.path.join(a.cuda, "lib64", pattern)))
        if found:
            entries += [(lib, s) for s in gen_lib_exports.library_exports(found[0])]
            for name, target in gen_lib_exports.header_aliases(os.path.join(a.cuda, "include"), alias_headers).items():
                aliases.setdefault(target, []).append(name)
            for name, target in inline_wrappers(os.path.join(a.cuda, "include"), alias_headers).items():
                inline.setdefault(target, []).append(name)
    sources = test_sources(a.cuda)
    called = {}
    for path, text in sources:
        for m in re.finditer(r"\b([a-zA-Z_]\w*)\s*\(", text):
            called.setdefault(m.group(1), path)
    observed = {}
    if a.observed and os.path.exists(a.observed):
        for line in open(a.observed):
            parts = line.split()
            if len(parts) >= 2:
                observed.setdefault(parts[0], parts[1])
    lines = [
        "/* coverage_data.inc: NVIDIA's exports per library and the test that calls each.",
        f" * Generated at build time by scripts/gen_coverage.py from {a.cuda} and tests/; do not edit.",
        " * CBI_COV(library, symbol, tested_by): tested_by is NULL when no test calls it. */",
    ]
    # A name the header #defines to another (cublas_v2.h: cublasSgemm ->
    # cublasSgemm_v2) is never called by a test that includes the header:
    # its calls are the target's. The legacy export of that name is not tested by them.
    renamed = {name for names in aliases.values() for name in names}
    for lib, sym in entries:
        t = None if sym in renamed else called.get(base_name(sym)) or called.get(sym)
        for alias in aliases.get(sym, []) + inline.get(sym, []):
            t = t or called.get(alias)
        if not t and sym in observed:
            t = "trace of " + observed[sym]
        lines.append(f'CBI_COV("{lib}", "{sym}", {chr(34) + t + chr(34) if t else "NULL"})')
    text = "\n".join(lines) + "\n"
    if not (os.path.exists(a.out) and open(a.out).read() == text):
        with open(a.out, "w") as f:
            f.write(text)
    per = {}
    for lib, _ in entries:
        per[lib] = per.get(lib, 0) + 1
    print(f"{a.out}: " + ", ".join(f"{k} {v}" for k, v in per.items()))


if __name__ == "__main__":
    main()
