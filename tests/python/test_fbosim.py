#!/usr/bin/python3
"""The Python module against independent values and against the fbosim command.

    PYTHONPATH=build/python tests/python/test_fbosim.py build/fbosim
"""
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import unittest.mock

import numpy as np
import pandas as pd

import fbosim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = None  # set from argv


class Privacy(unittest.TestCase):
    def test_the_papers_values(self):
        # DP-FTS-DE sec. 5.1 (N = 200, T = 40, delta = N^-1.1): q = 0.25, 0.15, 0.5 at z = 1.
        for q, eps in ((0.25, 9.908479), (0.15, 5.934134), (0.5, 20.12311)):
            self.assertAlmostEqual(
                fbosim.privacy.epsilon(q, 1.0, 40, agents=200, delta_rule="paper"), eps, places=5)

    def test_delta_from_agents_follows_the_runs_rule(self):
        # Without delta, a run's delta for N agents (server.delta_rule): min(1e-5, 1/(10 N)) by
        # default, N^-1.1 under "paper" (values written out: 1e-5; 200^-1.1 = 0.0029435...).
        E = fbosim.privacy.epsilon
        self.assertEqual(E(0.25, 1.0, 40, agents=200), E(0.25, 1.0, 40, delta=1e-5))
        self.assertEqual(E(0.25, 1.0, 40, agents=1), E(0.25, 1.0, 40, delta=1e-5))
        self.assertAlmostEqual(E(0.25, 1.0, 40, agents=200, delta_rule="paper"),
                               E(0.25, 1.0, 40, delta=0.0029435), places=3)
        with self.assertRaisesRegex(ValueError, "delta_rule='paper' needs agents >= 2"):
            E(0.25, 1.0, 40, agents=1, delta_rule="paper")
        with self.assertRaisesRegex(ValueError, "delta_rule"):
            E(0.25, 1.0, 40, agents=200, delta_rule="nope")

    def test_vectorised_equals_one_count_at_a_time_and_keeps_the_shape(self):
        steps = np.array([[60, 1], [0, 40]])
        for acc in ("moments", "rdp", "pld"):
            eps = fbosim.privacy.epsilon(0.25, 1.0, steps, delta=1e-5, accountant=acc)
            self.assertEqual(eps.shape, (2, 2))
            for idx, t in np.ndenumerate(steps):
                one = fbosim.privacy.epsilon(0.25, 1.0, int(t), delta=1e-5, accountant=acc)
                self.assertAlmostEqual(eps[idx], one, delta=1e-9 * max(one, 1))
        self.assertEqual(fbosim.privacy.epsilon(0.25, 1.0, 0, agents=200), 0.0)

    def test_q_1_is_the_closed_form(self):
        # q = 1: RDP alpha / (2 z^2) per step; moments' epsilon = min over integer orders of
        # T alpha / (2 z^2) + log(1/delta) / (alpha - 1).
        z, t, delta = 2.0, 10, 1e-5
        want = min(t * a / (2 * z * z) + np.log(1 / delta) / (a - 1) for a in range(2, 34))
        self.assertAlmostEqual(fbosim.privacy.epsilon(1.0, z, t, delta=delta), want, places=10)

    def test_calibration_reaches_the_target(self):
        z = fbosim.privacy.calibrate(3.0, 0.25, 60, agents=200)
        self.assertLessEqual(fbosim.privacy.epsilon(0.25, z, 60, agents=200), 3.0 + 1e-9)
        self.assertGreater(fbosim.privacy.epsilon(0.25, 0.98 * z, 60, agents=200), 3.0)
        zs = fbosim.privacy.calibrate(3.0, 0.25, [30, 60], agents=200)
        self.assertLess(zs[0], zs[1])

    def test_count_noise_at_q_1_is_one_gaussian(self):
        # Adaptive clipping's count release (sigma_b) composed into every round. At q = 1, T
        # rounds of Gaussian(z) and Gaussian(sigma_b), both of sensitivity 1, are one Gaussian
        # mechanism of noise s with 1/s^2 = T (1/z^2 + 1/sigma_b^2); pld must bracket its exact
        # epsilon (Balle & Wang 2018, Thm. 8: delta(eps) = Phi(1/(2s) - eps s)
        # - e^eps Phi(-1/(2s) - eps s), solved here by bisection).
        def phi(x):
            return 0.5 * math.erfc(-x / math.sqrt(2))

        def exact(s, delta):
            lo, hi = 0.0, 100.0
            for _ in range(200):
                mid = (lo + hi) / 2
                if phi(1 / (2 * s) - mid * s) - math.exp(mid) * phi(-1 / (2 * s) - mid * s) > delta:
                    lo = mid
                else:
                    hi = mid
            return hi

        for z, sigma_b, t in ((1.0, 3.0, 40), (2.0, 2.0, 10), (40.0, 80.0, 10000)):  # long T too
            want = exact(1 / math.sqrt(t * (1 / z**2 + 1 / sigma_b**2)), 1e-5)
            got = fbosim.privacy.epsilon(1.0, z, t, delta=1e-5, accountant="pld",
                                         count_noise=sigma_b)
            self.assertGreaterEqual(got, want - 1e-9)
            self.assertLessEqual(got, want * (1 + 2e-3))
            self.assertLess(fbosim.privacy.epsilon(1.0, z, t, delta=1e-5, accountant="pld"), got)

    def test_count_noise_equals_the_command_and_calibrates(self):
        out = subprocess.run([BINARY, "privacy", "--q", "0.25", "--z", "1", "--steps", "40",
                              "--agents", "200", "--count-noise", "5", "--accountant", "rdp",
                              "--format", "csv"], capture_output=True, text=True, check=True)
        header, row = out.stdout.strip().splitlines()
        cli = float(dict(zip(header.split(","), row.split(",")))["epsilon"])
        py = fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200, accountant="rdp", count_noise=5)
        self.assertAlmostEqual(py, cli, delta=1e-12 * cli)
        z = fbosim.privacy.calibrate(3.0, 0.25, 60, agents=200, accountant="rdp", count_noise=5)
        self.assertLessEqual(fbosim.privacy.epsilon(0.25, z, 60, agents=200, accountant="rdp",
                                                    count_noise=5), 3.0 + 1e-9)
        self.assertGreater(z, fbosim.privacy.calibrate(3.0, 0.25, 60, agents=200,
                                                       accountant="rdp"))
        for bad in (0, -1.0, float("nan"), float("inf")):
            with self.assertRaisesRegex(ValueError, "count_noise"):
                fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200, count_noise=bad)
        with self.assertRaisesRegex(TypeError, "count_noise"):
            fbosim.privacy.calibrate(3.0, 0.25, 60, agents=200, count_noise="5")

    def test_bad_arguments_are_errors(self):
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(0.25, 1.0, [-1], agents=200)
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(1.5, 1.0, 10, agents=200)
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(0.25, 1.0, 10, agents=200, accountant="basic")
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(0.25, 1.0, 10)  # neither delta nor agents


