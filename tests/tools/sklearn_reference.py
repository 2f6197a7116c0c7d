#!/usr/bin/python3
"""fbosim's ports of numpy's legacy RandomState and scikit-learn's stratified split, checked
against numpy and Debian's python3-sklearn themselves (issue #26).

The FTS and DP-FTS-DE authors split every landmine field with
    train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
(preprocess_landmine.py / preprocess.py of their code). fbosim reproduces that split in C++
(datasets/sklearn/); tests/datasets/sklearn/sklearn_probe.cpp prints what the port computes.

Usage:
  sklearn_reference.py --numpy PROBE           MT19937 outputs (int and array seeds), randint,
                                               permutation and _approximate_mode vs numpy
  sklearn_reference.py --split PROBE MATFILE   every train and test index of every field vs
                                               scikit-learn's train_test_split
  sklearn_reference.py --svc PROBE MATFILE     the landmine objective with objective.split:
                                               authors, class_order: sklearn, probability:
                                               sklearn and scikit-learn's own CV folds vs the
                                               authors' SVC(probability=True) + roc_auc_score
Exit 77 (CTest SKIP_RETURN_CODE) with a line saying why when numpy, scipy or scikit-learn is
not importable, or the data file is absent ($FBOSIM_DATA/landmine/LandmineData.mat instead of
MATFILE when FBOSIM_DATA is set, as fbosim and the other data tests look).
"""
import os
import subprocess
import sys


def skip(why):
    print(f"sklearn_reference.py: SKIP: {why}", file=sys.stderr)
    sys.exit(77)


try:
    import numpy as np
except ImportError as e:  # pragma: no cover
    skip(f"numpy not importable ({e}); install python3-numpy")


def probe(binary, *args):
    out = subprocess.run([binary, *map(str, args)], check=True, capture_output=True, text=True)
    return [[int(v) for v in line.split()] for line in out.stdout.splitlines()]


failures = []


def expect_equal(what, ours, theirs):
    theirs = [int(v) for v in theirs]
    if list(ours) != theirs:
        first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                     min(len(ours), len(theirs)))
        failures.append(f"{what}: fbosim and numpy differ first at position {first} "
                        f"(lengths {len(ours)} and {len(theirs)})")


def check_numpy(binary):
    count = 1500  # past the first regeneration of the 624-word state
    for seed in (0, 1, 42, 123456789, 2**32 - 1):
        theirs = np.random.RandomState(seed).randint(0, 2**32, size=count, dtype=np.uint32)
        expect_equal(f"RandomState({seed}) outputs", probe(binary, "uint32", seed, count)[0],
                     theirs)
    for key in ([0], [1, 2, 3], [0x123, 0x234, 0x345, 0x456], list(range(700))):
        theirs = np.random.RandomState(key).randint(0, 2**32, size=count, dtype=np.uint32)
        ours = probe(binary, "uint32-array", ",".join(map(str, key)), count)[0]
        expect_equal(f"RandomState({key[:5]}...) outputs", ours, theirs)
    for seed, low, high in ((0, 0, 2147483647), (3, -5, 6), (4, 0, 2), (5, 0, 1000003),
                            (6, 7, 8), (7, 0, 2**40), (8, -2**62, 2**62)):
        rs = np.random.RandomState(seed)
        theirs = [rs.randint(low, high) for _ in range(300)]
        expect_equal(f"RandomState({seed}).randint({low}, {high})",
                     probe(binary, "randint", seed, low, high, 300)[0], theirs)
    sizes = [0, 1, 2, 3, 10, 255, 256, 1000]
    rs = np.random.RandomState(11)
    ours = probe(binary, "permutation", 11, *sizes)
    for n, row in zip(sizes, ours):
        expect_equal(f"permutation({n})", row, rs.permutation(n))
    mode_cases = {  # sklearn's _approximate_mode, written out (sklearn may be absent)
        (0, 3, (4, 2)), (0, 4, (5, 2)), (0, 2, (2, 2, 2, 1)), (42, 2, (2, 2, 2, 1)),
        (0, 245, (489, 19)), (1, 9, (3, 3, 3, 3, 3, 3, 3, 3, 3, 3))}
    try:
        from sklearn.utils import _approximate_mode
    except ImportError:
        _approximate_mode = None
        print("sklearn_reference.py: scikit-learn absent: _approximate_mode not compared",
              file=sys.stderr)
    if _approximate_mode is not None:
        for seed, draws, counts in sorted(mode_cases):
            theirs = _approximate_mode(np.array(counts), draws, np.random.RandomState(seed))
            ours = probe(binary, "mode", seed, draws, ",".join(map(str, counts)))[0]
            expect_equal(f"_approximate_mode({counts}, {draws}, {seed})", ours, theirs)


