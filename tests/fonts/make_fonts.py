#!/usr/bin/python3
"""Generate chromatype's small, deterministic COLRv0/CPAL test fonts.

usage: /usr/bin/python3 tests/fonts/make_fonts.py [OUTDIR]   (default: this script's directory)

Needs Debian's python3-fonttools (4.38) and python3-brotli (for WOFF2).
Output is byte-identical on every run: head.created/modified are a fixed
constant, nothing depends on time, randomness or dict order.
See README.md in this directory for what each font contains.
"""

import io
import os
import sys

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.misc.timeTools import timestampFromString
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.reverseContourPen import ReverseContourPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection

UPEM = 1000
ASCENDER = 800
DESCENDER = -200
# fixed head.created / head.modified (seconds since 1904-01-01)
TIMESTAMP = timestampFromString("Mon Jan  1 00:00:00 2024")
FOREGROUND = 0xFFFF  # COLRv0 palette index meaning "text (foreground) color"

# ---------------------------------------------------------------- artwork
# Every drawing function draws clockwise (TrueType convention, y up) on any
# fontTools pen.  Curves are quadratic (qCurveTo); T2CharStringPen converts
# them to the exactly equivalent cubics, so glyf and CFF have the same shapes.


def rect(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()


def polygon(pen, pts):
    pen.moveTo(pts[0])
    for p in pts[1:]:
        pen.lineTo(p)
    pen.closePath()


def circle(pen, cx, cy, r):
    """Circle of radius r: 8 quadratic segments, on-curve points at
    0/45/90... degrees, off-curve points at r / cos(22.5 deg) (rounded)."""
    k = 0.7071067811865476  # cos 45
    ro = r / 0.9238795325112867  # r / cos 22.5
    s = 0.3826834323650898  # sin 22.5
    c = 0.9238795325112867  # cos 22.5
    on = [(0, 1), (k, k), (1, 0), (k, -k), (0, -1), (-k, -k), (-1, 0), (-k, k)]
    off = [(s, c), (c, s), (c, -s), (s, -c), (-s, -c), (-c, -s), (-c, s), (-s, c)]
    P = lambda u, v, rr: (cx + round(u * rr), cy + round(v * rr))
    pen.moveTo(P(*on[0], r))  # top, then clockwise (y up)
    for i in range(8):
        nxt = on[(i + 1) % 8]
        pen.qCurveTo(P(*off[i], ro), P(*nxt, r))
    pen.closePath()


def draw_notdef(pen):
    rect(pen, 50, 0, 450, 700)  # outer, clockwise
    # inner, counter-clockwise: a hollow box
    pen.moveTo((100, 50))
    pen.lineTo((400, 50))
    pen.lineTo((400, 650))
    pen.lineTo((100, 650))
    pen.closePath()


def draw_sq(pen):
    rect(pen, 50, 0, 750, 700)


def draw_dia(pen):
    # diamond centered (400, 350), "radius" 300
    polygon(pen, [(100, 350), (400, 650), (700, 350), (400, 50)])


def draw_bar(pen):
    rect(pen, 100, 300, 700, 400)


def draw_dot(pen):
    circle(pen, 400, 350, 200)


def draw_c(pen):
    # a thick square "C"
    polygon(pen, [(100, 0), (100, 700), (700, 700), (700, 550),
                  (250, 550), (250, 150), (700, 150), (700, 0)])


def draw_empty(pen):
    pass


# glyph name -> (advance width, drawing function); this is the glyph order.
GLYPHS = [
    (".notdef", 500, draw_notdef),
    ("space", 300, draw_empty),
    ("A", 800, draw_sq),  # base outlines of color glyphs = the square
    ("B", 800, draw_sq),
    ("C", 800, draw_c),  # monochrome only, no COLR record
    ("D", 800, draw_sq),
    ("sq", 800, draw_sq),  # layer glyphs (unmapped)
    ("dia", 800, draw_dia),
    ("bar", 800, draw_bar),
    ("dot", 800, draw_dot),
]
CMAP = {0x20: "space", 0x41: "A", 0x42: "B", 0x43: "C", 0x44: "D"}

# COLRv0 layers, bottom -> top: (layer glyph, palette index)
COLOR_LAYERS = {
    # A: square (entry 0), diamond (entry 1) over it, foreground bar on top.
    "A": [("sq", 0), ("dia", 1), ("bar", FOREGROUND)],
    # B: the same three shapes in reversed z-order: bar (entry 2) at the
    # bottom, diamond (entry 0), square (entry 1) on top.  The square covers
    # the other two completely, so a correct renderer shows a plain square in
    # palette entry 1; drawing the layers in the wrong order shows the bar on
    # top of the diamond instead.
    "B": [("bar", 2), ("dia", 0), ("sq", 1)],
    # D: square in entry 2, circle in entry 3 on top (palette 2 entry 3 has
    # alpha 0x80, so the circle blends with the square there).
    "D": [("sq", 2), ("dot", 3)],
}


def hexcolor(s):
    s = s.lstrip("#")
    return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4, 6))