E, C, R = fbosim.privacy.epsilon, fbosim.privacy.calibrate, fbosim.run
CONFIG = os.path.join(ROOT, "configs", "dp_fts_de", "synthetic.yaml")


def eps(**kw):
    args = dict(q=0.25, z=1.0, steps=40, agents=200)
    args.update(kw)
    return lambda: E(**args)


def cal(**kw):
    args = dict(target_epsilon=3.0, q=0.25, steps=60, agents=200)
    args.update(kw)
    return lambda: C(**args)


def run(**kw):
    args = dict(config=CONFIG, overrides=["rounds=1", "agents.count=3"])
    args.update(kw)
    return lambda: R(**args)


# (name, call, exception, words the message must hold: the argument and the value). Issue 24
# section 5 first, then every argument of every public function: type, range, NaN/inf, bool
# for a number, a float for a count, a string for a list, huge values, unknown keywords.
BAD = [
    ("delta 0", eps(delta=0), ValueError, ["delta", "0"]),
    ("delta nan", eps(delta=float("nan")), ValueError, ["delta", "nan"]),
    ("delta negative", eps(delta=-1e-5), ValueError, ["delta", "-1e-05"]),
    ("calibrate delta 0", cal(delta=0.0), ValueError, ["delta", "0"]),
    ("calibrate delta nan", cal(delta=np.nan), ValueError, ["delta", "nan"]),
    ("calibrate delta negative", cal(delta=-0.5), ValueError, ["delta", "-0.5"]),
    ("run runs 0", run(runs=0), ValueError, ["runs", "0"]),
    ("run seed -1", run(seed=-1), ValueError, ["seed", "-1"]),
    ("run threads -1", run(threads=-1), ValueError, ["threads", "-1"]),
    ("agents 200.7", eps(agents=200.7), TypeError, ["agents", "200.7"]),
    ("overrides a string", run(overrides="rounds=3"), TypeError, ["overrides", "'rounds=3'"]),
    # privacy.epsilon
    ("q 0", eps(q=0), ValueError, ["q", "0"]),
    ("q 1.5", eps(q=1.5), ValueError, ["q", "1.5"]),
    ("q nan", eps(q=float("nan")), ValueError, ["q", "nan"]),
    ("q a string", eps(q="0.25"), TypeError, ["q", "'0.25'"]),
    ("q a bool", eps(q=True), TypeError, ["q", "True"]),
    ("q None", eps(q=None), TypeError, ["q", "None"]),
    ("z 0", eps(z=0), ValueError, ["z", "0"]),
    ("z -1", eps(z=-1), ValueError, ["z", "-1"]),
    ("z inf", eps(z=float("inf")), ValueError, ["z", "inf"]),
    ("z a list", eps(z=[1.0]), TypeError, ["z", "[1.0]"]),
    ("z so small epsilon is infinite", eps(z=1e-300), ValueError, ["z=1e-300", "finite"]),
    ("delta 1", eps(delta=1.0), ValueError, ["delta", "1"]),
    ("delta inf", eps(delta=float("inf")), ValueError, ["delta", "inf"]),
    ("delta a string", eps(delta="1e-5"), TypeError, ["delta", "'1e-5'"]),
    ("delta a bool", eps(delta=False), TypeError, ["delta", "False"]),
    ("agents 0", eps(agents=0), ValueError, ["agents", "0"]),
    ("agents 1 without delta, paper rule", eps(agents=1, delta_rule="paper"), ValueError,
     ["agents", "1"]),
    ("delta_rule unknown", eps(delta_rule="nope"), ValueError, ["delta_rule", "'nope'"]),
    ("agents a bool", eps(agents=True), TypeError, ["agents", "True"]),
    ("agents numpy float", eps(agents=np.float64(200)), TypeError, ["agents", "200.0"]),
    ("agents a string", eps(agents="200"), TypeError, ["agents", "'200'"]),
    ("agents an array", eps(agents=np.array([200])), TypeError, ["agents", "array([200])"]),
    ("q an array", eps(q=np.array([0.25])), TypeError, ["q", "array([0.25])"]),
    ("agents beyond int", eps(agents=2**40), ValueError, ["agents", str(2**40)]),
    ("neither delta nor agents", eps(agents=None), ValueError, ["delta", "agents"]),
    ("steps negative", eps(steps=[-1]), ValueError, ["steps", "-1"]),
    ("steps 40.5", eps(steps=40.5), ValueError, ["steps", "40.5"]),
    ("steps nan", eps(steps=[1.0, np.nan]), ValueError, ["steps", "nan"]),
    ("steps inf", eps(steps=float("inf")), ValueError, ["steps", "inf"]),
    ("steps a string", eps(steps="40"), TypeError, ["steps", "'40'"]),
    ("steps strings", eps(steps=["40"]), TypeError, ["steps", "'40'"]),
    ("steps bools", eps(steps=[True, False]), TypeError, ["steps", "True"]),
    ("steps None", eps(steps=None), TypeError, ["steps", "None"]),
    ("steps ragged", eps(steps=[1, [2, 3]]), ValueError, ["steps", "[1, [2, 3]]"]),
    ("steps beyond int", eps(steps=[2**31]), ValueError, ["steps", str(2**31)]),
    ("steps beyond int64", eps(steps=[2**70]), ValueError, ["steps", str(2**70)]),
    ("accountant unknown", eps(accountant="nope"), ValueError, ["accountant", "'nope'"]),
    ("accountant not a string", eps(accountant=1), TypeError, ["accountant", "1"]),
    ("accountant basic for a sampled event", eps(accountant="basic"), ValueError,
     ["accountant='basic'", "basic"]),
    ("sampling unknown", eps(sampling="uniform"), ValueError, ["sampling", "'uniform'"]),
    ("fixed sampling without agents", eps(sampling="fixed", accountant="rdp", agents=None,
                                          delta=1e-5), ValueError, ["agents", "None"]),
    ("fixed sampling of no one", eps(sampling="fixed", accountant="rdp", q=0.001), ValueError,
     ["q = 0.001", "N = 200"]),
    ("return_order a string", eps(return_order="yes"), TypeError, ["return_order", "'yes'"]),
    ("return_order an int", eps(return_order=1), TypeError, ["return_order", "1"]),
    ("epsilon unknown keyword", eps(delt=1e-5), TypeError, ["delt"]),
    # privacy.calibrate
    ("target 0", cal(target_epsilon=0), ValueError, ["target_epsilon", "0"]),
    ("target inf", cal(target_epsilon=float("inf")), ValueError, ["target_epsilon", "inf"]),
    ("target nan", cal(target_epsilon=float("nan")), ValueError, ["target_epsilon", "nan"]),
    ("target a string", cal(target_epsilon="3"), TypeError, ["target_epsilon", "'3'"]),
    ("target unreachable", cal(target_epsilon=1e-9), ValueError, ["target_epsilon=1e-09"]),
    ("calibrate steps 0", cal(steps=0), ValueError, ["steps", "0"]),
    ("calibrate steps 60.5", cal(steps=60.5), ValueError, ["steps", "60.5"]),
    ("calibrate agents 200.7", cal(agents=200.7), TypeError, ["agents", "200.7"]),
    ("calibrate q 2", cal(q=2), ValueError, ["q", "2"]),
    ("calibrate unknown keyword", cal(z=1.0), TypeError, ["'z'"]),
    # run
    ("config None", run(config=None), TypeError, ["config", "None"]),
    ("config a number", run(config=3), TypeError, ["config", "3"]),
    ("config empty", run(config=""), ValueError, ["config", "empty"]),
    ("config missing", run(config="/nonexistent/x.yaml"), ValueError, ["/nonexistent/x.yaml"]),
    ("overrides bytes", run(overrides=b"rounds=3"), TypeError, ["overrides", "b'rounds=3'"]),
    ("overrides a dict with a bad value", run(overrides={"rounds": -3}), ValueError,
     ["rounds", "-3"]),
    ("overrides a dict with a number key", run(overrides={3: 3}), TypeError, ["overrides", "3"]),
    ("objective not callable", run(objective=3), TypeError, ["objective", "3"]),
    ("overrides a number", run(overrides=3), TypeError, ["overrides", "3"]),
    ("override not a string", run(overrides=["rounds=1", 3]), TypeError, ["overrides[1]", "3"]),
    ("override without =", run(overrides=["rounds"]), ValueError, ["overrides[0]", "'rounds'"]),
    ("override a bad value", run(overrides=["rounds=-3"]), ValueError, ["rounds", "-3"]),
    ("runs 2.5", run(runs=2.5), TypeError, ["runs", "2.5"]),
    ("runs a bool", run(runs=True), TypeError, ["runs", "True"]),
    ("runs a string", run(runs="2"), TypeError, ["runs", "'2'"]),
    ("runs huge", run(runs=10**6), ValueError, ["runs", "1000000"]),
    ("seed 1.5", run(seed=1.5), TypeError, ["seed", "1.5"]),
    ("seed beyond 64 bits", run(seed=2**64), ValueError, ["seed", str(2**64)]),
    ("threads 0", run(threads=0), ValueError, ["threads", "0"]),
    ("threads huge", run(threads=10**5), ValueError, ["threads", "100000"]),
    ("threads a float", run(threads=2.0), TypeError, ["threads", "2.0"]),
    ("out_dir empty", run(out_dir=""), ValueError, ["out_dir", "empty"]),
    ("out_dir a number", run(out_dir=5), TypeError, ["out_dir", "5"]),
    ("force an int", run(force=1), TypeError, ["force", "1"]),
    ("force a string", run(force="no"), TypeError, ["force", "'no'"]),
    ("progress an int", run(progress=1), TypeError, ["progress", "1"]),
    ("run unknown keyword", run(rounds=3), TypeError, ["rounds"]),
]


