#!/usr/bin/python3
"""The cost side of tools/reproduce.sh: the measured per-run costs (tools/repro_costs.tsv), the
time predicted from them, and the split of the tasks into shards.

    repro_plan.py plan  --table T --cores C --jobs J [--shards N] [--list] < TASKS
    repro_plan.py shard K/N --table T < TASKS           # the tasks of shard K, one a line
    repro_plan.py costs --table T < TASKS                # "TASK<TAB>CPU-s left", one a line
    repro_plan.py record --table T < MEASUREMENTS       # merge new measurements into T
    repro_plan.py --self-test

TASKS: one line per task, "TASK<TAB>CONFIG<TAB>CURVE<TAB>OPTIONS[<TAB>OUT]" (CONFIG as
dp_fts_de/fig2a, CURVE the curve's name, OPTIONS the fbosim run options the task adds,
space-separated; OUT its results directory), in the order reproduce.sh runs them.

Resumed sittings: `plan` counts the runs an earlier sitting finished in OUT (run-R.ckpt in
OUT/.fbosim-partial or OUT/.fbosim-runs, R below the task's runs: what fbosim reuses) and predicts
only the rest. The files are counted, not verified: a checkpoint of another build or config is
computed again, so the prediction is then too short; it says how many runs it took as done.
`shard` ignores them: every shard must compute the same split, whenever it starts.

The table (tab-separated, '#' lines are comments): config, curve (a name, or '*' for every
curve of the config without a row of its own), cpu_s (user CPU-seconds of one run at the
config's own size, one thread), setup_s (once per process: FTS's landmine sources' histories),
agents, init, rounds, runs, epochs (the config's resolved values, '-' where the family has no
epochs), how, date. A task's predicted CPU time is setup_s + runs x cpu_s x scale, where scale
is 1 at the config's size and otherwise (agents / table agents) x ((init + rounds) / (table init
+ table rounds)) x (epochs / table epochs): exact in the runs, approximate in the rest (a round
costs more as the observations grow; the reduced scales' other overrides are not modelled).

Shards: the tasks sorted by predicted cost, longest first (ties in task order), each given to
the shard with the least predicted CPU so far (ties to the lowest shard): deterministic for a
given task list and table, so every array task computes the same split.
"""
import argparse
import collections
import datetime
import os
import sys

COLUMNS = ["config", "curve", "cpu_s", "setup_s", "agents", "init", "rounds", "runs", "epochs",
           "how", "date"]
HEADER = """\
# Measured cost of one run of each figure config (and curve) for tools/reproduce.sh's predicted
# times: `tools/reproduce.sh --measure-costs [--only FIGURES]` runs each curve once with
# `fbosim run CONFIG CURVE-OPTIONS --runs 1 --threads 1` under nice and records the user
# CPU-seconds (/usr/bin/time %U: wall time means little on a shared machine). cpu_s is per run
# at the config's own size (agents, init + rounds evaluations per agent, epochs as in the
# columns beside it); setup_s is the per-process part (FTS's landmine sources' TS histories,
# made once per process: measured as the difference of a 1-run and a 3-run process); `how` says
# what was run. EMNIST runs are measured with fewer rounds (a full run is ~2 min of CPU) and
# scaled linearly in evaluations per agent, as `how` says. Curve '*': every curve of the config
# without its own row.
"""

Row = collections.namedtuple("Row", COLUMNS)


def read_table(path):
    rows = collections.OrderedDict()
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != len(COLUMNS):
                sys.exit(f"repro_plan.py: {path}:{n}: {len(fields)} fields, want {len(COLUMNS)} "
                         f"({', '.join(COLUMNS)})")
            row = Row(*fields)
            try:
                for k in ("cpu_s", "setup_s"):
                    if float(getattr(row, k)) < 0:
                        raise ValueError
                for k in ("agents", "init", "rounds", "runs"):
                    if int(getattr(row, k)) < 0:
                        raise ValueError
                if row.epochs != "-" and int(row.epochs) <= 0:
                    raise ValueError
            except ValueError:
                sys.exit(f"repro_plan.py: {path}:{n}: a bad number in '{line}'")
            rows[(row.config, row.curve)] = row
    return rows


def write_table(path, rows, comments):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(HEADER)
        for c in comments:
            f.write(c if c.endswith("\n") else c + "\n")
        f.write("#" + "\t".join(COLUMNS) + "\n")
        for row in rows.values():
            f.write("\t".join(str(getattr(row, k)) for k in COLUMNS) + "\n")
    os.replace(tmp, path)


