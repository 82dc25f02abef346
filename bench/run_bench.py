"""Tempo vs the PyTorch peers: reference vs compiled engine, side by side with the peers.

Run with Debian's python (the one that has torch), from the repository root, after building:

    /usr/bin/python3 bench/run_bench.py                      # the full table (~10 min when quiet)
    /usr/bin/python3 bench/run_bench.py --only rnn --rounds 1  # a subset, quickly
    /usr/bin/python3 bench/run_bench.py --dry-run            # list the commands only
    python3 bench/run_bench.py --python /tmp/peers-venv/bin/python --only reinforce --no-examples
        # the peers under torch 2 from PyPI (../shared/peers/README.md: the venv)

For every workload and size it runs, one process per configuration (so each peak RSS is that
configuration's), our bench driver (build/bench/tempo_bench) with the compiled engine (default
sgemm, f32 matmul accumulation, and --matmul f64) and the matching peer variants of ../shared/peers
interleaved (A B C A B C ... over --rounds rounds), and the reference engine once per size (at a
smaller T for the decoder, which the table states, next to the compiled engine at that T).
Ratios are taken per round (ours vs each peer variant of the same round) and the table gives
their median and range: the machine is noisy, so only interleaved pairs are compared. Times
are per unit of work: one RNN step (all B sequences) or one decoded token (all B sequences).
Every run's checksum is compared with the peer's (and the reference engine's with the compiled
engine's); a mismatch is flagged in the table. Our examples (resources/examples/*.tpo) are
timed at their default size (their data files) and at a larger size with synthetic inputs
(tempo_bench --synthetic), reference vs compiled only, 3 repetitions each.

Prints the markdown table (the one in docs/performance.md) on stdout and appends every raw
record to --jsonl.
"""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"  # Debian's python: sees python3-torch

# Each workload: our program, the bound counting units of work, our output -> peer checksum
# field, the peer variants, rounds (None: --rounds), and per size our bounds, the reference
# engine's bounds (default: the same), our repetitions per process and the peer command.
# Sizes are what the engines finish in ~10 minutes in all on the 2-core box (docs/performance.md):
# the peers' own decode sizes (S=1024 causal, S=4096 window W=256) are the issue-10 memory rows.
RNN_PEER = ["rnn.py", "--B", "32", "--H", "256", "--mode", "fwd"]
RNN_BPTT_PEER = ["rnn.py", "--B", "32", "--H", "256", "--mode", "fwdbwd"]
DECODE_PEER = ["decode.py", "--L", "4", "--heads", "8", "--E", "512", "--B", "8", "--impl", "kv"]
# A peer variant: a name, arguments added to the size's peer command, and optionally the script
# that runs instead of the command's first word (the JAX peers take the same size flags).
DECODE_VARIANTS = [("kv", []), ("kv+jit", ["--jit"]), ("jax kv", [], "jax_decode.py")]
WINDOW = 64  # decode window size: small enough that the window slides at the sizes we can run