class Approximate(unittest.TestCase):
    """gdp's epsilon can understate the loss (issue 24): it is never returned unmarked."""

    def test_gdp_warns_and_sound_accountants_do_not(self):
        from fbosim.privacy import ApproximateEpsilonWarning
        with self.assertWarns(ApproximateEpsilonWarning) as w:
            e = fbosim.privacy.epsilon(0.01, 1.1, 10000, delta=1e-5, accountant="gdp")
        self.assertIn("approximation", str(w.warning))
        self.assertLess(e, 5.1926)  # the example of the issue: below the sound bound
        with self.assertWarns(ApproximateEpsilonWarning):
            fbosim.privacy.calibrate(5.0, 0.01, 10000, delta=1e-5, accountant="gdp")
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for acc in ("moments", "rdp", "pld"):
                self.assertGreaterEqual(
                    fbosim.privacy.epsilon(0.01, 1.1, 10000, delta=1e-5, accountant=acc), 5.19)


class BadArguments(unittest.TestCase):
    def test_each_is_refused_naming_the_argument_and_value(self):
        for name, call, exc, words in BAD:
            with self.subTest(name):
                with self.assertRaises(exc) as caught:
                    call()
                self.assertIs(type(caught.exception), exc, name)
                for w in words:
                    self.assertIn(w, str(caught.exception), name)

    def test_numpy_scalars_and_arrays_are_the_numbers_they_hold(self):
        want = E(0.25, 1.0, 40, agents=200)
        self.assertEqual(E(np.float32(0.25), np.int64(1), np.int32(40), agents=np.int64(200)),
                         want)
        self.assertEqual(E(0.25, 1.0, np.float64(40.0), delta=np.float64(1e-5)), want)
        self.assertEqual(list(E(0.25, 1.0, np.arange(39, 41, dtype=np.uint16), agents=200)),
                         [E(0.25, 1.0, 39, agents=200), want])
        self.assertEqual(E(0.25, 1.0, [], agents=200).shape, (0,))
        self.assertEqual(E(np.array(0.25), np.array(1.0), 40, agents=np.array(200)), want)
        self.assertEqual(C(np.float64(3.0), 0.25, np.int64(60), agents=np.int16(200)),
                         C(3.0, 0.25, 60, agents=200))

    def test_a_bad_argument_leaves_no_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            for bad in (dict(runs=0), dict(seed=-1), dict(threads=-1), dict(force="yes"),
                        dict(overrides="rounds=3")):
                with self.assertRaises((TypeError, ValueError)):
                    R(CONFIG, **{"overrides": ["rounds=1"], "out_dir": out, **bad})
                self.assertFalse(os.path.exists(out), bad)


