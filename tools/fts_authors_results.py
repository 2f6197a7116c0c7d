#!/usr/bin/python3
"""The FTS authors' released landmine results as fbosim result directories, so that
tools/claims.py checks them by the same rules as fbosim's runs (issue 44).

    tools/fts_authors_results.py REPO --out DIR [--features 100]
    tools/fts_authors_results.py --self-test

REPO: a checkout of daizhongxiang/Federated_Bayesian_Optimization (its results_fts/,
results_rgpe/, results_taf/ and results_standard_bo/ zips: one pickle per target subject
s = 0..5 and repetition i = 0..4, the same 3 initial points for every method). DIR gets
fts_landmine_m100/, rgpe_landmine_m100/, taf_landmine_m100/ and fts_landmine_ts/ (the names of
configs/fts/landmine.yaml's curves at M = 100), each with a trace.csv (run r = 6 i + s, agent
s = r mod 6 the target, as fbosim numbers its target runs; round 0 the best of the 3 initial
values, round t the best after t BO iterations) and a config.resolved.yaml naming the
algorithm and target.agents: 6. The pickles are read by an unpickler that accepts only numpy
arrays and plain containers: a pickle naming any other class is refused, naming the file.
"""
import argparse
import io
import os
import pickle
import sys
import zipfile

SUBJECTS, REPEATS = 6, 5
METHODS = {  # fbosim curve name: (zip, file name pattern, algorithm)
    "fts_landmine_m100": ("results_fts/results_fts.zip", "ts_M_{M}_subject_{s}_iter_{i}.p",
                          "fts_target"),
    "rgpe_landmine_m100": ("results_rgpe/results_rgpe.zip", "rgpe_M_{M}_subject_{s}_iter_{i}.p",
                           "rgpe"),
    "taf_landmine_m100": ("results_taf/results_taf.zip", "taf_M_{M}_subject_{s}_iter_{i}.p",
                          "taf"),
    "fts_landmine_ts": ("results_standard_bo/results_standard_bo.zip",
                        "ts_field_{s}_iter_{i}_no_agent_info.p", "fts_target"),
}
ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy", "ndarray"), ("numpy", "dtype"),
           ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "_reconstruct"),
           ("numpy._core.multiarray", "scalar")}


class Refused(Exception):
    pass


class NumpyOnly(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) not in ALLOWED:
            raise Refused(f"the pickle names {module}.{name}, which is not a numpy array")
        return super().find_class(module, name)


def best_so_far(record, where):
    """Round 0..T: the best of the initial values, then after each BO iteration."""
    try:
        run = record["all"]
        values = [float(v) for v in run["init_values"]] + [float(v) for v in run["values"]]
        first = len(run["init_values"])
    except (KeyError, TypeError, ValueError) as e:
        raise Refused(f"{where}: not an FTS result record ({e})") from None
    if first < 1:
        raise Refused(f"{where}: no initial values")
    out, best = [], max(values[:first])
    out.append(best)
    for v in values[first:]:
        best = max(best, v)
        out.append(best)
    return out


def convert(repo, out, features=100):
    for curve, (archive, pattern, algorithm) in METHODS.items():
        path = os.path.join(repo, archive)
        with zipfile.ZipFile(path) as z:
            names = {os.path.basename(n): n for n in z.namelist()}
            lines = ["run,agent,round,best_f,regret"]
            for i in range(REPEATS):
                for s in range(SUBJECTS):
                    name = pattern.format(M=features, s=s, i=i)
                    where = f"{path}: {name}"
                    if name not in names:
                        raise Refused(f"{path}: no {name}")
                    try:
                        record = NumpyOnly(io.BytesIO(z.read(names[name]))).load()
                    except Refused as e:
                        raise Refused(f"{where}: {e}") from None
                    except Exception as e:  # a damaged pickle: name it
                        raise Refused(f"{where}: cannot read ({e})") from None
                    run = SUBJECTS * i + s
                    best = best_so_far(record, where)
                    lines += [f"{run},{s},{t},{b!r}," for t, b in enumerate(best)]
        directory = os.path.join(out, curve)
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "trace.csv"), "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        with open(os.path.join(directory, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
            fh.write(f"# converted from {archive} by tools/fts_authors_results.py\n"
                     f"name: {curve}\nalgorithm: {algorithm}\nruns: {SUBJECTS * REPEATS}\n"
                     f"target:\n  agents: {SUBJECTS}\n")


def self_test():
    """A fake checkout with known values: the trace's best-so-far and numbering by hand; a
    pickle naming os.system is refused."""
    import tempfile
    ok = True
    with tempfile.TemporaryDirectory() as root:
        repo, out = os.path.join(root, "repo"), os.path.join(root, "out")
        for curve, (archive, pattern, _) in METHODS.items():
            os.makedirs(os.path.dirname(os.path.join(repo, archive)), exist_ok=True)
            with zipfile.ZipFile(os.path.join(repo, archive), "w") as z:
                for i in range(REPEATS):
                    for s in range(SUBJECTS):
                        rec = {"all": {"init_values": [0.5, 0.6 + 0.01 * s, 0.4],
                                       "values": [0.55, 0.7 + 0.001 * i, 0.65]}}
                        z.writestr("results/" + pattern.format(M=100, s=s, i=i), pickle.dumps(rec))
        convert(repo, out)
        with open(os.path.join(out, "rgpe_landmine_m100", "trace.csv"), encoding="utf-8") as fh:
            rows = [line.split(",") for line in fh.read().split("\n")[1:] if line]
        # run 13 = 6 x 2 + 1: subject 1, repetition 2: best 0.61, 0.61, 0.702, 0.702
        mine = [(int(r[2]), float(r[3])) for r in rows if r[0] == "13"]
        ok = ok and all(r[1] == "1" for r in rows if r[0] == "13")
        ok = ok and mine == [(0, 0.61), (1, 0.61), (2, 0.702), (3, 0.702)]
        ok = ok and len(rows) == 30 * 4
        bad = os.path.join(root, "bad.p")
        with open(bad, "wb") as fh:
            fh.write(b"cos\nsystem\n(S'true'\ntR.")
        try:
            with open(bad, "rb") as fh:
                NumpyOnly(fh).load()
            ok = False
        except Refused:
            pass
    print("fts_authors_results self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("repo", nargs="?")
    p.add_argument("--out")
    p.add_argument("--features", type=int, default=100)
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        sys.exit(self_test())
    if not a.repo or not a.out:
        p.error("give REPO and --out DIR")
    try:
        convert(a.repo, a.out, a.features)
    except (Refused, OSError, zipfile.BadZipFile) as e:
        sys.exit(f"fts_authors_results: {e}")
    print(f"fts_authors_results: wrote {a.out}")


if __name__ == "__main__":
    main()
