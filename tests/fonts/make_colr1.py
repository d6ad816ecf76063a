#!/usr/bin/python3
"""Generate chromatype's COLRv1 test fonts (static, variable and hostile).

usage: /usr/bin/python3 tests/fonts/make_colr1.py [OUTDIR]      (default: this script's directory)
       /usr/bin/python3 tests/fonts/make_colr1.py --markdown   (glyph tables for the docs, to stdout)

Needs Debian's python3-fonttools (4.38).  Output is byte-identical on every
run: head.created/modified are a fixed constant, nothing depends on time,
randomness or dict order.  See README.md and ct-colr1-descriptions.md in this
directory for what each font contains.

Files written:
  ct-colr1.ttf            static COLRv1, one color glyph per feature (U+E000..)
  ct-colr1-var.ttf        variable COLRv1 (axes SWPS, ALPH), deltas addressed
                          through a DeltaSetIndexMap (COLR.VarIndexMap)
  ct-colr1-var-nomap.ttf  the same paints and deltas without a DeltaSetIndexMap
                          (implicit mapping: outer 0, inner = variation index);
                          must render exactly like ct-colr1-var.ttf
  hostile-*.ttf           malformed / adversarial COLRv1 fonts
"""

import io
import math
import os
import struct
import sys
import threading

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.misc.timeTools import timestampFromString
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import otTables as ot
from fontTools.ttLib.tables.DefaultTable import DefaultTable
from fontTools.varLib.builder import (buildDeltaSetIndexMap, buildVarData,
                                      buildVarRegionList, buildVarStore)

UPEM = 1000
ASCENDER = 950
DESCENDER = -250
ADVANCE = 1000
# fixed head.created / head.modified (seconds since 1904-01-01)
TIMESTAMP = timestampFromString("Mon Jan  1 00:00:00 2024")
FOREGROUND = 0xFFFF  # palette index meaning "text (foreground) color"
NO_VAR = 0xFFFFFFFF  # VarIndexBase / DeltaSetIndexMap entry: no variation
FIRST_CP = 0xE000

EXT = ot.ExtendMode
CM = ot.CompositeMode

# ---------------------------------------------------------------- artwork
# Drawing functions draw outer contours clockwise (TrueType convention, y up)
# and holes counter-clockwise, on any fontTools pen.


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


def circle(pen, cx, cy, r, clockwise=True):
    """Circle of radius r: 8 quadratic segments, on-curve points at
    0/45/90... degrees, off-curve points at r / cos(22.5 deg) (rounded)."""
    k = 0.7071067811865476  # cos 45
    ro = r / 0.9238795325112867  # r / cos 22.5
    s = 0.3826834323650898  # sin 22.5
    c = 0.9238795325112867  # cos 22.5
    on = [(0, 1), (k, k), (1, 0), (k, -k), (0, -1), (-k, -k), (-1, 0), (-k, k)]
    off = [(s, c), (c, s), (c, -s), (s, -c), (-s, -c), (-c, -s), (-c, s), (-s, c)]
    if not clockwise:  # mirror in x: same circle, opposite direction
        on = [(-u, v) for u, v in on]
        off = [(-u, v) for u, v in off]
    P = lambda u, v, rr: (cx + round(u * rr), cy + round(v * rr))
    pen.moveTo(P(*on[0], r))  # top
    for i in range(8):
        nxt = on[(i + 1) % 8]
        pen.qCurveTo(P(*off[i], ro), P(*nxt, r))
    pen.closePath()


def draw_notdef(pen):
    rect(pen, 100, 0, 500, 700)
    polygon(pen, [(150, 50), (450, 50), (450, 650), (150, 650)])  # hole


def draw_base_box(pen):
    # the monochrome outline of every color glyph
    rect(pen, 100, 0, 900, 800)


def draw_empty(pen):
    pass


# "F": stem 300..420 x 100..700, top arm to x 720 (y 580..700), middle arm to
# x 620 (y 360..470).  Asymmetric in x and in y, so every transform shows.
F_POINTS = [(300, 100), (300, 700), (720, 700), (720, 580), (420, 580),
            (420, 470), (620, 470), (620, 360), (420, 360), (420, 100)]

SHAPES = {
    "shape_box": lambda p: rect(p, 100, 0, 900, 800),
    "shape_box_small": lambda p: rect(p, 250, 150, 750, 650),
    "shape_circle": lambda p: circle(p, 500, 400, 350),
    "shape_circle_big": lambda p: circle(p, 500, 400, 470),
    "shape_bar": lambda p: rect(p, 100, 340, 900, 460),
    "shape_F": lambda p: polygon(p, F_POINTS),
    # ring: outer circle r 380 clockwise, hole r 200 counter-clockwise
    "shape_ring": lambda p: (circle(p, 500, 400, 380), circle(p, 500, 400, 200, clockwise=False)),
    # diagonal band from bottom-left to top-right
    "shape_diag": lambda p: polygon(p, [(100, 0), (100, 220), (680, 800), (900, 800),
                                        (900, 580), (320, 0)]),
    # PaintComposite: backdrop square and source circle, partially overlapping
    "shape_comp_square": lambda p: rect(p, 150, 80, 600, 530),
    "shape_comp_circle": lambda p: circle(p, 620, 470, 250),
    # PaintColrGlyph target: small circle + small square
    "shape_dot_small": lambda p: circle(p, 280, 260, 170),
    "shape_sq_small": lambda p: rect(p, 260, 60, 460, 260),
}


def outline_bounds(draw):
    bp = BoundsPen(None)
    draw(bp)
    return bp.bounds


# ---------------------------------------------------------------- palettes


def hexcolor(s):
    return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4, 6))


# entry: (label, palette 0, palette 1), colors RRGGBBAA
PALETTE_ENTRIES = [
    ("red", "E02020FF", "008040FF"),
    ("blue", "2040E0FF", "E08000FF"),
    ("green", "20A040FF", "A020C0FF"),
    ("yellow", "F0C000FF", "0080E0FF"),
    ("purple", "8020C0FF", "C0C000FF"),
    ("cyan", "00B0C0FF", "E00060FF"),
    ("dark", "202020FF", "804000FF"),
    ("ghost", "C8C8C8FF", "80C0FFFF"),
    ("blue50", "2040E080", "E0800080"),  # alpha 0x80 (0.502)
    ("red50", "E0202080", "00804080"),
    ("coral", "E8603CFF", "40C080FF"),  # PaintComposite source
    ("steel", "5A82BEFF", "C040A0FF"),  # PaintComposite backdrop
]
P = {name: i for i, (name, _, _) in enumerate(PALETTE_ENTRIES)}
PALETTE_NAMES = [(256, 0, "Default"), (257, 0, "Alternate")]


def build_cpal(entries=PALETTE_ENTRIES, names=PALETTE_NAMES):
    pals = [[hexcolor(e[1 + k]) for e in entries] for k in range(len(names))]
    cpal = buildCPAL(pals, paletteTypes=[n[1] for n in names])
    cpal.version = 1
    cpal.paletteLabels = [n[0] for n in names]
    cpal.paletteEntryLabels = [0xFFFF] * len(entries)
    return cpal


# ---------------------------------------------------------------- paint helpers


def solid(idx, alpha=1.0):
    return {"Format": ot.PaintFormat.PaintSolid, "PaletteIndex": idx, "Alpha": alpha}


def glyph(name, paint):
    return {"Format": ot.PaintFormat.PaintGlyph, "Glyph": name, "Paint": paint}


def layers(*paints):
    return {"Format": ot.PaintFormat.PaintColrLayers, "Layers": list(paints)}


def colr_glyph(name):
    return {"Format": ot.PaintFormat.PaintColrGlyph, "Glyph": name}


def stops(*s):
    """(offset, palette index[, alpha]) ... in the given (file) order."""
    return [{"StopOffset": t[0], "PaletteIndex": t[1],
             "Alpha": t[2] if len(t) > 2 else 1.0} for t in s]


RYB = ((0.25, P["red"]), (0.5, P["yellow"]), (0.75, P["blue"]))
RYB01 = ((0.0, P["red"]), (0.5, P["yellow"]), (1.0, P["blue"]))


