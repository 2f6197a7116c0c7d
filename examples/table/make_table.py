#!/usr/bin/env python3
"""Writes svm_digits.csv: the validation accuracy of examples/federated_hpo's SVM at the 6 x 6
grid of (C, gamma) points, for its first 4 agents: a tabular benchmark in the form the `table`
family reads (columns agent, x0, x1, y; y = f here, the accuracy being deterministic).
Run from the repository root: /usr/bin/python3 examples/table/make_table.py"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "federated_hpo"))
from sklearn_objective import evaluate  # noqa: E402

AGENTS, SIDE = 4, 6
with open(os.path.join(here, "svm_digits.csv"), "w", encoding="ascii") as out:
    out.write("agent,x0,x1,y\n")
    for agent in range(AGENTS):
        for i in range(SIDE):
            for j in range(SIDE):
                x = [i / (SIDE - 1), j / (SIDE - 1)]
                out.write(f"{agent},{x[0]:g},{x[1]:g},{evaluate(x, agent, 0):.6g}\n")
