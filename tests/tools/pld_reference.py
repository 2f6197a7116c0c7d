#!/usr/bin/python3
"""Independent reference for fbosim's pld accountant (issue #10).

Privacy-loss-distribution (PLD) accounting of T rounds of the Poisson-subsampled Gaussian
mechanism (sampling rate q, noise multiplier z, sensitivity 1), written from the papers, not
from fbosim's C++:
  - Meiser & Mohammadi (2018), "Tight on budget?": the privacy loss L = log(P(x)/Q(x)) with
    x ~ P, discretised onto a grid; rounding every loss up gives an upper bound on delta
    ("pessimistic"), rounding down a lower bound ("optimistic").
  - Koskela, Jalko & Honkela (2020), "Computing tight differential privacy guarantees using
    FFT": the T-fold composition is the T-fold convolution of the loss distribution, computed
    by one FFT, raising the transform to the power T, and one inverse FFT; and
    delta(eps) = P[L = inf] + E[(1 - e^(eps - L))_+]  (hockey-stick divergence, their eq. (5)).
  - Google's dp_accounting "Privacy Loss Distributions" note (2024): both neighbouring
    relations (remove: P = (1-q) N(0,z^2) + q N(1,z^2), Q = N(0,z^2); add: P and Q swapped),
    epsilon = the larger of the two, and tail truncation whose mass goes to the infinite loss.

Why the bracket is sound: both discretisations are pointwise (x by x) roundings of the loss,
delta(eps) is monotone in every loss, so rounding up (down) in every round of the
composition bounds delta from above (below); the eps(delta) inversion is exact on the grid.
The only error not covered by the bracket is the FFT's floating-point error: at q = 1 the
bracket's midpoint is within 1e-7 of the analytic Gaussian epsilon. The Chernoff-bounded mass
(tau = 1e-15 a side) that may wrap around an FFT window is added to (upper) or taken from
(lower) delta.

Grids: dp_accounting's classic method uses one grid width h, and its bracket is then T * h
wide in the composed loss (1.0 at T = 10,000 and h = 1e-4). To keep the bracket to `width`
(default 0.01) in a few seconds, the composition runs in two stages (plan()): T1 rounds on
h1 = width / (2T), the result rounded once more (the same pointwise rounding) onto
h2 = width / (2 T2) and composed T2 = T / T1 times.

Usage:
  pld_reference.py Q Z STEPS DELTA [--width W | --h H]   prints "lower upper" epsilon
                                       (--h H: one stage on the grid H)
  pld_reference.py --check FBOSIM_BINARY      checks fbosim against a table of settings
Exit 77 when numpy/scipy are missing (CTest SKIP_RETURN_CODE).
"""
import math
import subprocess
import sys
import time

try:
    import numpy as np
    from scipy import fft as sfft
    from scipy import special
except ImportError as e:  # pragma: no cover
    print(f"pld_reference.py: SKIP: numpy/scipy not importable ({e}); "
          "install python3-numpy python3-scipy", file=sys.stderr)
    sys.exit(77)

WIDTH = 0.01  # default spread of the bracket (in epsilon, roughly)
TAU = 1e-15  # tail mass cut per round (x-space) and per composition side (Chernoff window)


def norm_cdf(x):
    return special.ndtr(x)