def linear(p0, p1, p2, stoplist, extend=EXT.PAD):
    return {"Format": ot.PaintFormat.PaintLinearGradient,
            "ColorLine": {"Extend": extend, "ColorStop": stops(*stoplist)},
            "x0": p0[0], "y0": p0[1], "x1": p1[0], "y1": p1[1], "x2": p2[0], "y2": p2[1]}


def radial(c0, r0, c1, r1, stoplist, extend=EXT.PAD):
    return {"Format": ot.PaintFormat.PaintRadialGradient,
            "ColorLine": {"Extend": extend, "ColorStop": stops(*stoplist)},
            "x0": c0[0], "y0": c0[1], "r0": r0, "x1": c1[0], "y1": c1[1], "r1": r1}


def sweep(c, start, end, stoplist, extend=EXT.PAD):
    return {"Format": ot.PaintFormat.PaintSweepGradient,
            "ColorLine": {"Extend": extend, "ColorStop": stops(*stoplist)},
            "centerX": c[0], "centerY": c[1], "startAngle": start, "endAngle": end}


def composite(mode, source, backdrop):
    return {"Format": ot.PaintFormat.PaintComposite, "SourcePaint": source,
            "CompositeMode": mode, "BackdropPaint": backdrop}


def F(fmt, paint, **kw):
    d = {"Format": fmt, "Paint": paint}
    d.update(kw)
    return d


PF = ot.PaintFormat
GHOST_F = glyph("shape_F", solid(P["ghost"]))
RED_F = glyph("shape_F", solid(P["red"]))


def on_ghost(transformed):
    """Untransformed F in light gray under the transformed red F."""
    return layers(GHOST_F, transformed)


def paint_formats(p, acc=None):
    """Set of paint format numbers used in a paint dict (ignores PaintColrGlyph targets)."""
    acc = set() if acc is None else acc
    if isinstance(p, dict):
        if "Format" in p and ("Paint" in p or "PaletteIndex" in p or "ColorLine" in p
                              or "Layers" in p or "SourcePaint" in p or "Glyph" in p):
            acc.add(int(p["Format"]))
        for k, v in p.items():
            if k in ("Paint", "SourcePaint", "BackdropPaint"):
                paint_formats(v, acc)
            elif k == "Layers":
                for q in v:
                    paint_formats(q, acc)
    return acc


# ---------------------------------------------------------------- ct-colr1.ttf
# (glyph name, paint, description); code points U+E000.. in this order.

COMPOSITE_MODES = [
    ("clear", CM.CLEAR), ("src", CM.SRC), ("dest", CM.DEST), ("src_over", CM.SRC_OVER),
    ("dest_over", CM.DEST_OVER), ("src_in", CM.SRC_IN), ("dest_in", CM.DEST_IN),
    ("src_out", CM.SRC_OUT), ("dest_out", CM.DEST_OUT), ("src_atop", CM.SRC_ATOP),
    ("dest_atop", CM.DEST_ATOP), ("xor", CM.XOR), ("plus", CM.PLUS), ("screen", CM.SCREEN),
    ("overlay", CM.OVERLAY), ("darken", CM.DARKEN), ("lighten", CM.LIGHTEN),
    ("color_dodge", CM.COLOR_DODGE), ("color_burn", CM.COLOR_BURN),
    ("hard_light", CM.HARD_LIGHT), ("soft_light", CM.SOFT_LIGHT),
    ("difference", CM.DIFFERENCE), ("exclusion", CM.EXCLUSION), ("multiply", CM.MULTIPLY),
    ("hsl_hue", CM.HSL_HUE), ("hsl_saturation", CM.HSL_SATURATION),
    ("hsl_color", CM.HSL_COLOR), ("hsl_luminosity", CM.HSL_LUMINOSITY),
]
assert [int(m) for _, m in COMPOSITE_MODES] == list(range(28))
_BLEND = "disc and square as they are outside the overlap; the overlap is the %s blend of coral over blue."
COMPOSITE_LOOK = {
    "clear": "nothing at all.",
    "src": "only the disc (the square is gone everywhere).",
    "dest": "only the square.",
    "src_over": "the disc over the square.",
    "dest_over": "the square over the disc.",
    "src_in": "only the overlap, in coral.",
    "dest_in": "only the overlap, in blue.",
    "src_out": "the disc minus the overlap.",
    "dest_out": "the square minus the overlap.",
    "src_atop": "the whole square, coral in the overlap; no disc outside the square.",
    "dest_atop": "the whole disc, blue in the overlap; no square outside the disc.",
    "xor": "disc and square, the overlap empty (white).",
    "plus": "disc and square, the overlap the clamped sum of both colors (light pink).",
}
for _m in ("screen", "overlay", "darken", "lighten", "color_dodge", "color_burn", "hard_light",
           "soft_light", "difference", "exclusion", "multiply", "hsl_hue", "hsl_saturation",
           "hsl_color", "hsl_luminosity"):
    COMPOSITE_LOOK[_m] = _BLEND % _m
COMPOSITE_ALPHA_MODES = ["src_over", "src_in", "src_out", "src_atop", "dest_out", "xor",
                         "plus", "multiply"]


def comp_paint(mode, src_alpha=1.0, dst_alpha=1.0):
    return composite(mode,
                     glyph("shape_comp_circle", solid(P["coral"], src_alpha)),
                     glyph("shape_comp_square", solid(P["steel"], dst_alpha)))