PEER_WORKLOADS = [
    {
        "name": "rnn", "program": "bench/programs/rnn_peer.tpo", "unit": "T", "unit_name": "step",
        "checks": {"y": "checksum_y"}, "rounds": None,
        # x (16 MiB at T = 512) built before timing, as the peers make theirs; it is read at every
        # step, so holding it from the start costs no memory the run would not hold anyway. The
        # decoder's weights are not: a given array lives for the whole run, where the program drops
        # each param once its layer's copy is assembled (+48 MiB resident with --inputs-ready).
        "inputs_ready": True,
        "peer_time": lambda r: r["step_us"]["median"] / 1e3,
        "variants": [("eager", ["--impl", "eager"]), ("script", ["--impl", "script"]), ("nn.RNN", ["--impl", "nnrnn"]),
                     ("jax scan", [], "jax_rnn.py")],
        # 5 warm-up runs, as the peers' rnn.py and jax_rnn.py make 5 warm-up calls: a process's
        # first runs of the RNN measured up to 2x slower here (docs/performance.md, 2026-12-05).
        "sizes": [
            {"label": "T=128", "bounds": {"T": 128}, "reps": 5, "warmup": 5, "peer": RNN_PEER + ["--T", "128"]},
            {"label": "T=512", "bounds": {"T": 512}, "reps": 3, "warmup": 5, "peer": RNN_PEER + ["--T", "512"]},
            {"label": "T=2048", "bounds": {"T": 2048}, "ref_bounds": {"T": 512}, "reps": 3, "warmup": 5,
             "peer": RNN_PEER + ["--T", "2048"]},
        ],
    },
    {
        # Forward and backpropagation through time: loss = sum(y), the gradients of W, U and the bias
        # (the peers' --mode fwdbwd: y.sum().backward(), jax.grad). Same inputs and warm-up as "rnn".
        "name": "rnn bptt", "program": "bench/programs/rnn_bptt_peer.tpo", "unit": "T", "unit_name": "step",
        "checks": {"y": "checksum_y", "gW": "checksum_grads.W", "gU": "checksum_grads.U", "gb": "checksum_grads.b"},
        "rounds": None, "inputs_ready": True,
        "peer_time": lambda r: r["step_us"]["median"] / 1e3,
        "variants": [("eager", ["--impl", "eager"]), ("script", ["--impl", "script"]), ("nn.RNN", ["--impl", "nnrnn"]),
                     ("jax scan", [], "jax_rnn.py")],
        "sizes": [
            # Not the f64-matmul mode: 6-7 ms a step, a minute and a half of every round at T = 2048.
            {"label": "T=512", "bounds": {"T": 512}, "ref_bounds": {"T": 16}, "reps": 3, "warmup": 5,
             "ours": ["compiled"], "peer": RNN_BPTT_PEER + ["--T", "512"]},
            {"label": "T=2048", "bounds": {"T": 2048}, "ref_bounds": {"T": 16}, "reps": 3, "warmup": 5,
             "ours": ["compiled"], "peer": RNN_BPTT_PEER + ["--T", "2048"]},
        ],
    },
    {
        "name": "decode causal", "program": "bench/programs/decode_peer.tpo", "unit": "T", "unit_name": "token",
        "checks": {"first64": "checksum_first64", "last": "checksum_last"}, "rounds": 2,
        "peer_time": lambda r: r["tpt_ms"]["median"],
        "variants": DECODE_VARIANTS,
        "sizes": [
            {"label": "S=128", "bounds": {"T": 128}, "ref_bounds": {"T": 16}, "reps": 1, "warmup": 0,
             "peer": DECODE_PEER + ["--attn", "causal", "--S", "128", "--reps", "2"]},
            {"label": "S=256", "bounds": {"T": 256}, "ref_bounds": {"T": 16}, "reps": 1, "warmup": 0,
             "peer": DECODE_PEER + ["--attn", "causal", "--S", "256", "--reps", "2"]},
            # The issue-10 size: the whole KV cache of S = 1024 positions (memory vs the peer).
            {"label": "S=1024", "bounds": {"T": 1024}, "ref_bounds": {"T": 16}, "reps": 1, "warmup": 0,
             "ours": ["compiled"],
             "peer": DECODE_PEER + ["--attn", "causal", "--S", "1024", "--reps", "2"]},
        ],
    },
    {
        "name": "decode window W=%d" % WINDOW, "program": "bench/programs/decode_window_peer.tpo", "unit": "T",
        "unit_name": "token", "checks": {"first64": "checksum_first64", "last": "checksum_last"}, "rounds": 2,
        "peer_time": lambda r: r["tpt_ms"]["median"],
        "variants": DECODE_VARIANTS,
        "sizes": [
            {"label": "S=128", "bounds": {"T": 128, "W": WINDOW}, "ref_bounds": {"T": 16, "W": WINDOW},
             "reps": 1, "warmup": 0,
             "peer": DECODE_PEER + ["--attn", "window", "--W", str(WINDOW), "--S", "128", "--reps", "2"]},
            {"label": "S=256", "bounds": {"T": 256, "W": WINDOW}, "ref_bounds": {"T": 16, "W": WINDOW},
             "reps": 1, "warmup": 0,
             "peer": DECODE_PEER + ["--attn", "window", "--W", str(WINDOW), "--S", "256", "--reps", "2"]},
        ],
    },
    {
        # The peer's own window (W = 256) over S = 4096 positions: a sliding KV cache of W entries
        # (the eager peer keeps the whole S-long cache).
        "name": "decode window W=256", "program": "bench/programs/decode_window_peer.tpo", "unit": "T",
        "unit_name": "token", "checks": {"first64": "checksum_first64", "last": "checksum_last"}, "rounds": 1,
        "peer_time": lambda r: r["tpt_ms"]["median"],
        "variants": DECODE_VARIANTS,
        "sizes": [
            {"label": "S=4096", "bounds": {"T": 4096, "W": 256}, "ref_bounds": {"T": 16, "W": 256},
             "reps": 1, "warmup": 0, "ours": ["compiled"],
             "peer": DECODE_PEER + ["--attn", "window", "--W", "256", "--S", "4096", "--reps", "2"]},
        ],
    },
    {
        # REINFORCE on CartPole (one iteration = rollout + loss + backward + Adam). Our I = 11 gives
        # the params after the peer's 10 updates (bench/programs/reinforce_peer.tpo); every episode
        # ends within 150 steps at these sizes, so T = 150 gives the same checksums as T = 250.
        "name": "reinforce", "program": "bench/programs/reinforce_peer.tpo", "unit": "I",
        "unit_name": "iteration", "checks": {"final": "checksum_params"}, "rounds": 2,
        "peer_time": lambda r: r["iter_ms"]["median"],
        "variants": [("stepwise", ["--impl", "stepwise"]), ("batched", ["--impl", "batched"]),
                     ("jax batched", ["--impl", "batched"], "jax_reinforce.py"),
                     ("jax stepwise", ["--impl", "stepwise"], "jax_reinforce.py")],
        "sizes": [
            {"label": "N=16", "bounds": {"I": 11, "T": 150, "B": 16}, "ref_bounds": {"I": 2, "T": 150, "B": 16},
             "reps": 1, "warmup": 0, "peer": ["reinforce.py", "--N", "16", "--T", "150", "--I", "10"]},
            {"label": "N=64", "bounds": {"I": 11, "T": 150, "B": 64}, "ref_bounds": {"I": 2, "T": 150, "B": 16},
             "reps": 1, "warmup": 0, "peer": ["reinforce.py", "--N", "64", "--T", "150", "--I", "10"]},
            {"label": "N=64 T=250", "bounds": {"I": 11, "T": 250, "B": 64}, "ref_bounds": {"I": 2, "T": 250, "B": 16},
             "reps": 1, "warmup": 0, "peer": ["reinforce.py", "--N", "64", "--T", "250", "--I", "10"]},
            {"label": "N=512 T=250", "bounds": {"I": 6, "T": 250, "B": 512}, "ref_bounds": {"I": 2, "T": 250, "B": 16},
             "reps": 1, "warmup": 0, "peer": ["reinforce.py", "--N", "512", "--T", "250", "--I", "5"]},
        ],
    },
]

