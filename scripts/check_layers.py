#!/usr/bin/env python3
"""check_layers.py: the layer rules of docs/architecture.md, checked over the
#include lines of src/ and tools/.

Each folder is a layer; a file may include headers of its own layer and of
the layers listed for it below, nothing else. A particular backend
(src/backend/<name>/) is private to itself, but for its public header
src/backend/<name>/<name>_backend.h (what it offers beyond the vtable), which
the registry (src/backend/registry.c, which creates the built-in devices) and
the CLI (`cubridge cache`) may include. Includes without a folder
("cli.h", generated headers such as "kernel_abi_text.h") are the file's own
and are not checked.

  python3 scripts/check_layers.py            check the tree; exit 1 on a broken rule
  python3 scripts/check_layers.py --rules    print the rule table (markdown)
  python3 scripts/check_layers.py --self-test   check the checker on made-up includes
  python3 scripts/check_layers.py --libraries BUILD_DIR
        the static libraries of a build: no library uses a symbol that only a
        library above it defines (nm), so they link one way
"""
import os
import re
import subprocess
import sys

# layer -> the layers it may include (besides itself), lowest first.
RULES = {
    "platform": [],
    "fatbin": ["platform"],
    "ptx": ["platform"],
    "passes": ["platform", "ptx"],
    "codegen": ["platform", "ptx", "passes"],
    "ptxlink": ["platform", "fatbin"],
    "backend": ["platform", "ptx", "passes", "codegen"],
    "backend/*": ["platform", "ptx", "passes", "codegen", "backend"],
    "core": ["platform", "fatbin", "ptx", "passes", "codegen", "ptxlink", "backend"],
    "driver": ["platform", "fatbin", "ptx", "passes", "codegen", "ptxlink", "backend", "core"],
    "inspect": ["platform", "fatbin", "ptx", "passes", "codegen", "backend", "core", "driver"],
    "passthrough": ["platform", "fatbin", "ptx", "passes", "codegen", "backend", "core", "driver", "inspect"],
    "lib": ["platform", "backend", "core", "inspect"],
    "nvjitlink": ["platform", "fatbin", "ptxlink"],
    "cli": ["platform", "fatbin", "ptx", "passes", "codegen", "backend", "backend/*:public", "core", "driver",
            "inspect", "passthrough"],
}

WHY = {
    "platform": "the only place that knows the OS",
    "fatbin": "containers: wrapper, fatbin, ELF, zstd/LZ4",
    "ptx": "lexer, parser, IR, verifier",
    "passes": "the compiler's middle: IR passes, one per file",
    "codegen": "IR -> C-family source, one emitter table per dialect",
    "ptxlink": "PTX merging and cubridge's link container (core and libnvJitLink)",
    "backend": "backend.h (the vtable), the registry, and the compile cache's files (kernel_cache.c)",
    "backend/*": "one device backend (cpu, later opencl); private to itself",
    "core": "devices, contexts, memory, streams, graphs, modules, launch; drives backends only through the vtable",
    "driver": "libcuda's entry points and the export dispatch",
    "inspect": "tracing (wraps the export table), verify (wraps a backend), reports",
    "passthrough": "the personality that forwards to NVIDIA's driver, plugged into the export dispatch",
    "lib": "library facades (src/lib/<name>)",
    "nvjitlink": "libnvJitLink.so.13",
    "cli": "tools/cubridge",
}

