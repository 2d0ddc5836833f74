#!/usr/bin/env python3
"""Extracts the hardware-recorded spans of every frame of subset300 from the nds-interp dataset
(the nds-interp dataset, shared/hardware/nds-interp/dataset beside the project; MIT, see LICENSE.nds-interp) into subset300.expected,
so the C test (test/unit/test_hw_slopes.c) needs neither Python nor zlib.
   python3 make_expected.py DATASETDIR [MANIFEST] > subset300.expected
(MANIFEST defaults to subset300.manifest; the full sweep uses gen_traces.py sweep manifests)
Line format: F frame origin dx dy cx0 cx1   (scanned column range), then R row first last
(first = last = -1 for a scanned row with no lit pixel), exactly the ROM's recorded rows."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spans import load, ORIGINS

d = sys.argv[1]
files = {o: load(d, o) for o in ORIGINS}
manifest = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "subset300.manifest")
for line in open(manifest):
    if line.startswith("#") or not line.strip(): continue
    i, o, dx, dy, tag = line.split(); i, dx, dy = int(i), int(dx), int(dy)
    f = files[o]
    cx0, cx1 = f.scanned_cols(dx, dy)
    print(f"F {i} {o} {dx} {dy} {cx0} {cx1}")
    for r, a, b in f.record(dx, dy):
        print(f"R {r} {-1 if a is None else a} {-1 if b is None else b}")