# Our examples: the default size (their data files) and a larger one with synthetic inputs.
EXAMPLES = [
    ("rnn.tpo", "T", [{}, {"B": 16, "T": 512}]),
    ("attention_causal.tpo", "T", [{}, {"B": 8, "T": 256}]),
    ("attention_window.tpo", "T", [{}, {"B": 8, "T": 512}]),
    ("gpt_decode.tpo", "T", [{}, {"T": 128}]),
    ("gpt_decode_window.tpo", "T", [{}, {"T": 256}]),
    ("returns.tpo", "T", [{}, {"B": 16, "T": 1024}]),
]


# ---------------------------------------------------------------------------------------------
# Running one process, with a measure of how busy the rest of the machine was meanwhile.

def _machine_busy_s():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def _children_cpu_s():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_json(cmd, env=None, cwd=None, dry=False):
    """Runs cmd, returns its last stdout line parsed as JSON plus 'foreign_frac' and 'cmd'."""
    text = " ".join(cmd)
    print("  $ " + text, file=sys.stderr, flush=True)
    if dry:
        return None
    w0, b0, c0 = time.time(), _machine_busy_s(), _children_cpu_s()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    w1, b1, c1 = time.time(), _machine_busy_s(), _children_cpu_s()
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if not lines:
        sys.stderr.write(p.stderr)
        raise RuntimeError("no JSON record from: " + text)
    if p.returncode not in (0, 4):  # 4: tempo_bench's checksum mismatch, reported in the table
        sys.stderr.write(p.stderr)
        raise RuntimeError("exit code %d from: %s" % (p.returncode, text))
    rec = json.loads(lines[-1])
    rec["cmd"] = text
    rec["wall_s"] = round(w1 - w0, 2)
    rec["foreign_frac"] = round(max(0.0, ((b1 - b0) - (c1 - c0)) / ((w1 - w0) * os.cpu_count())), 3)
    return rec


