#!/usr/bin/env python3
"""The sklearn objective of sklearn_objective.py behind the `command` family's protocol: one
JSON query per line on stdin ({"id", "agent", "run", "round", "seed", "x"}), exactly one answer
per line on stdout ({"id": the query's id, "y": ...}: the id binds the answer to its query).
Anything else goes to stderr. fbosim starts as many of these processes as
it evaluates agents at once and keeps them for the whole experiment."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn_objective import evaluate  # noqa: E402

for line in sys.stdin:
    q = json.loads(line)
    print(json.dumps({"id": q["id"], "y": evaluate(q["x"], q["agent"], q["seed"])}), flush=True)
