"""Privacy loss of the subsampled Gaussian mechanism (DP-FTS-DE's server), from fbosim's
accountants: moments (the paper's), rdp, pld (the tightest bound), gdp (an approximation) and
basic. `steps` may be a number or any array of counts: every count comes from one composition
pass of one accountant."""
import numpy as np

from . import _core

ACCOUNTANTS = tuple(_core.accountants())


def epsilon(q, z, steps, delta=None, agents=None, accountant="moments", sampling="poisson",
            return_order=False):
    """epsilon at delta after each of `steps` rounds (a numpy array shaped like steps; a float
    for a scalar). delta defaults to agents^-1.1, as the configs do; fixed-size sampling needs
    agents (its population). With return_order, also the RDP order attaining it (0: none)."""
    counts = np.asarray(steps)
    flat = counts.ravel()
    if flat.size and (not np.all(np.equal(np.mod(flat, 1), 0)) or flat.min() < 0):
        raise ValueError(f"steps must be counts >= 0, got {steps!r}")
    eps, order = _core.epsilon(float(q), float(z), [int(s) for s in flat], _delta(delta),
                               int(agents or 0), accountant, sampling)
    eps = np.asarray(eps).reshape(counts.shape)
    order = np.asarray(order).reshape(counts.shape)
    if counts.ndim == 0:
        eps, order = float(eps), float(order)
    return (eps, order) if return_order else eps


def calibrate(target_epsilon, q, steps, delta=None, agents=None, accountant="moments",
              sampling="poisson"):
    """The smallest noise multiplier z whose epsilon after `steps` rounds is <= target_epsilon
    (a float; an array of them for an array of step counts)."""
    counts = np.asarray(steps)
    zs = [_core.calibrate(float(target_epsilon), float(q), int(s), _delta(delta),
                          int(agents or 0), accountant, sampling) for s in counts.ravel()]
    return float(zs[0]) if counts.ndim == 0 else np.asarray(zs).reshape(counts.shape)


def _delta(delta):
    return 0.0 if delta is None else float(delta)