def parse_options(words):
    """The --runs and the --set overrides that change a task's cost."""
    out = {}
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--runs" and i + 1 < len(words):
            out["runs"] = int(words[i + 1])
            i += 1
        elif w == "--set" and i + 1 < len(words):
            key, _, value = words[i + 1].partition("=")
            out[key] = value
            i += 1
        i += 1
    return out


Task = collections.namedtuple("Task", "name config curve options out")


def read_tasks(stream):
    tasks = []
    for line in stream:
        line = line.rstrip("\n")
        if not line:
            continue
        name, config, curve, options, out = (line.split("\t") + [""] * 5)[:5]
        tasks.append(Task(name, config, curve, options.split(), out))
    return tasks


def finished_runs(out, runs):
    """The run indices below `runs` with a checkpoint in OUT (.fbosim-partial: a sitting that
    stopped; .fbosim-runs: a finished experiment's records), which fbosim reuses."""
    done = set()
    for folder in (".fbosim-partial", ".fbosim-runs"):
        try:
            names = os.listdir(os.path.join(out, folder)) if out else []
        except OSError:
            continue
        for n in names:
            if n.startswith("run-") and n.endswith(".ckpt") and n[4:-5].isdigit():
                if int(n[4:-5]) < runs:
                    done.add(int(n[4:-5]))
    return len(done)


def predict(task, rows, resume=False):
    """(CPU-seconds, 'measured' | 'scaled' | 'unknown', the row, runs, runs done) of one task;
    with `resume`, the runs checkpointed in its results directory are not counted."""
    row = rows.get((task.config, task.curve)) or rows.get((task.config, "*"))
    if row is None:
        return None, "unknown", None, 0, 0
    o = parse_options(task.options)
    runs = o.get("runs", int(row.runs))
    agents = int(o.get("agents.count", row.agents))
    init = int(o.get("agents.init_points", row.init))
    rounds = int(o.get("rounds", row.rounds))
    scale = agents / int(row.agents) * (init + rounds) / (int(row.init) + int(row.rounds))
    if row.epochs != "-":
        scale *= int(o.get("objective.epochs", row.epochs)) / int(row.epochs)
    # Any other override (grid points, sources' histories) is not modelled: approximate.
    other = [k for k in o if k not in ("runs",) and k in
             ("agents.count", "agents.init_points", "rounds", "objective.epochs",
              "objective.grid_points", "sources.points")]
    done = finished_runs(task.out, runs) if resume else 0
    cpu = (float(row.setup_s) if done < runs else 0.0) + (runs - done) * float(row.cpu_s) * scale
    return cpu, ("scaled" if other else "measured"), row, runs, done


def schedule(costs, slots, busy=()):
    """The makespan of running the costs in order on `slots` slots, each task starting when a
    slot frees (what reproduce.sh's --jobs loop does); `busy` are the times at which slots still
    held by running tasks free."""
    free = list(busy) + [0.0] * (slots - len(busy))
    for c in costs:
        i = min(range(slots), key=lambda k: (free[k], k))
        free[i] += c
    return max(free) if free else 0.0


def time_left(running, queued, wall, pred, jobs, threads):
    """The wall seconds a sitting has left: the running tasks' unfinished part and the queued
    tasks in order on `jobs` slots, at the finished tasks' wall time per predicted CPU-second
    (their `wall` seconds over their `pred` CPU-seconds); before a task with a prediction has
    finished, at the prediction's perfect thread scaling. `running` holds (predicted CPU-s,
    elapsed wall s) pairs. Counting what the running tasks have done keeps the estimate at the
    first finished task of a --jobs 2 sitting from doubling."""
    per = wall / pred if pred >= 1 else 1.0 / threads
    busy = [max(c - e / per, 0.0) for c, e in running]
    return per * schedule(queued, jobs, busy)


def shards_of(tasks, costs, n):
    """Longest-first greedy: task index -> shard (1-based)."""
    order = sorted(range(len(tasks)), key=lambda i: (-(costs[i] or 0.0), i))
    load = [0.0] * n
    out = {}
    for i in order:
        k = min(range(n), key=lambda s: (load[s], s))
        out[i] = k + 1
        load[k] += costs[i] or 0.0
    return out, load