def _busy_frac(window=1.0):
    w0, b0 = time.time(), _machine_busy_s()
    time.sleep(window)
    return (_machine_busy_s() - b0) / ((time.time() - w0) * os.cpu_count())


def wait_quiet(max_wait, dry, threshold=0.2):
    """Waits (at most max_wait seconds) until the machine is mostly idle, as the peers' run_all.py does."""
    start = time.time()
    while not dry and time.time() - start < max_wait and _busy_frac() > threshold:
        pass


class Runner:
    def __init__(self, args):
        self.a = args
        self.failures = []  # "workload size: why", listed under the tables
        self.env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), OPENBLAS_NUM_THREADS=str(args.threads))

    def keep(self, rec, **tags):
        if rec is not None:
            rec.update(tags)
            with open(self.a.jsonl, "a") as f:
                f.write(json.dumps(rec) + "\n")
        return rec

    def ours(self, program, engine, bounds, unit, reps, warmup=1, synthetic=False, matmul="f32",
             inputs_ready=False, **tags):
        cmd = [self.a.tempo_bench, program, "--engine", engine, "--unit", unit,
               "--reps", str(reps), "--warmup", str(warmup), "--matmul", matmul]
        if inputs_ready:  # the sources built before timing, as the peers make their inputs
            cmd.append("--inputs-ready")
        for k, v in sorted(bounds.items()):
            cmd += ["--set", "%s=%d" % (k, v)]
        if synthetic:
            cmd.append("--synthetic")
        return self.keep(run_json(cmd, env=self.env, cwd=ROOT, dry=self.a.dry_run), side="ours", engine=engine, **tags)

    def peer(self, args, **tags):
        cmd = [self.a.python] + args + ["--threads", str(self.a.threads)]
        return self.keep(run_json(cmd, cwd=self.a.peers, dry=self.a.dry_run), side="peer", **tags)


# ---------------------------------------------------------------------------------------------
# Formatting.

def fmt_time(ms):
    if ms is None:
        return "–"
    if ms >= 1000:
        return "%.3g s" % (ms / 1e3)
    if ms >= 1:
        return "%.3g ms" % ms
    return "%.3g µs" % (ms * 1e3)