# (name id of label, CPAL palette type, name, entries RRGGBBAA)
PALETTES = [
    (256, 0, "Default", ["E02020FF", "2040E0FF", "20A040FF", "F0A000FF"]),
    (257, 1, "Light", ["800000FF", "000080FF", "006000FF", "805000FF"]),
    (258, 2, "Dark", ["FF8080FF", "80C0FFFF", "80FF80FF", "FFE08080"]),
]
ENTRY_LABELS = [(259, "Fill"), (260, "Accent"), (261, "Leaf"), (262, "Sun")]


# ---------------------------------------------------------------- building


def build(family, ps_family, cff=False, palettes=PALETTES):
    fb = FontBuilder(UPEM, isTTF=not cff)
    fb.setupHead(unitsPerEm=UPEM, fontRevision=1.0,
                 created=TIMESTAMP, modified=TIMESTAMP)
    fb.setupGlyphOrder([g[0] for g in GLYPHS])
    fb.setupCharacterMap(CMAP)

    metrics = {}
    if cff:
        charstrings = {}
        for name, adv, draw in GLYPHS:
            pen = T2CharStringPen(adv, None)
            draw(ReverseContourPen(pen))  # CFF wants counter-clockwise outers
            charstrings[name] = pen.getCharString()
            bp = BoundsPen(None)
            draw(bp)
            metrics[name] = (adv, bp.bounds[0] if bp.bounds else 0)
        fb.setupCFF(
            ps_family + "-Regular",
            {"FullName": family + " Regular", "FamilyName": family,
             "Weight": "Regular", "version": "1.000"},
            charstrings,
            {},
        )
    else:
        glyphs = {}
        for name, adv, draw in GLYPHS:
            pen = TTGlyphPen(None)
            draw(pen)
            glyphs[name] = pen.glyph()
        fb.setupGlyf(glyphs)
        glyf = fb.font["glyf"]
        for name, adv, _ in GLYPHS:
            metrics[name] = (adv, getattr(glyf[name], "xMin", 0))

    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=ASCENDER, descent=DESCENDER, lineGap=0)
    fb.setupNameTable(
        {
            "familyName": family,
            "styleName": "Regular",
            "uniqueFontIdentifier": "1.000;NONE;%s-Regular" % ps_family,
            "fullName": family + " Regular",
            "version": "Version 1.000",
            "psName": ps_family + "-Regular",
            "copyright": "Generated by chromatype tests/fonts/make_fonts.py (MIT)",
        },
        mac=False,
    )
    name = fb.font["name"]
    for nid, _, label, _ in palettes:
        name.setName(label, nid, 3, 1, 0x409)
    for nid, label in ENTRY_LABELS:
        name.setName(label, nid, 3, 1, 0x409)

    fb.setupOS2(
        sTypoAscender=ASCENDER, sTypoDescender=DESCENDER, sTypoLineGap=0,
        usWinAscent=ASCENDER, usWinDescent=-DESCENDER,
        achVendID="NONE", fsType=0,
    )
    fb.setupPost()
    fb.font["COLR"] = buildCOLR(COLOR_LAYERS, version=0,
                                glyphMap=fb.font.getReverseGlyphMap())
    cpal = buildCPAL([[hexcolor(c) for c in p[3]] for p in palettes],
                     paletteTypes=[p[1] for p in palettes])
    cpal.version = 1
    cpal.paletteLabels = [p[0] for p in palettes]
    cpal.paletteEntryLabels = [e[0] for e in ENTRY_LABELS]
    fb.font["CPAL"] = cpal
    fb.font.recalcTimestamp = False
    return fb.font


def to_bytes(font, flavor=None):
    font.recalcTimestamp = False
    font.flavor = flavor
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def reload(data):
    return TTFont(io.BytesIO(data), recalcTimestamp=False)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)

    def write(fname, data):
        path = os.path.join(out, fname)
        with open(path, "wb") as f:
            f.write(data)
        print("wrote %s (%d bytes)" % (path, len(data)))

    ttf = to_bytes(build("Chromatype Test", "ChromatypeTest"))
    write("ct-colr0.ttf", ttf)

    otf = to_bytes(build("Chromatype Test CFF", "ChromatypeTestCFF", cff=True))
    write("ct-colr0-cff.otf", otf)

    # face 1: same glyf font, renamed, and palette 0 entries 0 and 1 swapped
    # (A's square blue, diamond red) so that face selection shows in pixels.
    pal0 = PALETTES[0]
    swapped = [(pal0[0], pal0[1], pal0[2],
                [pal0[3][1], pal0[3][0]] + pal0[3][2:])] + PALETTES[1:]
    two = to_bytes(build("Chromatype Test Two", "ChromatypeTestTwo", palettes=swapped))
    ttc = TTCollection()
    ttc.fonts = [reload(ttf), reload(two)]
    buf = io.BytesIO()
    ttc.save(buf)
    write("ct-collection.ttc", buf.getvalue())

    write("ct-colr0.woff", to_bytes(reload(ttf), "woff"))
    write("ct-colr0.woff2", to_bytes(reload(ttf), "woff2"))

    write("ct-truncated.ttf", ttf[:600])
    write("not-a-font.ttf", b"this is not a font\n")


if __name__ == "__main__":
    main()