def static_glyphs():
    G = []

    def add(name, paint, desc, clip=None):
        G.append((name, paint, desc, clip))

    # -- PaintSolid
    add("solid_palette", glyph("shape_circle", solid(P["blue"])),
        "A blue disc (palette entry 1), centre (500,400) radius 350.")
    add("solid_alpha", layers(glyph("shape_bar", solid(P["dark"])),
                              glyph("shape_circle", solid(P["red"], 0.5))),
        "A dark horizontal bar under a red disc drawn with PaintSolid alpha 0.5: the disc is pink "
        "where it covers white and dark red where it covers the bar.")
    add("solid_cpal_alpha", layers(glyph("shape_bar", solid(P["dark"])),
                                   glyph("shape_circle", solid(P["blue50"], 0.5))),
        "Dark bar under a blue disc whose palette entry 8 has alpha 0x80 and whose PaintSolid alpha "
        "is 0.5: effective alpha 0.25 (very light blue; the bar shows through strongly).")
    add("solid_foreground", glyph("shape_circle", solid(FOREGROUND)),
        "A disc in the foreground (text) color: palette index 0xFFFF; black by default, blue with "
        "--fg '#0000ff'.")
    add("solid_foreground_alpha", layers(glyph("shape_bar", solid(P["green"])),
                                         glyph("shape_circle", solid(FOREGROUND, 0.5))),
        "Green bar under a disc in the foreground color at alpha 0.5 (mid gray with a darker green "
        "band by default).")
    # -- PaintLinearGradient
    horiz = ((100, 400), (900, 400), (100, 800))
    add("linear_pad", glyph("shape_box", linear(*horiz, RYB, EXT.PAD)),
        "Box with a horizontal gradient p0 (100,400) -> p1 (900,400), stops 0.25 red, 0.5 yellow, "
        "0.75 blue, pad: solid red left quarter, red-yellow-blue across the middle half, solid "
        "blue right quarter.")
    add("linear_repeat", glyph("shape_box", linear(*horiz, RYB, EXT.REPEAT)),
        "Same gradient with repeat: the red-yellow-blue ramp (400 units wide) repeats, so hard "
        "blue->red edges appear at x = 300 and 700 (and the box edges start mid-ramp).")
    add("linear_reflect", glyph("shape_box", linear(*horiz, RYB, EXT.REFLECT)),
        "Same gradient with reflect: red-yellow-blue-yellow-red... with no hard edges; blue at x = "
        "700, red at x = 300, mirrored beyond.")
    add("linear_skewed", glyph("shape_box", linear((100, 400), (900, 400), (500, 800), RYB,
                                                   EXT.REPEAT)),
        "Repeat gradient with p2 = (500,800): isolines parallel to p0p2 (45 degrees), so the "
        "stripes are slanted (lower-left to upper-right), not vertical; period along x still 400.")
    add("linear_stops_unsorted", glyph("shape_box", linear(
        *horiz, ((0.75, P["blue"]), (1.5, P["yellow"]), (-0.5, P["green"]), (0.25, P["red"])),
        EXT.PAD)),
        "Stops stored out of order (0.75 blue, 1.5 yellow, -0.5 green, 0.25 red) and outside "
        "0..1: after sorting, green(-0.5) red(0.25) blue(0.75) yellow(1.5). At x = 100 (t = 0) the "
        "color is 2/3 of the way from green to red, red at x = 300, blue at x = 700, at x = 900 "
        "(t = 1) 1/3 of the way from blue to yellow.")
    add("linear_alpha_stop", layers(
        glyph("shape_bar", solid(P["dark"])),
        glyph("shape_box", linear(*horiz, ((0.0, P["red"], 1.0), (1.0, P["blue"], 0.0)),
                                  EXT.PAD))),
        "Dark bar under a horizontal gradient from opaque red (x = 100) to fully transparent blue "
        "(x = 900): red fading out to the right, the bar increasingly visible. The mid tones show "
        "how color and alpha are interpolated: Chromium 156 interpolates unpremultiplied sRGB "
        "(lavender mid tones, (192,154,195) over white at x = 500); the spec asks for "
        "premultiplied interpolation (pink, about (240,144,144)).")
    add("linear_hard_stop", glyph("shape_box", linear(
        *horiz, ((0.5, P["red"]), (0.5, P["blue"]), (0.0, P["yellow"]), (1.0, P["green"])),
        EXT.PAD)),
        "Two stops at the same offset 0.5 (red then blue, in file order): yellow->red over the "
        "left half, a hard edge at x = 500, blue->green over the right half.")
    # -- PaintRadialGradient
    for ext, en in ((EXT.PAD, "pad"), (EXT.REPEAT, "repeat"), (EXT.REFLECT, "reflect")):
        add("radial_concentric_" + en,
            glyph("shape_box", radial((500, 400), 50, (500, 400), 200, RYB01, ext)),
            {"pad": "Concentric circles c (500,400), r0 50 -> r1 200, stops red/yellow/blue at "
                    "0/0.5/1, pad: red centre disc (r < 50), rings red->yellow->blue, everything "
                    "beyond r 200 blue.",
             "repeat": "Concentric r0 50 -> r1 200, repeat: the red->blue ring (150 units wide) "
                       "repeats outward with hard blue->red edges at r = 200, 350, ...; inside "
                       "r 50 the ramp continues backwards (blue-ish centre).",
             "reflect": "Concentric r0 50 -> r1 200, reflect: red-yellow-blue-yellow-red rings "
                        "without hard edges; inside r 50 it mirrors (yellowish-red centre)."}[en])
    for ext, en in ((EXT.PAD, "pad"), (EXT.REPEAT, "repeat"), (EXT.REFLECT, "reflect")):
        add("radial_focal_" + en,
            glyph("shape_box", radial((380, 480), 0, (500, 400), 300, RYB01, ext)),
            {"pad": "Two-circle (focal) gradient: start circle c0 (380,480) r0 0 inside end circle "
                    "c1 (500,400) r1 300: red at the focal point, rings squeezed toward the upper "
                    "left, blue outside r1.",
             "repeat": "Focal gradient with repeat: eccentric rings repeating beyond c1 "
                       "(crescents thinner on the upper left).",
             "reflect": "Focal gradient with reflect: eccentric rings mirrored beyond c1, no hard "
                        "edges."}[en])
    add("radial_cone", glyph("shape_box", radial((250, 400), 60, (700, 400), 180, RYB01, EXT.PAD)),
        "Two-circle gradient whose circles do not contain each other: c0 (250,400) r0 60, c1 "
        "(700,400) r1 180, pad: a cone opening to the right (red small circle on the left, blue "
        "large circle on the right, blue beyond to the right), nothing drawn outside the cone "
        "(white).")
    # -- PaintSweepGradient
    add("sweep_full", glyph("shape_box", sweep((500, 400), 0, 360, RYB01, EXT.PAD)),
        "Sweep around (500,400) from 0 to 360 degrees (counter-clockwise from +x, y up): red at "
        "3 o'clock, yellow at 9 o'clock (through 12 o'clock, orange), blue just below 3 o'clock, "
        "hard blue/red edge along the positive x axis.")
    for ext, en in ((EXT.PAD, "pad"), (EXT.REPEAT, "repeat"), (EXT.REFLECT, "reflect")):
        add("sweep_45_135_" + en,
            glyph("shape_box", sweep((500, 400), 45, 135, RYB01, ext)),
            {"pad": "Sector 45..135 degrees (the upper quarter): red at 45 (upper right), yellow at "
                    "90, blue at 135 (upper left); pad over angles taken in 0..360: only the "
                    "0..45 wedge is red, everything from 135 round to 360 (left and the whole "
                    "lower half) is blue, hard red/blue edge along the positive x axis.",
             "repeat": "Sector 45..135 with repeat: the red->blue ramp repeats every 90 degrees "
                       "around the full circle (4 hard edges at 45, 135, 225, 315).",
             "reflect": "Sector 45..135 with reflect: red->blue->red... around the circle, blue "
                        "at 135 and 315, red at 45 and 225, no hard edges."}[en])
    add("sweep_135_45_pad", glyph("shape_box", sweep((500, 400), 135, 45, RYB01, EXT.PAD)),
        "Sweep with start 135 > end 45, pad: the angles are not swapped, the color line runs "
        "clockwise from red at 135 (upper left) through yellow at 90 to blue at 45 (upper "
        "right); pad: the 0..45 wedge is blue, everything from 135 round to 360 (left and the "
        "whole lower half) red, hard blue/red edge along the positive x axis.")
    # -- PaintGlyph clipping
    add("glyph_ring_clip", glyph("shape_ring", linear((100, 0), (900, 800), (-700, 800), RYB01)),
        "A ring (outer radius 380, hole radius 200: nonzero winding leaves the hole empty) "
        "filled with a diagonal red->yellow->blue gradient from lower left to upper right.")
    add("glyph_nested_clip", glyph("shape_circle", glyph("shape_diag", solid(P["purple"]))),
        "PaintGlyph(circle) around PaintGlyph(diagonal band) around purple: only the "
        "intersection is drawn, a purple diagonal band cut off by the circle.")
    # -- PaintColrLayers, PaintColrGlyph
    add("colr_layers_3", layers(glyph("shape_box", solid(P["blue"])),
                                glyph("shape_circle", solid(P["green"])),
                                glyph("shape_F", solid(P["red"]))),
        "Three layers bottom to top: blue box, green disc, red F.")
    add("colr_glyph_target", layers(glyph("shape_sq_small", solid(P["blue"])),
                                    glyph("shape_dot_small", solid(P["red"], 0.75))),
        "Small color glyph used by colr_glyph_twice: blue square (260..460 x 60..260) under a "
        "red disc (centre (280,260) r 170) at alpha 0.75, lower left of the em.")
    add("colr_glyph_twice", layers(colr_glyph("colr_glyph_target"),
                                   F(PF.PaintTranslate, colr_glyph("colr_glyph_target"),
                                     dx=400, dy=400)),
        "PaintColrGlyph of colr_glyph_target twice: once in place (lower left), once translated "
        "by (400,400) (upper right).")
    # -- transforms, each on the F over a light-gray untransformed F
    add("transform_matrix", on_ghost(F(PF.PaintTransform, RED_F, Transform={
        "xx": 0.9, "yx": 0.3, "xy": -0.4, "yy": 0.8, "dx": 250, "dy": -50})),
        "PaintTransform xx 0.9, yx 0.3, xy -0.4, yy 0.8, dx 250, dy -50 (x' = 0.9x - 0.4y + 250, "
        "y' = 0.3x + 0.8y - 50): the red F leans left and its arms rise to the right.")
    add("translate", on_ghost(F(PF.PaintTranslate, RED_F, dx=200, dy=-150)),
        "PaintTranslate (200,-150): the red F is the gray F moved right and down.")
    add("scale", on_ghost(F(PF.PaintScale, RED_F, scaleX=1.3, scaleY=0.6)),
        "PaintScale 1.3 x 0.6 about the origin (0,0): a wide, squat red F to the right of and "
        "below the gray one.")
    add("scale_center", on_ghost(F(PF.PaintScaleAroundCenter, RED_F, scaleX=0.5, scaleY=1.2,
                                   centerX=500, centerY=400)),
        "PaintScaleAroundCenter 0.5 x 1.2 about (500,400): a narrow, tall red F.")
    add("scale_uniform", on_ghost(F(PF.PaintScaleUniform, RED_F, scale=0.6)),
        "PaintScaleUniform 0.6 about the origin: a small red F toward the lower left.")
    add("scale_uniform_center", on_ghost(F(PF.PaintScaleUniformAroundCenter, RED_F, scale=1.3,
                                           centerX=500, centerY=400)),
        "PaintScaleUniformAroundCenter 1.3 about (500,400): a larger red F around the gray one.")
    add("rotate", on_ghost(F(PF.PaintRotate, RED_F, angle=20)),
        "PaintRotate 20 degrees counter-clockwise about the origin (0,0): the red F tilted left "
        "and shifted up-left.")
    add("rotate_center", on_ghost(F(PF.PaintRotateAroundCenter, RED_F, angle=45,
                                    centerX=500, centerY=400)),
        "PaintRotateAroundCenter 45 degrees counter-clockwise about (500,400).")
    add("skew", on_ghost(F(PF.PaintSkew, RED_F, xSkewAngle=20, ySkewAngle=0)),
        "PaintSkew xSkewAngle 20 about the origin: horizontal shear, the top of the F moves "
        "left relative to the bottom (x' = x - tan(20)*y).")
    add("skew_center", on_ghost(F(PF.PaintSkewAroundCenter, RED_F, xSkewAngle=-15,
                                  ySkewAngle=15, centerX=500, centerY=400)),
        "PaintSkewAroundCenter xSkewAngle -15, ySkewAngle 15 about (500,400): sheared in both "
        "directions.")
    add("transform_nested", on_ghost(F(PF.PaintTranslate, F(
        PF.PaintRotateAroundCenter, F(PF.PaintScaleUniformAroundCenter, RED_F, scale=0.7,
                                      centerX=500, centerY=400),
        angle=-30, centerX=500, centerY=400), dx=200, dy=-100)),
        "Nested transforms, outermost first: translate (200,-100), rotate -30 degrees about "
        "(500,400), scale 0.7 about (500,400): a small F tilted clockwise, moved right and down.")
    add("transform_gradient", F(PF.PaintRotateAroundCenter, glyph(
        "shape_box_small", linear((250, 400), (750, 400), (250, 800), RYB, EXT.REPEAT)),
        angle=30, centerX=500, centerY=400),
        "A 500x500 box with vertical repeat stripes (period 250), the whole paint rotated 30 "
        "degrees counter-clockwise about (500,400): the gradient rotates with the outline.")
    # -- PaintComposite: all 28 modes, opaque
    for mname, mode in COMPOSITE_MODES:
        add("composite_" + mname, comp_paint(mode),
            "PaintComposite mode %d (%s), source = coral disc (entry 10, upper right), backdrop = "
            "steel-blue square (entry 11, lower left), both opaque: %s"
            % (int(mode), mname, COMPOSITE_LOOK[mname]))
    # -- PaintComposite with translucent source and backdrop
    for mname in COMPOSITE_ALPHA_MODES:
        mode = dict(COMPOSITE_MODES)[mname]
        add("composite_alpha_" + mname, comp_paint(mode, 0.6, 0.7),
            "PaintComposite mode %d (%s) with the source disc at alpha 0.6 and the backdrop "
            "square at alpha 0.7 (PaintSolid alpha): as composite_%s, but the alpha terms of the "
            "mode show (e.g. src_in: overlap alpha 0.42; plus: overlap alpha 1.0)."
            % (int(mode), mname, mname))
    # -- ClipList
    add("clipbox_cut", glyph("shape_box", sweep((500, 400), 0, 360, RYB01)),
        "A full box with a sweep gradient, cut by its ClipBox (format 1) 250..750 x 150..650: "
        "only a centered 500x500 square of the sweep is visible.",
        clip=(250, 150, 750, 650))
    add("clipbox_none", glyph("shape_circle_big", radial((500, 400), 0, (500, 400), 470,
                                                         RYB01)),
        "No ClipBox: a radial disc of radius 470 that extends beyond the base box (y -70..870) "
        "is drawn whole.")
    add("colr_glyph_clipped", F(PF.PaintRotateAroundCenter, colr_glyph("clipbox_cut"),
                                angle=45, centerX=500, centerY=400),
        "PaintRotateAroundCenter 45 degrees around PaintColrGlyph(clipbox_cut): the referenced "
        "glyph's clip box applies inside the rotation, so a diamond (rotated square) of the "
        "rotated sweep is drawn.")
    return G