class Run(unittest.TestCase):
    CONFIG = os.path.join(ROOT, "configs", "dp_fts_de", "synthetic.yaml")
    SETS = ["agents.count=8", "rounds=4", "objective.grid_points=200"]

    def test_same_bytes_as_the_command(self):
        with tempfile.TemporaryDirectory() as tmp:
            cli, py = os.path.join(tmp, "cli"), os.path.join(tmp, "py")
            cmd = [BINARY, "run", self.CONFIG, "--runs", "2", "--seed", "3", "--quiet", "--out", cli]
            for s in self.SETS:
                cmd += ["--set", s]
            subprocess.run(cmd, check=True, capture_output=True)
            tables = fbosim.run(self.CONFIG, self.SETS, runs=2, seed=3, threads=1, out_dir=py)
            for name in ("trace", "server", "summary"):
                with open(os.path.join(cli, f"{name}.csv"), "rb") as a, \
                        open(os.path.join(py, f"{name}.csv"), "rb") as b:
                    self.assertEqual(a.read(), b.read(), name)
                pd.testing.assert_frame_equal(tables[name],
                                              pd.read_csv(os.path.join(cli, f"{name}.csv")))
            self.assertEqual(tables["info"]["runs"], 2)
            self.assertAlmostEqual(tables["info"]["epsilon"], tables["summary"]["epsilon"].iloc[-1])

    def test_server_stop_under_a_budget(self):
        # Issue 29: the round the server stopped at, as summary.csv's `aggregating` shows it;
        # None without a stop rule. The budget lies between 2 and 3 rounds' epsilon (moments,
        # the config's q and z at delta = 8^-1.1), computed by the privacy module.
        eps = fbosim.privacy.epsilon(q=0.25, z=1.0, steps=[2, 3], agents=8, delta_rule="paper")
        tables = fbosim.run(self.CONFIG, self.SETS + [f"server.budget={(eps[0] + eps[1]) / 2}"],
                            runs=1, threads=1, progress=False)
        self.assertEqual(tables["info"]["server_stop"], 2)
        self.assertEqual(list(tables["summary"]["aggregating"].iloc[:4]), [1, 1, 0, 0])
        self.assertEqual(list(tables["server"]["aggregating"]), [1, 1, 0, 0])
        self.assertLessEqual(tables["info"]["epsilon"], (eps[0] + eps[1]) / 2)
        self.assertAlmostEqual(tables["info"]["epsilon"], eps[0], places=12)
        plain = fbosim.run(self.CONFIG, self.SETS, runs=1, threads=1, progress=False)
        self.assertIsNone(plain["info"]["server_stop"])
        self.assertNotIn("aggregating", plain["summary"].columns)

    def test_a_temporary_directory_by_default(self):
        tables = fbosim.run(self.CONFIG, self.SETS, runs=1, threads=1)
        self.assertEqual(list(tables["summary"]["round"]), [0, 1, 2, 3, 4])
        self.assertIsNone(tables["info"]["out_dir"])

    def test_config_errors_name_the_key(self):
        with self.assertRaisesRegex(ValueError, "server.noise_multiplier"):
            fbosim.run(self.CONFIG, ["server.noise_multiplier=-1"])

    def test_a_relative_config_path_is_taken_from_the_current_directory(self):
        # Issue 28: as the CLI, from any directory; a missing file says where it was looked for.
        cwd = os.getcwd()
        binary = os.path.abspath(BINARY)
        try:
            os.chdir(os.path.join(ROOT, "configs"))
            with tempfile.TemporaryDirectory() as tmp:
                fbosim.run("dp_fts_de/synthetic.yaml", self.SETS, runs=1, threads=1,
                           out_dir=os.path.join(tmp, "py"))
                cli = subprocess.run([binary, "run", "dp_fts_de/synthetic.yaml", "--runs", "1",
                                      "--threads", "1", "--quiet", "--out",
                                      os.path.join(tmp, "cli")] +
                                     [w for s in self.SETS for w in ("--set", s)],
                                     capture_output=True, text=True)
                self.assertEqual(cli.returncode, 0, cli.stderr)
                for name in ("trace", "summary"):
                    with open(os.path.join(tmp, "cli", f"{name}.csv"), "rb") as a, \
                            open(os.path.join(tmp, "py", f"{name}.csv"), "rb") as b:
                        self.assertEqual(a.read(), b.read(), name)
                os.chdir(tmp)
                looked = os.path.join(os.path.realpath(tmp), "configs", "dp_fts_de", "synthetic.yaml")
                want = (r"configs/dp_fts_de/synthetic.yaml: no such config file \(looked for " +
                        looked.replace(".", r"\.") + ": a relative path is taken from the "
                        "current directory, " + os.path.realpath(tmp).replace(".", r"\.") + r"\)")
                with self.assertRaisesRegex(ValueError, want):
                    fbosim.run("configs/dp_fts_de/synthetic.yaml", self.SETS)
                cli = subprocess.run([binary, "run", "configs/dp_fts_de/synthetic.yaml"],
                                     capture_output=True, text=True)
                self.assertEqual(cli.returncode, 1)
                self.assertRegex(cli.stderr, want)
        finally:
            os.chdir(cwd)


class Progress(unittest.TestCase):
    """fbosim.run's progress (issue 28): tqdm's bar, else a line; off with progress=False."""
    SETS = ["agents.count=8", "rounds=4", "objective.grid_points=200"]

    def setUp(self):
        import io
        from fbosim import _progress
        self.stderr = io.StringIO()
        for name, value in (("DELAY", 0.0), ("reporter", _progress.reporter)):
            self.addCleanup(setattr, _progress, name, getattr(_progress, name))
        _progress.DELAY = 0.0  # shown at once (a tiny run takes well under the 1 s delay)
        self.addCleanup(setattr, sys, "stderr", sys.stderr)
        sys.stderr = self.stderr

    def run_it(self, **kw):
        return fbosim.run(CONFIG, self.SETS, runs=3, threads=1, **kw)

    def test_the_counts_reach_every_round_of_every_run(self):
        from fbosim import _progress
        seen = []

        class Record:
            def update(self, done, total, runs):
                seen.append((done, total, runs))

            def close(self):
                seen.append("closed")

        _progress.reporter = lambda enabled: Record() if enabled else None
        self.run_it()
        self.assertEqual(seen[-1], "closed")
        self.assertEqual(seen[-2], (15, 15, 3))  # 3 runs x (4 rounds + round 0)
        dones = [d for d, _, _ in seen[:-1]]
        self.assertEqual(dones, sorted(set(dones)))  # increasing, each count once
        seen.clear()
        self.run_it(progress=False)
        self.assertEqual(seen, [])

    def test_a_line_without_tqdm(self):
        from fbosim import _progress
        _progress.reporter = lambda enabled: _progress._Line(sys.stderr) if enabled else None
        self.run_it()
        text = self.stderr.getvalue()
        self.assertIn("fbosim: run 3/3  100%", text)
        self.assertTrue(text.endswith("\n"), repr(text[-80:]))

    def test_a_tqdm_bar_when_tqdm_is_installed(self):
        try:
            import tqdm  # noqa: F401
        except ImportError:
            self.skipTest("tqdm is not installed (Debian: python3-tqdm)")
        self.run_it()
        self.assertRegex(self.stderr.getvalue(), r"fbosim: 100%\|.*15/15.*run 3/3")

    def test_nothing_with_progress_false(self):
        self.run_it(progress=False)
        self.assertEqual(self.stderr.getvalue(), "")


