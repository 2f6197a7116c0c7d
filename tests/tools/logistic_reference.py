#!/usr/bin/python3
"""Reference minimisers for tests/datasets/landmine/logistic_regression_test.cpp (issue 29),
computed once by scikit-learn and scipy, independently of fbosim.

fbosim minimises O(w) = lambda / 2 ||w||^2 + 1/n sum log(1 + exp(-y_i w^T x_i)) (bias a column
of x, penalised). scikit-learn's LogisticRegression(penalty="l2", C, fit_intercept=False)
minimises 1/2 ||w||^2 + C sum log(1 + exp(-y_i w^T x_i)), the same problem scaled by 1/lambda
when C = 1 / (n lambda). scipy's BFGS on O itself checks scikit-learn.

Run: /usr/bin/python3 tests/tools/logistic_reference.py  (Debian's python3-sklearn, -scipy)
"""
import numpy as np
from scipy.optimize import minimize
from sklearn.linear_model import LogisticRegression

# The test's data: 12 rows, 3 columns (the last the constant 1 / sqrt(3)), labels +-1.
X = np.array([[0.1 * ((7 * i) % 11) - 0.5, 0.08 * ((5 * i + 3) % 13) - 0.45, 1 / np.sqrt(3)]
              for i in range(12)])
y = np.array([1 if (i * 37) % 5 < 2 else -1 for i in range(12)])


def objective(w, lam):
    m = y * (X @ w)
    return lam / 2 * w @ w + np.mean(np.logaddexp(0, -m))


for lam in (0.05, 1.0):
    n = len(y)
    clf = LogisticRegression(penalty="l2", C=1 / (n * lam), fit_intercept=False, tol=1e-10,
                             solver="newton-cg", max_iter=100000).fit(X, y)
    w_sk = clf.coef_.ravel()
    res = minimize(objective, np.zeros(3), args=(lam,), method="BFGS",
                   options={"gtol": 1e-13, "maxiter": 100000})
    assert np.max(np.abs(res.x - w_sk)) < 1e-7, (res.x, w_sk)
    score = np.mean(1 / (1 + np.exp(-y * (X @ w_sk))))
    print(f"lambda {lam}: w = [{', '.join(f'{v:.12f}' for v in w_sk)}], "
          f"O = {objective(w_sk, lam):.12f}, mean sigma(y w^T x) = {score:.12f}")
