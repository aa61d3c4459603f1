#!/usr/bin/env python3
"""Variance components of a Google Benchmark executable: between files holding the same bytes,
between processes of one file, and within a process (docs/method.md, "The file is not the code").

Makes FILES files of EXE (the original's own inode, through a hard link, and fresh copies, made
the ways --make lists), every one at a path of the same length, then runs PROCESSES rounds; each
round starts one process per file, in a new random order, each running the selected benchmarks
with --benchmark_repetitions=REPS. A nested analysis of variance on log(cpu_time) splits the
variance into the three components (method of moments, balanced design) and tests the file
component with F = MS(file) / MS(process within file).

    bench/file_effect_study.py build/bench/cctz_benchmark --filter 'BM_Format_FormatTime/[234]' \\
        --files 6 --processes 8 --repetitions 5 --make big,small

Copy makers: big (1 MiB writes), small (4 KiB writes: the page cache gets small folios), mmap
(written page by page through a shared mapping, last page first, as some linkers write), and
evicted (a big copy whose pages are dropped with posix_fadvise before the first run, so they are
read back from disk). The original is always file 0. Standard library only.
"""

import argparse
import json
import math
import mmap
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time


def copy_with_writes(src, dst, chunk):
    with open(src, "rb") as f:
        data = f.read()
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o755)
    try:
        for i in range(0, len(data), chunk):
            os.write(fd, data[i:i + chunk])
        os.fsync(fd)
    finally:
        os.close(fd)