class Interrupt(unittest.TestCase):
    """Ctrl-C (SIGINT) stops a long run or privacy series within a second (issue 24)."""

    def interrupt_after(self, seconds):
        timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        self.addCleanup(timer.cancel)
        return time.monotonic() + seconds

    def test_ctrl_c_stops_a_run_and_keeps_nothing_unfinished(self):
        # RGPE with 10^5 ranking-loss samples: about an hour of work.
        rgpe = ["algorithm=rgpe", "ensemble.samples=100000", "rounds=50", "runs=5",
                "agents.count=51", "agents.init_points=1", "objective.grid_points=1000"]
        with tempfile.TemporaryDirectory() as tmp:
            fired = self.interrupt_after(1.0)
            with self.assertRaisesRegex(KeyboardInterrupt, "interrupted"):
                fbosim.run(os.path.join(ROOT, "configs", "fts", "fig1a.yaml"), rgpe, threads=1,
                           out_dir=os.path.join(tmp, "r"))
            self.assertLess(time.monotonic() - fired, 3.0)
            self.assertEqual(os.listdir(tmp), [])

    def test_ctrl_c_keeps_finished_runs_and_the_same_call_resumes(self):
        # Ctrl-C once two runs are finished (sent from the progress hook, so it lands in the
        # hook's Python code, the harder case): KeyboardInterrupt names the kept runs, their
        # checkpoints are there, and the same call again reuses them and writes the bytes of
        # an uninterrupted run.
        from fbosim import _progress
        sets = ["agents.count=8", "rounds=30", "objective.grid_points=200"]
        fired = []

        class CtrlC:
            def update(self, done, total, runs):
                if done >= 2 * total // runs and not fired:
                    fired.append(time.monotonic())
                    os.kill(os.getpid(), signal.SIGINT)

            def close(self):
                pass

        self.addCleanup(setattr, _progress, "reporter", _progress.reporter)
        _progress.reporter = lambda enabled: CtrlC()
        with tempfile.TemporaryDirectory() as tmp:
            out, fresh = os.path.join(tmp, "out"), os.path.join(tmp, "fresh")
            with self.assertRaisesRegex(KeyboardInterrupt, r"(\d+) of 6 runs finished") as c:
                fbosim.run(CONFIG, sets, runs=6, threads=1, out_dir=out)
            self.assertLess(time.monotonic() - fired[0], 1.0)
            kept = int(re.search(r"(\d+) of 6", str(c.exception)).group(1))
            self.assertGreaterEqual(kept, 2)
            self.assertLess(kept, 6)
            ckpts = os.listdir(os.path.join(out, ".fbosim-partial"))
            self.assertEqual(sum(f.endswith(".ckpt") for f in ckpts), kept, ckpts)
            self.assertFalse(os.path.exists(os.path.join(out, "trace.csv")))
            _progress.reporter = lambda enabled: None
            resumed = fbosim.run(CONFIG, sets, runs=6, threads=1, out_dir=out)
            self.assertEqual(resumed["info"]["resumed_runs"], kept)
            self.assertFalse(os.path.exists(os.path.join(out, ".fbosim-partial")))
            again = fbosim.run(CONFIG, sets, runs=6, threads=1, out_dir=fresh)
            self.assertEqual(again["info"]["resumed_runs"], 0)
            for name in ("trace.csv", "server.csv", "summary.csv"):
                with open(os.path.join(out, name), "rb") as a, \
                        open(os.path.join(fresh, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), name)

    def test_ctrl_c_stops_a_long_privacy_series(self):
        fired = self.interrupt_after(1.0)
        with self.assertRaises(KeyboardInterrupt):
            fbosim.privacy.epsilon(0.01, 1.1, range(1, 1000000), delta=1e-5, accountant="pld")
        self.assertLess(time.monotonic() - fired, 3.0)
        # The module works on afterwards (the stop is not left requested).
        self.assertGreater(fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200), 9.9)


# The objective of UserObjective's tests, here and as a module for the fbosim command.
USER_OBJECTIVE = """
def f(x, agent, seed):
    return (-sum((v - 0.2 * agent) ** 2 for v in x) + (seed % 1000) * 1e-4,
            -sum((v - 0.2 * agent) ** 2 for v in x))
"""
_namespace = {}
exec(USER_OBJECTIVE, _namespace)
_user_objective = _namespace["f"]


class UserObjective(unittest.TestCase):
    """fbosim.run(config, objective=fn) (issue 25 section 2): a dict config, dict overrides, the
    same trace as the fbosim command's `python` family on the same function and threads."""
    CONFIG = {"algorithm": "dp_fts", "rounds": 3, "runs": 2, "seed": 4,
              "agents": {"count": 3, "init_points": 2}, "rff": {"features": 10},
              "local_ts": {"features": 10}, "objective": {"inputs": 2}}

    def test_a_callable_equals_the_command_lines_python_family(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "user_objective_module.py"), "w") as f:
                f.write(USER_OBJECTIVE)
            cfg = os.path.join(tmp, "user.yaml")
            with open(cfg, "w") as f:
                f.write("algorithm: dp_fts\nrounds: 3\nruns: 2\nseed: 4\n"
                        "agents: {count: 3, init_points: 2}\nrff: {features: 10}\n"
                        "local_ts: {features: 10}\n"
                        "objective: {family: python, inputs: 2, "
                        "callable: 'user_objective_module:f'}\n")
            out = os.path.join(tmp, "out")
            env = dict(os.environ, PYTHONPATH=tmp)
            subprocess.run([BINARY, "run", cfg, "--quiet", "--threads", "2", "--out", out,
                            "--allow-exec"], check=True, env=env)
            expected = pd.read_csv(os.path.join(out, "trace.csv"))
        for threads in (1, 3):
            tables = fbosim.run(self.CONFIG, overrides={"rounds": 3}, threads=threads,
                                objective=_user_objective)
            pd.testing.assert_frame_equal(tables["trace"], expected)

    def test_a_failing_callable_names_agent_round_and_x(self):
        def bad(x, agent, seed):
            if agent == 1:
                raise ValueError("no model for this agent")
            return 0.0
        with self.assertRaisesRegex(RuntimeError, "agent 1, run 0, round 0, x = .*"
                                    "raised ValueError: no model for this agent"):
            fbosim.run(self.CONFIG, objective=bad)
        with self.assertRaisesRegex(RuntimeError, r"returned 'x' \(str\)"):
            fbosim.run(self.CONFIG, objective=lambda x, agent, seed: "x")


