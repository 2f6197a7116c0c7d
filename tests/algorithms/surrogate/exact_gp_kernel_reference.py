# Reference values of tests/algorithms/surrogate/exact_gp_test.cpp ("ExactGp with Matern and ARD
# kernels matches a hand-written solve"): python3 exact_gp_kernel_reference.py. Plain Python
# (no numpy): the kernels from Rasmussen & Williams eqs. 4.9 and 4.17, a Gaussian elimination.
# Posterior mean and variance of a GP at one query, written out with a hand-written solve.
from math import sqrt, exp
def k(fam, a, b, ls, s2):
    r = sqrt(sum(((ai - bi) / l) ** 2 for ai, bi, l in zip(a, b, ls)))
    if fam == 'm32': return s2 * (1 + sqrt(3) * r) * exp(-sqrt(3) * r)
    if fam == 'm52': return s2 * (1 + sqrt(5) * r + 5 * r * r / 3) * exp(-sqrt(5) * r)
    return s2 * exp(-r * r / 2)
def solve(A, b):
    n = len(b); M = [row[:] + [bb] for row, bb in zip(A, b)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(M[r][i])); M[i], M[p] = M[p], M[i]
        for r in range(i + 1, n):
            f = M[r][i] / M[i][i]
            for c in range(i, n + 1): M[r][c] -= f * M[i][c]
    x = [0] * n
    for i in reversed(range(n)):
        x[i] = (M[i][n] - sum(M[i][c] * x[c] for c in range(i + 1, n))) / M[i][i]
    return x
X = [[0.1, 0.2], [0.5, 0.9], [0.8, 0.3]]; y = [1.0, -0.5, 0.3]; xq = [0.4, 0.5]
for fam, ls in [('m52', [0.4, 0.7]), ('m32', [0.5, 0.5]), ('se', [0.3, 0.9])]:
    s2, nv, m0 = 1.3, 0.01, 0.2
    A = [[k(fam, a, b, ls, s2) + (nv if i == j else 0) for j, b in enumerate(X)] for i, a in enumerate(X)]
    kq = [k(fam, a, xq, ls, s2) for a in X]
    alpha = solve(A, [yy - m0 for yy in y]); v = solve(A, kq)
    print(fam, ls, repr(m0 + sum(a * b for a, b in zip(kq, alpha))), repr(s2 - sum(a * b for a, b in zip(kq, v))))
