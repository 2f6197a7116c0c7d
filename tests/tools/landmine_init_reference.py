#!/usr/bin/python3
"""Independent reference for the landmine initial design of DP-FTS-DE (issue #26, item 3): the
mean best AUC after the 10 initial points, computed as the authors' code computes it, with
Debian's python3-sklearn and not with fbosim:
  - split: train_test_split(X, y, test_size=0.5, stratify=y, random_state=0) per field
    (preprocess.py of the DP-FTS-DE code);
  - objective: SVC(kernel="rbf", C, gamma, probability=True) fitted on the training half,
    roc_auc_score of predict_proba(X_valid)[:, 1], with C = 1e-4 + x0 (10 - 1e-4) and
    gamma = 0.01 + x1 (10 - 0.01) (landmine_dp_fts_de.py, landmine_ts.py);
  - initial design: 10 points uniform in the agent's sub-region (`region`: DP-FTS-DE and FTS-DE,
    box 2 a + b = [a/2, (a+1)/2] x [b/2, (b+1)/2], agent n in box n mod 4; create_partitions.py
    and init() of bayesian_optimization_dp_fts_de.py) or on [0,1]^2 (`domain`: TS,
    bayesian_optimization_ts.py, and FTS with one partition).
It prints each run's mean over the 29 agents of their best initial AUC, then the mean and its
standard error over runs; --compare DIR adds fbosim's round-0 mean best AUC from DIR/summary.csv
(e.g. fbosim run configs/dp_fts_de/landmine.yaml --runs 30 --set rounds=1) and the difference
in units of the combined standard error. Not a CTest (about 5 s of CPU per run).

usage: landmine_init_reference.py region|domain RUNS [--mat FILE] [--compare DIR]
"""
import argparse
import math
import os

import numpy as np
import scipy.io
from sklearn import svm
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("design", choices=["region", "domain"])
    p.add_argument("runs", type=int)
    p.add_argument("--mat", default=os.path.join(os.environ.get("FBOSIM_DATA", "../shared/datasets"),
                                                 "landmine", "LandmineData.mat"))
    p.add_argument("--compare", help="an fbosim results directory (its summary.csv round 0)")
    a = p.parse_args()
    data = scipy.io.loadmat(a.mat)
    features, labels = data["feature"][0], data["label"][0]
    halves = [train_test_split(features[i], labels[i], test_size=0.5, stratify=labels[i],
                               random_state=0) for i in range(len(features))]
    boxes = [((s / 2, (s + 1) / 2), (t / 2, (t + 1) / 2)) for s in range(2) for t in range(2)]

    def auc(field, x):
        x_tr, x_te, y_tr, y_te = halves[field]
        c = x[0] * (10 - 1e-4) + 1e-4
        gamma = x[1] * (10 - 0.01) + 0.01
        clf = svm.SVC(kernel="rbf", C=c, gamma=gamma, probability=True)
        clf.fit(x_tr, np.squeeze(y_tr))
        return roc_auc_score(np.squeeze(y_te), clf.predict_proba(x_te)[:, 1])

    per_run = []
    for run in range(a.runs):
        np.random.seed(1000 + run)  # the folds of probability=True come from numpy's global state
        best = []
        for n in range(len(features)):
            box = boxes[n % 4] if a.design == "region" else ((0, 1), (0, 1))
            xs = np.column_stack([np.random.uniform(lo, hi, size=10) for lo, hi in box])
            best.append(max(auc(n, x) for x in xs))
        per_run.append(float(np.mean(best)))
        print(f"run {run}: {per_run[-1]:.4f}", flush=True)
    mean = float(np.mean(per_run))
    se = float(np.std(per_run, ddof=1) / math.sqrt(len(per_run)))
    print(f"{a.design}: mean best AUC after the initial points {mean:.4f} (s.e. {se:.4f}, "
          f"{len(per_run)} runs)")
    if a.compare:
        import pandas as pd
        s = pd.read_csv(os.path.join(a.compare, "summary.csv")).set_index("round")
        ours, ours_se = float(s.loc[0, "mean_best_f"]), float(s.loc[0, "se_best_f"])
        z = (ours - mean) / math.sqrt(se ** 2 + ours_se ** 2)
        print(f"fbosim {a.compare}: {ours:.4f} (s.e. {ours_se:.4f}); difference {ours - mean:+.4f}"
              f" = {z:+.2f} combined standard errors")


if __name__ == "__main__":
    main()
