"""Privacy loss of the subsampled Gaussian mechanism (DP-FTS-DE's server), from fbosim's
accountants: moments (the paper's), rdp, pld (the tightest bound), gdp (an approximation) and
basic. `steps` may be a number or any array of counts: every count comes from one composition
pass of one accountant.

Every argument is checked (fbosim/_check.py): a wrong type raises TypeError, a value out of
range (delta = 0, NaN, agents = 200.7, q = 1.5, ...) ValueError, naming the argument and the
value; nothing falls back to a default silently. An epsilon that is not finite is an error
(ValueError), never an inf. The gdp accountant (the central-limit approximation of Dong, Roth
& Su) can fall below the true bound (5.0647 against 5.1926 at q = 0.01, z = 1.1, T = 10,000,
delta = 1e-5): its results come with an ApproximateEpsilonWarning, as `fbosim privacy` prints
a note and a run refuses it as the reported accountant."""
import warnings

import numpy as np

from . import _check
from . import _core

ACCOUNTANTS = tuple(_core.accountants())
SAMPLINGS = ("poisson", "fixed")
DELTA_RULES = ("default", "paper")  # server.delta_rule's names
#: Accountants whose epsilon is an approximation, not an upper bound.
APPROXIMATE = ("gdp",)


class ApproximateEpsilonWarning(UserWarning):
    """The epsilon (or the noise calibrated to it) comes from an approximation that may
    understate the privacy loss; use moments, rdp or pld for a bound."""


def _warn_if_approximate(accountant, what):
    if accountant in APPROXIMATE:
        warnings.warn(f"accountant={accountant!r} is an approximation that can fall below the "
                      f"true epsilon; {what} is not a privacy guarantee (use 'pld', 'rdp' or "
                      "'moments' for a bound)", ApproximateEpsilonWarning, stacklevel=3)


def epsilon(q, z, steps, delta=None, agents=None, accountant="moments", sampling="poisson",
            return_order=False, count_noise=None, delta_rule="default"):
    """epsilon at delta after each of `steps` rounds (a numpy array shaped like steps; a float
    for a scalar). Without delta, the delta a run of `agents` agents has: delta_rule="default"
    gives min(1e-5, 1/(10 agents)), "paper" agents^-1.1 (server.delta_rule; only when delta is
    None: a given delta must be in (0, 1)); fixed-size sampling needs agents (its population). With
    return_order, also the RDP order attaining it (0: none). count_noise: adaptive clipping's
    sigma_b (server.clip_count_noise), whose noisy count is released every round too (Andrew
    et al. 2021); None describes fixed clipping, and understates a run with adaptive clipping."""
    q, z, delta, agents, accountant, sampling = _event_args(q, z, delta, agents, accountant,
                                                            sampling, delta_rule)
    z = _check.real("z", z, 0, lo_open=True)
    count_noise = _count_noise(count_noise)
    flat, shape = _check.counts("steps", steps)
    return_order = _check.boolean("return_order", return_order)
    try:
        eps, order = _core.epsilon(q, z, flat, delta, agents, accountant, sampling, count_noise,
                                   delta_rule)
    except ValueError as e:  # the accountant's refusal, said with the arguments it refused
        raise ValueError(f"epsilon(q={q!r}, z={z!r}, delta={delta!r}, agents={agents!r}, "
                         f"accountant={accountant!r}, sampling={sampling!r}"
                         f"{_count_noise_text(count_noise)}): {e}") from None
    _warn_if_approximate(accountant, "this epsilon")
    eps = np.asarray(eps, dtype=float).reshape(shape)
    order = np.asarray(order, dtype=float).reshape(shape)
    if not shape:
        eps, order = float(eps), float(order)
    return (eps, order) if return_order else eps


def calibrate(target_epsilon, q, steps, delta=None, agents=None, accountant="moments",
              sampling="poisson", count_noise=None, delta_rule="default"):
    """The smallest noise multiplier z whose epsilon after `steps` rounds (each >= 1) is <=
    target_epsilon (a float; an array of them for an array of step counts). count_noise and
    delta_rule: as in epsilon (the count's release is fixed by sigma_b; only the messages' z
    is searched)."""
    target = _check.real("target_epsilon", target_epsilon, 0, lo_open=True)
    q, _, delta, agents, accountant, sampling = _event_args(q, None, delta, agents, accountant,
                                                            sampling, delta_rule)
    count_noise = _count_noise(count_noise)
    flat, shape = _check.counts("steps", steps, lo=1)
    try:
        zs = [_core.calibrate(target, q, s, delta, agents, accountant, sampling, count_noise,
                              delta_rule) for s in flat]
    except ValueError as e:
        raise ValueError(f"calibrate(target_epsilon={target!r}, q={q!r}, delta={delta!r}, "
                         f"agents={agents!r}, accountant={accountant!r}, "
                         f"sampling={sampling!r}{_count_noise_text(count_noise)}): {e}") from None
    _warn_if_approximate(accountant, "the noise calibrated to it")
    return float(zs[0]) if not shape else np.asarray(zs, dtype=float).reshape(shape)


def _count_noise(count_noise):
    """None (fixed clipping) or a finite sigma_b > 0."""
    return None if count_noise is None else _check.real("count_noise", count_noise, 0,
                                                        lo_open=True)


def _count_noise_text(count_noise):
    return "" if count_noise is None else f", count_noise={count_noise!r}"


def _event_args(q, z, delta, agents, accountant, sampling, delta_rule):
    """The checked arguments shared by epsilon and calibrate."""
    q = _check.real("q", q, 0, 1, lo_open=True)
    if delta is not None:
        delta = _check.real("delta", delta, 0, 1, lo_open=True, hi_open=True)
    if agents is not None:
        agents = _check.integer("agents", agents, 1, _check.INT_MAX)
    accountant = _check.choice("accountant", accountant, ACCOUNTANTS)
    sampling = _check.choice("sampling", sampling, SAMPLINGS)
    delta_rule = _check.choice("delta_rule", delta_rule, DELTA_RULES)
    if delta is None and agents is None:
        raise ValueError("give delta, or agents (delta defaults to min(1e-5, 1/(10 agents)); "
                         "agents^-1.1 with delta_rule='paper'), got delta=None, agents=None")
    if delta is None and delta_rule == "paper" and agents < 2:
        raise ValueError("delta_rule='paper' needs agents >= 2 (agents^-1.1 must be < 1), got "
                         f"agents={_check.show(agents)}")
    if sampling == "fixed" and agents is None:
        raise ValueError("sampling='fixed' needs agents (the population N; the batch is "
                         "floor(N q)), got agents=None")
    return q, z, delta, agents, accountant, sampling
