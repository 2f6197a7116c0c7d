#!/usr/bin/python3
"""The Python module against independent values and against the fbosim command.

    PYTHONPATH=build/python tests/python/test_fbosim.py build/fbosim
"""
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import numpy as np
import pandas as pd

import fbosim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = None  # set from argv


class Privacy(unittest.TestCase):
    def test_the_papers_values(self):
        # DP-FTS-DE sec. 5.1 (N = 200, T = 40, delta = N^-1.1): q = 0.25, 0.15, 0.5 at z = 1.
        for q, eps in ((0.25, 9.908479), (0.15, 5.934134), (0.5, 20.12311)):
            self.assertAlmostEqual(fbosim.privacy.epsilon(q, 1.0, 40, agents=200), eps, places=5)

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

    def test_bad_arguments_are_errors(self):
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(0.25, 1.0, [-1], agents=200)
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(1.5, 1.0, 10, agents=200)
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(0.25, 1.0, 10, agents=200, accountant="basic")
        with self.assertRaises(ValueError):
            fbosim.privacy.epsilon(0.25, 1.0, 10)  # neither delta nor agents


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

    def test_a_temporary_directory_by_default(self):
        tables = fbosim.run(self.CONFIG, self.SETS, runs=1, threads=1)
        self.assertEqual(list(tables["summary"]["round"]), [0, 1, 2, 3, 4])
        self.assertIsNone(tables["info"]["out_dir"])

    def test_config_errors_name_the_key(self):
        with self.assertRaisesRegex(ValueError, "server.noise_multiplier"):
            fbosim.run(self.CONFIG, ["server.noise_multiplier=-1"])


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

    def test_ctrl_c_stops_a_long_privacy_series(self):
        fired = self.interrupt_after(1.0)
        with self.assertRaises(KeyboardInterrupt):
            fbosim.privacy.epsilon(0.01, 1.1, range(1, 1000000), delta=1e-5, accountant="pld")
        self.assertLess(time.monotonic() - fired, 3.0)
        # The module works on afterwards (the stop is not left requested).
        self.assertGreater(fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200), 9.9)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "fbosim")
    unittest.main(verbosity=1)