# Named exceptions: (file, included layer) pairs a rule would refuse.
EXCEPTIONS = {
    ("src/backend/registry.c", "backend/cpu:public"): "the registry creates the built-in devices",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """The layer of a repository path, or None for files outside the layers."""
    parts = path.split("/")
    if parts[0] == "tools" and len(parts) > 2 and parts[1] == "cubridge":
        return "cli"
    if parts[0] != "src" or len(parts) < 3:
        return None
    top = parts[1]
    if top == "backend":
        return "backend/" + parts[2] if len(parts) > 3 else "backend"
    if top in ("lib", "libs"):
        return "lib"
    return top if top in RULES else None


def include_layer(name):
    """The layer an include names ("core/memory.h" -> core), or None (own or generated)."""
    parts = name.split("/")
    if len(parts) < 2:
        return None
    if parts[0] == "backend":
        if len(parts) == 2:
            return "backend"
        public = len(parts) == 3 and parts[2] == parts[1] + "_backend.h"
        return "backend/" + parts[1] + (":public" if public else "")
    if parts[0] in ("lib", "libs"):
        return "lib"
    return parts[0]


def allowed(src_layer, inc_layer):
    if src_layer is None or inc_layer is None:
        return True
    if inc_layer == src_layer or inc_layer == src_layer + ":public":
        return True
    rule = RULES.get("backend/*" if src_layer.startswith("backend/") else src_layer)
    if rule is None:
        return True
    if inc_layer.startswith("backend/") and inc_layer.endswith(":public"):
        return "backend/*:public" in rule
    return inc_layer in rule   # "backend/<name>" is in no list: private to itself


def violations(files):
    """files: iterable of (path, text). Yields (path, line number, include, why)."""
    for path, text in files:
        src = layer_of(path)
        if src is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = include_layer(m.group(1))
            if allowed(src, inc) or (path, inc) in EXCEPTIONS:
                continue
            if inc not in RULES and not (inc or "").startswith("backend/"):
                continue   # not a layer of ours (a system or toolkit header in quotes)
            yield path, n, m.group(1), "%s may not include %s" % (src, inc)


def tree_files(root):
    for top in ("src", "tools"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h", ".inc", ".def")):
                    full = os.path.join(dirpath, name)
                    rel = os.path.relpath(full, root).replace(os.sep, "/")
                    with open(full, encoding="utf-8", errors="replace") as f:
                        yield rel, f.read()


def print_rules():
    print("| layer (folder) | may include | what it is |")
    print("| --- | --- | --- |")
    for layer, deps in RULES.items():
        folder = {"cli": "tools/cubridge", "lib": "src/lib/<name>", "backend/*": "src/backend/<name>/",
                  "backend": "src/backend/ (top)"}.get(layer, "src/%s" % layer)
        print("| `%s` | %s | %s |" % (folder, ", ".join(deps) if deps else "-", WHY[layer]))
    print("\n`backend/*:public` is a backend's public header, `src/backend/<name>/<name>_backend.h`.")
    for (path, layer), why in EXCEPTIONS.items():
        print("\nException: `%s` includes %s (%s)." % (path, layer, why))


def self_test():
    cases = [
        ("src/core/launch.c", '#include "inspect/inspect.h"', False),
        ("src/core/init.c", '#include "passthrough/passthrough.h"', False),
        ("src/core/texture.c", '#include "backend/cpu/cpu_internal.h"', False),
        ("src/core/memory.c", '#include "backend/backend.h"', True),
        ("src/driver/api_init.c", '#include "backend/cpu/cpu_internal.h"', False),
        ("src/inspect/verify.c", '#include "backend/cpu/cpu_backend.h"', False),
        ("src/inspect/verify.c", '#include "core/memory.h"', True),
        ("src/codegen/c/emit.c", '#include "backend/backend.h"', False),
        ("src/codegen/c/emit.c", '#include "backend/cpu/cpu_internal.h"', False),
        ("src/codegen/c/emit.c", '#include "passes/passes.h"', True),
        ("src/passes/reach.c", '#include "codegen/codegen.h"', False),
        ("src/driver/forward.c", '#include "passthrough/passthrough.h"', False),
        ("src/driver/forward.c", '#include "inspect/inspect.h"', False),
        ("src/passthrough/track.c", '#include "inspect/inspect.h"', True),
        ("src/backend/cpu/cpu_memory.c", '#include "backend/cpu/arena.h"', True),
        ("src/backend/opencl/cl.c", '#include "backend/cpu/arena.h"', False),
        ("src/backend/cpu/cpu_backend.c", '#include "core/core.h"', False),
        ("src/backend/registry.c", '#include "backend/cpu/cpu_backend.h"', True),
        ("src/backend/registry.c", '#include "backend/cpu/cpu_internal.h"', False),
        ("tools/cubridge/cmd_cache.c", '#include "backend/cpu/cpu_backend.h"', True),
        ("tools/cubridge/cmd_cache.c", '#include "backend/cpu/jit_cache.h"', False),
        ("src/core/init.c", '#include "backend/cpu/cpu_backend.h"', False),
        ("src/driver/api_init.c", '#include "backend/cpu/cpu_backend.h"', False),
        ("src/platform/vm.c", '#include "core/core.h"', False),
        ("src/core/memory.c", '#include "kernel_abi_text.h"', True),
    ]
    bad = 0
    for path, line, ok in cases:
        got = not list(violations([(path, line)]))
        if got != ok:
            print("self-test: %s: %s: expected %s" % (path, line, "allowed" if ok else "refused"))
            bad += 1
    print("check_layers self-test: %s (%d cases)" % ("FAIL" if bad else "ok", len(cases)))
    return 1 if bad else 0


# The static libraries, lowest first (CMakeLists.txt).
LIBRARIES = ["cb_platform", "cb_fatbin", "cb_compiler", "cb_ptxlink", "cb_backend_cpu", "cb_core", "cb_driver",
             "cb_inspect", "cb_passthrough"]


def check_libraries(build):
    defined, undefined = {}, {}
    for lib in LIBRARIES:
        path = os.path.join(build, "lib%s.a" % lib)
        if not os.path.exists(path):
            print("check_layers: %s not built" % path)
            return 1
        out = subprocess.run(["nm", "-g", "--defined-only", path], capture_output=True, text=True).stdout
        defined[lib] = {f.split()[-1] for f in out.splitlines() if len(f.split()) == 3}
        out = subprocess.run(["nm", "-u", path], capture_output=True, text=True).stdout
        undefined[lib] = {f.split()[-1] for f in out.splitlines() if f.strip() and not f.endswith(":")}
    bad = 0
    for i, lib in enumerate(LIBRARIES):
        below = set().union(*(defined[k] for k in LIBRARIES[:i + 1]))
        for sym in sorted(undefined[lib] - below):
            for above in LIBRARIES[i + 1:]:
                if sym in defined[above]:
                    print("lib%s.a uses %s, defined only above it in lib%s.a" % (lib, sym, above))
                    bad += 1
                    break
    print("check_layers: libraries %s" % ("ok" if not bad else "link upwards %d times" % bad))
    return 1 if bad else 0


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--rules" in argv:
        print_rules()
        return 0
    if "--self-test" in argv:
        return self_test()
    if "--libraries" in argv:
        i = argv.index("--libraries")
        return check_libraries(argv[i + 1] if i + 1 < len(argv) else "build")
    found = list(violations(tree_files(root)))
    for path, n, inc, why in found:
        print("%s:%d: #include \"%s\": %s (docs/architecture.md)" % (path, n, inc, why))
    if found:
        print("check_layers: %d include(s) break the layer rules" % len(found))
        return 1
    print("check_layers: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