def fmt_ratio(xs):
    """Median of per-round ratios, with the range when there are several."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return "–"
    m = statistics.median(xs)
    if len(xs) == 1:
        return "%.3gx" % m
    return "%.3gx (%.3g–%.3g)" % (m, min(xs), max(xs))


def fmt_mib(x):
    return "–" if x is None else "%.0f" % x


def rel_diff(a, b):
    return abs(a - b) / max(abs(b), 1e-30)


def checksum_note(ours, peer, checks):
    """Largest relative difference between our outputs' sums and the peer's (or another engine's)."""
    worst = 0.0
    for out, field in checks.items():
        if field in peer:
            theirs = peer[field]["sum"]
        elif "." in field and field.split(".")[0] in peer:  # a nested checksum: checksum_grads.W
            outer, inner = field.split(".", 1)
            theirs = peer[outer][inner]["sum"]
        else:
            theirs = peer["checksums"][out]["sum"]
        worst = max(worst, rel_diff(ours["checksums"][out]["sum"], theirs))
    return worst


def per_unit_ms(rec):
    return rec["run_per_unit_ms"]["median"]


# ---------------------------------------------------------------------------------------------
# The two tables.

# Our engine's variants in the peer table: the default compiled engine (sgemm: f32 matmuls
# accumulated in f32, as PyTorch) and the same with --matmul f64 (the reference's numerics).
OURS = [("compiled", "f32"), ("f64", "f64")]


def selected(only, name, names):
    """--only picks a workload by its whole name ("rnn" is not "rnn bptt"), else by a part of it."""
    return not only or only == name or (only in name and only not in names)


def peer_rows(runner):
    rows = []
    names = [w["name"] for w in PEER_WORKLOADS]
    for w in PEER_WORKLOADS:
        if not selected(runner.a.only, w["name"], names):
            continue
        for size in w["sizes"]:
            if runner.a.size and runner.a.size != size["label"]:
                continue
            tags = {"workload": w["name"], "size": size["label"]}
            print("%s %s" % (w["name"], size["label"]), file=sys.stderr, flush=True)
            try:
                row = peer_row(runner, w, size, tags)
            except RuntimeError as e:
                runner.failures.append("%s %s: %s" % (w["name"], size["label"], e))
                continue
            if row:
                rows.append(row)
    return rows


def peer_command(command, variant):
    """The size's peer command for one variant (name, extra arguments[, script])."""
    args = list(command) + list(variant[1])
    if len(variant) > 2:
        args[0] = variant[2]
    return args


def peer_row(runner, w, size, tags):
    wait_quiet(runner.a.max_wait, runner.a.dry_run)
    rounds = []  # per round: {our variant: record}, {peer variant: record}
    for _ in range(w["rounds"] if w["rounds"] and not runner.a.rounds else runner.a.rounds or 3):
        ours = {name: runner.ours(w["program"], "compiled", size["bounds"], w["unit"], size["reps"],
                                  warmup=size.get("warmup", 1), matmul=mm, inputs_ready=w.get("inputs_ready", False),
                                  variant=name, **tags)
                for name, mm in OURS if name in size.get("ours", [n for n, _ in OURS])}
        peers = {v[0]: runner.peer(peer_command(size["peer"], v), variant=v[0], **tags) for v in w["variants"]}
        rounds.append((ours, peers))
    ref_bounds = size.get("ref_bounds", size["bounds"])
    ref = runner.ours(w["program"], "reference", ref_bounds, w["unit"], 1, warmup=0, **tags)
    # The compiled engine at the reference's size, building its inputs in the run as the
    # reference does, for the compiled/reference ratio.
    comp_at_ref = runner.ours(w["program"], "compiled", ref_bounds, w["unit"], 3, variant="compiled", **tags)
    if runner.a.dry_run:
        return None
    return summarise_peer_row(w, size, ref_bounds, rounds, ref, comp_at_ref)


def summarise_peer_row(w, size, ref_bounds, rounds, ref, comp_at_ref):
    """Medians over rounds of times, and of per-round ratios; worst checksum difference; load."""
    ours0, peers0 = rounds[0]
    row = {"workload": w["name"], "size": size["label"], "unit": w["unit_name"],
           "reference_ms": per_unit_ms(ref),
           "ref_size": "" if ref_bounds == size["bounds"] else "T=%d" % ref_bounds["T"],
           "comp_over_ref": [per_unit_ms(comp_at_ref) / per_unit_ms(ref)],
           "ours": {}, "peers": {}, "ratios": {}, "checks": [], "foreign": 0.0,
           "ours_rss": (ours0["compiled"]["peak_rss_mb"], ours0["compiled"]["base_rss_mb"]),
           "ours_run_rss": (ours0["compiled"].get("run_peak_rss_mb"), ours0["compiled"].get("run_base_rss_mb")),
           "tracker_mib": ours0["compiled"]["peak_bytes"] / 2**20}
    for name, _ in OURS:
        row["ours"][name] = (statistics.median(per_unit_ms(o[name]) for o, _ in rounds)
                             if name in ours0 else None)
    for name, *_ in w["variants"]:
        row["peers"][name] = {"ms": statistics.median(w["peer_time"](p[name]) for _, p in rounds),
                              "rss": (peers0[name]["peak_rss_mb"], peers0[name]["base_rss_mb"])}
        for ours_name, _ in OURS:
            row["ratios"][(ours_name, name)] = [per_unit_ms(o[ours_name]) / w["peer_time"](p[name])
                                                if ours_name in o else None for o, p in rounds]
    # Against the best peer of each round (the fastest variant there), per our variant.
    row["best"] = {o: [per_unit_ms(ours[o]) / min(w["peer_time"](p) for p in peers.values())
                       if o in ours else None for ours, peers in rounds] for o, _ in OURS}
    for ours, peers in rounds:
        for o in ours.values():
            for p in peers.values():
                row["checks"].append(checksum_note(o, p, w["checks"]))
        row["foreign"] = max([row["foreign"]] + [r["foreign_frac"] for r in list(ours.values()) + list(peers.values())])
    row["checks"].append(checksum_note(ref, comp_at_ref, {k: k for k in w["checks"]}))
    return row


def print_peer_table(rows, out):
    out.write("| workload | size (time per) | reference | compiled | f64 matmul | peer | compiled / reference "
              "| compiled / peer | f64 matmul / peer | peak RSS MiB − base (tracker MiB) | checksums | load |\n")
    out.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        ref = fmt_time(r["reference_ms"]) + ((" (" + r["ref_size"] + ")") if r["ref_size"] else "")
        names = list(r["peers"])
        peers = "<br>".join("%s %s" % (n, fmt_time(r["peers"][n]["ms"])) for n in names)
        vs = {o: "<br>".join(["**best %s**" % fmt_ratio(r["best"][o])] +
                             ["%s %s" % (n, fmt_ratio(r["ratios"][(o, n)])) for n in names]) for o, _ in OURS}
        rss, base = r["ours_rss"]
        mem = "ours %s − %s (%.0f)" % (fmt_mib(rss), fmt_mib(base), r["tracker_mib"])
        run_peak, run_base = r["ours_run_rss"]
        if run_peak is not None and run_base is not None:  # the runs alone, after the compile
            mem += "<br>ours' run %s − %s" % (fmt_mib(run_peak), fmt_mib(run_base))
        mem += "".join("<br>%s %s − %s" % (n, fmt_mib(r["peers"][n]["rss"][0]), fmt_mib(r["peers"][n]["rss"][1]))
                       for n in names)
        worst = max(r["checks"])
        check = ("ok" if worst <= 1e-4 else "**MISMATCH**") + " (%.0e)" % worst
        out.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f |\n" % (
            r["workload"], "%s (%s)" % (r["size"], r["unit"]), ref, fmt_time(r["ours"]["compiled"]),
            fmt_time(r["ours"]["f64"]), peers, fmt_ratio(r["comp_over_ref"]), vs["compiled"], vs["f64"],
            mem, check, r["foreign"]))