def duration(seconds):
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def cmd_plan(args):
    rows = read_table(args.table)
    tasks = read_tasks(sys.stdin)
    preds = [predict(t, rows, resume=True) for t in tasks]
    costs = [p[0] for p in preds]
    done, runs = sum(p[4] for p in preds), sum(p[3] for p in preds)
    known = [c for c in costs if c is not None]
    unknown = sorted({t.config for t, p in zip(tasks, preds) if p[0] is None})
    scaled = any(p[1] == "scaled" for p in preds)
    cpu = sum(known)
    threads = max(1, args.cores // args.jobs)
    wall = schedule([c / threads for c in known], args.jobs)
    approx = " (approximate: scaled from the measured size)" if scaled else ""
    if done:
        approx += (f"; {done} of {runs} runs already in the results (checkpoints of earlier "
                   "sittings, reused if they verify): the rest only")
    print(f"reproduce.sh: expected {duration(cpu)} of CPU ({cpu:.0f} CPU-s, {len(known)} of "
          f"{len(tasks)} task(s) with a measured cost{approx}); on {args.cores} core(s) with "
          f"--jobs {args.jobs} ({threads} thread(s) each): about {duration(wall)} of wall time "
          f"(at perfect thread scaling; from {args.table})")
    if unknown:
        print(f"reproduce.sh: no measured cost for {', '.join(unknown)} (not in {args.table}: "
              "tools/reproduce.sh --measure-costs --only ... measures it); not counted above")
    full = [predict(t, rows)[0] for t in tasks]  # the split ignores what is done (cmd_shard)
    if args.shards:
        assign, load = shards_of(tasks, full, args.shards)
        counts = collections.Counter(assign.values())
        print(f"reproduce.sh: {args.shards} shards, predicted CPU per shard: " +
              ", ".join(f"{k + 1}: {duration(load[k])} ({counts[k + 1]} tasks)"
                        for k in range(args.shards)))
    if args.list:
        assign = shards_of(tasks, full, args.shards)[0] if args.shards else {}
        for i, (t, p) in enumerate(zip(tasks, preds)):
            cost = "?" if p[0] is None else f"{p[0]:.1f}"
            shard = f"  shard {assign[i]}" if assign else ""
            done = f"  ({p[4]} of {p[3]} runs done)" if p[4] else ""
            print(f"  {t.name:<40} {cost:>9} CPU-s  {p[1]}{shard}{done}")
    return 0


def cmd_shard(args):
    try:
        k, n = (int(x) for x in args.spec.split("/"))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        sys.exit(f"repro_plan.py: shard must be K/N with 1 <= K <= N, got '{args.spec}'")
    rows = read_table(args.table)
    tasks = read_tasks(sys.stdin)
    costs = [predict(t, rows)[0] for t in tasks]
    assign = shards_of(tasks, costs, n)[0]
    for i, t in enumerate(tasks):
        if assign[i] == k:
            print(t.name)
    return 0


def cmd_costs(args):
    """Each task's predicted CPU-seconds still to do (0 where unknown), for reproduce.sh's
    estimate of the time left as tasks finish."""
    rows = read_table(args.table)
    for t in read_tasks(sys.stdin):
        cpu = predict(t, rows, resume=True)[0]
        print(f"{t.name}\t{0.0 if cpu is None else cpu:.1f}")
    return 0


def cmd_eta(args):
    """stdin: "running PREDICTED ELAPSED" or "queued PREDICTED" lines, the queued in the order
    they start; prints the wall seconds left (time_left)."""
    running, queued = [], []
    for line in sys.stdin:
        f = line.split()
        if f and f[0] == "running" and len(f) == 3:
            running.append((float(f[1]), float(f[2])))
        elif f and f[0] == "queued" and len(f) == 2:
            queued.append(float(f[1]))
        elif f:
            sys.exit(f"repro_plan.py eta: bad line '{line.rstrip()}'")
    threads = max(1, args.cores // args.jobs)
    print(f"{time_left(running, queued, args.wall, args.pred, args.jobs, threads):.0f}")
    return 0


def cmd_record(args):
    """MEASUREMENTS: "config curve runs rounds user_s agents init cfg_rounds cfg_runs epochs
    how", one line per process; two lines of one (config, curve) with different runs give the
    per-run cost by their difference and the rest as setup, which then holds for every curve
    of that config measured once in the same call (its per-run cost is the rest)."""
    rows = read_table(args.table)
    comments = []
    if os.path.exists(args.table):
        with open(args.table) as f:
            header = set(HEADER.splitlines(keepends=True))
            comments = [l for l in f if l.startswith("#") and l not in header and
                        not l.startswith("#" + COLUMNS[0] + "\t")]
    groups = collections.OrderedDict()
    for line in sys.stdin:
        f = line.rstrip("\n").split("\t")
        if len(f) != 11:
            sys.exit(f"repro_plan.py record: bad measurement line '{line.rstrip()}'")
        groups.setdefault((f[0], f[1]), []).append(f)
    today = datetime.date.today().isoformat()
    setups = {}
    for (config, curve), ms in groups.items():
        ms.sort(key=lambda m: int(m[2]))
        if len(ms) >= 2 and int(ms[-1][2]) > int(ms[0][2]):
            per_run = (float(ms[-1][4]) - float(ms[0][4])) / (int(ms[-1][2]) - int(ms[0][2]))
            setups[config] = max(float(ms[0][4]) - int(ms[0][2]) * max(per_run, 0.0), 0.0)
    for (config, curve), ms in groups.items():
        _, _, runs, rounds, user, agents, init, cfg_rounds, cfg_runs, epochs, how = ms[-1]
        if len(ms) >= 2 and int(ms[-1][2]) > int(ms[0][2]):
            per_run = (float(ms[-1][4]) - float(ms[0][4])) / (int(ms[-1][2]) - int(ms[0][2]))
            per_run = max(per_run, 0.0)
            setup = setups[config]
            how = f"{how}; runs {ms[0][2]} and {ms[-1][2]}: {ms[0][4]} and {ms[-1][4]} s"
        elif config in setups:
            setup = setups[config]
            per_run = max(float(user) - setup, 0.0) / int(runs)
            how = f"{how}; {user} s less {setup:.2f} s"
        else:
            per_run, setup = float(user) / int(runs), 0.0
        scale = (int(init) + int(cfg_rounds)) / (int(init) + int(rounds))
        if int(rounds) != int(cfg_rounds):
            how = (f"{how}; measured at rounds {rounds} ({per_run:.2f} s), scaled x{scale:.3f} "
                   f"to {cfg_rounds} rounds by evaluations per agent")
        rows[(config, curve)] = Row(config, curve, f"{per_run * scale:.2f}", f"{setup:.2f}",
                                    agents, init, cfg_rounds, cfg_runs, epochs, how, today)
    if args.note:
        comments.append(f"# measured {today}: {args.note}\n")
    write_table(args.table, rows, comments)
    return 0


def self_test():
    import io
    import tempfile
    d = tempfile.mkdtemp()
    t = os.path.join(d, "c.tsv")
    sys.stdin = io.StringIO(
        "a/x\tx0\t1\t60\t4.0\t200\t10\t60\t5\t-\tone run\n"
        "a/e\t*\t1\t5\t30.0\t50\t10\t60\t10\t10\trounds 5\n"
        "a/h\th0\t1\t50\t10.0\t29\t3\t50\t30\t-\tfts\n"
        "a/h\th0\t3\t50\t14.0\t29\t3\t50\t30\t-\tfts\n"
        "a/h\th1\t1\t50\t13.0\t29\t3\t50\t30\t-\tfts\n")
    cmd_record(argparse.Namespace(table=t, note="test"))
    rows = read_table(t)
    assert rows[("a/x", "x0")].cpu_s == "4.00", rows
    assert rows[("a/e", "*")].cpu_s == f"{30.0 * 70 / 15:.2f}", rows[("a/e", "*")]
    h = rows[("a/h", "h0")]
    assert (h.cpu_s, h.setup_s) == ("2.00", "8.00"), h
    h1 = rows[("a/h", "h1")]  # the config's setup, measured on h0
    assert (h1.cpu_s, h1.setup_s) == ("5.00", "8.00"), h1
    tasks = [Task("figure:a/x:0", "a/x", "x0", ["--runs", "50"], ""),
             Task("figure:a/x:0t", "a/x", "x0", ["--runs", "1", "--set", "rounds=20",
                                                 "--set", "agents.count=20"], ""),
             Task("figure:a/e:3", "a/e", "e3", ["--runs", "20"], ""),
             Task("figure:a/h:0", "a/h", "h0", [], ""),
             Task("figure:a/y:0", "a/y", "y0", [], "")]
    p = [predict(x, rows) for x in tasks]
    assert p[0][:2] == (200.0, "measured"), p[0]
    assert abs(p[1][0] - 4.0 * 0.1 * 30 / 70) < 1e-9 and p[1][1] == "scaled", p[1]
    assert abs(p[2][0] - 20 * 140.0) < 1e-9, p[2]
    assert p[3][0] == 8.0 + 30 * 2.0, p[3]
    assert p[4][:2] == (None, "unknown"), p[4]
    # Resumed: runs 0 and 3 checkpointed (run 3 in both folders, run 9 beyond --runs 5, other
    # files): 3 of 5 runs left; all runs done: nothing left, not even the setup.
    out = os.path.join(d, "out")
    for f in (".fbosim-partial/run-0.ckpt", ".fbosim-partial/run-3.ckpt", ".fbosim-runs/run-3.ckpt",
              ".fbosim-partial/run-9.ckpt", ".fbosim-partial/key", ".fbosim-runs/run-x.ckpt"):
        os.makedirs(os.path.dirname(os.path.join(out, f)), exist_ok=True)
        open(os.path.join(out, f), "w").close()
    resumed = Task("figure:a/x:0", "a/x", "x0", ["--runs", "5"], out)
    assert predict(resumed, rows)[0] == 20.0, predict(resumed, rows)
    assert predict(resumed, rows, resume=True)[0] == 12.0 and finished_runs(out, 5) == 2
    whole = Task("figure:a/h:0", "a/h", "h0", ["--runs", "1"], out)
    assert predict(whole, rows, resume=True)[0] == 0.0, predict(whole, rows, resume=True)
    assert predict(whole, rows)[0] == 10.0
    assert finished_runs(os.path.join(d, "none"), 5) == 0
    # Longest first onto the least loaded shard: 5 -> 1, 3 -> 2, 3 -> 2 (3 < 5), 2 -> 1 (5 < 6),
    # 1 -> 2 (6 < 7).
    costs = [3.0, 5.0, 2.0, 3.0, 1.0]
    assign, load = shards_of(list(range(5)), costs, 2)
    assert assign == {1: 1, 0: 2, 3: 2, 2: 1, 4: 2}, assign
    assert load == [7.0, 7.0], load
    assert schedule([4, 1, 1, 1], 2) == 4 and schedule([1, 1, 1], 1) == 3
    assert schedule([1, 1], 2, [3.0]) == 3 and schedule([2], 2, [1.0, 1.5]) == 3
    # A --jobs 2 sitting at its first finished task (2,000 s of wall for 2,200 predicted CPU-s):
    # the other, started 200 s later, has run 1,800 s and 12 tasks of 2,200 remain, 6 per slot:
    # its last 200 s and 6 x 2,000 s (the old estimate, 2000/2200 x 13 x 2200 = 26,000 s, counted
    # the running task as not started and both slots as one).
    left = time_left([(2200.0, 1800.0)], [2200.0] * 12, 2000.0, 2200.0, 2, 1)
    assert abs(left - 2000 / 2200 * (2200 - 1800 * 2200 / 2000 + 6 * 2200)) < 1e-6, left
    assert abs(left - (200 + 6 * 2000)) < 1e-6, left
    # Tasks run past their prediction: the unfinished part never goes below 0.
    assert time_left([(100.0, 500.0)], [], 200.0, 100.0, 2, 1) == 0.0
    # No measured task yet (the finished ones were reused): the prediction over the threads,
    # the running tasks' elapsed wall being that many CPU-seconds per thread.
    assert time_left([(800.0, 100.0)], [400.0, 400.0], 0.0, 0.0, 1, 2) == (600 + 800) / 2
    assert time_left([], [], 0.0, 0.0, 2, 1) == 0.0
    print("repro_plan.py: self-test passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--table", required=True)
    p.add_argument("--cores", type=int, required=True)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--shards", type=int, default=0)
    p.add_argument("--list", action="store_true")
    s = sub.add_parser("shard")
    s.add_argument("spec")
    s.add_argument("--table", required=True)
    c = sub.add_parser("costs")
    c.add_argument("--table", required=True)
    e = sub.add_parser("eta")
    e.add_argument("--wall", type=float, required=True)
    e.add_argument("--pred", type=float, required=True)
    e.add_argument("--cores", type=int, required=True)
    e.add_argument("--jobs", type=int, default=1)
    r = sub.add_parser("record")
    r.add_argument("--table", required=True)
    r.add_argument("--note", default="")
    args = ap.parse_args()
    return {"plan": cmd_plan, "shard": cmd_shard, "costs": cmd_costs, "eta": cmd_eta,
            "record": cmd_record}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
