#!/usr/bin/env python3
"""Takes the pre-switch snapshot of config_snapshot_test (issue 25, phase 2).

usage: take_snapshot.py FBOSIM_BINARY   (from the repository root)

Runs `FBOSIM_BINARY config` on every shipped config (configs/*/*.yaml), on each curve its
header lists ("# curve: --set ..."), and under every algorithm of the snapshot, and on each
case of the table in config_snapshot_test.cpp (written as case.yaml in a temporary folder),
with FBOSIM_DATA unset, and writes pre_switch_configs.tsv and pre_switch_cases.tsv beside this
script: the FNV-1a 64 of a printed resolved config, or an error line in full. The binary must be
one built with the reader before the switch (first f0dae3d; now main's 274697e, after issue 28
renamed the algorithms, built without LibTorch: `git archive 274697e`, then cmake and
`--target fbosim`): the files are a regression guard, never the output of the code under test.
After a shipped config changes, take its rows again with such a binary (its configs/ replaced by
the new ones)."""
import glob
import os
import re
import subprocess
import sys
import tempfile

ALGORITHMS = ["fts_de", "ts", "fts", "dp_fts", "dp_fts_de", "fts_target", "rgpe", "taf",
              "po_gp_ucb", "gp_ucb", "dp_bo"]
HERE = os.path.dirname(os.path.abspath(__file__))


def fnv1a(data):
    h = 0xcbf29ce484222325
    for c in data:
        h ^= c
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def outcome(binary, args, cwd, env):
    p = subprocess.run([binary, "config"] + args, cwd=cwd, capture_output=True, env=env)
    if p.returncode == 0:
        return 0, f"{fnv1a(p.stdout):016x}"
    text = p.stderr.decode()
    assert text.count("\n") == 1 and "\t" not in text, text
    return p.returncode, text[:-1]


def table_cases():
    """The {text, {sets...}} entries of config_snapshot_test.cpp's table."""
    src = open(os.path.join(HERE, "..", "config_snapshot_test.cpp")).read()
    start = src.index("const std::vector<Case> cases = {") + len("const std::vector<Case> cases = {")
    body = src[start:src.index("\n  };", start)]
    tokens, i = [], 0
    while i < len(body):
        c = body[i]
        if c == '"':
            j, s = i + 1, ""
            while body[j] != '"':
                if body[j] == "\\":
                    s += {"n": "\n", "\\": "\\", '"': '"', "t": "\t"}[body[j + 1]]
                    j += 2
                else:
                    s += body[j]
                    j += 1
            if tokens and tokens[-1][0] == "s":  # adjacent literals are one string
                tokens[-1] = ("s", tokens[-1][1] + s)
            else:
                tokens.append(("s", s))
            i = j + 1
        elif c in "{},":
            tokens.append((c,))
            i += 1
        elif body.startswith("//", i):
            i = body.index("\n", i)
        else:
            i += 1
    tokens = [t for t in tokens if t != (",",)]
    cases, k = [], 0
    while k < len(tokens):
        assert tokens[k] == ("{",) and tokens[k + 2] == ("{",), tokens[k:k + 3]
        text, k, sets = tokens[k + 1][1], k + 3, []
        while tokens[k][0] == "s":
            sets.append(tokens[k][1])
            k += 1
        assert tokens[k] == ("}",) and tokens[k + 1] == ("}",)
        k += 2
        cases.append((text, sets))
    return cases


def main():
    binary = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    env.pop("FBOSIM_DATA", None)
    rows = []
    for path in sorted(glob.glob("configs/*/*.yaml")):
        name = path[len("configs/"):-len(".yaml")]
        curves = [re.findall(r"--set (\S+)", l) for l in open(path) if l.startswith("# curve: ")]
        variants = [("itself", [])] + [(f"curve{i + 1}", sum((["--set", s] for s in c), []))
                                       for i, c in enumerate(curves)]
        variants += [(f"as_{a}", ["--set", f"algorithm={a}"]) for a in ALGORITHMS]
        for label, args in variants:
            status, text = outcome(binary, [path] + args, ".", env)
            rows.append(f"{name}\t{label}\t{status}\t{text}")
    write("pre_switch_configs.tsv", sorted(rows))
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for n, (text, sets) in enumerate(table_cases()):
            with open(os.path.join(d, "case.yaml"), "w") as f:
                f.write(text)
            status, out_text = outcome(binary, ["case.yaml"] + sum((["--set", s] for s in sets), []),
                                       d, env)
            rows.append(f"{n}\t{status}\t{out_text}")
    write("pre_switch_cases.tsv", rows)


def write(name, rows):
    """Rewrites the rows of `name`, keeping its header comment."""
    path = os.path.join(HERE, name)
    header = [l for l in open(path).read().split("\n") if l.startswith("#")]
    with open(path, "w") as out:
        out.write("\n".join(header + rows) + "\n")

if __name__ == "__main__":
    main()
