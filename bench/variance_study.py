#!/usr/bin/env python3
"""Variance components and costs of a Google Benchmark executable, as benchpr runs it
(docs/method.md, "Rounds designed from the noise that is there").

Runs ROUNDS rounds; each round starts one process per min time in --min-times, in a new random
order, each from a fresh copy of EXE (as benchpr runs every round from fresh copies), with
--benchmark_repetitions=REPS, --benchmark_enable_random_interleaving=true and every repetition
reported. Per benchmark and min time, on log(cpu_time):

  within   the variance of one repetition inside a process (pooled over processes),
  between  the variance of a process's mean that repetitions do not remove:
           Var(process mean) - within / REPS (method of moments, at least 0).

Per min time, the cost of a process: its CPU time (from wait4, through getrusage), the time its
benchmarks' timed loops account for (iterations x cpu_time of every repetition), and the rest,
which is the library's probing of iteration counts and the process's fixed cost. A least-squares
line of that rest against the min time splits it into the fixed cost per process (intercept) and
the probing cost per benchmark in units of the min time (slope / benchmarks).

    bench/variance_study.py build/cctz_benchmark --rounds 8 --repetitions 5 \\
        --min-times 0.01,0.05,0.1 --json components.json

--json writes the components for `method_study --round-design FILE`, which shows the round
design benchpr chooses from them. Standard library only.
"""

import argparse
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def run_process(exe, min_time, reps, out_path, bench_filter):
    env = dict(os.environ)
    env.update({
        "BENCHMARK_OUT": out_path,
        "BENCHMARK_OUT_FORMAT": "json",
        "BENCHMARK_FORMAT": "console",
        "BENCHMARK_REPETITIONS": str(reps),
        "BENCHMARK_ENABLE_RANDOM_INTERLEAVING": "true",
        "BENCHMARK_MIN_TIME": f"{min_time:g}",
        "BENCHMARK_REPORT_AGGREGATES_ONLY": "false",
    })
    if bench_filter:
        env["BENCHMARK_FILTER"] = bench_filter
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([exe], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(out_path) as f:
        doc = json.load(f)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    reps_by_name = {}
    loop_seconds = 0.0
    for b in doc["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        unit = scale[b.get("time_unit", "ns")]
        cpu_ns = b["cpu_time"] * unit * 1e9
        reps_by_name.setdefault(b.get("run_name", b["name"]), []).append(math.log(cpu_ns))
        loop_seconds += b["iterations"] * b["cpu_time"] * unit
    return {"wall": wall, "cpu": cpu, "loop": loop_seconds, "reps": reps_by_name}


def variance(xs):
    n = len(xs)
    if n < 2:
        return float("nan")
    m = sum(xs) / n
    return sum((x - m) ** 2 for x in xs) / (n - 1)


def line_fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
    return my - slope * mx, slope


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("exe")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-times", default="0.01,0.05,0.1")
    ap.add_argument("--filter", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    min_times = [float(m) for m in args.min_times.split(",")]
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="variance-study-")
    runs = {m: [] for m in min_times}
    started = time.monotonic()
    try:
        for r in range(args.rounds):
            order = list(min_times)
            rng.shuffle(order)
            for i, m in enumerate(order):
                copy = os.path.join(work, f"r{r:03d}-{i}", os.path.basename(args.exe))
                os.makedirs(os.path.dirname(copy))
                shutil.copy2(args.exe, copy)
                runs[m].append(run_process(copy, m, args.repetitions,
                                           os.path.join(work, f"r{r:03d}-{i}.json"), args.filter))
                shutil.rmtree(os.path.dirname(copy))
            print(f"round {r + 1} of {args.rounds} done, {time.monotonic() - started:.0f}s",
                  file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    names = sorted(runs[min_times[0]][0]["reps"].keys())
    out = {"repetitions": args.repetitions, "rounds": args.rounds, "min_times": min_times,
           "benchmarks": [], "costs": []}
    print(f"{len(names)} benchmarks, {args.rounds} processes per min time, "
          f"{args.repetitions} repetitions each; sigma in % of the time (log scale)\n")
    header = "| benchmark | " + " | ".join(
        f"ns @{m:g}s | within @{m:g}s | between @{m:g}s" for m in min_times) + " |"
    print(header)
    print("|:--|" + "--:|" * (3 * len(min_times)))
    for name in names:
        row = {"name": name, "per_min_time": []}
        cells = []
        for m in min_times:
            procs = [p["reps"][name] for p in runs[m] if len(p["reps"].get(name, [])) >= 2]
            within = sum(variance(x) for x in procs) / len(procs)
            means = [sum(x) / len(x) for x in procs]
            between = max(0.0, variance(means) - within / args.repetitions)
            ns = math.exp(sum(means) / len(means))
            row["per_min_time"].append({"min_time": m, "ns": ns, "within": within,
                                        "between": between, "processes": len(procs)})
            cells.append(f"{ns:.1f} | {100 * math.sqrt(within):.2f}% | "
                         f"{100 * math.sqrt(between):.2f}%")
        out["benchmarks"].append(row)
        print(f"| {name} | " + " | ".join(cells) + " |")

    print("\n| min time | process wall s | process CPU s | timed loops s | rest (probing, fixed) s |")
    print("|--:|--:|--:|--:|--:|")
    xs, ys, ws = [], [], []
    for m in min_times:
        rs = runs[m]
        wall = sum(p["wall"] for p in rs) / len(rs)
        cpu = sum(p["cpu"] for p in rs) / len(rs)
        loop = sum(p["loop"] for p in rs) / len(rs)
        out["costs"].append({"min_time": m, "wall": wall, "cpu": cpu, "loop": loop})
        for p in rs:
            xs.append(m)
            ys.append(p["cpu"] - p["loop"])
            ws.append(p["wall"] - p["loop"])
        print(f"| {m:g} | {wall:.2f} | {cpu:.2f} | {loop:.2f} | {cpu - loop:.2f} |")
    fixed, slope = line_fit(xs, ys)
    fixed_wall, _ = line_fit(xs, ws)
    n = len(names)
    loop_per_rep = [c["loop"] / (n * args.repetitions * c["min_time"]) for c in out["costs"]]
    out["fixed_seconds"] = fixed
    out["fixed_wall_seconds"] = fixed_wall
    out["probe_min_times"] = slope / n
    out["loop_min_times"] = sum(loop_per_rep) / len(loop_per_rep)
    print(f"\nfixed cost per process {fixed:.3f} s CPU, {fixed_wall:.3f} s wall; probing {slope / n:.2f} min times per "
          f"benchmark; a repetition's timed loop {out['loop_min_times']:.2f} min times")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
