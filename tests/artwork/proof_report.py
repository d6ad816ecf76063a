#!/usr/bin/python3
"""proof_report.py OUT DIR: the report of tests/artwork/proof.sh.

Reads OUT/cells/NNN-*.cmp.json (compare.py --cells --json per chunk) and the layouts, writes
OUT/report.md (per comparison: cells within compare.py's default thresholds, mean / median /
max MAE, the ten worst files) and OUT/worst-NAME.png (each worst cell: the first image, the
second, their difference x4, magnified 3x, labelled with the file name).
"""
import glob
import json
import os
import statistics
import sys

import numpy as np
from PIL import Image, ImageDraw

# name, first image, second image, what is compared
COMPARISONS = [
    ("chromium", "font-cr", "src-cr", "Chromium: the COLRv1 font vs the source SVGs as images"),
    ("firefox", "font-ff", "src-ff", "Firefox: the OT-SVG font vs the source SVGs as images"),
    ("ct-colr1", "ct-colr1", "src-cr", "chromatype's drawing of the COLRv1 font vs Chromium's drawing of the sources"),
    ("ct-svg", "ct-svg", "src-ff", "chromatype's drawing of the OT-SVG font vs Firefox's drawing of the sources"),
    ("browsers", "src-cr", "src-ff", "Chromium's vs Firefox's drawing of the sources (two correct renderers)"),
    ("mozilla", "moz", "src-cr", "Chromium: Mozilla's Twemoji COLRv0 font (another compiler) vs the source SVGs as images"),
]
# compare.py's defaults: -t 32 --max-mae 1.5 --max-percent 1 --min-psnr 28
MAX_MAE, MAX_PERCENT, MIN_PSNR = 1.5, 1.0, 28.0
SCALE = 3


def within(c):
    psnr = float("inf") if c["psnr"] == "inf" else c["psnr"]
    return c["mae"] <= MAX_MAE and c["over_T"] <= MAX_PERCENT and psnr >= MIN_PSNR


def load_cells(out):
    """cp -> (chunk, col, row, file), and the font layouts' advances per browser."""
    where, advance = {}, {"font-cr": {}, "font-ff": {}, "moz": {}}
    for src in sorted(glob.glob(os.path.join(out, "cells", "*-src-cr.json"))):
        chunk = os.path.basename(src).split("-")[0]
        for c in json.load(open(src))["cells"]:
            where[c["cp"]] = (chunk, c["col"], c["row"], c["file"])
        for k in advance:
            lay = os.path.join(out, "cells", f"{chunk}-{k}.json")
            if not os.path.exists(lay):
                continue
            for c in json.load(open(lay))["cells"]:
                advance[k][c["cp"]] = c["advance"]
    return where, advance


def crop(out, chunk, which, col, row, cw, ch):
    im = Image.open(os.path.join(out, "cells", f"{chunk}-{which}.png")).convert("RGB")
    return im.crop((col * cw, row * ch, (col + 1) * cw, (row + 1) * ch))


def worst_png(out, name, a, b, worst, where, cw, ch):
    label_w, gap = 260, 8
    tile_w, tile_h = cw * SCALE, ch * SCALE
    img = Image.new("RGB", (label_w + 3 * (tile_w + gap), len(worst) * (tile_h + gap)), "#808080")
    draw = ImageDraw.Draw(img)
    for i, c in enumerate(worst):
        chunk, col, row, file = where[c["cell"]]
        ca, cb = crop(out, chunk, a, col, row, cw, ch), crop(out, chunk, b, col, row, cw, ch)
        d = np.clip(np.abs(np.asarray(ca, np.int16) - np.asarray(cb, np.int16)) * 4, 0, 255)
        cd = Image.fromarray(d.astype(np.uint8), "RGB")
        y = i * (tile_h + gap)
        draw.text((6, y + 6), f"{i + 1}. {file}", fill="white")
        draw.text((6, y + 22), f"mae {c['mae']:.2f} max {c['max']}", fill="white")
        draw.text((6, y + 38), f"over_32 {c['over_T']:.2f}% psnr {c['psnr']}", fill="white")
        for j, t in enumerate((ca, cb, cd)):
            img.paste(t.resize((tile_w, tile_h), Image.NEAREST), (label_w + j * (tile_w + gap), y))
    path = os.path.join(out, f"worst-{name}.png")
    img.save(path)
    return path


