#!/usr/bin/python3
"""gen_strokes.py DIR: writes the stroke-heavy SVG set of tests/cli/test_artwork_strokes.sh
into DIR: one small drawing per stroke feature (joins, miter limits, caps, zero-length
subpaths, closed shapes, dashes, widths, transforms, opacity, curves, viewBoxes), named by
private-use code points (e000.svg ...) so that `chromatype font --svg DIR` maps them, and
DIR/cases.txt, one line per file: "e000 name: what it shows".  Standard library only; the
same bytes on every run (the Chromium references in tests/artwork/ref-strokes/ were drawn
from them, and their SHA256SUMS say so)."""
import math
import os
import sys

BLACK = "#000"


def svg(body, vb="0 0 36 36"):
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s">\n%s\n</svg>\n' % (vb, body.strip()))


def num(v):
    s = "%.3f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pts(ps):
    return " ".join("%s,%s" % (num(x), num(y)) for x, y in ps)


def chevron(apex, angle, arm, up=True):
    """Three points: the arms of a V of the given opening angle (degrees) meeting at apex."""
    ax, ay = apex
    h = math.radians(angle / 2)
    dy = arm * math.cos(h) * (1 if up else -1)
    dx = arm * math.sin(h)
    return [(ax - dx, ay + dy), (ax, ay), (ax + dx, ay + dy)]


def chevrons(angles, join, width=3, extra=""):
    """A row of V shapes, one per angle, apex up, as polylines."""
    out = []
    n = len(angles)
    for i, a in enumerate(angles):
        x = 36 * (i + 0.5) / n
        out.append('<polyline points="%s" fill="none" stroke="#000" stroke-width="%s" '
                   'stroke-linejoin="%s"%s/>' % (pts(chevron((x, 9), a, 15)), num(width), join, extra))
    return "\n".join(out)


def joins(join):
    """Chevrons of 45, 90 and 135 degrees (miter ratios 2.6, 1.4, 1.1: none cut at 4) above
    a zigzag of 60-degree turns."""
    top = []
    for x, a in ((5, 45), (15, 90), (27.5, 135)):
        top.append('<polyline points="%s" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="%s"/>'
                   % (pts(chevron((x, 5), a, 7)), join))
    zig = [(4 + 5.6 * i, 30 if i % 2 == 0 else 20.3) for i in range(6)]
    top.append('<polyline points="%s" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="%s"/>'
               % (pts(zig), join))
    return "\n".join(top)


def star(cx, cy, r_out, r_in, n=5, rot=-90):
    p = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + 180 * i / n)
        p.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return p


def pentagram(cx, cy, r):
    p = []
    for i in range(5):
        a = math.radians(-90 + 144 * i)
        p.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return "M" + " L".join("%s %s" % (num(x), num(y)) for x, y in p) + " Z"


def line(x1, y1, x2, y2, extra, color=BLACK):
    return ('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" %s/>'
            % (num(x1), num(y1), num(x2), num(y2), color, extra))


CASES = []


def case(name, what, body, vb="0 0 36 36"):
    CASES.append((name, what, svg(body, vb)))


# ---- joins ----------------------------------------------------------------------
case("join-miter", "chevrons of 45, 90, 135 degrees and a zigzag, miter joins (none cut)", joins("miter"))
case("join-round", "the same shapes, round joins", joins("round"))
case("join-bevel", "the same shapes, bevel joins", joins("bevel"))
case("miterlimit-default", "chevrons of 20, 28, 32 degrees (ratios 5.8, 4.1, 3.6) at the default limit 4: "
     "the first two beveled, the third mitered", chevrons((20, 28, 32), "miter") +
     '\n<path d="M4 33 H32" stroke="#000" stroke-width="2"/>')
case("miterlimit-10", "the same chevrons with stroke-miterlimit 10: all mitered",
     chevrons((20, 28, 32), "miter", extra=' stroke-miterlimit="10"') +
     '\n<path d="M4 33 H32" stroke="#000" stroke-width="2"/>')
