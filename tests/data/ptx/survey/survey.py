#!/usr/bin/env python3
"""survey.py [--archs 75,80,...] [--cubridge PATH] [--work DIR] [SRC.cu ...]

Compiles each survey source (default: s_*.cu beside this script) to PTX for
each virtual architecture with `nvcc -arch=compute_XX -ptx`, splits every
module into one module per kernel (split_ptx.py), and runs each through
`cubridge ptx`. When the translator stops at line N, that line is blanked and
the kernel translated again, so every failing instruction of every kernel is
listed, not only the first. Prints one line per distinct failure:

    <instruction>\t<reason>\t<archs>\t<kernels>

and a summary of kernels that translate cleanly. Needs nvcc on PATH."""
import argparse, collections, glob, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '../../../..'))
DEFAULT_ARCHS = '75,80,86,87,89,90,90a,100,100a,100f,103,110,120,120a,120f'
ERR = re.compile(r"^(.*?):(\d+): near '([^']*)': (.*)$")

def compile_ptx(src, arch, out):
    r = subprocess.run(['nvcc', '-arch=compute_' + arch, '-ptx', '-std=c++17', '-w', src, '-o', out],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stderr

def translate_all(cb, ptx, scratch):
    """[(line, instruction, reason)] for every failing line of one module."""
    lines = open(ptx).read().split('\n')
    fails = []
    for _ in range(200):
        with open(scratch, 'w') as f:
            f.write('\n'.join(lines))
        r = subprocess.run([cb, 'ptx', scratch, '--out', os.devnull], capture_output=True, text=True)
        if r.returncode == 0:
            return fails, True
        m = ERR.match(r.stderr.strip().split('\n')[0])
        if not m:
            fails.append((0, '?', r.stderr.strip().split('\n')[0]))
            return fails, False
        n = int(m.group(2))
        if n < 1 or n > len(lines) or not lines[n - 1].strip():
            fails.append((n, m.group(3), m.group(4) + ' (cannot skip)'))
            return fails, False
        fails.append((n, m.group(3), m.group(4)))
        # blank the statement: from line n to the line that ends it with ';'
        # (a call spans several lines), or line n alone
        k = n - 1
        while k < len(lines) and ';' not in lines[k] and k < n + 20:
            k += 1
        # (braces stay, so that an inline-asm scope still closes)
        for j in range(n - 1, min(k, len(lines) - 1) + 1):
            lines[j] = ''.join(ch for ch in lines[j] if ch in '{}')
    return fails, False

def form_of(instr):
    # mask register operands and immediates out of the token the error names
    return instr.split()[0] if instr else instr

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--archs', default=DEFAULT_ARCHS)
    ap.add_argument('--cubridge', default=os.path.join(ROOT, 'build/bin/cubridge'))
    ap.add_argument('--work', default='/tmp/cb_ptx_survey')
    ap.add_argument('srcs', nargs='*')
    a = ap.parse_args()
    srcs = a.srcs or sorted(glob.glob(os.path.join(HERE, 's_*.cu')))
    os.makedirs(a.work, exist_ok=True)
    failures = collections.OrderedDict()
    clean, total, nvcc_fail = 0, 0, []
    for src in srcs:
        base = os.path.splitext(os.path.basename(src))[0]
        for arch in a.archs.split(','):
            ptx = os.path.join(a.work, '%s.%s.ptx' % (base, arch))
            ok, err = compile_ptx(src, arch, ptx)
            if not ok:
                nvcc_fail.append('%s sm_%s: %s' % (base, arch, err.strip().split('\n')[0][:160]))
                continue
            kdir = os.path.join(a.work, '%s.%s.d' % (base, arch))
            subprocess.run([sys.executable, os.path.join(HERE, 'split_ptx.py'), ptx, kdir], check=True)
            for kp in sorted(glob.glob(os.path.join(kdir, '*.ptx'))):
                kname = os.path.splitext(os.path.basename(kp))[0]
                fails, ok = translate_all(a.cubridge, kp, os.path.join(a.work, 'scratch.ptx'))
                total += 1
                clean += ok and not fails
                for _, instr, reason in fails:
                    key = (form_of(instr), reason)
                    e = failures.setdefault(key, (set(), set()))
                    e[0].add(arch)
                    e[1].add(kname)
    def archkey(s):
        m = re.match(r'(\d+)(\w*)', s)
        return (int(m.group(1)), m.group(2))
    for (instr, reason), (archs, kernels) in failures.items():
        print('%s\t%s\t%s\t%s' % (instr, reason, ','.join(sorted(archs, key=archkey)), ','.join(sorted(kernels))))
    print('# %d of %d kernel modules translate cleanly' % (clean, total), file=sys.stderr)
    for f in nvcc_fail:
        print('# nvcc: ' + f, file=sys.stderr)

main()