class Relation:
    """One neighbouring relation, written with an increasing loss ell(y), y ~ P."""

    def __init__(self, q, z, kind):
        self.q, self.s2, self.kind = q, z * z, kind
        self.log1mq = math.log1p(-q) if q < 1 else -math.inf
        if kind == "remove":  # P = (1-q)N(0,s2) + qN(1,s2), Q = N(0,s2), y = x
            self.loss_sup, self.loss_inf = math.inf, self.log1mq
        else:  # add: P = N(0,s2), Q = mixture, y = -x makes the loss increasing in y
            self.loss_sup, self.loss_inf = -self.log1mq, -math.inf

    def _u(self, y):  # exponent (2x - 1) / (2 s2) of the likelihood ratio N(1)/N(0) at x
        x = y if self.kind == "remove" else -y
        return (2 * x - 1) / (2 * self.s2)

    def loss(self, y):
        m = np.logaddexp(self.log1mq, math.log(self.q) + self._u(y))
        return m if self.kind == "remove" else -m

    def inv_loss(self, v):
        """y with loss(y) = v, for v strictly inside (loss_inf, loss_sup)."""
        m = v if self.kind == "remove" else -v
        # e^m = (1-q) + q e^u  =>  u = log(e^m - (1-q)) - log q
        if self.q < 1:
            u = m + np.log(-np.expm1(self.log1mq - m)) - math.log(self.q)
        else:
            u = m
        x = self.s2 * u + 0.5
        return x if self.kind == "remove" else -x

    def cdf(self, y):  # P(Y <= y)
        s = math.sqrt(self.s2)
        if self.kind == "remove":
            return (1 - self.q) * norm_cdf(y / s) + self.q * norm_cdf((y - 1) / s)
        return norm_cdf(y / s)  # -x with x ~ N(0, s2) is N(0, s2)

    def sf(self, y):  # P(Y > y), accurate in the upper tail
        s = math.sqrt(self.s2)
        if self.kind == "remove":
            return (1 - self.q) * norm_cdf(-y / s) + self.q * norm_cdf(-(y - 1) / s)
        return norm_cdf(-y / s)

    def mass(self, a, b):
        """P(a < Y <= b), from the cdf left of c and the sf right of it (both accurate there)."""
        c = 0.5 if self.kind == "remove" else 0.0
        left = self.cdf(np.minimum(b, c)) - self.cdf(np.minimum(a, c))
        right = self.sf(np.maximum(a, c)) - self.sf(np.maximum(b, c))
        return np.maximum(left, 0) + np.maximum(right, 0)

    def tails(self):
        """y_lo, y_hi with P(Y < y_lo), P(Y > y_hi) <= TAU / 2 (bisection on cdf and sf)."""
        def solve(f, lo, hi):  # f decreasing from > TAU/2 at lo to < TAU/2 at hi
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                lo, hi = (mid, hi) if f(mid) > TAU / 2 else (lo, mid)
            return hi
        big = 50 * math.sqrt(self.s2) + 2
        y_hi = solve(lambda y: float(self.sf(y)), -big, big)
        y_lo = -solve(lambda y: float(self.cdf(-y)), -big, big)
        return y_lo, y_hi


def discretise(rel, h, pessimistic):
    """One round's loss on the grid i*h: (first index, probabilities, infinite-loss mass)."""
    y_lo, y_hi = rel.tails()
    l_lo, l_hi = float(rel.loss(y_lo)), float(rel.loss(y_hi))
    i0, i1 = math.ceil(l_lo / h), math.ceil(l_hi / h)
    idx = np.arange(i0, i1 + 1)
    # Bucket i holds the y with loss in ((i-1)h, ih], cut to [y_lo, y_hi].
    edges_v = idx * h
    inner = (edges_v > l_lo) & (edges_v < l_hi)
    edges_y = np.where(inner, rel.inv_loss(np.where(inner, edges_v, 0.5 * (l_lo + l_hi))),
                       np.where(edges_v <= l_lo, y_lo, y_hi))
    lower_y = np.concatenate(([y_lo], edges_y[:-1]))
    probs = rel.mass(lower_y, edges_y)
    mass_below, mass_above = float(rel.cdf(y_lo)), float(rel.sf(y_hi))
    inf_mass = 0.0
    if pessimistic:  # round up: bucket i keeps index i
        first = i0
        probs[0] += mass_below  # loss < l_lo: put at ceil(l_lo / h)
        if math.isinf(rel.loss_sup):
            inf_mass = mass_above
        else:  # loss in (l_hi, loss_sup): put at ceil(loss_sup / h)
            top = math.ceil(rel.loss_sup / h)
            probs = np.concatenate((probs, np.zeros(top - i1)))
            probs[-1] += mass_above
    else:  # round down: bucket i moves to i - 1
        first = i0 - 1
        probs[-1] += mass_above  # loss > l_hi: put at floor(l_hi / h) >= i1 - 1
        if math.isfinite(rel.loss_inf):  # loss in (loss_inf, l_lo): put at floor(loss_inf / h)
            bottom = math.floor(rel.loss_inf / h)
            probs = np.concatenate((np.zeros(first - bottom), probs))
            probs[0] += mass_below
            first = bottom
        # else: loss -> -inf below y_lo, dropped (contributes 0 to delta: a lower bound)
    return first, probs, inf_mass