case("miterlimit-edge", "90-degree corners (ratio 1.414) at limits 1, 1.4 (cut) and 1.5 (kept); a 135-degree "
     "at 1.1 (1.082, kept)",
     "\n".join('<polyline points="%s" fill="none" stroke="#000" stroke-width="4" stroke-miterlimit="%s"/>'
               % (pts([(3 + 11 * i, 16), (3 + 11 * i, 5), (12 + 11 * i, 5)]), lim)
               for i, lim in enumerate(("1", "1.4", "1.5"))) +
     '\n<polyline points="%s" fill="none" stroke="#000" stroke-width="4" stroke-miterlimit="1.1"/>'
     % pts(chevron((18, 22), 135, 10)))
case("join-curves", "corners between curves and lines: miter (top), round (bottom)",
     '<path d="M4 16 C4 4 14 4 14 12 L22 4 Q30 4 32 16" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<path d="M4 32 C4 20 14 20 14 28 L22 20 Q30 20 32 32" fill="none" stroke="#000" stroke-width="3" '
     'stroke-linejoin="round"/>')
case("join-thick", "width 7: an acute polyline with round joins and caps, a miter one beside it",
     '<polyline points="5,30 10,6 16,30" fill="none" stroke="#000" stroke-width="7" stroke-linejoin="round" '
     'stroke-linecap="round"/>\n'
     '<polyline points="21,30 26,12 31,30" fill="none" stroke="#000" stroke-width="5" stroke-miterlimit="8"/>')
case("join-reversal", "paths that turn back (179 and 180 degrees): miter (cut to bevel), round, and square caps",
     '<path d="M4 6 L30 6 L4 7" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<path d="M4 16 L30 16 L4 17" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round"/>\n'
     '<path d="M4 28 L30 28 L10 28" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round" '
     'stroke-linecap="square"/>')

# ---- caps -----------------------------------------------------------------------
case("caps", "horizontal lines of width 5: butt, round, square caps (between x 8 and 28)",
     "\n".join(line(8, 7 + 11 * i, 28, 7 + 11 * i, 'stroke-width="5" stroke-linecap="%s"' % c)
               for i, c in enumerate(("butt", "round", "square"))))
case("caps-slanted", "caps on slanted lines and an open cubic: square and round",
     line(5, 14, 14, 4, 'stroke-width="4" stroke-linecap="square"') + "\n" +
     line(20, 4, 31, 14, 'stroke-width="4" stroke-linecap="round"') + "\n" +
     '<path d="M6 30 C10 16 22 38 30 20" fill="none" stroke="#000" stroke-width="4" stroke-linecap="square"/>')
case("zero-length", "zero-length subpaths: M x y Z, L to itself, l 0 0, in rows of round, square, butt caps "
     "(butt: nothing; a bar marks the row)",
     '<path d="M6 7 Z M14 7 L14 7 M22 7 l0 0 M30 7 z" stroke="#000" stroke-width="5" stroke-linecap="round"/>\n'
     '<path d="M6 18 Z M14 18 L14 18 M22 18 l0 0 M30 18 z" stroke="#000" stroke-width="5" '
     'stroke-linecap="square"/>\n'
     '<path d="M6 29 Z M14 29 L14 29 M22 29 l0 0" stroke="#000" stroke-width="5"/>\n'
     '<path d="M28 29 H32" stroke="#000" stroke-width="2"/>')
case("zero-length-rotated", "square dots of zero-length subpaths under rotate(30): turned with the user space",
     '<g transform="rotate(30 18 18)"><path d="M8 10 Z M18 10 l0 0 M28 10 L28 10 M8 26 z M18 26 Z M28 26 Z" '
     'stroke="#000" stroke-width="6" stroke-linecap="square"/></g>')