def example_rows(runner):
    rows = []
    wait_quiet(runner.a.max_wait, runner.a.dry_run)
    for name, unit, sizes in EXAMPLES:
        if runner.a.only and runner.a.only not in name:
            continue
        program = os.path.join("resources/examples", name)
        for bounds in sizes:
            synthetic = bool(bounds)
            label = "larger, synthetic inputs" if synthetic else "default (data files)"
            print("%s %s" % (name, label), file=sys.stderr, flush=True)
            tags = {"workload": name, "size": label}
            try:
                comp = runner.ours(program, "compiled", bounds, unit, 5, synthetic=synthetic, **tags)
                ref = runner.ours(program, "reference", bounds, unit, 3, warmup=1, synthetic=synthetic, **tags)
            except RuntimeError as e:
                runner.failures.append("%s %s: %s" % (name, label, e))
                continue
            if runner.a.dry_run:
                continue
            worst = max(rel_diff(ref["checksums"][k]["sum"], comp["checksums"][k]["sum"]) if comp["checksums"][k]["sum"]
                        else abs(ref["checksums"][k]["sum"]) for k in comp["checksums"])
            rows.append({"example": name, "size": label, "bounds": comp["bounds"],
                         "reference_ms": per_unit_ms(ref), "compiled_ms": per_unit_ms(comp),
                         "ratio": per_unit_ms(comp) / per_unit_ms(ref), "compile_s": comp["compile_s"],
                         "tracker_kib": comp["peak_bytes"] / 1024, "rss": (comp["peak_rss_mb"], ref["peak_rss_mb"]),
                         "check": worst, "foreign": max(comp["foreign_frac"], ref["foreign_frac"])})
    return rows