def _lse(a):
    m = np.max(a)
    return m + math.log(np.sum(np.exp(a - m)))


def compose(first, probs, inf_mass, T, h):
    """T-fold self-composition by one FFT on a Chernoff-bounded window (Koskela et al. 2020).

    Returns the composed finite part on indices first..first+len-1 and its infinite mass.
    At most TAU of the mass above (and TAU below) the window wraps around into it."""
    # The Chernoff bounds use the mass binned c grid points at a time, each bin's loss taken
    # at its top for the upper tail and at its bottom for the lower one (still valid bounds).
    c = max(1, -(-len(probs) // 20000))
    binned = np.bincount(np.arange(len(probs)) // c, weights=probs)
    nz = binned > 0
    logp = np.full(len(binned), -np.inf)
    logp[nz] = np.log(binned[nz])
    bottom = np.arange(len(binned)) * c * h  # loss - first * h at each bin's bottom
    top = bottom + (c - 1) * h
    log_tau = math.log(TAU)
    hi_best, lo_best = T * (len(probs) - 1), 0
    for t in np.geomspace(0.01, 1000, 40):  # Chernoff: P[S > s] <= M(t)^T e^(-t s)
        hi = (T * _lse(logp + t * top) - log_tau) / (t * h)
        lo = -(T * _lse(logp - t * bottom) - log_tau) / (t * h)
        if math.isfinite(hi):
            hi_best = min(hi_best, math.ceil(hi))
        if math.isfinite(lo):
            lo_best = max(lo_best, math.floor(lo))
    n = sfft.next_fast_len(hi_best - lo_best + 1, real=True)
    folded = np.bincount(np.arange(len(probs)) % n, weights=probs, minlength=n)
    circ = sfft.irfft(sfft.rfft(folded) ** T, n)
    out = np.maximum(circ[(lo_best + np.arange(hi_best - lo_best + 1)) % n], 0.0)
    return T * first + lo_best, out, 1 - (1 - inf_mass) ** T


def coarsen(first, probs, m, pessimistic):
    """Re-discretise a PLD from grid h onto grid m*h, rounding every loss up (pessimistic) or
    down: the same pointwise rounding as discretise(), so the bound keeps its direction."""
    idx = first + np.arange(len(probs))
    new = -((-idx) // m) if pessimistic else idx // m
    return int(new[0]), np.bincount(new - new[0], weights=probs)


def plan(T, width):
    """Two stages T = T1 * T2: T1 rounds on the fine grid h1, the result rounded once onto
    h2 = m * h1 and composed T2 times. The rounding spread (upper minus lower loss) is
    T * h1 + T2 * h2; each term gets half of `width`. T1 is the divisor of T nearest sqrt(T)."""
    t1 = min((d for d in range(1, T + 1) if T % d == 0), key=lambda d: abs(math.log(d / math.sqrt(T))))
    t2 = T // t1
    h1 = width / (2 * T)
    m = max(1, int(round((width / (2 * t2)) / h1)))
    return t1, t2, h1, m


def epsilon(first, probs, inf_mass, delta, h, delta_shift):
    """Smallest eps >= 0 with delta(eps) <= delta, where delta(eps) = delta_shift + inf +
    sum_{L_i > eps} p_i (1 - e^(eps - L_i)) (Koskela et al. 2020, eq. (5)). On [L_(k-1), L_k]
    it is base + A_k - e^eps B_k with A_k, B_k the sums over i >= k of p_i and p_i e^(-L_i),
    so it is inverted exactly."""
    losses = (first + np.arange(len(probs))) * h
    keep = probs > 0
    losses, probs = losses[keep], probs[keep]
    a = np.cumsum(probs[::-1])[::-1]
    b = np.cumsum((probs * np.exp(-losses))[::-1])[::-1]
    base = inf_mass + delta_shift
    if base > delta:
        raise ValueError(f"delta {delta} is below the infinite-loss mass {base}")
    d_at = base + a - np.exp(losses) * b  # delta(L_k)
    k = int(np.nonzero((d_at <= delta) & (losses >= 0))[0][0])
    left = max(0.0, losses[k - 1]) if k > 0 else 0.0
    if base + a[k] - math.exp(left) * b[k] <= delta:
        return left
    return math.log((base + a[k] - delta) / b[k])


def bracket(q, z, T, delta, width, h=None):
    """(lower, upper) epsilon, the max over the add and remove relations of each bound, with
    a rounding spread of `width` in the composed loss (so upper - lower <~ width); or, given
    h, in one stage on the grid h (dp_accounting's classic method, spread T * h)."""
    t1, t2, h1, m = plan(T, width) if h is None else (T, 1, h, 1)
    wrap = (t2 + 1) * TAU  # mass that may wrap around the FFT windows (each side)
    lo = up = 0.0
    for kind in ("remove", "add"):
        rel = Relation(q, z, kind)
        for pess in (True, False):
            f, p, inf_m = discretise(rel, h1, pess)
            f, p, inf_m = compose(f, p, inf_m, t1, h1)
            h = h1
            if t2 > 1:
                f, p = coarsen(f, p, m, pess)
                h = m * h1
                f, p, inf_m = compose(f, p, inf_m, t2, h)
            if pess:
                up = max(up, epsilon(f, p, inf_m, delta, h, wrap))
            else:
                lo = max(lo, epsilon(f, p, inf_m, delta, h, -wrap))
    return lo, up


def gaussian_epsilon(mu, delta):
    """Exact epsilon of a mu-GDP pair (Balle & Wang 2018, Theorem 8): delta(eps) =
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), solved by bisection."""
    def d(e):
        return norm_cdf(-e / mu + mu / 2) - math.exp(e) * norm_cdf(-e / mu - mu / 2)
    lo, hi = 0.0, 1.0
    while d(hi) > delta:
        hi *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if d(mid) > delta else (lo, mid)
    return hi


def single_round_epsilon(q, z, delta):
    """Exact epsilon of one round (T = 1), from the hockey-stick divergence in closed form:
    the set where P > e^eps Q is a half-line x > r (remove) or x < r (add), with
    q e^((2r - 1) / (2 z^2)) = e^(+-eps) - (1 - q). Checks the discretisation on its own."""
    s = z

    def d_remove(e):
        r = z * z * math.log((math.exp(e) - 1 + q) / q) + 0.5
        return ((1 - q) * norm_cdf(-r / s) + q * norm_cdf((1 - r) / s)
                - math.exp(e) * norm_cdf(-r / s))

    def d_add(e):
        if math.exp(-e) <= 1 - q:
            return 0.0
        r = z * z * math.log((math.exp(-e) - 1 + q) / q) + 0.5
        return norm_cdf(r / s) - math.exp(e) * ((1 - q) * norm_cdf(r / s) + q * norm_cdf((r - 1) / s))

    lo, hi = 0.0, 60.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if max(d_remove(mid), d_add(mid)) > delta else (lo, mid)
    return hi


# (q, z, T, delta, width): issue #10's settings. delta = 200^-1.1 is N^-1.1 for N = 200 agents.
# The width (the bracket's spread in the composed loss) is 0.03 at T = 10,000 to keep the run
# short (the fine grid there has T / width points per unit of loss).
CHECKS = [(0.01, 1.1, 60, 1e-5, 0.01), (0.01, 1.1, 500, 1e-5, 0.01),
          (0.01, 1.1, 10000, 1e-5, 0.03),
          (0.25, 1.0, 40, 200**-1.1, 0.01), (0.25, 1.0, 60, 200**-1.1, 0.01),
          (0.25, 1.0, 500, 200**-1.1, 0.01), (1.0, 2.0, 100, 1e-5, 0.01)]
FLOAT_TOL = 1e-6  # the FFT's rounding and fbosim's printed digits, in epsilon
TIGHT_TOL = 1e-3  # how far above the reference's upper bound fbosim may report


def fbosim_epsilon(binary, q, z, T, delta):
    cmd = [binary, "privacy", "--accountant", "pld", "--q", repr(q), "--z", repr(z),
           "--steps", str(T), "--delta", repr(delta), "--format", "csv"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    header, row = out.strip().splitlines()[:2]
    return float(dict(zip(header.split(","), row.split(",")))["epsilon"]), " ".join(cmd)


def check(binary):
    """fbosim's epsilon (the upper end of its bracket) must be >= the reference's lower bound
    (never understated) and <= the reference's upper bound + TIGHT_TOL (tight)."""
    failures = 0
    print(f"{'q':>5} {'z':>4} {'T':>6} {'delta':>9}  {'ref lower':>10} {'ref upper':>10} "
          f"{'fbosim':>10}  seconds")
    for q, z, T, delta, width in CHECKS:
        start = time.time()
        lo, up = bracket(q, z, T, delta, width)
        secs = time.time() - start
        eps, cmd = fbosim_epsilon(binary, q, z, T, delta)
        print(f"{q:5g} {z:4g} {T:6d} {delta:9.3g}  {lo:10.5f} {up:10.5f} {eps:10.5f}  {secs:5.1f}")
        if eps < lo - FLOAT_TOL:
            print(f"PRIVACY FAULT: fbosim's epsilon {eps} is below the reference's lower bound "
                  f"{lo}: {cmd}")
            failures += 1
        if eps > up + TIGHT_TOL:
            print(f"NOT TIGHT: fbosim's epsilon {eps} exceeds the reference's upper bound {up} "
                  f"by more than {TIGHT_TOL}: {cmd}")
            failures += 1
        if q == 1.0:  # no subsampling: T rounds are one Gaussian with mu = sqrt(T) / z
            exact = gaussian_epsilon(math.sqrt(T) / z, delta)
            print(f"  analytic Gaussian epsilon {exact:.5f}")
            if not lo - FLOAT_TOL <= exact <= up + FLOAT_TOL:
                print(f"REFERENCE WRONG: the analytic {exact} is outside [{lo}, {up}]")
                failures += 1
            if eps < exact - FLOAT_TOL:
                print(f"PRIVACY FAULT: fbosim's epsilon {eps} is below the analytic {exact}: {cmd}")
                failures += 1
    for q, z, delta in ((0.25, 1.0, 200**-1.1), (0.01, 1.1, 1e-5)):
        lo, up = bracket(q, z, 1, delta, 1e-4)
        exact = single_round_epsilon(q, z, delta)
        print(f"reference at T = 1, q = {q}, z = {z}: [{lo:.6f}, {up:.6f}], exact {exact:.6f}")
        if not lo - FLOAT_TOL <= exact <= up + FLOAT_TOL:
            print(f"REFERENCE WRONG: the exact {exact} is outside [{lo}, {up}]")
            failures += 1
    print("pld_reference: " + (f"{failures} FAILED" if failures else "all settings passed"))
    return 1 if failures else 0


def main(argv):
    args = argv[1:]
    if len(args) == 2 and args[0] == "--check":
        return check(args[1])
    if len(args) not in (4, 6):
        print(__doc__, file=sys.stderr)
        return 2
    opts = {"--width": WIDTH, "--h": None}
    for name in opts:
        if name in args:
            i = args.index(name)
            opts[name] = float(args[i + 1])
            del args[i:i + 2]
    q, z, T, delta = float(args[0]), float(args[1]), int(args[2]), float(args[3])
    lo, up = bracket(q, z, T, delta, opts["--width"], opts["--h"])
    print(f"{lo:.6f} {up:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
