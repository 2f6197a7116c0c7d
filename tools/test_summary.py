#!/usr/bin/env python3
"""The last line of tools/run_tests.sh: the counts of a ctest run from its JUnit file
(`ctest --output-junit FILE`), the skipped tests split into those without the data sets (their
output names tools/fetch_datasets.sh: tests/data_sets.hpp, tools/golden.sh and the data tools'
tests print that line) and those skipped for another reason (no Slurm, no numpy, ...).

    tools/test_summary.py build/Testing/junit.xml
    skipped: 63 without the data sets (tools/fetch_datasets.sh downloads them), 1 other
    tests: 812 passed, 0 failed, 64 skipped

The counts stand alone on the last line (the plain "N passed, N failed, N skipped" closing
line that CI readers look for); the line before it, only when tests were skipped, says why.

Exit 0 (the verdict is ctest's exit status, which run_tests.sh keeps); 2 when the file cannot
be read.
"""
import sys
import xml.etree.ElementTree as ET

DATA_MARK = "tools/fetch_datasets.sh"


def summary(path):
    root = ET.parse(path).getroot()
    passed = failed = data = other = 0
    for case in root.iter("testcase"):
        status = case.get("status")
        out = "".join(e.text or "" for e in case.iter("system-out"))
        if case.find("skipped") is not None or status in ("notrun", "disabled"):
            if DATA_MARK in out:
                data += 1
            else:
                other += 1
        elif status == "run" and case.find("failure") is None:
            passed += 1
        else:
            failed += 1
    skipped = data + other
    lines = []
    if skipped:
        parts = []
        if data:
            parts.append(f"{data} without the data sets ({DATA_MARK} downloads them)")
        if other:
            parts.append(f"{other} other")
        lines.append("skipped: " + ", ".join(parts))
    lines.append(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        print(summary(sys.argv[1]))
    except (OSError, ET.ParseError) as e:
        print(f"test_summary.py: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