case("dotted", "dasharray 0 5: round dots on a line and a circle, square dots on a horizontal line, "
     "round dots on a cubic",
     line(4, 5, 32, 5, 'stroke-width="3" stroke-dasharray="0 5" stroke-linecap="round"') + "\n" +
     '<circle cx="10" cy="19" r="6" fill="none" stroke="#000" stroke-width="3" stroke-dasharray="0 4.712" '
     'stroke-linecap="round"/>\n' +
     '<path d="M20 14 C36 14 20 26 34 26" fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="0 3.5" '
     'stroke-linecap="round"/>\n' +
     line(4, 32, 32, 32, 'stroke-width="3" stroke-dasharray="0 5" stroke-linecap="square"'))
case("dotted-square", "square dots (dasharray 0 L) on a circle and a slanted line: each square turned along "
     "the path (as PDF says of zero-length dashes; cairo agrees); Chromium draws them unturned",
     '<circle cx="18" cy="13" r="9" fill="none" stroke="#000" stroke-width="3" stroke-dasharray="0 4.712" '
     'stroke-linecap="square"/>\n' +
     line(4, 33, 32, 26, 'stroke-width="3" stroke-dasharray="0 4.5" stroke-linecap="square"'))

# ---- closed shapes ----------------------------------------------------------------
case("rects", "stroked rects: sharp corners (miter), rx 4 (round), and a bevel one",
     '<rect x="3" y="3" width="13" height="13" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<rect x="20" y="3" width="13" height="13" rx="4" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<rect x="5" y="21" width="26" height="11" fill="none" stroke="#000" stroke-width="4" '
     'stroke-linejoin="bevel"/>')
case("star", "a five-pointed star (36-degree points, ratio 3.2: mitered) and one at limit 3 (cut)",
     '<polygon points="%s" fill="none" stroke="#000" stroke-width="2"/>\n'
     '<polygon points="%s" fill="none" stroke="#000" stroke-width="2" stroke-miterlimit="3"/>'
     % (pts(star(10, 19, 6.5, 2.6)), pts(star(26, 19, 6.5, 2.6))))
case("circles", "circles and ellipses stroked at widths 3 and 1",
     '<circle cx="10" cy="10" r="6" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<ellipse cx="26" cy="10" rx="7" ry="4" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<circle cx="10" cy="27" r="6" fill="none" stroke="#000" stroke-width="1"/>\n'
     '<ellipse cx="26" cy="27" rx="4" ry="7" fill="none" stroke="#000" stroke-width="1"/>')
case("close-vs-open", "the same triangle with Z (a join at the start) and without (two square caps)",
     '<path d="M4 16 L16 4 L16 16 Z" fill="none" stroke="#000" stroke-width="3" stroke-linecap="square"/>\n'
     '<path d="M20 16 L32 4 L32 16" fill="none" stroke="#000" stroke-width="3" stroke-linecap="square"/>\n'
     '<polygon points="4,32 16,20 16,32" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round"/>\n'
     '<polyline points="20,32 32,20 32,32" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round" '
     'stroke-linecap="round"/>')
case("close-on-start", "closed paths whose last point is the start (then Z): the join at the start is still "
     "a miter; two subpaths, the second starting where the first closed",
     '<path d="M5 5 L31 5 L18 18 L5 5 Z" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<path d="M6 23 h8 v8 h-8 v-8 z m14 0 h10 l-5 9 z" fill="none" stroke="#000" stroke-width="2.5"/>')
case("self-crossing", "a pentagram and a figure eight at stroke-opacity 0.6: a stroke's own overlaps are "
     "painted once",
     '<path d="%s" fill="none" stroke="#0050c8" stroke-width="3" stroke-opacity="0.6"/>\n'
     '<path d="M6 28 C6 22 30 34 30 28 C30 22 6 34 6 28 Z" fill="none" stroke="#c80000" stroke-width="3" '
     'stroke-opacity="0.6"/>' % pentagram(18, 13.5, 8))

# ---- dashes -----------------------------------------------------------------------
case("dash-basic", "dasharray 6 3, butt caps: horizontal, slanted, vertical",
     line(3, 5, 33, 5, 'stroke-width="3" stroke-dasharray="6 3"') + "\n" +
     line(3, 12, 27, 33, 'stroke-width="3" stroke-dasharray="6 3"') + "\n" +
     line(32, 10, 32, 33, 'stroke-width="3" stroke-dasharray="6 3"'))
