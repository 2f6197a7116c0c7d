#!/usr/bin/env python3
"""Writes po_synthetic.csv: a stand-in for PO-GP-UCB's real-world loan data (Kharkovskii, Dai &
Low, ICML 2020, sec. 4: 36,000 applicants, d = 3 features, the ROI to maximise), small and made
up, in the form the `table` family reads (columns agent, x0, x1, x2, y): 400 "applicants" with
three features drawn uniformly in [0, 1] (as a user would min-max scale amount, interest rate and
income), and y a smooth made-up "ROI" with one broad optimum. Not the LendingClub data, which
this project does not have; docs/PRIVATE_BO.md, "The real-world experiments", says how to write
the real table. Deterministic (Python's random with seed 7). Run from the repository root:
/usr/bin/python3 examples/table/make_po_table.py"""
import math
import os
import random

ROWS = 400
rng = random.Random(7)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "po_synthetic.csv"), "w", encoding="ascii") as out:
    out.write("agent,x0,x1,x2,y\n")
    for _ in range(ROWS):
        x = [round(rng.random(), 4) for _ in range(3)]
        roi = (math.exp(-((x[0] - 0.3) ** 2 + (x[1] - 0.7) ** 2 + (x[2] - 0.5) ** 2) / 0.18)
               + 0.3 * math.sin(3 * x[0] + 2 * x[2]))
        out.write(f"0,{x[0]:g},{x[1]:g},{x[2]:g},{roi:.6f}\n")