# ---------------------------------------------------------------- ct-colr1-var.ttf
# Axes: SWPS 0..360 (default 0), ALPH 0..1 (default 1).  Normalized:
# SWPS n = v/360 (0..1), ALPH n = v - 1 (-1..0).

VAR_AXES = [("SWPS", 0, 0, 360, "Sweep"), ("ALPH", 0, 1, 1, "Alpha")]
VAR_AXES_REF = "SWPS=90,ALPH=0.5"  # the -axes reference: SWPS n 0.25, ALPH n -0.5
REGIONS = [
    {"SWPS": (0, 1, 1)},                       # R0: SWPS, peak at 360
    {"ALPH": (-1, -1, 0)},                     # R1: ALPH, peak at 0
    {"SWPS": (0, 0.5, 1)},                     # R2: SWPS intermediate, peak at 180
    {"SWPS": (0, 1, 1), "ALPH": (-1, -1, 0)},  # R3: both axes (product)
]
F2 = 1 << 14   # F2Dot14 one
FX = 1 << 16   # Fixed one
DEG = F2 / 180  # F2Dot14 angle units per degree


class VarRows:
    """Logical variation indices: row i = {region: delta}.  The paints use
    VarIndexBase = the logical index of their first field."""

    def __init__(self):
        self.rows = []

    def add(self, *fields):
        """fields: one dict {region index: delta} per variable field; returns the base."""
        base = len(self.rows)
        for f in fields:
            self.rows.append({r: int(round(d)) for r, d in f.items()})
        return base


