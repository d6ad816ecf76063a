#!/usr/bin/python3
"""Pictures of docs/fonts.md: chromatype's drawing of each source (left) beside the browser's
drawing of the font made from it (right), one row per pair.  Run by make_refs.sh (needs PIL,
which ../shared/oracle/setup.sh installs).
usage: docs_images.py OUT.png LEFT1.png RIGHT1.png [LEFT2.png RIGHT2.png ...]"""
import sys
from PIL import Image

out, files = sys.argv[1], sys.argv[2:]
pairs = [(Image.open(files[i]).convert("RGB"), Image.open(files[i + 1]).convert("RGB"))
         for i in range(0, len(files), 2)]
gap = 12
w = max(a.width + b.width for a, b in pairs) + gap * 3
h = sum(max(a.height, b.height) for a, b in pairs) + gap * (len(pairs) + 1)
img = Image.new("RGB", (w, h), (232, 232, 232))
y = gap
for a, b in pairs:
    img.paste(a, (gap, y))
    img.paste(b, (gap * 2 + a.width, y))
    y += max(a.height, b.height) + gap
img.save(out, optimize=True)
