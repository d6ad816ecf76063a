#!/usr/bin/python3
"""Prints the ctgrid arguments that reproduce a reference grid from its layout JSON:
font, columns, size, code points (or strings), palette, override, text color, variations.
Used by tests/render/run.sh; the JSON comes from ../shared/oracle (see ref/README.md)."""
import json
import shlex
import sys

d = json.load(open(sys.argv[1]))
args = [d["font"], "--cols", str(d["cols"]), "--size", str(d["size"])]
cells = d["cells"]
if all(c["cp"].startswith("U+") for c in cells):
    args += ["--codepoints", ",".join(c["cp"] for c in cells)]
else:
    args += ["--strings", ",".join(c["text"] for c in cells)]
if d.get("palette") not in (None, "", "0"):
    args += ["--palette", str(d["palette"])]
if d.get("override"):
    args += ["--override", d["override"]]
if d.get("fg") and d["fg"].lower() != "#000000":
    args += ["--fg", d["fg"]]
if d.get("variations"):
    args += ["--variations", d["variations"]]
print(" ".join(shlex.quote(a) for a in args))