case("dash-offset", "dasharray 6 3 with offsets 0, 2, 5, -3, 20 (20 = 2 + two periods)",
     "\n".join(line(3, 4 + 7 * i, 33, 4 + 7 * i, 'stroke-width="3" stroke-dasharray="6 3" stroke-dashoffset="%s"'
                    % o) for i, o in enumerate((0, 2, 5, -3, 20))))
case("dash-odd", "odd dash arrays repeat: 5 2 1 (= 5 2 1 5 2 1), 4 (= 4 4), 3 1 1 with offset 1",
     line(3, 6, 33, 6, 'stroke-width="3" stroke-dasharray="5 2 1"') + "\n" +
     line(3, 18, 33, 18, 'stroke-width="3" stroke-dasharray="4"') + "\n" +
     line(3, 30, 33, 30, 'stroke-width="3" stroke-dasharray="3,1,1" stroke-dashoffset="1"'))
case("dash-curves", "dashes on a cubic, a quadratic and an arc, round caps",
     '<path d="M4 12 C10 0 26 24 32 6" fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="4 2.5" '
     'stroke-linecap="round"/>\n'
     '<path d="M4 22 Q18 36 32 20" fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="5 3" '
     'stroke-linecap="round"/>\n'
     '<path d="M6 34 A12 6 0 0 1 30 34" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="3 2" '
     'stroke-linecap="round"/>')
case("dash-closed", "dashes on a rect, a circle and a closed triangle, with offsets; dashes cross the start",
     '<rect x="4" y="4" width="12" height="12" fill="none" stroke="#000" stroke-width="2.5" '
     'stroke-dasharray="7 3" stroke-dashoffset="3"/>\n'
     '<circle cx="26" cy="10" r="6" fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="5 2.5"/>\n'
     '<path d="M5 32 L18 21 L31 32 Z" fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="9 3" '
     'stroke-dashoffset="-4"/>')
case("dash-corners", "long dashes over the corners of a zigzag keep their joins (miter, round); square caps",
     '<polyline points="3,14 9,4 15,14 21,4 27,14 33,4" fill="none" stroke="#000" stroke-width="2.5" '
     'stroke-dasharray="14 3" stroke-linecap="square"/>\n'
     '<polyline points="3,32 9,22 15,32 21,22 27,32 33,22" fill="none" stroke="#000" stroke-width="2.5" '
     'stroke-dasharray="14 3" stroke-dashoffset="6" stroke-linejoin="round"/>')
case("dash-degenerate", "dash arrays that draw solid lines: 3 0, 0 0, 4 -1 (invalid: ignored), none; "
     "round caps",
     "\n".join(line(5, 5 + 8.5 * i, 31, 5 + 8.5 * i, 'stroke-width="3" stroke-linecap="round" '
                    'stroke-dasharray="%s"' % d) for i, d in enumerate(("3 0", "0 0", "4 -1", "none"))))

# ---- widths -----------------------------------------------------------------------
case("thin", "widths 0.1, 0.25, 0.5, 1 (0.27 to 2.7 px): lines, a circle, a slanted line",
     "\n".join(line(3, 4 + 4 * i, 33, 4 + 4 * i, 'stroke-width="%s"' % w)
               for i, w in enumerate((0.1, 0.25, 0.5, 1))) + "\n" +
     '<circle cx="12" cy="27" r="6" fill="none" stroke="#000" stroke-width="0.25"/>\n' +
     line(22, 33, 33, 20, 'stroke-width="0.5"'))
case("thick", "width 6 on a small closed triangle (wider than its inner circle: no hole), width 10 on a short "
     "round-capped line, a round-joined triangle 10 wide, a square-capped line",
     '<path d="M8 17 L16 9 L16 17 Z" fill="none" stroke="#000" stroke-width="6"/>\n' +
     line(25, 8, 29, 12, 'stroke-width="10" stroke-linecap="round"', "#600") + "\n" +
     '<polygon points="8,26 14,26 11,30" fill="none" stroke="#000" stroke-width="10" stroke-linejoin="round"/>\n' +
     line(21, 28, 31, 28, 'stroke-width="6" stroke-linecap="square"'))