def main():
    out, src_dir = sys.argv[1], sys.argv[2]
    where, advance = load_cells(out)
    lay = json.load(open(sorted(glob.glob(os.path.join(out, "cells", "*-font-cr.json")))[0]))
    cw, ch, size = lay["cell"]["width"], lay["cell"]["height"], lay["size"]
    browsers = {k: json.load(open(sorted(glob.glob(os.path.join(out, "cells", f"*-{k}.json")))[0]))["browser"]
                for k in ("src-cr", "src-ff")}
    lines = [f"# Fonts from artwork: the browser proof ({len(where)} files)", "",
             f"Source folder: `{src_dir}`; fonts `chromatype font --svg DIR --format colr1|svg "
             f"--ascent 768 --descent 256` (upem 1024); {size} px, {cw} px cells, the pen at "
             f"({lay['cellOrigin']['x']}, {lay['cellOrigin']['baseline']}) in each cell; each "
             f"source drawn as a {size}x{size} image at (pen x, baseline - 36).  Browsers: "
             f"{browsers['src-cr']} and Firefox {browsers['src-ff']}.  A cell is within tolerance "
             f"when compare.py's defaults hold for it: MAE <= {MAX_MAE}, at most {MAX_PERCENT} % "
             f"of pixels differing by more than 32, PSNR >= {MIN_PSNR} dB.", ""]
    for k, what in (("font-cr", "Chromium, COLRv1"), ("font-ff", "Firefox, OT-SVG"),
                    ("moz", "Chromium, Mozilla's Twemoji COLRv0")):
        if not advance[k]:
            continue
        odd = sorted(where[cp][3] for cp, adv in advance[k].items() if abs(adv - size) > 0.02)
        shown = odd[:20] + (["..."] if len(odd) > 20 else [])
        lines.append(f"Cells whose text is not one {size} px glyph of the font ({what}): {len(odd)}"
                     + (": " + ", ".join(shown) if odd else "") + ".")
    # the baseline font's cells that are not one glyph of it (sequences it lacks) are left out
    lacking = {cp for cp, adv in advance["moz"].items() if abs(adv - size) > 0.02}
    lines += ["", "| comparison | cells | within tolerance | mean MAE | median MAE | max MAE | "
              "worst PSNR |", "|---|---|---|---|---|---|---|"]
    details = []
    for name, a, b, what in COMPARISONS:
        cells = []
        for f in sorted(glob.glob(os.path.join(out, "cells", f"*-{name}.cmp.json"))):
            cells += json.load(open(f))["cells"]
        if name == "mozilla":
            cells = [c for c in cells if c["cell"] not in lacking]
        if not cells:
            continue
        maes = [c["mae"] for c in cells]
        psnrs = [c["psnr"] for c in cells if c["psnr"] != "inf"]
        ok = sum(1 for c in cells if within(c))
        lines.append(f"| {what} | {len(cells)} | {ok} ({100.0 * ok / len(cells):.2f} %) | "
                     f"{statistics.mean(maes):.3f} | {statistics.median(maes):.3f} | {max(maes):.3f} | "
                     f"{min(psnrs) if psnrs else 'inf'} |")
        worst = sorted(cells, key=lambda c: -c["mae"])[:10]
        png = worst_png(out, name, a, b, worst, where, cw, ch)
        details += ["", f"## {what}", "",
                    f"Outside tolerance: {len(cells) - ok}.  Worst ten by MAE "
                    f"(`{os.path.basename(png)}`: {a} | {b} | difference x4):", "",
                    "| # | file | MAE | max | over 32 | PSNR |", "|---|---|---|---|---|---|"]
        for i, c in enumerate(worst):
            details.append(f"| {i + 1} | {where[c['cell']][3]} | {c['mae']:.3f} | {c['max']} | "
                           f"{c['over_T']:.2f} % | {c['psnr']} |")
    warn = os.path.join(out, "warnings")
    if os.path.exists(warn) and os.path.getsize(warn):
        details += ["", "## Warnings", "", "```", open(warn).read().rstrip(), "```"]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines + details) + "\n")


if __name__ == "__main__":
    main()