class UserObjectiveIssue39(unittest.TestCase):
    """Issue 39: os._exit in the user's function ended the process with status 0 and no
    results; config.resolved.yaml named every function fbosim._objectives:objective_N, which
    cannot be re-run."""
    CONFIG = UserObjective.CONFIG

    def run_script(self, body):
        """Runs `body` (after `import fbosim, os, sys`) in a Python process of its own."""
        script = "import os, sys\nimport fbosim\nCONFIG = %r\n%s" % (self.CONFIG, body)
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=dict(os.environ), timeout=300)

    def test_os_exit_in_the_function_is_an_error_not_status_0(self):
        for call in ("os._exit(0)", "os._exit(3)", "__import__('posix')._exit(0)",
                     "sys.exit(0)"):
            with self.subTest(call=call):
                r = self.run_script(
                    "def quits(x, agent, seed):\n    %s\n"
                    "try:\n    fbosim.run(CONFIG, objective=quits, progress=False)\n"
                    "except RuntimeError as e:\n"
                    "    print('ERROR', e, file=sys.stderr)\n"
                    "    print('RESTORED', os._exit is __import__('posix')._exit and "
                    "os._exit.__module__ == 'posix', file=sys.stderr)\n"
                    "    sys.exit(7)\n" % call)
                self.assertEqual(r.returncode, 7, r.stderr)
                self.assertIn("agent 0, run 0, round 0", r.stderr)
                self.assertIn("called sys.exit, which" if "sys" in call else "called os._exit(",
                              r.stderr)
                self.assertIn("RESTORED True", r.stderr)

    def test_an_importable_function_is_recorded_by_module_and_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "issue39_objective.py"), "w") as f:
                f.write(USER_OBJECTIVE)
            sys.path.insert(0, tmp)
            try:
                import issue39_objective
                out = os.path.join(tmp, "out")
                fbosim.run(self.CONFIG, objective=issue39_objective.f, out_dir=out,
                           progress=False)
            finally:
                sys.path.remove(tmp)
            with open(os.path.join(out, "config.resolved.yaml")) as f:
                resolved = f.read()
            with open(os.path.join(out, "provenance.yaml")) as f:
                provenance = f.read()
            self.assertIn("callable: issue39_objective:f", resolved)
            self.assertNotIn("reproducible_from_files", provenance)
            # The recorded config re-runs with the fbosim command: the same trace.
            again = os.path.join(tmp, "again")
            subprocess.run([BINARY, "run", os.path.join(out, "config.resolved.yaml"), "--quiet",
                            "--out", again, "--allow-exec"], check=True,
                           env=dict(os.environ, PYTHONPATH=tmp))
            for name in ("trace.csv", "summary.csv"):
                with open(os.path.join(out, name)) as a, open(os.path.join(again, name)) as b:
                    self.assertEqual(a.read(), b.read())

    def test_a_config_file_that_runs_a_program_needs_allow_exec(self):
        # A config is code: from Python as from the command line, a program named by a config
        # FILE runs only with consent (allow_exec=True, as --allow-exec); nothing is written
        # without it.
        with tempfile.TemporaryDirectory() as tmp, \
                unittest.mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("FBOSIM_ALLOW_EXEC", None)
            program = os.path.join(tmp, "objective.py")
            with open(program, "w") as f:
                f.write("import json, sys\nfor line in sys.stdin:\n    q = json.loads(line)\n"
                        "    print(json.dumps({'id': q['id'], 'y': -sum(q['x'])}), flush=True)\n")
            cfg = os.path.join(tmp, "cfg.yaml")
            with open(cfg, "w") as f:
                f.write("algorithm: dp_fts\nrounds: 2\nruns: 1\nagents: {count: 2, init_points: 2}\n"
                        "rff: {features: 10}\nlocal_ts: {features: 10}\n"
                        "objective: {family: command, command: '%s %s', inputs: 2}\n"
                        % (sys.executable, program))
            out = os.path.join(tmp, "out")
            with self.assertRaises(ValueError) as e:
                fbosim.run(cfg, out_dir=out, progress=False)
            self.assertIn("objective.command", str(e.exception))
            self.assertIn("allow_exec=True", str(e.exception))
            self.assertFalse(os.path.exists(out))
            t = fbosim.run(cfg, out_dir=out, progress=False, allow_exec=True)
            self.assertEqual(list(t["summary"]["round"]), [0, 1, 2])
            sweep_out = os.path.join(tmp, "sweep")
            with self.assertRaises(RuntimeError):
                fbosim.sweep(cfg, grid={"seed": [1, 2]}, out=sweep_out, progress=False)
            points = fbosim.sweep(cfg, grid={"seed": [1, 2]}, out=sweep_out, progress=False,
                                  allow_exec=True)["points"]
            self.assertEqual(len(points), 2)

    def test_a_lambda_is_recorded_as_not_reproducible_from_the_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            r = self.run_script("fbosim.run(CONFIG, objective=lambda x, agent, seed: -sum(x), "
                                "out_dir=%r, progress=False)\n" % out)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("cannot be reproduced from its files alone", r.stderr)
            with open(os.path.join(out, "config.resolved.yaml")) as f:
                self.assertIn("callable: fbosim._objectives:objective_0", f.read())
            with open(os.path.join(out, "provenance.yaml")) as f:
                provenance = f.read()
            self.assertIn("reproducible_from_files: false", provenance)
            self.assertIn("not_reproducible_because:", provenance)
        # A closure, a function of __main__ and a bound method cannot be imported again.
        def closure(x, agent, seed):
            return 0.0
        from fbosim import _objectives
        self.assertIsNone(_objectives.importable_name(closure))
        self.assertIsNone(_objectives.importable_name(_user_objective))
        self.assertIsNone(_objectives.importable_name(self.test_a_lambda_is_recorded_as_not_reproducible_from_the_files))
        self.assertEqual(_objectives.importable_name(os.path.join), "posixpath:join")