case("thick-short-sides", "sides shorter than the stroke is wide: an open path whose short last side follows a "
     "sharp turn, a bevel-joined quad with a short side, a 3-unit square stroked 5 wide, a flat triangle 6 "
     "wide with round joins (the strokes of the sides around a short one reach past FreeType's borders: the "
     "union of every side's stroke is drawn)",
     '<path d="M12.3 7.7 L4 4 L3.5 6.8" fill="none" stroke="#000" stroke-width="5" stroke-linejoin="round"/>\n'
     '<path d="M19 14 L22 9.6 L21.4 8.6 L30 9.7 Z" fill="none" stroke="#000" stroke-width="5" '
     'stroke-linejoin="bevel"/>\n'
     '<rect x="6" y="23" width="3" height="3" fill="none" stroke="#000" stroke-width="5"/>\n'
     '<polygon points="20,22 30,22 25,26" fill="none" stroke="#000" stroke-width="6" stroke-linejoin="round"/>')
case("thick-circle", "circles stroked wider than their diameter (r 1.5 width 6, r 3 width 9): SVG's stroke (every "
     "point within half the width of the circle) and FreeType fill them; cairo and Chromium leave a hole of "
     "radius width/2 - r",
     '<circle cx="10" cy="10" r="1.5" fill="none" stroke="#000" stroke-width="6"/>\n'
     '<circle cx="25" cy="11" r="3" fill="none" stroke="#000" stroke-width="9"/>\n'
     '<ellipse cx="18" cy="27" rx="8" ry="1.5" fill="none" stroke="#000" stroke-width="5"/>')
case("tight-curves", "width 6 on curves tighter than the half width, a cusp and a loop",
     '<path d="M4 19 C14 1 16 1 26 19" fill="none" stroke="#000" stroke-width="6"/>\n'
     '<path d="M4 32 C30 18 6 18 32 32" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<path d="M26 5 C33 5 33 11 28 14" fill="none" stroke="#000" stroke-width="4" stroke-linecap="round"/>')

# ---- transforms -------------------------------------------------------------------
case("scale-nonuniform", "scale(2 0.5) and scale(0.5 2): strokes stretched with the user space (thick "
     "sides, thin tops)",
     '<g transform="scale(2 0.5)"><circle cx="9" cy="18" r="6" fill="none" stroke="#000" stroke-width="2"/>'
     '<line x1="2" y1="60" x2="16" y2="60" stroke="#000" stroke-width="3" stroke-linecap="round"/></g>\n'
     '<g transform="scale(0.5 2)"><rect x="8" y="12.5" width="56" height="4" fill="none" stroke="#000" '
     'stroke-width="2"/></g>')
case("rotate", "rotate(30) and rotate(-60): a rect with miter joins, a square-capped line",
     '<rect x="8" y="8" width="12" height="8" fill="none" stroke="#000" stroke-width="3" '
     'transform="rotate(30 14 12)"/>\n' +
     line(10, 25, 26, 25, 'stroke-width="4" stroke-linecap="square" transform="rotate(-60 18 25)"'))
case("skew", "skewX(30) on a rect (joins no longer square), skewY(-20) on a round-capped polyline",
     '<rect x="2" y="3" width="14" height="12" fill="none" stroke="#000" stroke-width="3" '
     'transform="skewX(30)"/>\n'
     '<polyline points="20,14 26,24 32,14" fill="none" stroke="#000" stroke-width="3" stroke-linecap="round" '
     'transform="translate(0 14) skewY(-20) translate(0 -4)"/>\n' +
     line(4, 30, 14, 30, 'stroke-width="3" transform="skewX(-40) translate(30 0)"'))
case("matrix-nested", "a matrix() group around a translate/scale group around a stroked path",
     '<g transform="matrix(0.8 0.3 -0.2 0.9 6 -2)"><g transform="translate(2 2) scale(1.5 1)">'
     '<path d="M2 4 L16 4 L10 16 Z M4 22 Q10 30 16 22" fill="none" stroke="#000" stroke-width="2" '
     'stroke-linejoin="round"/></g></g>')
