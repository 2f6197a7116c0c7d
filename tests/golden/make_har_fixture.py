#!/usr/bin/env python3
"""Writes a small, deterministic UCI HAR tree in the official layout for the activity golden traces.

Usage: make_har_fixture.py DIR   (DIR is the "UCI HAR Dataset" folder to create)

No copy of UCI HAR is on the project's machines, so the activity configs' golden traces run on
this generated tree: 8 subjects, 12 rows each in train and test (labels cycling 1..6), 561
features N(0, 1) plus 1.0 on the features of the row's class (a separable mean pattern, as the
unit tests' fixture). Values are printed like the official files ("%.7e", three-digit exponent).
Python's random (Mersenne Twister) makes the bytes identical on every machine.
"""
import os
import random
import sys

FEATURES, SUBJECTS, ROWS = 561, 8, 12
LABELS = ["WALKING", "WALKING_UPSTAIRS", "WALKING_DOWNSTAIRS", "SITTING", "STANDING", "LAYING"]


def official(v):
    mant, exp = ("%.7e" % v).split("e")
    return "%se%s%03d" % (mant, exp[0], abs(int(exp)))


def write_split(root, split, rng):
    os.makedirs(os.path.join(root, split), exist_ok=True)
    x_lines, y_lines, s_lines = [], [], []
    for subject in range(1, SUBJECTS + 1):
        for i in range(ROWS):
            label = 1 + i % 6
            row = [rng.gauss(0.0, 1.0) + (1.0 if j % 6 == label - 1 else 0.0) for j in range(FEATURES)]
            x_lines.append("  " + " ".join(official(v) for v in row))
            y_lines.append(str(label))
            s_lines.append(str(subject))
    for name, lines in (("X", x_lines), ("y", y_lines), ("subject", s_lines)):
        with open(os.path.join(root, split, "%s_%s.txt" % (name, split)), "w") as f:
            f.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_har_fixture.py DIR")
    root = sys.argv[1]
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "features.txt"), "w") as f:
        f.writelines("%d feature-%d()\n" % (j, j) for j in range(1, FEATURES + 1))
    with open(os.path.join(root, "activity_labels.txt"), "w") as f:
        f.writelines("%d %s\n" % (k + 1, name) for k, name in enumerate(LABELS))
    rng = random.Random(20211206)
    write_split(root, "train", rng)
    write_split(root, "test", rng)


if __name__ == "__main__":
    main()