def var_glyphs():
    V = VarRows()
    G = []
    clips = {}

    def add(name, paint, desc, axes_desc):
        G.append((name, paint, desc, axes_desc))

    z = {}
    # PaintVarSolid: alpha 1.0 -> 0.2 along ALPH 1 -> 0
    b = V.add({1: -0.8 * F2})
    add("var_solid_alpha", layers(glyph("shape_bar", solid(P["dark"])),
                                  glyph("shape_circle", {"Format": PF.PaintVarSolid,
                                                         "PaletteIndex": P["red"], "Alpha": 1.0,
                                                         "VarIndexBase": b})),
        "Dark bar under a red disc (PaintVarSolid).",
        "ALPH: disc alpha = 1 - 0.8*(1 - ALPH): 1.0 at ALPH 1, 0.6 at ALPH 0.5, 0.2 at ALPH 0.")
    # PaintVarLinearGradient: p1 and p2 move with SWPS
    b = V.add(z, z, {0: -600}, z, {0: 1600}, z)
    add("var_linear", glyph("shape_box", {
        "Format": PF.PaintVarLinearGradient,
        "ColorLine": {"Extend": EXT.REPEAT, "ColorStop": [
            dict(s, VarIndexBase=NO_VAR) for s in stops(*RYB)]},
        "x0": 100, "y0": 400, "x1": 900, "y1": 400, "x2": 100, "y2": 800, "VarIndexBase": b}),
        "Box with vertical red-yellow-blue repeat stripes (as linear_repeat).",
        "SWPS: x1 = 900 - 600n, x2 = 100 + 1600n (n = SWPS/360): at SWPS 90 p1 = (750,400), "
        "p2 = (500,800): slanted stripes of period 325 along x; at 360 p1 = (300,400), "
        "p2 = (1700,800).")
    # PaintVarRadialGradient: c0 moves left, r1 grows with SWPS
    b = V.add({0: -400}, z, z, z, z, {0: 400})
    add("var_radial", glyph("shape_box", {
        "Format": PF.PaintVarRadialGradient,
        "ColorLine": {"Extend": EXT.REPEAT, "ColorStop": [
            dict(s, VarIndexBase=NO_VAR) for s in stops(*RYB01)]},
        "x0": 500, "y0": 400, "r0": 50, "x1": 500, "y1": 400, "r1": 200, "VarIndexBase": b}),
        "Concentric repeat rings (as radial_concentric_repeat).",
        "SWPS: x0 = 500 - 400n, r1 = 200 + 400n: at SWPS 90 c0 = (400,400), r1 = 300 (wider, "
        "eccentric rings shifted left); at 360 c0 = (100,400), r1 = 600.")
    # PaintVarSweepGradient: start +360n, end +540n degrees
    b = V.add(z, z, {0: 360 * DEG}, {0: 540 * DEG})
    add("var_sweep", glyph("shape_box", {
        "Format": PF.PaintVarSweepGradient,
        "ColorLine": {"Extend": EXT.PAD, "ColorStop": [
            dict(s, VarIndexBase=NO_VAR) for s in stops(*RYB01)]},
        "centerX": 500, "centerY": 400, "startAngle": 0, "endAngle": 90, "VarIndexBase": b}),
        "Sweep sector 0..90 degrees, pad: red at 0 (3 o'clock) through yellow to blue at 90 "
        "(12 o'clock) in the upper right quadrant; everything from 90 round to 360 is blue.",
        "SWPS: start = 0 + 360n, end = 90 + 540n degrees: at SWPS 90 the sector is 90..225 "
        "(upper right quadrant red, red at 12 o'clock to blue at lower left, lower right blue); "
        "at 360 it is 360..630 and Chromium paints the whole box red (all angles < start).")
    # PaintVarTransform (VarAffine2x3)
    b = V.add(z, {0: 0.8 * FX}, {0: -1.2 * FX}, z, {0: 800 * FX}, z)
    add("var_transform", on_ghost({"Format": PF.PaintVarTransform, "Paint": RED_F,
                                   "Transform": {"xx": 1.0, "yx": 0.0, "xy": 0.0, "yy": 1.0,
                                                 "dx": 0, "dy": 0, "VarIndexBase": b}}),
        "Red F exactly on the gray F (identity matrix at the default).",
        "SWPS: yx = 0.8n, xy = -1.2n, dx = 800n: at SWPS 90 x' = x - 0.3y + 200, y' = 0.2x + y "
        "(F leans left, rises to the right); at 360 strongly sheared.")
    # PaintVarTranslate: dx with SWPS, dy with the SWPS x ALPH region
    b = V.add({0: 600}, {3: -400})
    add("var_translate", on_ghost({"Format": PF.PaintVarTranslate, "Paint": RED_F,
                                   "dx": -150, "dy": 0, "VarIndexBase": b}),
        "Red F = gray F moved 150 left.",
        "dx = -150 + 600n(SWPS); dy = -400 * n(SWPS) * (1 - ALPH) (region R3, both axes): at "
        "SWPS 90, ALPH 0.5: dx 0, dy -50; at SWPS 360, ALPH 0: dx 450, dy -400.")

    # PaintVarScale about the centre (translate +c . scale . translate -c)
    b = V.add({0: -1.6 * F2}, {2: 0.6 * F2})
    add("var_scale", on_ghost(F(PF.PaintTranslate, {
        "Format": PF.PaintVarScale, "Paint": F(PF.PaintTranslate, RED_F, dx=-500, dy=-400),
        "scaleX": 1.0, "scaleY": 1.0, "VarIndexBase": b}, dx=500, dy=400)),
        "Red F on the gray F (scale 1 x 1 about (500,400), built as translate . PaintVarScale . "
        "translate).",
        "scaleX = 1 - 1.6n(SWPS) (region R0); scaleY = 1 + 0.6 * tent(SWPS) with the intermediate "
        "region R2 (0 at SWPS 0, 1 at 180, 0 at 360): at SWPS 90 0.6 x 1.3; at 180 0.2 x 1.6; at "
        "360 -0.6 x 1.0 (mirrored).")
    # PaintVarRotate about the centre
    b = V.add({0: 360 * DEG})
    add("var_rotate", on_ghost(F(PF.PaintTranslate, {
        "Format": PF.PaintVarRotate, "Paint": F(PF.PaintTranslate, RED_F, dx=-500, dy=-400),
        "angle": 0, "VarIndexBase": b}, dx=500, dy=400)),
        "Red F on the gray F (rotation 0 about (500,400)).",
        "SWPS: angle = SWPS degrees counter-clockwise: at SWPS 90 the F is turned a quarter "
        "turn counter-clockwise (stem horizontal along the bottom, its top end at the left, "
        "arms pointing up).")
    # PaintVarSkew about the centre
    b = V.add({2: 60 * DEG}, {1: -20 * DEG})
    add("var_skew", on_ghost(F(PF.PaintTranslate, {
        "Format": PF.PaintVarSkew, "Paint": F(PF.PaintTranslate, RED_F, dx=-500, dy=-400),
        "xSkewAngle": 0, "ySkewAngle": 0, "VarIndexBase": b}, dx=500, dy=400)),
        "Red F on the gray F (no skew).",
        "xSkewAngle = 60 * tent(SWPS) (intermediate region R2, peak at SWPS 180), ySkewAngle = "
        "-20 * (1 - ALPH): at SWPS 90, ALPH 0.5: x skew 30, y skew -10 degrees.")
    # VarColorStop: the yellow stop's offset and the blue stop's alpha vary
    b = V.add({0: 1.6 * F2}, z)   # stop 1 (yellow): offset, alpha
    b2 = V.add(z, {1: -1.0 * F2})  # stop 2 (blue): offset, alpha
    add("var_color_stops", layers(glyph("shape_bar", solid(P["dark"])), glyph("shape_box", {
        "Format": PF.PaintVarLinearGradient,
        "ColorLine": {"Extend": EXT.PAD, "ColorStop": [
            {"StopOffset": 0.0, "PaletteIndex": P["red"], "Alpha": 1.0, "VarIndexBase": NO_VAR},
            {"StopOffset": 0.5, "PaletteIndex": P["yellow"], "Alpha": 1.0, "VarIndexBase": b},
            {"StopOffset": 1.0, "PaletteIndex": P["blue"], "Alpha": 1.0, "VarIndexBase": b2}]},
        "x0": 100, "y0": 400, "x1": 900, "y1": 400, "x2": 100, "y2": 800,
        "VarIndexBase": NO_VAR})),
        "Dark bar under a horizontal red (x 100) -> yellow (x 500) -> blue (x 900) gradient "
        "(PaintVarLinearGradient with VarIndexBase 0xFFFFFFFF for its points: no variation).",
        "VarColorStop: yellow offset = 0.5 + 1.6n(SWPS), blue alpha = ALPH: at SWPS 90, "
        "ALPH 0.5 yellow sits at 0.9 (x 820) and blue is half transparent (the bar shows at the "
        "right end); at SWPS 360 the yellow stop (2.1) sorts after blue (1.0).")
    # ClipBox format 2
    b = V.add({0: -600}, {1: -200}, {0: 600}, {1: 200})
    clips["var_clipbox"] = (300, 200, 700, 600, b)
    add("var_clipbox", glyph("shape_box", sweep((500, 400), 0, 360, RYB01)),
        "Full sweep box cut by a variable ClipBox (format 2), 300..700 x 200..600 at the default.",
        "xMin = 300 - 600n, xMax = 700 + 600n (n = SWPS/360), yMin = 200 - 200(1 - ALPH), "
        "yMax = 600 + 200(1 - ALPH): at SWPS 90, "
        "ALPH 0.5: 150..850 x 100..700.")
    return G, V, clips


# ---------------------------------------------------------------- building