case("scale-tiny", "coordinates in thousands under scale(0.01), width 300 (3 units), dashed and capped",
     '<g transform="scale(0.01)"><path d="M400 600 L3200 600 L1800 3000 Z" fill="none" stroke="#000" '
     'stroke-width="300"/><line x1="400" y1="3300" x2="3200" y2="3300" stroke="#000" stroke-width="300" '
     'stroke-dasharray="500 250" stroke-linecap="round"/></g>')
case("scale-big", "coordinates under 3.6 under scale(10), width 0.3 (3 units)",
     '<g transform="scale(10)"><circle cx="1.8" cy="1.4" r="1" fill="none" stroke="#000" stroke-width="0.3"/>'
     '<polyline points="0.4,3.2 1.2,2.6 2,3.2 2.8,2.6" fill="none" stroke="#000" stroke-width="0.3" '
     'stroke-dasharray="0.5 0.2"/></g>')

# ---- paint: opacity, fill ---------------------------------------------------------
case("stroke-opacity", "stroke-opacity 0.5: a self-overlapping polyline painted once; two lines overlapping "
     "each other (painted twice)",
     '<polyline points="4,14 30,14 30,4 20,4 20,18" fill="none" stroke="#006400" stroke-width="5" '
     'stroke-opacity="0.5"/>\n' +
     line(4, 26, 32, 26, 'stroke-width="6" stroke-opacity="0.5"', "#b40000") + "\n" +
     line(18, 20, 18, 34, 'stroke-width="6" stroke-opacity="0.5"', "#0000b4"))
case("stroke-over-fill", "fill below stroke: a red disc with a 6-wide blue stroke at opacity 0.6 (the fill "
     "shows under its inner half); fill-opacity 0.5 under an opaque stroke",
     '<circle cx="11" cy="11" r="7" fill="#e00000" stroke="#0000d0" stroke-width="6" stroke-opacity="0.6"/>\n'
     '<rect x="20" y="20" width="12" height="12" fill="#00a000" fill-opacity="0.5" stroke="#000" '
     'stroke-width="3"/>\n'
     '<path d="M4 22 L14 32 L14 22" stroke="#a000a0" stroke-width="2"/>')
case("group-opacity", "opacity 0.5 on a group of a filled, stroked rect and a line crossing it: one layer",
     '<g opacity="0.5"><rect x="5" y="5" width="20" height="20" fill="#ffa000" stroke="#000" '
     'stroke-width="4"/>' + line(4, 30, 32, 8, 'stroke-width="5"') + '</g>')
case("gradient-stroke", "a linear gradient on strokes: objectBoundingBox (of the fill) and userSpaceOnUse",
     '<defs><linearGradient id="a"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'
     '</linearGradient><linearGradient id="b" gradientUnits="userSpaceOnUse" x1="0" y1="20" x2="0" y2="34">'
     '<stop offset="0" stop-color="#080"/><stop offset="1" stop-color="#000"/></linearGradient></defs>\n'
     '<circle cx="18" cy="10" r="6" fill="none" stroke="url(#a)" stroke-width="4"/>\n'
     '<polyline points="4,22 12,32 20,22 28,32 33,24" fill="none" stroke="url(#b)" stroke-width="3"/>')

# ---- curves -----------------------------------------------------------------------
case("quadratic", "Q and T chains, round joins and caps; a relative q/t chain",
     '<path d="M3 10 Q9 0 15 10 T27 10 T33 6" fill="none" stroke="#000" stroke-width="2.5" '
     'stroke-linecap="round"/>\n'
     '<path d="M4 28 q4 -10 8 0 t8 0 t8 0 l4 -6" fill="none" stroke="#000" stroke-width="2.5" '
     'stroke-linejoin="round"/>')
