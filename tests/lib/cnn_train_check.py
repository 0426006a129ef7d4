#!/usr/bin/env python3
"""cnn_train_check.py CUBRIDGE PROGRAM GOLDEN

Runs tests/lib/cnn_train through `CUBRIDGE run --` and compares its loss
curve with GOLDEN, the same binary's stdout recorded natively on an H200
(NVIDIA's cuDNN 9.19 and cuBLAS; tests/data/cudnn/cnn_train.h200.txt).

It passes when the program exits 0 and prints "PASS cnn_train", every step
0..199 of the golden curve is there, each loss is within

    |loss - golden| <= ABS_TOL + REL_TOL * golden      (ABS 5e-4, REL 5e-3)

and the final accuracy line is the golden one. The measured difference is
printed (docs/cudnn.md records it: 1e-6 absolute, the curves' printed
precision, on the CPU backend). The tolerance leaves room for summation
orders of other CPUs and BLAS builds; a wrong gradient anywhere moves the
curve by far more within a few steps.
"""
import re
import subprocess
import sys

ABS_TOL = 5e-4
REL_TOL = 5e-3
STEPS = 200


def curve(text):
    steps = {}
    for m in re.finditer(r"^step (\d+) loss (\S+)$", text, re.M):
        steps[int(m.group(1))] = float(m.group(2))
    acc = re.search(r"^accuracy .*$", text, re.M)
    return steps, acc.group(0) if acc else None


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    cubridge, program, golden_path = sys.argv[1:]
    with open(golden_path) as f:
        want, want_acc = curve(f.read())
    if sorted(want) != list(range(STEPS)) or want_acc is None:
        print(f"cnn_train_check: {golden_path} is not a {STEPS}-step recording", file=sys.stderr)
        return 1
    run = subprocess.run([cubridge, "run", "--", program], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         text=True)
    sys.stdout.write(run.stdout)
    if run.returncode != 0 or not re.search(r"^PASS cnn_train$", run.stdout, re.M):
        print(f"cnn_train_check: cnn_train exited {run.returncode} without PASS", file=sys.stderr)
        return 1
    got, got_acc = curve(run.stdout)
    worst_abs = worst_rel = 0.0
    bad = []
    for s in range(STEPS):
        if s not in got:
            bad.append(f"step {s} missing")
            continue
        d = abs(got[s] - want[s])
        worst_abs = max(worst_abs, d)
        worst_rel = max(worst_rel, d / want[s])
        if not d <= ABS_TOL + REL_TOL * want[s]:   # NaN fails too
            bad.append(f"step {s}: loss {got[s]} against the H200's {want[s]}")
    if got_acc != want_acc:
        bad.append(f"final line '{got_acc}' against the H200's '{want_acc}'")
    print(f"cnn_train_check: max |loss - H200| {worst_abs:.3g} (relative {worst_rel:.3g}); "
          f"tolerance {ABS_TOL:g} + {REL_TOL:g} x loss")
    for b in bad[:10]:
        print("cnn_train_check: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