def print_example_table(rows, out):
    out.write("| example | size | bounds | reference | compiled | compiled / reference | compile time "
              "| tracker peak KiB | peak RSS MiB compiled / reference | outputs agree | load |\n")
    out.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        bounds = ", ".join("%s=%d" % kv for kv in sorted(r["bounds"].items()))
        check = ("yes" if r["check"] <= 1e-4 else "**NO**") + " (%.0e)" % r["check"]
        out.write("| %s | %s | %s | %s | %s | %.3gx | %.2f s | %.0f | %.0f / %.0f | %s | %.2f |\n" % (
            r["example"], r["size"], bounds, fmt_time(r["reference_ms"]), fmt_time(r["compiled_ms"]), r["ratio"],
            r["compile_s"], r["tracker_kib"], r["rss"][0], r["rss"][1], check, r["foreign"]))


def machine_line(threads):
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d CPUs, %s, %d threads for both sides (OMP_NUM_THREADS / torch.set_num_threads)" % (
        cpu, os.cpu_count(), platform.platform(), threads)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=0,
                   help="interleaved rounds per workload and size (default: 3, 2 for decode)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--python", default=PY,
                   help="the peers' python (default Debian's; a PyPI venv for torch 2 / torch.compile)")
    p.add_argument("--only", default="", help="only workloads / examples whose name contains this")
    p.add_argument("--size", default="", help="only the peer workloads' sizes with this label (e.g. S=1024)")
    p.add_argument("--no-examples", action="store_true")
    p.add_argument("--no-peers", action="store_true")
    p.add_argument("--tempo-bench", default=os.path.join(ROOT, "build", "bench", "tempo_bench"))
    p.add_argument("--peers", default=os.path.join(os.path.dirname(ROOT), "shared", "peers"))
    p.add_argument("--jsonl", default=os.path.join(ROOT, "build", "bench", "runs.jsonl"),
                   help="append every raw record here")
    p.add_argument("--max-wait", type=float, default=20.0,
                   help="seconds to wait for a quiet machine before each workload and size")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    a = p.parse_args()
    if not a.dry_run and not os.path.exists(a.tempo_bench):
        sys.exit("run_bench.py: %s not found (cmake --build build --target tempo_bench)" % a.tempo_bench)
    os.makedirs(os.path.dirname(a.jsonl), exist_ok=True)
    runner = Runner(a)
    start = time.time()
    peer = [] if a.no_peers else peer_rows(runner)
    examples = [] if a.no_examples else example_rows(runner)
    if a.dry_run:
        return
    out = sys.stdout
    out.write("Measured %s UTC on %s; total %.0f s.\n\n" % (
        time.strftime("%Y-%m-%d %H:%M", time.gmtime()), machine_line(a.threads), time.time() - start))
    if peer:
        print_peer_table(peer, out)
        out.write("\n")
    if examples:
        print_example_table(examples, out)
    for failure in runner.failures:
        out.write("\nFAILED: %s\n" % failure)


if __name__ == "__main__":
    main()