case("cubic", "C and S chains; a cubic with a corner (miter join) and a smooth S",
     '<path d="M3 14 C6 2 12 2 15 14 S24 26 27 14 S32 6 33 10" fill="none" stroke="#000" stroke-width="2.5"/>\n'
     '<path d="M4 32 C4 22 12 22 12 28 C12 20 22 20 22 32 c0 -8 10 -8 10 -4" fill="none" stroke="#000" '
     'stroke-width="2.5"/>')
case("arcs", "elliptical arcs: all four flag pairs, a rotated ellipse arc, a closed pie",
     '<path d="M4 10 A6 4 0 0 0 14 10" fill="none" stroke="#000" stroke-width="2"/>\n'
     '<path d="M20 10 A6 4 0 1 1 30 10" fill="none" stroke="#000" stroke-width="2"/>\n'
     '<path d="M4 20 a5 5 0 1 0 10 0" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round"/>\n'
     '<path d="M18 28 A8 4 30 0 1 32 22" fill="none" stroke="#000" stroke-width="2.5" stroke-linecap="square"/>\n'
     '<path d="M9 32 L9 26 A6 6 0 0 1 15 32 Z" fill="none" stroke="#000" stroke-width="2"/>')
case("relative-commands", "relative and implicit commands (m l h v z, repeated pairs), a subpath after z "
     "starting at the closed one's start",
     '<path d="m4 4 8 0 0 8 -8 0 z l6 6 m10 -6 h8 v8 h-8 z m0 14 l4 4 4 -4 4 4 v8 H20 Z" fill="none" '
     'stroke="#000" stroke-width="2" stroke-linejoin="bevel"/>')

# ---- viewBoxes, inheritance ---------------------------------------------------------
case("icon-24", "viewBox 0 0 24 24, an icon as icon sets draw them: width 2, round caps and joins, "
     "stroke set on a group",
     '<g fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">'
     '<path d="M3 10 L12 3 L21 10 V20 a1 1 0 0 1 -1 1 H15 V14 H9 V21 H4 a1 1 0 0 1 -1 -1 Z"/>'
     '<circle cx="18" cy="5" r="1.5"/></g>', vb="0 0 24 24")
case("viewbox-centered", "viewBox -50 -50 100 100: a spiral of lines, a dashed circle, width 4",
     '<circle r="40" fill="none" stroke="#000" stroke-width="4" stroke-dasharray="20 6"/>\n'
     '<path d="M0 0 h10 v-20 h-30 v40 h50 v-60" fill="none" stroke="#000" stroke-width="4" '
     'stroke-linejoin="round"/>', vb="-50 -50 100 100")
case("viewbox-narrow", "viewBox 0 0 30 36 (80 px wide at 96): strokes to its edges",
     '<rect x="2" y="2" width="26" height="32" rx="3" fill="none" stroke="#000" stroke-width="3"/>\n'
     '<path d="M8 10 H22 M8 18 H22 M8 26 H16" stroke="#000" stroke-width="3" stroke-linecap="round"/>',
     vb="0 0 30 36")
case("inherited", "stroke properties from a group, a style attribute, overridden on children; stroke none; "
     "a default (black) fill under a colored stroke",
     '<g stroke="#0000c0" stroke-width="3" stroke-dasharray="4 2" fill="none">'
     '<path d="M4 5 H32"/>'
     '<path d="M4 12 H32" style="stroke-dasharray: none; stroke: #c00000; stroke-linecap: round"/>'
     '<path d="M4 19 H32" stroke="none"/>'
     '<g style="stroke-width:1.5"><path d="M4 19 H32" stroke-dasharray="1 1"/></g></g>\n'
     '<path d="M6 24 L30 24 L18 34 Z" stroke="#00a0a0" stroke-width="2.5" stroke-linejoin="round"/>')


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: gen_strokes.py DIR\n")
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cases.txt"), "w", encoding="utf-8", newline="\n") as idx:
        for i, (name, what, text) in enumerate(CASES):
            cp = "%04x" % (0xE000 + i)
            with open(os.path.join(out, cp + ".svg"), "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            idx.write("%s %s: %s\n" % (cp, name, what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
