#!/usr/bin/python3
"""Every relative link of the Markdown pages (README.md, docs/, examples/, tests/, results/)
leads somewhere: the file or directory exists, and a `#anchor` names a heading of the target
page by GitHub's rule (lower case; punctuation but `-` and `_` dropped; spaces become `-`; a
repeated heading gets `-1`, `-2`, ...). Links inside code (fenced blocks, indented blocks,
`spans`) are not links. Web links are not followed (no network here).

    tests/python/doc_links_test.py [ROOT]

Exit 0 when every link resolves; 1 listing each broken one as PAGE:LINE: LINK (why)."""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def pages():
    for folder in ("", "docs", "docs/claims", "examples", "tests", "tests/golden", "results"):
        d = os.path.join(ROOT, folder)
        if os.path.isdir(d):
            for name in sorted(os.listdir(d)):
                if name.endswith(".md"):
                    yield os.path.join(d, name)


def prose(path):
    """(line number, text) of the lines outside code blocks, with code spans removed."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fenced, previous_blank = False, True
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced or (line.startswith("    ") and previous_blank and not line.lstrip()
                      .startswith(("-", "*", "|"))):
            previous_blank = previous_blank and line.startswith("    ")
            continue
        previous_blank = not line.strip()
        yield n, re.sub(r"`[^`]*`", "", line)


def anchors(path):
    """GitHub's anchors of a page's headings."""
    seen, out = {}, set()
    fenced = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1)).replace("`", "")
            slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            k = seen.get(slug, 0)
            seen[slug] = k + 1
            out.add(slug if k == 0 else f"{slug}-{k}")
    return out


def main():
    broken, count = [], 0
    for page in pages():
        for n, text in prose(page):
            for target in LINK.findall(text):
                if re.match(r"^[a-z]+:", target):
                    continue
                count += 1
                file, _, anchor = target.partition("#")
                where = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file \
                    else page
                rel = os.path.relpath(page, ROOT)
                if not os.path.exists(where):
                    broken.append(f"{rel}:{n}: {target} (no {os.path.relpath(where, ROOT)})")
                elif anchor and where.endswith(".md") and anchor not in anchors(where):
                    broken.append(f"{rel}:{n}: {target} (no heading #{anchor} in "
                                  f"{os.path.relpath(where, ROOT)})")
    for b in broken:
        print(b)
    print(f"doc links: {count} relative links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