def new_font(family, ps_family, glyph_list, cmap):
    """glyph_list: [(name, draw)]; returns a FontBuilder with everything but COLR/CPAL."""
    fb = FontBuilder(UPEM, isTTF=True)
    fb.setupHead(unitsPerEm=UPEM, fontRevision=1.0, created=TIMESTAMP, modified=TIMESTAMP)
    fb.setupGlyphOrder([g[0] for g in glyph_list])
    fb.setupCharacterMap(cmap)
    glyphs = {}
    for name, draw in glyph_list:
        pen = TTGlyphPen(None)
        draw(pen)
        glyphs[name] = pen.glyph()
    fb.setupGlyf(glyphs)
    glyf = fb.font["glyf"]
    fb.setupHorizontalMetrics({name: (ADVANCE if name != ".notdef" else 600,
                                      getattr(glyf[name], "xMin", 0))
                               for name, _ in glyph_list})
    fb.setupHorizontalHeader(ascent=ASCENDER, descent=DESCENDER, lineGap=0)
    fb.setupNameTable({
        "familyName": family,
        "styleName": "Regular",
        "uniqueFontIdentifier": "1.000;NONE;%s-Regular" % ps_family,
        "fullName": family + " Regular",
        "version": "Version 1.000",
        "psName": ps_family + "-Regular",
        "copyright": "Generated by chromatype tests/fonts/make_colr1.py (MIT)",
    }, mac=False)
    fb.setupOS2(sTypoAscender=ASCENDER, sTypoDescender=DESCENDER, sTypoLineGap=0,
                usWinAscent=ASCENDER, usWinDescent=-DESCENDER, achVendID="NONE", fsType=0)
    fb.setupPost()
    fb.font.recalcTimestamp = False
    return fb


def color_font(family, ps_family, color_glyphs, extra_shapes=SHAPES):
    """color_glyphs: ordered glyph names mapped to U+E000...; returns (fb, cmap)."""
    glyph_list = [(".notdef", draw_notdef), ("space", draw_empty)]
    glyph_list += [(n, draw_base_box) for n in color_glyphs]
    glyph_list += sorted(extra_shapes.items())
    cmap = {0x20: "space"}
    cmap.update({FIRST_CP + i: n for i, n in enumerate(color_glyphs)})
    return new_font(family, ps_family, glyph_list, cmap), cmap


def to_bytes(font):
    font.recalcTimestamp = False
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def reload(data):
    return TTFont(io.BytesIO(data), recalcTimestamp=False)


def check_static_bounds(G):
    """Every PaintGlyph outline, transformed, must stay inside the 72px grid
    cell at 48px: x -250..1250, y -375..1125 font units (pen (12,54))."""
    shapes = {n: outline_bounds(d) for n, d in SHAPES.items()}
    paints = {n: p for n, p, _, _ in G}

    def mul(a, b):  # a . b, affine (xx, yx, xy, yy, dx, dy)
        return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
                a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
                a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])

    def around(m, cx, cy):
        return mul(mul((1, 0, 0, 1, cx, cy), m), (1, 0, 0, 1, -cx, -cy))

    def local(p):
        f = int(p["Format"])
        t = math.tan
        r = math.radians
        if f == 12:
            T = p["Transform"]
            return (T["xx"], T["yx"], T["xy"], T["yy"], T["dx"], T["dy"])
        if f == 14:
            return (1, 0, 0, 1, p["dx"], p["dy"])
        if f in (16, 18):
            m = (p["scaleX"], 0, 0, p["scaleY"], 0, 0)
            return around(m, p["centerX"], p["centerY"]) if f == 18 else m
        if f in (20, 22):
            m = (p["scale"], 0, 0, p["scale"], 0, 0)
            return around(m, p["centerX"], p["centerY"]) if f == 22 else m
        if f in (24, 26):
            a = r(p["angle"])
            m = (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0, 0)
            return around(m, p["centerX"], p["centerY"]) if f == 26 else m
        if f in (28, 30):
            m = (1, t(r(p["ySkewAngle"])), -t(r(p["xSkewAngle"])), 1, 0, 0)
            return around(m, p["centerX"], p["centerY"]) if f == 30 else m
        return None

    def walk(p, m, out, depth=0):
        f = int(p["Format"])
        if f == 10:
            x0, y0, x1, y1 = shapes[p["Glyph"]]
            for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)):
                out.append((m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]))
        elif f == 1:
            for q in p["Layers"]:
                walk(q, m, out, depth)
        elif f == 11:
            walk(paints[p["Glyph"]], m, out, depth + 1)
        elif f == 32:
            walk(p["SourcePaint"], m, out, depth)
            walk(p["BackdropPaint"], m, out, depth)
        else:
            lm = local(p)
            if lm is not None:
                walk(p["Paint"], mul(m, lm), out, depth)
    for name, p, _, _ in G:
        pts = []
        walk(p, (1, 0, 0, 1, 0, 0), pts)
        xs = [q[0] for q in pts]
        ys = [q[1] for q in pts]
        assert min(xs) >= -250 and max(xs) <= 1250 and min(ys) >= -375 and max(ys) <= 1125, \
            (name, min(xs), max(xs), min(ys), max(ys))


def build_static():
    G = static_glyphs()
    check_static_bounds(G)
    names = [g[0] for g in G]
    fb, cmap = color_font("Chromatype COLRv1", "ChromatypeCOLRv1", names)
    clips = {n: c for n, _, _, c in G if c is not None}
    fb.font["COLR"] = buildCOLR({n: p for n, p, _, _ in G}, version=1,
                                glyphMap=fb.font.getReverseGlyphMap(), clipBoxes=clips,
                                allowLayerReuse=False)
    fb.font["CPAL"] = build_cpal()
    return to_bytes(fb.font), G


def build_var(use_map):
    G, V, clips = var_glyphs()
    names = [g[0] for g in G]
    family = "Chromatype COLRv1 Var" + ("" if use_map else " NoMap")
    ps = "ChromatypeCOLRv1Var" + ("" if use_map else "NoMap")
    fb, cmap = color_font(family, ps, names)
    fb.setupFvar([(tag, lo, de, hi, nm) for tag, lo, de, hi, nm in VAR_AXES], [])
    axis_tags = [a[0] for a in VAR_AXES]
    regions = buildVarRegionList(REGIONS, axis_tags)
    if not use_map:
        # one VarData over all regions, row = variation index (implicit mapping)
        items = [[row.get(r, 0) for r in range(len(REGIONS))] for row in V.rows]
        store = buildVarStore(regions, [buildVarData(range(len(REGIONS)), items,
                                                     optimize=False)])
        var_map = None
    else:
        # two VarData subtables: [0] = rows using any region but R0 only,
        # [1] = rows using only R0; identical rows shared; all-zero rows map
        # to NO_VARIATION (0xFFFF/0xFFFF).  So the map is far from identity.
        data0, data1, seen, mapping = [], [], {}, []
        regs0 = [1, 2, 3, 0]
        for row in V.rows:
            if not any(row.values()):
                mapping.append(NO_VAR)
                continue
            key = tuple(sorted(row.items()))
            if key in seen:
                mapping.append(seen[key])
                continue
            if set(row) == {0}:
                idx = (1 << 16) | len(data1)
                data1.append([row[0]])
            else:
                idx = len(data0)
                data0.append([row.get(r, 0) for r in regs0])
            seen[key] = idx
            mapping.append(idx)
        store = buildVarStore(regions, [buildVarData(regs0, data0, optimize=False),
                                        buildVarData([0], data1, optimize=False)])
        var_map = buildDeltaSetIndexMap(mapping)
    fb.font["COLR"] = buildCOLR({n: p for n, p, _, _ in G}, version=1,
                                glyphMap=fb.font.getReverseGlyphMap(), clipBoxes=clips,
                                varStore=store, varIndexMap=var_map, allowLayerReuse=False)
    fb.font["CPAL"] = build_cpal()
    return to_bytes(fb.font), G, V


# ---------------------------------------------------------------- hostile fonts

HOSTILE_PALETTE = [("red", "E02020FF", "E02020FF"), ("blue", "2040E0FF", "2040E0FF"),
                   ("green", "20A040FF", "20A040FF"), ("yellow", "F0C000FF", "F0C000FF")]
HP = {n: i for i, (n, _, _) in enumerate(HOSTILE_PALETTE)}
HOSTILE_SHAPES = {
    "shape_left": lambda p: rect(p, 100, 0, 500, 800),
    "shape_right": lambda p: rect(p, 500, 0, 900, 800),
    "shape_bar": lambda p: rect(p, 100, 340, 900, 460),
    "shape_circle": lambda p: circle(p, 500, 400, 350),
    "shape_box": lambda p: rect(p, 100, 0, 900, 800),
}


