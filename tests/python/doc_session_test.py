#!/usr/bin/python3
"""The `>>>` session of a doc page (docs/PYTHON.md) run with Python's doctest: every output it
shows must be what the code prints (issue 43: the session once showed numbers the code did not
give). Run in a temporary directory holding links to the checkout's configs/ and examples/
(importable, as from a Python started in the checkout), so that the page's relative paths work
and its results (results/...) land there.

    PYTHONPATH=build/python tests/python/doc_session_test.py docs/PYTHON.md MIN_EXAMPLES

Exit 0 when every example gives its output, 1 otherwise (doctest's report says which), 2 when
the page holds fewer than MIN_EXAMPLES examples (a session lost from the page)."""
import doctest
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    page, least = os.path.abspath(sys.argv[1]), int(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="fbosim-doc-") as tmp:
        for name in ("configs", "examples"):
            os.symlink(os.path.join(ROOT, name), os.path.join(tmp, name))
        os.chdir(tmp)
        sys.path.insert(0, tmp)  # as `python3` started in a checkout: examples.* import
        failed, tried = doctest.testfile(page, module_relative=False,
                                         optionflags=doctest.NORMALIZE_WHITESPACE)
    print(f"{page}: {tried} examples, {failed} failed")
    if tried < least:
        print(f"{page}: fewer than {least} examples: the session is no longer there",
              file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
