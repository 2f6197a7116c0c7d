#!/usr/bin/env python3
"""The include graph of fbosim's sources (issue 40), at two grains:

  files:   a module is a header and its .cpp (algorithms/privacy/accountant.{hpp,cpp}); a loop
           is a set of modules that include each other, directly or through a cycle (a base
           file that includes its own implementations, e.g. a registry listed in the base's .cpp);
  folders: a module is a folder library (sim/run, algorithms/privacy, datasets/branin, the rest
           of datasets/ as one library); loops as above, and the includes from a lower layer to
           a higher one (docs/ARCHITECTURE.md: core, schema < algorithms, datasets < config <
           output, audit < run < sweep < cli, python; timeline beside config).

Prints each loop with the includes that close it and each upward include; exits 1 if there is
any. Usage: include_graph.py [ROOT] | --self-test.
Only quoted includes of files that exist under ROOT count; tests/ and tools/ are left out."""
import os
import re
import sys
import tempfile

TOPS = ('core', 'schema', 'sim', 'algorithms', 'datasets', 'python')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def own_library_folders(root):
    """datasets/<family>/ folders that are libraries of their own (LIBRARY in their CMake call)."""
    out = set()
    base = os.path.join(root, 'datasets')
    for d in os.listdir(base) if os.path.isdir(base) else []:
        cm = os.path.join(base, d, 'CMakeLists.txt')
        if os.path.isfile(cm) and re.search(r'\bLIBRARY\b', open(cm).read()):
            out.add(d)
    return out


def folder_of(path, own):
    parts = path.split('/')
    if parts[0] in ('sim', 'algorithms') and len(parts) > 2:
        return '/'.join(parts[:2])
    if parts[0] == 'datasets':
        return 'datasets/' + parts[1] if len(parts) > 2 and parts[1] in own else 'datasets'
    return parts[0]  # core, schema (after issue 40's move), python


def layer(folder):
    name = folder.split('/')[-1] if folder.startswith('sim/') else folder
    if name in ('core', 'schema'):
        return 0
    if folder.startswith(('algorithms', 'datasets')):
        return 1
    return {'config': 2, 'timeline': 2, 'output': 3, 'audit': 3, 'run': 4, 'sweep': 5, 'cli': 6,
            'python': 6}[name]


def edges_of(root, grain):
    own = own_library_folders(root)
    edges = {}
    for top in TOPS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(('.hpp', '.cpp', '.h')):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                for line in open(os.path.join(dirpath, f), errors='replace'):
                    m = INCLUDE.match(line)
                    if not m or not os.path.isfile(os.path.join(root, m.group(1))):
                        continue
                    if m.group(1).split('/')[0] not in TOPS:
                        continue
                    if grain == 'files':
                        a, b = os.path.splitext(rel)[0], os.path.splitext(m.group(1))[0]
                    else:
                        a, b = folder_of(rel, own), folder_of(m.group(1), own)
                    if a != b:
                        edges.setdefault((a, b), []).append((rel, m.group(1)))
    return edges


def loops(edges):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    adj = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, [])
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for start in sorted(adj):
        if start in index:
            continue
        work = [(start, iter(sorted(adj[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(adj[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def report(root):
    bad = 0
    for grain in ('files', 'folders'):
        edges = edges_of(root, grain)
        found = loops(edges)
        print(f'{grain}: {len(found)} include loop(s)')
        for comp in found:
            print('  loop: ' + ', '.join(comp))
            for a in comp:
                for b in comp:
                    for f, i in edges.get((a, b), []):
                        print(f'    {f} includes {i}')
        bad += len(found)
        if grain == 'folders':
            up = [(f, i) for (a, b), es in sorted(edges.items()) for f, i in es
                  if layer(a) < layer(b)]
            print(f'folders: {len(up)} include(s) from a lower layer to a higher one')
            for f, i in up:
                print(f'    {f} includes {i}')
            bad += len(up)
    return 1 if bad else 0


def self_test():
    files = {
        'algorithms/privacy/base.hpp': '',
        'algorithms/privacy/base.cpp': '#include "algorithms/privacy/base.hpp"\n'
                                       '#include "algorithms/privacy/impl.hpp"\n',
        'algorithms/privacy/impl.hpp': '#include "algorithms/privacy/base.hpp"\n',
        'algorithms/agents/a.hpp': '#include "sim/run/r.hpp"\n#include <vector>\n',
        'sim/run/r.hpp': '#include "algorithms/agents/a.hpp"\n#include "nowhere/x.hpp"\n',
        'core/c.hpp': '',
    }
    with tempfile.TemporaryDirectory() as root:
        for p, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, p)), exist_ok=True)
            open(os.path.join(root, p), 'w').write(text)
        assert loops(edges_of(root, 'files')) == [
            ['algorithms/agents/a', 'sim/run/r'],
            ['algorithms/privacy/base', 'algorithms/privacy/impl']], loops(edges_of(root, 'files'))
        folder_edges = edges_of(root, 'folders')
        assert loops(folder_edges) == [['algorithms/agents', 'sim/run']]
        assert [(a, b) for (a, b) in folder_edges if layer(a) < layer(b)] == [
            ('algorithms/agents', 'sim/run')]
        assert report(root) == 1
        # the two loops broken: the registry in a file of its own, the upward include gone
        open(os.path.join(root, 'algorithms/privacy/base.cpp'), 'w').write(
            '#include "algorithms/privacy/base.hpp"\n')
        open(os.path.join(root, 'algorithms/privacy/registry.cpp'), 'w').write(
            '#include "algorithms/privacy/impl.hpp"\n')
        open(os.path.join(root, 'algorithms/agents/a.hpp'), 'w').write('#include "core/c.hpp"\n')
        assert report(root) == 0
        assert layer('core') == layer('core') == 0
    print('include_graph self-test: ok')
    return 0


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    sys.exit(report(sys.argv[1] if len(sys.argv) > 1 else '.'))