def hostile_font(tag, mapped, unmapped=()):
    """mapped: color glyph names for U+E000..; unmapped: more color glyphs without cmap."""
    glyph_list = [(".notdef", draw_notdef), ("space", draw_empty)]
    glyph_list += [(n, draw_base_box) for n in mapped]
    glyph_list += [(n, draw_empty) for n in unmapped]
    glyph_list += sorted(HOSTILE_SHAPES.items())
    cmap = {0x20: "space"}
    cmap.update({FIRST_CP + i: n for i, n in enumerate(mapped)})
    fb = new_font("Chromatype Hostile " + tag, "ChromatypeHostile" + tag.replace(" ", ""),
                  glyph_list, cmap)
    fb.font["CPAL"] = build_cpal(HOSTILE_PALETTE, PALETTE_NAMES[:1])
    return fb


def build_hostile_cycle():
    mapped = ["cycle_a", "cycle_b", "cycle_self", "cycle_layers"]
    fb = hostile_font("Cycle", mapped)
    paints = {
        # A: red left half, then B; B: blue right half, then A
        "cycle_a": layers(glyph("shape_left", solid(HP["red"])), colr_glyph("cycle_b")),
        "cycle_b": layers(glyph("shape_right", solid(HP["blue"])), colr_glyph("cycle_a")),
        # C -> C
        "cycle_self": layers(glyph("shape_bar", solid(HP["green"])), colr_glyph("cycle_self")),
        # D: [circle, PaintColrLayers(placeholder)] ; the placeholder is patched
        # below to point at D's own layer range (a cycle through the LayerList)
        "cycle_layers": layers(glyph("shape_circle", solid(HP["yellow"])),
                               layers(glyph("shape_bar", solid(HP["red"])),
                                      glyph("shape_bar", solid(HP["blue"])))),
    }
    colr = buildCOLR(paints, version=1, glyphMap=fb.font.getReverseGlyphMap(),
                     allowLayerReuse=False)
    rec = [r for r in colr.table.BaseGlyphList.BaseGlyphPaintRecord
           if r.BaseGlyph == "cycle_layers"][0]
    outer = rec.Paint
    assert outer.Format == 1 and outer.NumLayers == 2
    inner = colr.table.LayerList.Paint[outer.FirstLayerIndex + 1]
    assert inner.Format == 1
    inner.FirstLayerIndex = outer.FirstLayerIndex
    inner.NumLayers = outer.NumLayers
    fb.font["COLR"] = colr
    return to_bytes(fb.font)


DAG_LEVELS = 40
DAGW_LEVELS = 20  # the shallow, wide variant: 4 references per level


def build_hostile_dag():
    lv = ["dag_%02d" % i for i in range(DAG_LEVELS + 1)]
    lw = ["dagw_%02d" % i for i in range(DAGW_LEVELS + 1)]
    # U+E000: binary level 0 (2^40 paths, 82 paints deep)
    # U+E001: binary level 30 (2^10 = 1024 paths, 22 paints deep): the control
    # U+E002: wide level 0 (4^20 = 2^40 paths, only 42 paints deep)
    mapped = [lv[0], lv[30], lw[0]]
    unmapped = [n for n in lv + lw if n not in mapped]
    fb = hostile_font("DAG", mapped, unmapped)
    paints = {lv[i]: layers(colr_glyph(lv[i + 1]), colr_glyph(lv[i + 1]))
              for i in range(DAG_LEVELS)}
    paints[lv[DAG_LEVELS]] = glyph("shape_circle", solid(HP["green"]))
    paints.update({lw[i]: layers(*[colr_glyph(lw[i + 1])] * 4) for i in range(DAGW_LEVELS)})
    paints[lw[DAGW_LEVELS]] = glyph("shape_circle", solid(HP["blue"]))
    fb.font["COLR"] = buildCOLR(paints, version=1, glyphMap=fb.font.getReverseGlyphMap(),
                                allowLayerReuse=False)
    return to_bytes(fb.font)


DEEP = 5000


def build_hostile_deep():
    chain = ["deep_glyph_%04d" % i for i in range(DEEP)]
    mapped = [chain[0], "deep_translate"]
    fb = hostile_font("Deep", mapped, chain[1:])
    leaf = glyph("shape_circle", solid(HP["blue"]))
    paints = {chain[i]: colr_glyph(chain[i + 1]) for i in range(DEEP - 1)}
    paints[chain[DEEP - 1]] = leaf
    # 5000 nested PaintTranslate, alternately (+1, 0) and (-1, 0): net (0, 0)
    p = glyph("shape_circle", solid(HP["red"]))
    for i in range(DEEP):
        p = F(PF.PaintTranslate, p, dx=1 if i % 2 == 0 else -1, dy=0)
    paints["deep_translate"] = p
    result = {}

    def work():  # fontTools recurses per nesting level: give it room
        try:
            sys.setrecursionlimit(1000000)
            fb.font["COLR"] = buildCOLR(paints, version=1, glyphMap=fb.font.getReverseGlyphMap(),
                                        allowLayerReuse=False)
            result["data"] = to_bytes(fb.font)
        except BaseException as e:  # pragma: no cover
            result["error"] = e
    old = threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    threading.stack_size(old)
    if "error" in result:
        raise result["error"]
    return result["data"]


def build_hostile_badindex():
    mapped = ["bad_palette_index", "bad_layer_range", "bad_glyph_id", "bad_colr_glyph_id",
              "bad_colr_glyph_nocolor", "bad_stop_palette_index"]
    fb = hostile_font("BadIndex", mapped)
    paints = {
        # palette has 4 entries: index 200 is past the end
        "bad_palette_index": layers(glyph("shape_bar", solid(HP["green"])),
                                    glyph("shape_circle", solid(200))),
        # a PaintColrLayers whose range is patched below to run past LayerList
        "bad_layer_range": layers(glyph("shape_bar", solid(HP["green"])),
                                  glyph("shape_circle", solid(HP["blue"]))),
        # PaintGlyph to gid 60000 (numGlyphs is ~20)
        "bad_glyph_id": layers(glyph("shape_bar", solid(HP["green"])),
                               glyph("glyph60000", solid(HP["red"]))),
        # PaintColrGlyph to gid 60001
        "bad_colr_glyph_id": layers(glyph("shape_bar", solid(HP["green"])),
                                    colr_glyph("glyph60001")),
        # PaintColrGlyph to a valid glyph that has no BaseGlyphPaintRecord
        "bad_colr_glyph_nocolor": layers(glyph("shape_bar", solid(HP["green"])),
                                         colr_glyph("shape_circle")),
        # gradient stop with palette index 77
        "bad_stop_palette_index": glyph("shape_box", linear(
            (100, 400), (900, 400), (100, 800), ((0.0, HP["red"]), (1.0, 77)))),
    }
    colr = buildCOLR(paints, version=1, glyphMap=fb.font.getReverseGlyphMap(),
                     allowLayerReuse=False)
    rec = [r for r in colr.table.BaseGlyphList.BaseGlyphPaintRecord
           if r.BaseGlyph == "bad_layer_range"][0]
    count = colr.table.LayerList.LayerCount
    rec.Paint.FirstLayerIndex = count - 1
    rec.Paint.NumLayers = 50  # layers count-1 .. count+48: 49 past the end
    fb.font["COLR"] = colr
    return to_bytes(fb.font)


def sfnt_replace_table(data, tag, new):
    """Re-write an sfnt with table `tag` replaced by raw bytes `new` (fontTools
    writes a consistent table directory: offsets, lengths, checksums)."""
    font = reload(data)
    raw = DefaultTable(tag)
    raw.data = new
    for t in font.keys():
        if t != "GlyphOrder":
            font[t]  # load everything, so save() writes each table
    font[tag] = raw
    return to_bytes(font)


def colr_offsets(colr):
    (version, nbase, obase, olayer, nlayer, obgl, oll, oclip, ovim, ovs) = \
        struct.unpack(">HHIIHIIIII", colr[:34])
    return {"BaseGlyphList": obgl, "LayerList": oll, "ClipList": oclip,
            "VarIndexMap": ovim, "VarStore": ovs}


