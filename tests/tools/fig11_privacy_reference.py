#!/usr/bin/python3
"""Independent reference for the privacy side of DP-FTS-DE's Fig. 11 (App. B.2.4, issue 44):
the landmine setting (N = 29 agents, q = 0.35, z = 1, T = 60 rounds, delta = N^-1.1) with
fixed-size sampling (exactly m = floor(N q) = 10 agents a round, without replacement) against
Poisson sampling (Fig. 3a), computed here with mpmath at 50 digits from the papers, not from
fbosim's C++:
  - fixed-size: Wang, Balle & Kasiviswanathan (2019), "Subsampled Renyi differential privacy
    and analytical moments accountant", Thm. 9, at integer orders alpha:
      rdp(alpha) <= log(1 + g^2 C(alpha, 2) min{4 (e^eps(2) - 1), 2 e^eps(2)}
                         + sum_{j=3..alpha} 2 g^j C(alpha, j) e^{(j - 1) eps(j)}) / (alpha - 1)
    (g = m / N; eps(infinity) = infinity for the Gaussian, so each min{2, .} is 2), and never
    above the base mechanism's eps(alpha). Sampling without replacement is defined under
    replace-one neighbours, where the clipped sum moves by up to twice the clip bound S, so the
    base Gaussian (std z S) has eps(j) = j (2 S)^2 / (2 z^2 S^2) = 2 j / z^2.
  - Poisson, `moments` (the paper's accountant, Abadi et al. 2016): the log moment of the
    sampled Gaussian at integer lambda = 1 .. 32 by the binomial expansion
    A(a) = sum_k C(a, k) (1 - q)^(a - k) q^k e^{(k^2 - k) / (2 z^2)}, epsilon =
    min_lambda (T log A(lambda + 1) + log(1 / delta)) / lambda.
  - Poisson, `rdp`: A(alpha) at fractional alpha by numerical integration of
    E_{x ~ N(0, z^2)} [((1 - q) + q e^{(2 x - 1) / (2 z^2)})^alpha] (Mironov, Talwar & Zhang
    2019, Sec. 3.3), orders 1.1 .. 10.9 (by A(a) above for 11 .. 64), converted by Canonne, Kamath & Steinke
    (2020), Prop. 12: rdp + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1).
The same conversion is applied to the fixed-size bound. The check runs `fbosim privacy` on
configs/dp_fts_de/fig11.yaml (fixed, rdp) and configs/dp_fts_de/landmine.yaml (Poisson, with
server.accountant moments and rdp) and requires each within 1e-3 of the reference (fbosim
prints 6 significant digits) and never below it by more than that; and that fixed-size sampling
costs more privacy than Poisson sampling here, which is why the paper's "slightly better
privacy losses" does not hold under a sound analysis (docs/CLAIMS.md, "Fig. 11").

    fig11_privacy_reference.py                  prints the reference values
    fig11_privacy_reference.py --check FBOSIM   compares fbosim (run from the repository root)

Exit 0 when every value agrees, 1 otherwise; 77 (skipped) without Debian's python3-mpmath."""
import os
import subprocess
import sys

try:
    import mpmath as mp
except ImportError:
    print("fig11_privacy_reference: python3-mpmath is missing; skipped")
    sys.exit(77)

mp.mp.dps = 50
N, Q, Z, T = 29, mp.mpf("0.35"), mp.mpf(1), 60
DELTA = mp.mpf(N) ** mp.mpf("-1.1")
TOL = 1e-3
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def improved(rdp, a):
    return rdp + mp.log1p(-1 / mp.mpf(a)) - (mp.log(DELTA) + mp.log(a)) / (a - 1)


def fixed_size():
    m = int(mp.floor(N * Q))
    g = mp.mpf(m) / N

    def eps(j):
        return 2 * mp.mpf(j) / Z ** 2

    def bound(a):
        s = 1 + g ** 2 * mp.binomial(a, 2) * min(4 * mp.expm1(eps(2)), 2 * mp.e ** eps(2))
        s += mp.fsum(2 * g ** j * mp.binomial(a, j) * mp.e ** ((j - 1) * eps(j))
                     for j in range(3, a + 1))
        return min(mp.log(s) / (a - 1), eps(a))

    orders = list(range(2, 65)) + [80, 96, 128, 192, 256, 384, 512]
    return min(improved(T * bound(a), a) for a in orders)


def log_a_int(a):
    return mp.log(mp.fsum(mp.binomial(a, k) * (1 - Q) ** (a - k) * Q ** k *
                          mp.e ** ((k * k - k) / (2 * Z ** 2)) for k in range(a + 1)))


def log_a_frac(a):
    f = lambda x: mp.npdf(x, 0, Z) * ((1 - Q) + Q * mp.e ** ((2 * x - 1) / (2 * Z ** 2))) ** a
    return mp.log(mp.quad(f, [-mp.inf, 0, 1, mp.inf]))


def moments():
    return min((T * log_a_int(lam + 1) + mp.log(1 / DELTA)) / lam for lam in range(1, 33))


def poisson_rdp():
    frac = [mp.mpf(k) / 10 for k in range(11, 110)]
    return min([improved(T * log_a_frac(a) / (a - 1), a) for a in frac] +
               [improved(T * log_a_int(a) / (a - 1), a) for a in range(11, 65)])


def fbosim_epsilon(binary, config, accountant=None):
    cmd = [binary, "privacy", config, "--format", "csv"]
    if accountant:
        cmd += ["--set", f"server.accountant={accountant}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    rows = [line.split(",") for line in out.strip().splitlines()]
    col = rows[0].index("epsilon")
    return float(rows[-1][col]), " ".join(cmd)


def main(argv):
    ref = {"fixed": float(fixed_size()), "moments": float(moments()),
           "rdp": float(poisson_rdp())}
    print(f"reference: fixed-size (rdp, WBK Thm. 9) {ref['fixed']:.4f}; Poisson moments "
          f"{ref['moments']:.4f}, rdp {ref['rdp']:.4f}")
    if len(argv) == 1:
        return 0
    if len(argv) != 3 or argv[1] != "--check":
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    got = {"fixed": fbosim_epsilon(argv[2], "configs/dp_fts_de/fig11.yaml"),
           "moments": fbosim_epsilon(argv[2], "configs/dp_fts_de/landmine.yaml", "moments"),
           "rdp": fbosim_epsilon(argv[2], "configs/dp_fts_de/landmine.yaml", "rdp")}
    failures = 0
    for key, (eps, cmd) in got.items():
        print(f"{key:8} fbosim {eps:.4f}  reference {ref[key]:.4f}")
        if abs(eps - ref[key]) > TOL:
            print(f"MISMATCH: {cmd} gives {eps}, the reference {ref[key]}")
            failures += 1
    if not got["fixed"][0] > got["moments"][0] > got["rdp"][0]:
        print("ORDER: expected fixed-size > Poisson (moments) > Poisson (rdp)")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