def make_file(kind, src, dst):
    if kind == "original":
        os.link(src, dst)
    elif kind == "big":
        copy_with_writes(src, dst, 1 << 20)
    elif kind == "small":
        copy_with_writes(src, dst, 4096)
    elif kind == "mmap":
        # As a linker that writes its output through a shared mapping (lld, gold): the page
        # cache gets one small folio per page fault, here in reverse order.
        with open(src, "rb") as f:
            data = f.read()
        fd = os.open(dst, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o755)
        try:
            os.ftruncate(fd, len(data))
            with mmap.mmap(fd, len(data), mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE) as m:
                for start in reversed(range(0, len(data), 4096)):
                    m[start:start + 4096] = data[start:start + 4096]
                m.flush()
        finally:
            os.close(fd)
    elif kind == "evicted":
        copy_with_writes(src, dst, 1 << 20)
        fd = os.open(dst, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    else:
        raise SystemExit(f"unknown copy maker {kind!r} (big, small, mmap, evicted)")


def run_once(path, args):
    out = subprocess.run([path] + args, capture_output=True, text=True, check=True).stdout
    values = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        values.setdefault(b.get("run_name", b["name"]), []).append(b["cpu_time"])
    return values


# --- F distribution tail through the regularised incomplete beta (continued fraction) ---------
def betacf(a, b, x):
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > 1e-300 else 1e-300
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > 1e-300 else 1e-300
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-12:
            break
    return h


def betai(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def f_tail(f, d1, d2):
    """P(F(d1, d2) > f)."""
    if f <= 0:
        return 1.0
    return betai(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f))


def mean(xs):
    return sum(xs) / len(xs)


def components(cube):
    """cube[file][process][rep] of log values, balanced. Returns sigmas (as fractions) and F, p."""
    k, p, r = len(cube), len(cube[0]), len(cube[0][0])
    grand = mean([v for f in cube for pr in f for v in pr])
    file_means = [mean([v for pr in f for v in pr]) for f in cube]
    proc_means = [[mean(pr) for pr in f] for f in cube]
    ss_file = p * r * sum((m - grand) ** 2 for m in file_means)
    ss_proc = r * sum((proc_means[i][j] - file_means[i]) ** 2 for i in range(k) for j in range(p))
    ss_within = sum((v - proc_means[i][j]) ** 2 for i in range(k) for j in range(p) for v in cube[i][j])
    ms_file = ss_file / (k - 1)
    ms_proc = ss_proc / (k * (p - 1))
    ms_within = ss_within / (k * p * (r - 1)) if r > 1 else 0.0
    var_within = ms_within
    var_proc = max(0.0, (ms_proc - ms_within) / r) if r > 1 else ms_proc
    var_file = max(0.0, (ms_file - ms_proc) / (p * r))
    f = ms_file / ms_proc if ms_proc > 0 else float("inf")
    return {
        "within": math.sqrt(var_within),
        "process": math.sqrt(var_proc),
        "file": math.sqrt(var_file),
        "F": f,
        "p": f_tail(f, k - 1, k * (p - 1)),
        "file_means": [math.exp(m) for m in file_means],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("exe")
    ap.add_argument("--filter", default=".")
    ap.add_argument("--files", type=int, default=6)
    ap.add_argument("--processes", type=int, default=6)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.05)
    ap.add_argument("--make", default="big", help="comma-separated copy makers, used in turn")
    ap.add_argument("--dir", default=None, help="where the files go (default: beside EXE)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="also write the raw values here")
    a = ap.parse_args()
    if a.files < 2 or a.processes < 2:
        raise SystemExit("--files and --processes must be at least 2")
    rng = random.Random(a.seed)
    exe = os.path.abspath(a.exe)
    work = tempfile.mkdtemp(prefix="fe-", dir=a.dir or os.path.dirname(exe))
    makers = a.make.split(",")
    files = []
    try:
        for i in range(a.files):
            kind = "original" if i == 0 else makers[(i - 1) % len(makers)]
            path = os.path.join(work, f"f{i:02d}")
            make_file(kind, exe, path)
            files.append((kind, path))
            time.sleep(0.2)  # copies made at different times
        args = [f"--benchmark_filter={a.filter}", f"--benchmark_repetitions={a.repetitions}",
                f"--benchmark_min_time={a.min_time}", "--benchmark_format=json"]
        raw = [[None] * a.processes for _ in files]
        started = time.time()
        for p in range(a.processes):
            order = list(range(len(files)))
            rng.shuffle(order)
            for i in order:
                raw[i][p] = run_once(files[i][1], args)
            print(f"round {p + 1}/{a.processes} done, {time.time() - started:.0f} s, "
                  f"load {os.getloadavg()[0]:.1f}", file=sys.stderr)
        names = sorted(set.intersection(*[set(r.keys()) for f in raw for r in f]))
        print(f"files: " + ", ".join(f"{i}={k}" for i, (k, _) in enumerate(files)))
        print(f"{len(files)} files x {a.processes} processes x {a.repetitions} repetitions; "
              f"sigma of log(cpu_time) in % of the time")
        print("| benchmark | mean ns | within a process | between processes | between files | F | p |"
              " slowest/fastest file |")
        print("|:--|--:|--:|--:|--:|--:|--:|--:|")
        report = {}
        for n in names:
            r = min(len(raw[i][p][n]) for i in range(len(files)) for p in range(a.processes))
            cube = [[[math.log(v) for v in raw[i][p][n][:r]] for p in range(a.processes)]
                    for i in range(len(files))]
            c = components(cube)
            fm = c["file_means"]
            print(f"| {n} | {mean(fm):.1f} | {100 * c['within']:.2f} | {100 * c['process']:.2f} | "
                  f"{100 * c['file']:.2f} | {c['F']:.2f} | {c['p']:.3g} | {max(fm) / min(fm):.3f} |")
            report[n] = {"components": c, "files": [k for k, _ in files],
                         "values": [[raw[i][p][n] for p in range(a.processes)] for i in range(len(files))]}
        print("\nper-file geometric means (ns):")
        for n in names:
            fm = report[n]["components"]["file_means"]
            print(f"  {n}: " + "  ".join(f"{files[i][0][:3]}{i}={fm[i]:.1f}" for i in range(len(files))))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(report, f)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