def check_split(binary, matfile):
    features, labels = import_sklearn(matfile)
    import sklearn
    from sklearn.model_selection import train_test_split
    ours = probe(binary, "split", matfile, 0)
    if len(ours) != 2 * len(features):
        failures.append(f"split: fbosim printed {len(ours)} rows for {len(features)} fields")
        return
    rows = 0
    for i in range(len(features)):
        # As the authors' preprocessing calls it, on the file's n x 1 label array.
        index = np.arange(features[i].shape[0])
        train, test, _, _ = train_test_split(index, labels[i], test_size=0.5,
                                             stratify=labels[i], random_state=0)
        expect_equal(f"field {i} training rows", ours[2 * i], train)
        expect_equal(f"field {i} validation rows", ours[2 * i + 1], test)
        rows += len(train) + len(test)
    print(f"compared {rows} row indices of {len(features)} fields with scikit-learn "
          f"{sklearn.__version__}")


def import_sklearn(matfile):
    try:
        import scipy.io
    except ImportError as e:
        skip(f"scipy not importable ({e}); install python3-scipy")
    try:
        import sklearn  # noqa: F401
    except ImportError as e:
        skip(f"scikit-learn not importable ({e}); install python3-sklearn (tools/setup.sh does)")
    if not os.path.isfile(matfile):
        skip(f"no landmine data at {matfile} (tools/fetch_datasets.sh downloads the data sets)")
    data = scipy.io.loadmat(matfile)
    return data["feature"][0], data["label"][0]


def check_svc(binary, matfile):
    """fbosim's evaluation (its libsvm is Debian's, scikit-learn's a fork of an older one) with
    scikit-learn's folds handed in: the same models up to rounding (decision values within
    1e-13), hence the same probabilities and AUC. Validation rows far from every support vector
    have decision value -rho up to the last bit, and a last-bit difference can split or join
    such a tie: a few cases may then differ in AUC by one or two pairs' share (< 2e-3)."""
    features, labels = import_sklearn(matfile)
    from sklearn import svm
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split
    exact = cases = 0
    for field in (0, 3, 9, 15, 22, 28):
        x_tr, x_te, y_tr, y_te = train_test_split(features[field], labels[field], test_size=0.5,
                                                  stratify=labels[field], random_state=0)
        y_tr, y_te = np.squeeze(y_tr), np.squeeze(y_te)
        for x in ((0.0, 0.0), (1.0, 1.0), (0.5, 0.05), (0.02, 0.9), (0.9, 0.3), (0.001, 0.001),
                  (0.3, 0.6)):
            for random_state in (0, 1):
                # The authors' objective (FTS run_landmine_standard_bo.py; DP-FTS-DE
                # landmine_ts.py): linear maps to C and gamma, probability=True, P(mine).
                c = x[0] * (10.0 - 1e-4) + 1e-4
                gamma = x[1] * (10.0 - 1e-2) + 1e-2
                clf = svm.SVC(kernel="rbf", C=c, gamma=gamma, probability=True,
                              random_state=random_state).fit(x_tr, y_tr)
                theirs = roc_auc_score(y_te, clf.predict_proba(x_te)[:, 1])
                out = subprocess.run([binary, "svc", matfile, str(field), repr(x[0]), repr(x[1]),
                                      str(random_state)], check=True, capture_output=True,
                                     text=True).stdout.split("\n")
                ours = float(out[1])
                cases += 1
                exact += abs(ours - theirs) <= 1e-12
                if abs(ours - theirs) > 2e-3:
                    failures.append(f"field {field} x {x} random_state {random_state}: AUC "
                                    f"{ours:.6f}, scikit-learn {theirs:.6f}")
    if exact < 0.9 * cases:
        failures.append(f"only {exact} of {cases} AUCs equal scikit-learn's within 1e-12")
    print(f"{exact} of {cases} AUCs equal scikit-learn's within 1e-12, all within 2e-3")


def landmine_file(matfile):
    data = os.environ.get("FBOSIM_DATA")
    return os.path.join(data, "landmine", "LandmineData.mat") if data else matfile


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--numpy":
        check_numpy(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "--split":
        check_split(sys.argv[2], landmine_file(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "--svc":
        check_svc(sys.argv[2], landmine_file(sys.argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    if not failures:
        print("sklearn_reference.py: all equal")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
