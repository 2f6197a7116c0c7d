#!/usr/bin/python3
"""Every code block of a doc page runs, and the output it shows is what the program prints
(issue 43: a newcomer copies them first). Each block (indented or fenced) must follow a marker
comment that says how it is checked, invisible on the rendered page:

    <!-- doc-test: run -->            each line is a shell command (after `# ` a comment); all
                                      must exit 0, in order, in one scratch directory
    <!-- doc-test: output CMD -->     CMD's stdout is the block, once the timing of its first
                                      line ("in 2.85 s (2 threads)") is set aside
    <!-- doc-test: config ARGS -->    each unindented line starts a config fragment (indented
                                      lines continue it), e.g. `objective: {...}`; with
                                      `algorithm: dp_fts_de` and P = 2 it must run: fbosim run
                                      CFG --allow-exec ARGS
    <!-- doc-test: doctest -->        a `>>>` session (tests/python/doc_session_test.py runs it)
    <!-- doc-test: skip REASON -->    not run; the reason says why (e.g. it installs packages)

A block without a marker, an unknown kind, a marker with no block after it, a command that
fails or an output that differs is a failure naming the page and line. The blocks run in a
scratch directory holding links to the checkout's configs/, examples/ and tools/ and to the
build's fbosim (build/fbosim), so that the pages' relative paths work; results land there.

    tests/python/doc_blocks_test.py BUILD_DIR PAGE [PAGE ...]

Exit 0 when every block passes, 1 otherwise; 2 on a usage error."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- doc-test: (\w+)(?: (.*?))? -->$")
KINDS = ("run", "output", "config", "doctest", "skip")
# The only machine-dependent part of fbosim run's summary: its wall time and threads.
TIMING = re.compile(r" in [0-9.]+ (?:s|ms|min) \(\d+ threads?\)")


def blocks(lines):
    """[(line number, marker (kind, argument) or None, [lines])] of the page's code blocks:
    fenced (```) and indented (4 spaces after a blank line that follows no list item)."""
    out, i, marker, previous = [], 0, None, ""
    while i < len(lines):
        line = lines[i]
        found = MARKER.match(line.strip())
        if found:
            if marker:
                raise ValueError(f"line {marker[2]}: a doc-test marker with no code block after it")
            marker = (found.group(1), (found.group(2) or "").strip(), i + 1)
            i += 1
            continue
        if line.startswith("```"):
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((start, marker, body))
            marker, previous = None, "```"
            i += 1
            continue
        if line.startswith("    ") and i > 0 and not lines[i - 1].strip() and \
                not re.match(r"^(\s*[-*]|\s*\d+\.|\s{2,}\S|\|)", previous):
            start, body = i + 1, []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            out.append((start, marker, body))
            marker, previous = None, body[-1] if body else ""
            continue
        if line.strip():
            if marker and not line.startswith("<!--"):
                raise ValueError(f"line {marker[2]}: a doc-test marker with no code block after "
                                 f"it (line {i + 1} is text)")
            previous = line
        i += 1
    if marker:
        raise ValueError(f"line {marker[2]}: a doc-test marker with no code block after it")
    return out


def shell(command, cwd):
    return subprocess.run(["bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=600)


def check_block(kind, arg, body, work):
    """None when the block passes, else what went wrong."""
    if kind == "run":
        for line in body:
            command = line.split(" # ")[0].strip() if not line.lstrip().startswith("#") else ""
            if not command:
                continue
            done = shell(command, work)
            if done.returncode != 0:
                return f"`{command}` exited {done.returncode}:\n{done.stderr[-2000:]}"
        return None
    if kind == "output":
        done = shell(arg, work)
        if done.returncode != 0:
            return f"`{arg}` exited {done.returncode}:\n{done.stderr[-2000:]}"
        want = [TIMING.sub(" in T", x.rstrip()) for x in body]
        got = [TIMING.sub(" in T", x.rstrip()) for x in done.stdout.rstrip("\n").split("\n")]
        if want != got:
            return ("the page shows\n" + "\n".join(want) + "\nbut `" + arg + "` prints\n" +
                    "\n".join(got))
        return None
    if kind == "config":
        fragments = []  # an unindented line starts a fragment; indented ones continue it
        for x in body:
            if x.strip() and (not fragments or not x.startswith(" ")):
                fragments.append(x)
            elif x.strip():
                fragments[-1] += "\n" + x
        for n, fragment in enumerate(fragments):
            path = os.path.join(work, f"doc_config_{abs(hash(fragment)) % 10 ** 8}_{n}.yaml")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("algorithm: dp_fts_de\nexploration: {subregions: 2}\n" + fragment + "\n")
            # The fragments are our own docs': consent to the programs they name.
            command = f"build/fbosim run {shlex.quote(path)} --quiet --allow-exec {arg}"
            done = shell(command, work)
            if done.returncode != 0:
                return f"the fragment `{fragment}` does not run ({command}):\n" \
                       f"{done.stderr[-2000:]}"
        return None
    if kind == "doctest":
        if not any(x.lstrip().startswith(">>>") for x in body):
            return "marked doctest but holds no >>> example"
        return None  # doc_session_test.py runs it
    if kind == "skip":
        return None if arg else "skip without a reason"
    return f"unknown doc-test kind '{kind}' (known: {', '.join(KINDS)})"


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, pages = os.path.abspath(sys.argv[1]), [os.path.abspath(p) for p in sys.argv[2:]]
    failures, counts = [], {}
    with tempfile.TemporaryDirectory(prefix="fbosim-docblocks-") as work:
        for name in ("configs", "examples", "tools"):
            os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
        os.makedirs(os.path.join(work, "build"))
        os.symlink(os.path.join(build, "fbosim"), os.path.join(work, "build", "fbosim"))
        for page in pages:
            with open(page, encoding="utf-8") as fh:
                lines = fh.read().split("\n")
            try:
                found = blocks(lines)
            except ValueError as e:
                failures.append(f"{page}: {e}")
                continue
            for start, marker, body in found:
                where = f"{page}:{start}"
                if marker is None:
                    failures.append(f"{where}: a code block without a <!-- doc-test: KIND --> "
                                    f"marker before it ({', '.join(KINDS)})")
                    continue
                kind, arg, _ = marker
                problem = check_block(kind, arg, body, work)
                counts[kind] = counts.get(kind, 0) + 1
                if problem:
                    failures.append(f"{where}: {problem}")
                elif kind == "skip":
                    print(f"{where}: skipped: {arg}")
    for f in failures:
        print(f"FAILED {f}", file=sys.stderr)
    print(f"doc blocks: {', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}; "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