def build_hostile_truncated():
    mapped = ["trunc_solid", "trunc_linear", "trunc_layers", "trunc_sweep"]
    fb = hostile_font("Truncated", mapped)
    paints = {
        "trunc_solid": glyph("shape_circle", solid(HP["blue"])),
        "trunc_linear": glyph("shape_box", linear((100, 400), (900, 400), (100, 800),
                                                  ((0.0, HP["red"]), (1.0, HP["blue"])))),
        "trunc_layers": layers(glyph("shape_left", solid(HP["red"])),
                               glyph("shape_right", solid(HP["green"])),
                               glyph("shape_bar", solid(HP["yellow"]))),
        "trunc_sweep": glyph("shape_box", sweep((500, 400), 0, 360, RYB01)),
    }
    fb.font["COLR"] = buildCOLR(paints, version=1, glyphMap=fb.font.getReverseGlyphMap(),
                                clipBoxes={"trunc_solid": (100, 0, 900, 800)},
                                allowLayerReuse=False)
    full = to_bytes(fb.font)
    colr = reload(full).getTableData("COLR")
    offs = colr_offsets(colr)
    bgl = offs["BaseGlyphList"]
    u24 = lambda i: int.from_bytes(colr[i:i + 3], "big")
    rec = [bgl + struct.unpack(">HI", colr[bgl + 4 + 6 * i:bgl + 10 + 6 * i])[1]
           for i in range(4)]  # absolute paint offsets, glyph order = mapped order
    assert [colr[p] for p in rec] == [10, 10, 1, 10]
    lin = rec[1] + u24(rec[1] + 1)  # PaintGlyph -> PaintLinearGradient
    assert colr[lin] == 4
    color_line = lin + u24(lin + 1)
    # cut 5 bytes into trunc_linear's ColorLine (Extend, numStops, half a stop):
    # trunc_solid's paints stay whole, trunc_layers' and trunc_sweep's paints,
    # the LayerList and the ClipList all lie past the end
    cut = color_line + 5
    assert rec[0] + 11 <= cut < rec[2] < rec[3], (rec, cut)
    assert cut < offs["LayerList"] < offs["ClipList"] < len(colr), (offs, len(colr))
    offs["paints"] = rec
    return sfnt_replace_table(full, "COLR", colr[:cut]), len(colr), cut, offs


MARK = {"fmt99_layer": 0x0A51, "fmt99_child": 0x0A52, "comp200": 0x0A53, "ext200": 0x0A54}


def build_hostile_badformat():
    mapped = ["unknown_format_layer", "unknown_format_child", "unknown_composite_mode",
              "unknown_extend_mode"]
    fb = hostile_font("BadFormat", mapped)
    paints = {
        # layer 2 is patched to an unknown paint format 99
        "unknown_format_layer": layers(glyph("shape_bar", solid(HP["green"])),
                                       solid(MARK["fmt99_layer"]),
                                       glyph("shape_left", solid(HP["red"]))),
        # the PaintGlyph's child is patched to format 99
        "unknown_format_child": layers(glyph("shape_bar", solid(HP["green"])),
                                       glyph("shape_circle", solid(MARK["fmt99_child"]))),
        # composite mode patched to 200
        "unknown_composite_mode": composite(
            CM.SRC_OVER, glyph("shape_circle", solid(MARK["comp200"])),
            glyph("shape_left", solid(HP["blue"]))),
        # ColorLine extend patched to 200
        "unknown_extend_mode": glyph("shape_box", linear(
            (300, 400), (700, 400), (300, 800),
            ((0.0, MARK["ext200"]), (1.0, HP["blue"])), EXT.REPEAT)),
    }
    fb.font["COLR"] = buildCOLR(paints, version=1, glyphMap=fb.font.getReverseGlyphMap(),
                                allowLayerReuse=False)
    full = to_bytes(fb.font)
    colr = bytearray(reload(full).getTableData("COLR"))

    def find_solid(mark):
        pat = struct.pack(">BHH", 2, mark, 0x4000)  # PaintSolid, index, alpha 1.0
        i = colr.find(pat)
        assert i >= 0 and colr.find(pat, i + 1) < 0, mark
        return i

    # 1. PaintSolid -> format 99 (and a valid palette index again)
    for m in ("fmt99_layer", "fmt99_child"):
        i = find_solid(MARK[m])
        colr[i:i + 5] = struct.pack(">BHH", 99, HP["yellow"], 0x4000)
    # 2. composite mode: the PaintComposite whose source is PaintGlyph -> marked solid
    i_solid = find_solid(MARK["comp200"])
    colr[i_solid + 1:i_solid + 3] = struct.pack(">H", HP["red"])
    found = 0
    for i in range(len(colr) - 8):
        if colr[i] != 32 or colr[i + 4] != int(CM.SRC_OVER):
            continue
        src = i + int.from_bytes(colr[i + 1:i + 4], "big")
        if src + 4 <= len(colr) and colr[src] == 10:
            child = src + int.from_bytes(colr[src + 1:src + 4], "big")
            if child == i_solid:
                colr[i + 4] = 200
                found += 1
    assert found == 1
    # 3. ColorLine extend: Extend(u8) numStops(u16) [offset F2Dot14, index u16, alpha]...
    pat = struct.pack(">BHhHh", int(EXT.REPEAT), 2, 0, MARK["ext200"], 0x4000)
    i = colr.find(pat)
    assert i >= 0 and colr.find(pat, i + 1) < 0
    colr[i] = 200
    colr[i + 5:i + 7] = struct.pack(">H", HP["red"])
    return sfnt_replace_table(full, "COLR", bytes(colr))


# ---------------------------------------------------------------- verification


def verify(name, data, expect_colr_ok=True):
    f = reload(data)
    assert f["head"].created == TIMESTAMP and f["head"].modified == TIMESTAMP
    f["glyf"], f["hmtx"], f["cmap"], f["CPAL"]
    if expect_colr_ok:
        c = f["COLR"]
        assert c.version == 1
        c.table.BaseGlyphList.BaseGlyphPaintRecord  # decompiled
    return f


def markdown(static_g, var_g):
    """The glyph tables of README.md / ct-colr1-descriptions.md (gid = 2 + index)."""
    def fmts(p):
        return ", ".join("%s (%d)" % (ot.PaintFormat(f).name, f)
                         for f in sorted(paint_formats(p)))
    print("### ct-colr1.ttf\n")
    print("| gid | code point | glyph | paint formats | what it must look like |")
    print("|---|---|---|---|---|")
    for i, (n, p, d, c) in enumerate(static_g):
        print("| %d | U+%04X | `%s` | %s | %s |" % (2 + i, FIRST_CP + i, n, fmts(p), d))
    print("\n### ct-colr1-var.ttf\n")
    print("| gid | code point | glyph | paint formats | default axes (SWPS 0, ALPH 1) | axis effect |")
    print("|---|---|---|---|---|---|")
    for i, (n, p, d, a) in enumerate(var_g):
        print("| %d | U+%04X | `%s` | %s | %s | %s |" % (2 + i, FIRST_CP + i, n, fmts(p), d, a))


def main():
    args = sys.argv[1:]
    if args and args[0] == "--markdown":
        markdown(static_glyphs(), var_glyphs()[0])
        return
    out = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)

    def write(fname, data):
        path = os.path.join(out, fname)
        with open(path, "wb") as f:
            f.write(data)
        print("wrote %s (%d bytes)" % (path, len(data)))

    data, G = build_static()
    verify("ct-colr1", data)
    write("ct-colr1.ttf", data)

    for use_map, fname in ((True, "ct-colr1-var.ttf"), (False, "ct-colr1-var-nomap.ttf")):
        data, VG, V = build_var(use_map)
        f = verify(fname, data)
        colr = f["COLR"].table
        assert (colr.VarIndexMap is not None) == use_map
        assert colr.VarStore is not None
        write(fname, data)

    write("hostile-cycle.ttf", build_hostile_cycle())
    write("hostile-dag.ttf", build_hostile_dag())
    write("hostile-deep.ttf", build_hostile_deep())
    write("hostile-badindex.ttf", build_hostile_badindex())
    data, full_len, cut, offs = build_hostile_truncated()
    verify("hostile-truncated", data, expect_colr_ok=False)
    assert len(reload(data).getTableData("COLR")) == cut
    write("hostile-truncated.ttf", data)
    print("  COLR cut from %d to %d bytes; offsets %s" % (full_len, cut, offs))
    write("hostile-badformat.ttf", build_hostile_badformat())


if __name__ == "__main__":
    main()