class Partition(unittest.TestCase):
    """fbosim.partition (issue 29); the schemes' statistics are tested in C++
    (tests/datasets/partition): here the Python surface."""
    LABELS = np.repeat(np.arange(10), 100)  # 10 labels x 100 rows

    def covered_once(self, parts, n):
        rows = np.concatenate(parts)
        self.assertEqual(sorted(rows.tolist()), list(range(n)))
        for p in parts:
            self.assertEqual(p.dtype, np.int64)
            self.assertTrue(np.all(np.diff(p) > 0))

    def test_every_row_once_in_every_scheme(self):
        for scheme in ("iid", "dirichlet", "shards"):
            with self.subTest(scheme):
                parts = fbosim.partition(self.LABELS, 10, scheme=scheme, seed=3)
                self.assertEqual(len(parts), 10)
                self.covered_once(parts, 1000)

    def test_iid_sizes_and_shards_labels(self):
        self.assertEqual([len(p) for p in fbosim.partition(range(23), 5)], [5, 5, 5, 4, 4])
        for p in fbosim.partition(self.LABELS, 10, scheme="shards", shards=2, seed=1):
            self.assertLessEqual(len(set(self.LABELS[p].tolist())), 2)
            self.assertEqual(len(p), 100)

    def test_seeded_and_string_labels_as_their_codes(self):
        a = fbosim.partition(self.LABELS, 4, scheme="dirichlet", alpha=0.3, seed=7)
        b = fbosim.partition(list(self.LABELS), 4, scheme="dirichlet", alpha=0.3, seed=7)
        self.assertTrue(all(np.array_equal(x, y) for x, y in zip(a, b)))
        c = fbosim.partition(self.LABELS, 4, scheme="dirichlet", alpha=0.3, seed=8)
        self.assertFalse(all(np.array_equal(x, y) for x, y in zip(a, c)))
        names = np.array([f"class{k}" for k in self.LABELS])  # sorts as the integers do
        d = fbosim.partition(names, 4, scheme="dirichlet", alpha=0.3, seed=7)
        self.assertTrue(all(np.array_equal(x, y) for x, y in zip(a, d)))

    def test_bad_arguments_name_the_argument(self):
        P = fbosim.partition
        for call, exc, words in [
                (lambda: P(self.LABELS, 10, scheme="dirichlet", alpha=0), ValueError, ["alpha"]),
                (lambda: P(self.LABELS, 10, scheme="dirichlet", alpha=float("nan")), ValueError,
                 ["alpha"]),
                (lambda: P(range(5), 6), ValueError, ["agents", "rows (5)", "6"]),
                (lambda: P(range(5), 0), ValueError, ["agents", "0"]),
                (lambda: P(range(5), 2.5), TypeError, ["agents", "2.5"]),
                (lambda: P(range(5), 2, scheme="random"), ValueError, ["scheme", "random"]),
                (lambda: P(range(10), 3, scheme="shards", shards=4), ValueError,
                 ["shards x agents (4 x 3)"]),
                (lambda: P([], 1), ValueError, ["no rows"]),
                (lambda: P([[1, 2], [3, 4]], 2), ValueError, ["1-D"]),
                (lambda: P([0.5, 1.5], 2), TypeError, ["labels", "float64"]),
                (lambda: P(range(5), 2, seed=-1), ValueError, ["seed", "-1"]),
                (lambda: P([0, 1] * 50, 50, scheme="dirichlet", alpha=0.001), RuntimeError,
                 ["min_size", "larger alpha"])]:
            with self.assertRaises(exc) as caught:
                call()
            self.assertIs(type(caught.exception), exc)
            for w in words:
                self.assertIn(w, str(caught.exception))


# Issue 43: sweeps and results from Python. The expected values are the files the fbosim
# command writes, read here with the csv and yaml modules (not with the package's reader).
SWEEP_CONFIG = ("algorithm: dp_fts_de\nrounds: 3\nruns: 2\nobjective: {grid_points: 100}\n"
                "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
                "rff: {features: 10}\nlocal_ts: {features: 10}\n"
                "server: {dp: true, sampling_rate: 0.5}\n")


def csv_rows(path):
    import csv
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def same_cells(test, frame, rows, where=""):
    """Every row and column of the CSV rows (strings) in the DataFrame, as numbers where they
    are numbers, empty cells as NaN."""
    test.assertEqual(len(frame), len(rows), where)
    for i, row in enumerate(rows):
        for key, text in row.items():
            got = frame.iloc[i][key]
            if text == "":
                test.assertTrue(pd.isna(got), f"{where} row {i} {key}: {got!r} for ''")
                continue
            try:
                want = float(text)
            except ValueError:
                test.assertEqual(str(got), text, f"{where} row {i} {key}")
                continue
            test.assertEqual(float(got), want, f"{where} row {i} {key}")


def quietly(call):
    """call() with sys.stderr captured; returns (result, the text written to it)."""
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        result = call()
    return result, err.getvalue()


