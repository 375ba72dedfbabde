#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's architecture table must show the same groups as `ls src`, and each row the layers
# that folder really links (LAYERS_TXT, written by src/CMakeLists.txt from its nprb_layer() calls).
# Usage: readme_layers.sh SOURCE_DIR LAYERS_TXT
set -euo pipefail
src=$1 edges=$2
/usr/bin/python3 - "$src" "$edges" <<'PY'
import os, re, sys
src, edges = sys.argv[1], sys.argv[2]
links = {}
for line in open(edges):
    name, _, rest = line.partition(':')
    if name != 'main':
        links[name] = set(rest.split())
folders = {d for d in os.listdir(os.path.join(src, 'src')) if os.path.isdir(os.path.join(src, 'src', d))}
rows = {}
for line in open(os.path.join(src, 'README.md')):
    m = re.match(r'\| `([a-z_]+)/` \| ([^|]*) \|', line)
    if m:
        internal = m.group(2).split(';')[0].strip()
        if internal == 'nothing':
            rows[m.group(1)] = set()
        elif internal.startswith('every layer'):
            rows[m.group(1)] = set(links) - {m.group(1)}
        else:
            rows[m.group(1)] = {w.strip() for w in internal.split(',')}
bad = 0
if set(rows) != folders:
    print(f"FAIL: README table shows {sorted(rows)}, src/ holds {sorted(folders)}"); bad += 1
if set(links) != folders:
    print(f"FAIL: layers built {sorted(links)}, src/ holds {sorted(folders)}"); bad += 1
for name in sorted(set(rows) & set(links)):
    if rows[name] != links[name]:
        print(f"FAIL: README says {name}/ links {sorted(rows[name])}, the build links {sorted(links[name])}"); bad += 1
if bad:
    sys.exit(1)
print(f"ok: README table, src/ and the build agree on {len(folders)} layers and their links")
PY