class SweepsAndResults(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="fbosim-py43-")
        self.dir = self.tmp.name
        self.cfg = os.path.join(self.dir, "tiny.yaml")
        with open(self.cfg, "w", encoding="utf-8") as f:
            f.write(SWEEP_CONFIG)

    def tearDown(self):
        self.tmp.cleanup()

    def cli(self, *args):
        subprocess.run([BINARY, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def test_load_a_run_gives_its_csv_files_and_config(self):
        import yaml
        out = os.path.join(self.dir, "run")
        self.cli("run", self.cfg, "--quiet", "--threads", "1", "--out", out)
        got = fbosim.load(out)
        for name in ("trace", "server", "summary", "timing"):
            same_cells(self, got[name], csv_rows(os.path.join(out, f"{name}.csv")), name)
        with open(os.path.join(out, "config.resolved.yaml"), encoding="utf-8") as f:
            self.assertEqual(got["config"], yaml.safe_load(f))
        self.assertEqual(got["config"]["server"]["sampling_rate"], 0.5)
        self.assertEqual(got["provenance"]["runs"], 2)

    def test_sweep_is_the_command_and_load_stacks_its_points(self):
        py = os.path.join(self.dir, "py")
        s, err = quietly(lambda: fbosim.sweep(self.cfg, grid={"server.noise_multiplier": [1, 2.5]},
                                              runs=2, out=py, jobs=1, threads=1))
        self.assertIn("[2/2] done", err)  # the command's progress, relayed
        cli = os.path.join(self.dir, "cli")
        self.cli("sweep", self.cfg, "--grid", "server.noise_multiplier=1,2.5", "--runs", "2",
                 "--jobs", "1", "--threads", "1", "--quiet", "--out", cli)
        points = csv_rows(os.path.join(cli, "sweep.csv"))
        self.assertEqual([p["dir"] for p in points],
                         ["server.noise_multiplier=1", "server.noise_multiplier=2.5"])
        same_cells(self, s["points"].drop(columns="seconds"),
                   [{k: v for k, v in p.items() if k != "seconds"} for p in points], "sweep.csv")
        self.assertEqual(s["keys"], ["server.noise_multiplier"])
        for p in points:
            for name in ("trace", "server", "summary", "timing"):
                path = os.path.join(cli, p["dir"], f"{name}.csv")
                with open(path, "rb") as a, open(os.path.join(py, p["dir"], f"{name}.csv"),
                                                 "rb") as b:
                    if name != "timing":  # wall times
                        self.assertEqual(a.read(), b.read(), path)
                part = s[name][s[name]["point"] == int(p["point"])].reset_index(drop=True)
                self.assertTrue((part["server.noise_multiplier"] ==
                                 float(p["server.noise_multiplier"])).all())
                if name != "timing":
                    same_cells(self, part.drop(columns=["point", "server.noise_multiplier"]),
                               csv_rows(path), path)
            self.assertEqual(s["config"][int(p["point"])]["server"]["noise_multiplier"],
                             float(p["server.noise_multiplier"]))
        # load() of the directory gives the same tables.
        again = fbosim.load(py)
        for name in ("points", "summary", "trace", "server"):
            pd.testing.assert_frame_equal(again[name], s[name])

    def test_the_same_sweep_again_resumes_and_more_runs_grow_it(self):
        py = os.path.join(self.dir, "py")
        grid = {"server.noise_multiplier": [1, 2]}
        quietly(lambda: fbosim.sweep(self.cfg, grid=grid, runs=2, out=py, jobs=1, threads=1))
        _, err = quietly(lambda: fbosim.sweep(self.cfg, grid=grid, runs=2, out=py, jobs=1,
                                              threads=1))
        self.assertIn("skipped", err)
        self.assertNotIn("running it again", err)
        s, err = quietly(lambda: fbosim.sweep(self.cfg, grid=grid, runs=3, out=py, jobs=1,
                                              threads=1))
        self.assertIn("growing from 2 to 3 runs (reusing 2)", err)
        fresh = os.path.join(self.dir, "fresh")
        self.cli("sweep", self.cfg, "--grid", "server.noise_multiplier=1,2", "--runs", "3",
                 "--jobs", "1", "--threads", "1", "--quiet", "--out", fresh)
        for p in csv_rows(os.path.join(fresh, "sweep.csv")):
            with open(os.path.join(fresh, p["dir"], "summary.csv"), "rb") as a, \
                    open(os.path.join(py, p["dir"], "summary.csv"), "rb") as b:
                self.assertEqual(a.read(), b.read())
        self.assertEqual(set(s["summary"]["n"]), {3 * 4})  # runs x agents

    def test_plot_draws_a_sweep_with_the_given_labels(self):
        import matplotlib
        py = os.path.join(self.dir, "py")
        quietly(lambda: fbosim.sweep(self.cfg, grid={"server.noise_multiplier": [1, 2]},
                                     out=py, jobs=1, threads=1, progress=False))
        stem = os.path.join(self.dir, "fig")
        matplotlib.rcParams["svg.fonttype"] = "none"  # text as text, to be read back
        try:
            png = fbosim.plot(py, out=stem, labels=["noise one", "noise two"],
                              formats=["png", "svg"])
        finally:
            matplotlib.rcParams["svg.fonttype"] = "path"
        self.assertEqual(png, stem + ".png")
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(stem + ".svg", encoding="utf-8") as f:
            svg = f.read()
        self.assertIn("noise one", svg)
        self.assertIn("noise two", svg)
        # A dict names the points it relabels; the others keep their generated labels.
        fbosim.plot(py, out=stem + "2", labels={"server.noise_multiplier=2": "the big z"},
                    formats=["svg"])
        with open(stem + "2.svg", encoding="utf-8") as f:
            self.assertIn("the big z", f.read())
        for labels, words in ((["only one"], ["1 label(s) for 2 result(s)"]),
                              ({"nope": "x"}, ["labels name no result", "nope"])):
            with self.assertRaises(ValueError) as caught:
                fbosim.plot(py, out=stem + "3", labels=labels)
            for w in words:
                self.assertIn(w, str(caught.exception))
        self.assertFalse(os.path.exists(stem + "3.png"))
        # The config names as labels, the figure's size and the legend's place (issue 43
        # sec. 3); a bad size or place is refused and leaves the style as it was.
        import matplotlib.image
        fbosim.plot(py, out=stem + "4", labels="name", size=(3, 2), legend="none",
                    formats=["png"])
        small = matplotlib.image.imread(stem + "4.png").shape
        fbosim.plot(py, out=stem + "5", formats=["png"])
        default = matplotlib.image.imread(stem + "5.png").shape
        # 2 inches high against 4.4 (the footnote beside the axes widens both alike)
        self.assertLess(small[0], default[0] * 0.6)
        self.assertLess(small[1], default[1])
        for bad in (dict(size=(3,)), dict(size=(0.1, 2)), dict(legend="left")):
            with self.assertRaises(ValueError):
                fbosim.plot(py, out=stem + "6", **bad)
        self.assertFalse(os.path.exists(stem + "6.png"))
        fbosim.plot(py, out=stem + "7", formats=["png"])
        self.assertEqual(matplotlib.image.imread(stem + "7.png").shape, default)

    def test_ctrl_c_stops_a_sweep_keeping_its_finished_points(self):
        import glob
        py = os.path.join(self.dir, "py")
        args = dict(grid={"server.noise_multiplier": [1, 2, 3, 4, 5, 6]}, out=py, runs=2,
                    overrides={"rounds": 30, "agents.count": 50}, jobs=1, threads=1)
        stop = threading.Event()

        def interrupt_after_the_first_point():  # as a notebook's interrupt: this process only
            while not stop.is_set():
                if glob.glob(os.path.join(py, "*", "sweep.done")):
                    os.kill(os.getpid(), signal.SIGINT)
                    return
                time.sleep(0.01)

        watcher = threading.Thread(target=interrupt_after_the_first_point, daemon=True)
        watcher.start()
        try:
            with self.assertRaisesRegex(KeyboardInterrupt, "finished points are kept in " + py):
                quietly(lambda: fbosim.sweep(CONFIG, **args))
        finally:
            stop.set()
            watcher.join()
        finished = len(glob.glob(os.path.join(py, "*", "sweep.done")))
        self.assertGreaterEqual(finished, 1)
        self.assertLess(finished, 6)
        s, err = quietly(lambda: fbosim.sweep(CONFIG, **args))
        self.assertEqual(err.count("(finished by an earlier sweep)"), finished, err)
        self.assertEqual(list(s["points"]["server.noise_multiplier"]), [1, 2, 3, 4, 5, 6])

    def test_bad_arguments_and_directories_are_named(self):
        S = fbosim.sweep
        out = os.path.join(self.dir, "never")
        for call, exc, words in [
                (lambda: S(self.cfg, grid={"rounds": [2, 3]}), TypeError, ["out="]),
                (lambda: S(self.cfg, grid="rounds=2,3", out=out), TypeError, ["grid", "dict"]),
                (lambda: S(self.cfg, grid={"name": ["a,b"]}, out=out), ValueError,
                 ["grid['name']", "'a,b'"]),
                (lambda: S(self.cfg, grid={"rounds": []}, out=out), ValueError, ["no values"]),
                (lambda: S(self.cfg, grid={"rounds": [2]}, runs=0, out=out), ValueError,
                 ["runs", "0"]),
                (lambda: S(self.cfg, grid={"rounds": [2]}, overrides="rounds=3", out=out),
                 TypeError, ["overrides"]),
                (lambda: S(self.cfg, grid={"nonsense.key": [1]}, out=out, progress=False),
                 RuntimeError, ["nonsense.key"]),
                (lambda: fbosim.load(self.dir), ValueError,
                 [self.dir, "neither a run (summary.csv) nor a sweep (sweep.csv)"]),
                (lambda: fbosim.load(out), FileNotFoundError, [out]),
                (lambda: fbosim.load(3), TypeError, ["directory", "3"])]:
            with self.assertRaises(exc) as caught:
                quietly(call)
            self.assertIs(type(caught.exception), exc)
            for w in words:
                self.assertIn(w, str(caught.exception))
        self.assertFalse(os.path.exists(os.path.join(out, "sweep.csv")))

if __name__ == "__main__":
    BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "fbosim")
    unittest.main(verbosity=1)
