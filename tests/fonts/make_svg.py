#!/usr/bin/python3
"""Generate chromatype's OT-SVG and bitmap (sbix, CBDT/CBLC) test fonts.

usage: /usr/bin/python3 tests/fonts/make_svg.py [OUTDIR]   (default: this script's directory)
       /usr/bin/python3 tests/fonts/make_svg.py --expected PALETTE [--override 'i=#RRGGBBAA,...']
                                                [--fg '#RRGGBB'] OUT.ttf
           (a NOT committed variant of ct-svg.ttf, for reference images only: every
           var(--colorN, fallback) replaced by CPAL entry N of PALETTE with the
           overrides applied, or by the fallback when N >= 3; currentColor by --fg;
           the viewBox document rewritten as the equivalent transform)

Needs Debian's python3-fonttools (4.38); no PIL (the PNGs are written with
zlib + struct).  Output is byte-identical on every run: head.created/modified
are a fixed constant, gzip streams have mtime 0, nothing depends on time,
randomness, dict order or the output directory.
See README-svg.md in this directory for what each font contains.

Files written:
  ct-svg.ttf          OT-SVG + CPAL (2 palettes x 3 entries), one glyph per feature (U+E100..)
  ct-svg-layouts.ttf  OT-SVG, upem 2048: every layout of glyph documents (id on the root <svg>
                      or inside, viewBox, width/height, ranges, shared <defs>, gzip) (U+E600..)
  hostile-svg.ttf     one adversarial SVG document per attack (U+E200..)
  hostile-svgz.ttf    a gzip bomb (>= 300 MiB inflated) + a normal gzipped document (U+E240..)
  hostile-svgroot.ttf documents whose root <svg> has the glyph id, with a zero, negative,
                      non-numeric or absurd viewBox or size, huge coordinates, 60,002
                      elements, a range whose other glyphs have no element (U+E260..)
  ct-svg-anim.ttf     OT-SVG glyphs with SMIL animation + CPAL, one per feature (U+E500..)
  ct-sbix.ttf         sbix, PNG strikes 64 and 128 ppem (U+E300..U+E302)
  ct-cbdt.ttf         CBDT/CBLC with the same PNGs (64 ppem: image format 17 / index format 1,
                      128 ppem: image format 18 / index format 3)
  secret.txt          a marker file the hostile documents point at; the marker must never
                      appear in any output
"""

import base64
import gzip
import io
import os
import re
import struct
import sys
import zlib

from fontTools.colorLib.builder import buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.misc.timeTools import timestampFromString
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import newTable
from fontTools.ttLib.tables import C_B_D_T_, E_B_L_C_
from fontTools.ttLib.tables.BitmapGlyphMetrics import BigGlyphMetrics, SmallGlyphMetrics
from fontTools.ttLib.tables.S_V_G_ import SVGDocument
from fontTools.ttLib.tables.sbixGlyph import Glyph as SbixGlyph
from fontTools.ttLib.tables.sbixStrike import Strike as SbixStrike

UPEM = 1000
ASCENDER = 800
DESCENDER = -200
ADVANCE = 800
# fixed head.created / head.modified (seconds since 1904-01-01)
TIMESTAMP = timestampFromString("Mon Jan  1 00:00:00 2024")

SECRET_MARKER = "CHROMATYPE-SECRET-7f3a"
# What the hostile documents point at.  The relative path is relative to the
# project root (where the tests run); the absolute one is where the project
# lives on the development machine.  Both are constants so that the font does
# not depend on where it is generated.
SECRET_REL = "tests/fonts/secret.txt"
SECRET_ABS = "/work/main/tests/fonts/secret.txt"

SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'

# CPAL of ct-svg.ttf: (name id of label, name, entries RRGGBBAA)
PALETTES = [
    (256, "Default", ["E02020FF", "2040E0FF", "20A040FF"]),
    (257, "Alternate", ["F0A000FF", "8020C0FF", "00B0B080"]),
]
ENTRY_LABELS = [(258, "Fill"), (259, "Accent"), (260, "Leaf")]

# ---------------------------------------------------------------- outlines
# clockwise outer contours (TrueType, y up)


def rect(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()


def rect_ccw(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0))
    pen.lineTo((x1, y0))
    pen.lineTo((x1, y1))
    pen.lineTo((x0, y1))
    pen.closePath()


def draw_notdef(pen):
    rect(pen, 50, 0, 450, 700)
    rect_ccw(pen, 100, 50, 400, 650)


def draw_box(pen):
    """The monochrome fallback of every ct-svg glyph: a solid box, the same
    footprint (x 50..750, y 0..700) as the SVG artwork."""
    rect(pen, 50, 0, 750, 700)


def draw_frame(pen):
    """The monochrome fallback of the hostile glyphs: a hollow frame, so a
    renderer that rejects the whole document (and draws the outline) can be
    told apart from one that draws the sanitized document (green square)."""
    rect(pen, 50, 0, 750, 700)
    rect_ccw(pen, 100, 50, 700, 650)


def draw_empty(pen):
    pass


# ---------------------------------------------------------------- PNG


def png(width, height, rows):
    """8-bit RGBA PNG; rows = list of `height` bytes objects of width*4 bytes."""
    assert len(rows) == height and all(len(r) == width * 4 for r in rows)

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def rgba(hexstr, alpha=255):
    return bytes(int(hexstr[i:i + 2], 16) for i in (0, 2, 4)) + bytes([alpha])


def png_quadrants(n=16):
    """n x n image, four flat quadrants: top-left pink, top-right light green,
    bottom-left light blue, bottom-right dark gray."""
    tl, tr, bl, br = rgba("FF8080"), rgba("80FF80"), rgba("8080FF"), rgba("404040")
    h = n // 2
    rows = []
    for y in range(n):
        left, right = (tl, tr) if y < h else (bl, br)
        rows.append(left * h + right * (n - h))
    return png(n, n, rows)


def coverage(inside, x, y, ss=4):
    """Fraction of pixel (x, y) inside a shape: ss x ss supersampling."""
    n = 0
    for j in range(ss):
        for i in range(ss):
            if inside(x + (i + 0.5) / ss, y + (j + 0.5) / ss):
                n += 1
    return n / (ss * ss)


def png_circle(ppem):
    """Red disc on transparent, image round(0.8*ppem) square.  The 128-ppem
    strike has a white center dot (radius 0.1 em) so the strike a renderer
    picked shows in the pixels; the 64-ppem strike is a plain disc."""
    s = round(0.8 * ppem)
    c = s / 2
    r = s / 2 - 0.5
    dot = 0.1 * ppem if ppem >= 128 else 0
    rows = []
    for y in range(s):
        row = bytearray()
        for x in range(s):
            a = coverage(lambda u, v: (u - c) ** 2 + (v - c) ** 2 <= r * r, x, y)
            w = coverage(lambda u, v: (u - c) ** 2 + (v - c) ** 2 <= dot * dot, x, y) if dot else 0
            # white dot over red, premultiplied-free: blend colors, alpha = disc coverage
            red = (0xE0, 0x20, 0x20)
            col = [round(red[k] * (1 - w) + 255 * w) for k in range(3)]
            row += bytes(col) + bytes([round(255 * a)])
        rows.append(bytes(row))
    return png(s, s, rows)


def png_flag(ppem):
    """Two-color flag: round(0.9*ppem) x round(0.6*ppem); top half #0057B7,
    bottom half #FFD700, opaque."""
    w, h = round(0.9 * ppem), round(0.6 * ppem)
    top, bottom = rgba("0057B7"), rgba("FFD700")
    return png(w, h, [(top if y < h // 2 else bottom) * w for y in range(h)])


def png_gradient(ppem):
    """Square round(0.8*ppem): horizontal gradient #FF0000 (left) -> #0000FF
    (right); top 3/4 opaque, bottom 1/4 alpha 128."""
    s = round(0.8 * ppem)
    rows = []
    for y in range(s):
        a = 255 if y < (3 * s) // 4 else 128
        row = bytearray()
        for x in range(s):
            t = x / (s - 1)
            row += bytes([round(255 * (1 - t)), 0, round(255 * t), a])
        rows.append(bytes(row))
    return png(s, s, rows)


def png_size(data):
    return struct.unpack(">II", data[16:24])


# ---------------------------------------------------------------- font skeleton


def build_base(family, ps_family, glyphs, cmap, copyright_note, upem=UPEM):
    """glyphs: list of (name, advance, draw function) in glyph order.  upem other than
    1000 scales the ascender and descender with it."""
    ascender, descender = ASCENDER * upem // UPEM, DESCENDER * upem // UPEM
    fb = FontBuilder(upem, isTTF=True)
    fb.setupHead(unitsPerEm=upem, fontRevision=1.0, created=TIMESTAMP, modified=TIMESTAMP)
    fb.setupGlyphOrder([g[0] for g in glyphs])
    fb.setupCharacterMap(cmap)
    tt = {}
    for name, adv, draw in glyphs:
        pen = TTGlyphPen(None)
        draw(pen)
        tt[name] = pen.glyph()
    fb.setupGlyf(tt)
    glyf = fb.font["glyf"]
    fb.setupHorizontalMetrics({name: (adv, getattr(glyf[name], "xMin", 0))
                               for name, adv, _ in glyphs})
    fb.setupHorizontalHeader(ascent=ascender, descent=descender, lineGap=0)
    fb.setupNameTable(
        {
            "familyName": family,
            "styleName": "Regular",
            "uniqueFontIdentifier": "1.000;NONE;%s-Regular" % ps_family,
            "fullName": family + " Regular",
            "version": "Version 1.000",
            "psName": ps_family + "-Regular",
            "copyright": "Generated by chromatype tests/fonts/make_svg.py (MIT). " + copyright_note,
        },
        mac=False,
    )
    fb.setupOS2(
        sTypoAscender=ascender, sTypoDescender=descender, sTypoLineGap=0,
        usWinAscent=ascender, usWinDescent=-descender,
        achVendID="NONE", fsType=0,
    )
    fb.setupPost()
    fb.font.recalcTimestamp = False
    return fb


def to_bytes(font):
    font.recalcTimestamp = False
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def svg_table(docs):
    """docs: list of (startGID, endGID, data str|bytes, compressed).  bytes
    that already start with 1F 8B are stored as they are."""
    t = newTable("SVG ")
    t.docList = [SVGDocument(d, s, e, c) for s, e, d, c in sorted(docs, key=lambda x: x[0])]
    return t


def gz(data):
    """Deterministic gzip (mtime 0)."""
    buf = io.BytesIO()
    with gzip.GzipFile(None, "wb", 9, fileobj=buf, mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def doc(gid, body, prolog="", root_attrs="", head=""):
    """One OT-SVG document: em square, baseline y=0, y down; the glyph is the
    <g id="glyphN">.  `head` goes inside <svg> before the glyph (style, defs)."""
    return ('%s<svg %s%s>%s<g id="glyph%d">%s</g></svg>\n'
            % (prolog, SVG_NS, root_attrs, head, gid, body))


# ---------------------------------------------------------------- ct-svg.ttf

FULL = '<rect x="50" y="-700" width="700" height="700" %s/>'


def ct_svg_glyphs(expected=False):
    """[(code point, glyph name, short description, docs function or None)].
    The glyph id of entry i is i + 2 (.notdef, space first); the function maps
    that id to [(startGID, endGID, document, gzip?)].  expected=True: the
    viewBox document is written as the equivalent transform (see --expected)."""
    png_b64 = base64.b64encode(png_quadrants()).decode("ascii")
    G = []

    def add(cp, name, what, fn):
        G.append((cp, name, what, fn))

    add(0xE100, "svg_attr", "var(--colorN, fallback) in fill attributes", lambda gid: [(gid, gid, doc(gid,
        FULL % 'fill="var(--color0, #ff00ff)"'
        + '<circle cx="400" cy="-350" r="250" fill="var(--color1, #00ffff)"/>'
        + '<path d="M250 -200 L550 -200 L400 -500 Z" fill="var(--color2, #ffff00)"/>'), False)])

    add(0xE101, "svg_style", "var() in a style attribute and in <style> rules (class, id)",
        lambda gid: [(gid, gid, doc(gid,
            '<rect x="50" y="-700" width="350" height="700" style="fill: var(--color1, #00ffff)"/>'
            '<rect class="ct-leaf" x="400" y="-700" width="350" height="700"/>'
            '<rect id="ct-bar" x="50" y="-400" width="700" height="100"/>',
            head='<style type="text/css">.ct-leaf { fill: var(--color2, #ffff00); }\n'
                 '#ct-bar { fill: var(--color0, #ff00ff); }</style>'), False)])

    add(0xE102, "svg_fallback", "var(--color7, #123456) and var(--color3, #ff8000): beyond the 3-entry palette, the fallbacks show",
        lambda gid: [(gid, gid, doc(gid,
            FULL % 'fill="var(--color7, #123456)"'
            + '<circle cx="400" cy="-400" r="200" fill="var(--color0, #ff00ff)"/>'
            + '<rect x="150" y="-150" width="500" height="100" style="fill: var(--color3, #ff8000)"/>'), False)])

    add(0xE103, "svg_currentcolor", "fill=currentColor = the text (foreground) color",
        lambda gid: [(gid, gid, doc(gid,
            FULL % 'fill="currentColor"'
            + '<circle cx="400" cy="-350" r="200" fill="var(--color2, #ffff00)"/>'), False)])

    add(0xE104, "svg_context", "fill=context-fill, stroke=context-stroke (80 units)",
        lambda gid: [(gid, gid, doc(gid,
            '<rect x="100" y="-650" width="600" height="600" fill="context-fill" '
            'stroke="context-stroke" stroke-width="80"/>'
            '<circle cx="400" cy="-350" r="120" fill="var(--color1, #00ffff)"/>'), False)])

    add(0xE105, "svg_linear", "<linearGradient>, stop-color=var() attributes, userSpaceOnUse",
        lambda gid: [(gid, gid, doc(gid,
            FULL % 'fill="url(#ct-lin)"',
            head='<defs><linearGradient id="ct-lin" gradientUnits="userSpaceOnUse" '
                 'x1="50" y1="0" x2="750" y2="0">'
                 '<stop offset="0" stop-color="var(--color0, #ff00ff)"/>'
                 '<stop offset="1" stop-color="var(--color1, #00ffff)"/>'
                 '</linearGradient></defs>'), False)])

    add(0xE106, "svg_radial", "<radialGradient>, stop-color var() in style attributes",
        lambda gid: [(gid, gid, doc(gid,
            '<circle cx="400" cy="-350" r="350" fill="url(#ct-rad)"/>',
            head='<defs><radialGradient id="ct-rad" gradientUnits="userSpaceOnUse" '
                 'cx="400" cy="-350" r="350">'
                 '<stop offset="0" style="stop-color: var(--color2, #ffff00)"/>'
                 '<stop offset="1" style="stop-color: var(--color1, #00ffff)"/>'
                 '</radialGradient></defs>'), False)])

    add(0xE107, "svg_use", "<use xlink:href> and <use href> of a <defs> diamond",
        lambda gid: [(gid, gid, doc(gid,
            '<use xlink:href="#ct-dia" x="250" y="-450" fill="var(--color0, #ff00ff)"/>'
            '<use href="#ct-dia" x="550" y="-250" fill="var(--color2, #ffff00)"/>',
            head='<defs><path id="ct-dia" d="M0 -250 L250 0 L0 250 L-250 0 Z"/></defs>'), False)])

    add(0xE108, "svg_image", "<image href=data:image/png;base64> (16x16 PNG, four quadrants)",
        lambda gid: [(gid, gid, doc(gid,
            '<image x="100" y="-700" width="600" height="600" '
            'href="data:image/png;base64,%s"/>' % png_b64), False)])

    def shared(gid):
        # one document for three consecutive glyphs; each <g id="glyphN">
        # overlaps the others, so drawing the whole document is visible.
        a, b, c = gid, gid + 1, gid + 2
        data = ('<svg %s><defs><path id="ct-tri" d="M100 -50 L700 -50 L400 -650 Z"/></defs>'
                '<g id="glyph%d">%s</g>'
                '<g id="glyph%d"><circle cx="400" cy="-350" r="300" fill="var(--color1, #00ffff)"/></g>'
                '<g id="glyph%d"><use xlink:href="#ct-tri" fill="var(--color2, #ffff00)"/></g>'
                '</svg>\n' % (SVG_NS, a, FULL % 'fill="var(--color0, #ff00ff)"', b, c))
        return [(a, c, data, False)]

    add(0xE109, "svg_shared_a", "shared document (glyphs E109..E10B), <g> 1: square", shared)
    add(0xE10A, "svg_shared_b", "shared document, <g> 2: disc", None)
    add(0xE10B, "svg_shared_c", "shared document, <g> 3: triangle via <use> of a shared <defs>", None)

    add(0xE10C, "svg_gzip", "gzip-compressed document (SVG table entry starts 1F 8B)",
        lambda gid: [(gid, gid, doc(gid,
            FULL % 'fill="var(--color1, #00ffff)"'
            + '<circle cx="400" cy="-350" r="250" fill="var(--color0, #ff00ff)"/>'), True)])

    vb_art = ('<rect x="5" y="-70" width="70" height="70" fill="var(--color2, #ffff00)"/>'
              '<circle cx="40" cy="-35" r="20" fill="var(--color0, #ff00ff)"/>')
    if expected:  # the viewBox as the equivalent explicit transform
        vb = lambda gid: [(gid, gid, doc(gid, '<g transform="scale(10)">%s</g>' % vb_art), False)]
    else:
        vb = lambda gid: [(gid, gid, doc(gid, vb_art, root_attrs=' viewBox="0 0 100 100"'), False)]
    add(0xE10D, "svg_viewbox", 'root viewBox="0 0 100 100" (10 font units per SVG unit)', vb)

    add(0xE10E, "svg_none", "no SVG document: the glyf box in the foreground color", None)
    return G


VAR_RE = re.compile(r"var\(\s*--color(\d+)\s*,\s*([^)]*?)\s*\)")


def resolve_vars(text, colors):
    """var(--colorN, fallback) -> colors[N] ('#RRGGBBAA') if N < len(colors), else the fallback."""
    return VAR_RE.sub(lambda m: colors[int(m.group(1))] if int(m.group(1)) < len(colors)
                      else m.group(2), text)


def build_ct_svg(expected=None, fg=None):
    """expected = None: the real font.  expected = list of '#RRGGBBAA' colors:
    the same font with every var(--colorN, fallback) replaced by what an
    OT-SVG renderer must use for it (that color, or the fallback when N is
    beyond the palette) and the viewBox document rewritten as a transform; used
    only to make reference images of the spec's expected result with a browser
    that ignores CPAL in SVG glyphs (Firefox), never committed.  fg: also
    replace currentColor by this color (Firefox uses black, not the text color)."""
    G = ct_svg_glyphs(expected=expected is not None)
    glyphs = [(".notdef", 500, draw_notdef), ("space", 300, draw_empty)]
    glyphs += [(name, ADVANCE, draw_box) for _, name, _, _ in G]
    cmap = {0x20: "space"}
    cmap.update({cp: name for cp, name, _, _ in G})
    fb = build_base("Chromatype SVG", "ChromatypeSVG", glyphs, cmap,
                    "OT-SVG + CPAL test font.")
    docs = []
    for i, (_, _, _, fn) in enumerate(G):
        for s, e, data, compressed in (fn(i + 2) if fn else []):
            if expected is not None:
                data = resolve_vars(data, expected)
                if fg:
                    data = data.replace('"currentColor"', '"%s"' % fg)
            docs.append((s, e, gz(data.encode()) if compressed else data, compressed))
    font = fb.font
    font["SVG "] = svg_table(docs)
    cpal = buildCPAL([[tuple(int(c[i:i + 2], 16) / 255 for i in (0, 2, 4, 6)) for c in p[2]]
                      for p in PALETTES])
    cpal.version = 1
    cpal.paletteTypes = [0] * len(PALETTES)
    cpal.paletteLabels = [p[0] for p in PALETTES]
    cpal.paletteEntryLabels = [e[0] for e in ENTRY_LABELS]
    font["CPAL"] = cpal
    name = font["name"]
    for nid, label, _ in PALETTES:
        name.setName(label, nid, 3, 1, 0x409)
    for nid, label in ENTRY_LABELS:
        name.setName(label, nid, 3, 1, 0x409)
    return to_bytes(font)


# ---------------------------------------------------------------- ct-svg-layouts.ttf

LAYOUT_UPEM = 2048   # not 1000: the em square a viewBox maps onto is the font's own


def em(v):
    """Thousandths of an em -> font units of ct-svg-layouts.ttf (as SVG number text)."""
    return "%g" % round(v * LAYOUT_UPEM / 1000, 3)


def sq(x0, y0, x1, y1, fill, extra=""):
    """A rectangle x0..x1, y0..y1 (SVG y, down), in thousandths of an em."""
    return ('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"%s/>'
            % (em(x0), em(y0), em(x1 - x0), em(y1 - y0), fill, extra))


def disc(cx, cy, r, fill, extra=""):
    return '<circle cx="%s" cy="%s" r="%s" fill="%s"%s/>' % (em(cx), em(cy), em(r), fill, extra)


def ct_svg_layouts_glyphs():
    """[(code point, glyph name, what, docs function or None)], glyph id = index + 2.
    Every layout of glyph documents the OpenType spec allows, with flat colors only
    (Firefox, the reference, ignores CPAL in SVG glyphs).  Each glyph's art stays within
    x 0..0.8 em and 0.75 em above the baseline, so it stays inside an oracle grid cell."""
    G = []

    def add(cp, name, what, fn):
        G.append((cp, name, what, fn))

    def one(body_fn, gz_=False):
        return lambda gid: [(gid, gid, body_fn(gid), gz_)]

    add(0xE600, "root_plain", "id on the root <svg>, no viewBox: 1 unit = 1 font unit, art at negative y",
        one(lambda g: '<svg id="glyph%d" %s>%s%s</svg>\n'
            % (g, SVG_NS, sq(50, -700, 750, 0, "#e02020"), disc(400, -350, 200, "#2040e0"))))
    vb_art = ('<rect x="5" y="-70" width="70" height="70" fill="%s"/>'
              '<circle cx="40" cy="-35" r="20" fill="%s"/>')
    add(0xE601, "root_viewbox", 'root id, viewBox="0 0 100 100": 100 units onto the em (x 20.48)',
        one(lambda g: '<svg id="glyph%d" %s viewBox="0 0 100 100">%s</svg>\n'
            % (g, SVG_NS, vb_art % ("#f08000", "#8020c0"))))
    add(0xE602, "root_viewbox_shift", 'root id, viewBox="0 -100 100 100": its origin (0, -100) maps to the em\'s (0, 0), art at y -170..-100',
        one(lambda g: '<svg id="glyph%d" %s viewBox="0 -100 100 100">'
            '<rect x="5" y="-170" width="70" height="70" fill="#20a0a0"/>'
            '<circle cx="40" cy="-135" r="20" fill="#e02020"/></svg>\n' % (g, SVG_NS)))
    add(0xE603, "root_viewbox_aspect", 'root id, viewBox="0 0 200 100" (xMidYMid meet): x 10.24, 0.25 em down',
        one(lambda g: '<svg id="glyph%d" %s viewBox="0 0 200 100">'
            '<rect x="10" y="-120" width="140" height="70" fill="#2040e0"/>'
            '<circle cx="80" cy="-85" r="25" fill="#f0c000"/></svg>\n' % (g, SVG_NS)))
    add(0xE604, "root_viewbox_xminymin", 'root id, viewBox="0 0 200 100" preserveAspectRatio="xMinYMin meet"',
        one(lambda g: '<svg id="glyph%d" %s viewBox="0 0 200 100" preserveAspectRatio="xMinYMin meet">'
            '<rect x="10" y="-70" width="140" height="70" fill="#20a040"/>'
            '<circle cx="80" cy="-35" r="25" fill="#e02020"/></svg>\n' % (g, SVG_NS)))
    add(0xE605, "root_width_height", 'root id, width="100" height="100" and no viewBox: as viewBox 0 0 100 100 (Firefox)',
        one(lambda g: '<svg id="glyph%d" %s width="100" height="100">%s</svg>\n'
            % (g, SVG_NS, vb_art % ("#20a040", "#f0c000"))))
    add(0xE606, "root_transform", 'root id with transform="translate(...)" (SVG 2), 0.2 em right',
        one(lambda g: '<svg id="glyph%d" %s transform="translate(%s 0)">%s%s</svg>\n'
            % (g, SVG_NS, em(200), sq(0, -700, 500, 0, "#8020c0"), disc(250, -350, 150, "#f0c000"))))
    add(0xE607, "root_defs_use", "root id, <defs> with a gradient and a path, two <use> of the path",
        one(lambda g: '<svg id="glyph%d" %s><defs>'
            '<linearGradient id="lg" gradientUnits="userSpaceOnUse" x1="%s" y1="0" x2="%s" y2="0">'
            '<stop offset="0" stop-color="#e02020"/><stop offset="1" stop-color="#2040e0"/></linearGradient>'
            '<path id="dia" d="M0 -%s L%s 0 L0 %s L-%s 0 Z"/></defs>%s'
            '<use href="#dia" x="%s" y="%s" fill="#f0c000"/>'
            '<use xlink:href="#dia" x="%s" y="%s" fill="#20a040"/></svg>\n'
            % (g, SVG_NS, em(50), em(750), em(150), em(150), em(150), em(150),
               sq(50, -700, 750, -500, "url(#lg)"), em(250), em(-250), em(550), em(-250))))
    add(0xE608, "root_opacity", "root id, a <g opacity=0.5> (an offscreen group) above the baseline",
        one(lambda g: '<svg id="glyph%d" %s>%s<g opacity="0.5">%s</g></svg>\n'
            % (g, SVG_NS, sq(50, -700, 750, 0, "#e02020"), disc(400, -350, 300, "#2040e0"))))
    add(0xE609, "root_svgz", 'root id in a gzip-compressed document, viewBox="0 0 1000 1000" (x 2.048)',
        one(lambda g: '<svg id="glyph%d" %s viewBox="0 0 1000 1000">'
            '<rect x="50" y="-700" width="700" height="700" fill="#20a0a0"/>'
            '<path d="M250 -200 L550 -200 L400 -550 Z" fill="#e02020"/></svg>\n' % (g, SVG_NS), True))

    def ranged(gid):
        # one document for three glyphs: the root is the first (it draws the whole
        # document: square, disc and triangle), a <g> the second, a <path> the third
        a, b, c = gid, gid + 1, gid + 2
        data = ('<svg id="glyph%d" %s>%s<g id="glyph%d">%s</g>'
                '<path id="glyph%d" d="M%s -%s L%s -%s L%s -%s Z" fill="#20a040"/></svg>\n'
                % (a, SVG_NS, sq(50, -700, 750, 0, "#f0c000"), b, disc(400, -400, 250, "#2040e0"),
                   c, em(150), em(100), em(650), em(100), em(400), em(600)))
        return [(a, c, data, False)]

    add(0xE60A, "range_root", "document of glyphs E60A..E60C whose root is this glyph: all of it", ranged)
    add(0xE60B, "range_g", "same document, <g id> inside: the disc alone", None)
    add(0xE60C, "range_path", "same document, <path id> inside: the triangle alone", None)
    add(0xE60D, "inner_viewbox_em", 'inner <g id>, root viewBox="0 0 2048 2048" (the em square itself)',
        one(lambda g: '<svg %s viewBox="0 0 %d %d"><g id="glyph%d">%s%s</g></svg>\n'
            % (SVG_NS, LAYOUT_UPEM, LAYOUT_UPEM, g, sq(50, -700, 750, 0, "#2040e0"),
               disc(400, -350, 200, "#f08000"))))

    def shared(gid):
        # one document for two glyphs with ids on inner elements, both <use> the same
        # <defs>; a top-level black square belongs to neither and must never show
        a, b = gid, gid + 1
        data = ('<svg %s><defs><path id="star" d="M0 -%s L%s %s L-%s -%s L%s -%s L-%s %s Z"/>'
                '<radialGradient id="rg" gradientUnits="userSpaceOnUse" cx="%s" cy="-%s" r="%s">'
                '<stop offset="0" stop-color="#f0c000"/><stop offset="1" stop-color="#e02020"/>'
                '</radialGradient></defs>%s'
                '<g id="glyph%d"><use href="#star" x="%s" y="-%s" fill="#2040e0"/></g>'
                '<g id="glyph%d">%s<use href="#star" x="%s" y="-%s" fill="#20a040"/></g></svg>\n'
                % (SVG_NS, em(350), em(200), em(280), em(330), em(110), em(330), em(110), em(200), em(280),
                   em(400), em(350), em(350), sq(50, -700, 750, 0, "#000000"),
                   a, em(400), em(350), b, sq(50, -700, 750, 0, "url(#rg)"), em(400), em(350)))
        return [(a, b, data, False)]

    add(0xE60E, "shared_a", "document of glyphs E60E..E60F (ids on inner <g>): a <use> of a shared star", shared)
    add(0xE60F, "shared_b", "same document: a shared radial gradient and the star", None)
    add(0xE610, "root_percent", "root id, a rect in percentages (of the em: 10% .. 60%)",
        one(lambda g: '<svg id="glyph%d" %s><rect x="10%%" y="-60%%" width="50%%" height="50%%" '
            'fill="#8020c0"/></svg>\n' % (g, SVG_NS)))
    add(0xE611, "inner_inherits", "inner <g id> inside groups: it inherits their fill and stroke, "
        "not their transform or opacity (Firefox)",
        one(lambda g: '<svg %s><g fill="#20a040" stroke="#2040e0" stroke-width="%s" opacity="0.3" '
            'transform="translate(%s 0)"><g style="stroke-linejoin: round; opacity: 0.5; fill: #e02020">'
            '<g id="glyph%d">%s<circle cx="%s" cy="-%s" r="%s" fill="#f0c000"/></g></g></g></svg>\n'
            % (SVG_NS, em(60), em(3000), g, '<rect x="%s" y="-%s" width="%s" height="%s"/>'
               % (em(100), em(650), em(600), em(600)), em(400), em(350), em(150))))
    add(0xE612, "inner_viewbox_opacity", 'inner <g id> with a <g opacity=0.5> (an offscreen group), root viewBox="0 0 2048 2048"',
        one(lambda g: '<svg %s viewBox="0 0 %d %d"><g id="glyph%d">%s<g opacity="0.5">%s</g></g></svg>\n'
            % (SVG_NS, LAYOUT_UPEM, LAYOUT_UPEM, g, sq(50, -700, 750, 0, "#20a040"),
               disc(400, -350, 300, "#e02020"))))
    return G


def build_ct_svg_layouts():
    G = ct_svg_layouts_glyphs()
    k = LAYOUT_UPEM / 1000

    def box(pen):   # the fallback outline, same footprint as the art
        rect(pen, round(50 * k), 0, round(750 * k), round(700 * k))

    glyphs = [(".notdef", 500, draw_notdef), ("space", round(300 * k), draw_empty)]
    glyphs += [(name, round(ADVANCE * k), box) for _, name, _, _ in G]
    cmap = {0x20: "space"}
    cmap.update({cp: name for cp, name, _, _ in G})
    fb = build_base("Chromatype SVG Layouts", "ChromatypeSVGLayouts", glyphs, cmap,
                    "OT-SVG glyph document layouts.", upem=LAYOUT_UPEM)
    docs = []
    for i, (_, _, _, fn) in enumerate(G):
        for st, e, data, compressed in (fn(i + 2) if fn else []):
            docs.append((st, e, gz(data.encode()) if compressed else data, compressed))
    fb.font["SVG "] = svg_table(docs)
    return to_bytes(fb.font)


# ---------------------------------------------------------------- hostile-svg.ttf

SAFE = '<rect id="ct-safe" x="150" y="-600" width="500" height="500" fill="#00a000"/>'
RECOLOR = "document.getElementById('ct-safe').setAttribute('fill','#ff0000')"


def billion_laughs():
    ents = ['<!ENTITY lol0 "lol">']
    for i in range(1, 10):
        ents.append('<!ENTITY lol%d "%s">' % (i, ("&lol%d;" % (i - 1)) * 10))
    return '<?xml version="1.0"?>\n<!DOCTYPE svg [\n%s\n]>\n' % "\n".join(ents)


def hostile_glyphs():
    """[(code point, name, description, prolog, head, body, root_attrs)]"""
    H = []

    def add(cp, name, what, body, prolog="", head="", root_attrs=""):
        H.append((cp, name, what, prolog, head, body, root_attrs))

    add(0xE200, "h_script", "<script> (inline, CDATA, external xlink:href) recolors the square red",
        SAFE + '<script type="text/javascript">%s</script>'
        '<script type="application/ecmascript"><![CDATA[%s;]]></script>'
        '<script xlink:href="file:///etc/hostname"/>' % (RECOLOR, RECOLOR))
    add(0xE201, "h_onhandlers", "onload/onclick/onmouseover/onfocusin/onerror handlers recolor red",
        '<g onload="%s" onclick="%s" onmouseover="%s" onfocusin="%s">%s</g>'
        '<rect x="300" y="-450" width="200" height="200" fill="#00a000" onload="%s"/>'
        '<image x="0" y="0" width="1" height="1" href="data:," onerror="%s"/>'
        % ((RECOLOR,) * 4 + (SAFE,) + (RECOLOR,) * 2),
        root_attrs=' onload="%s"' % RECOLOR)
    add(0xE202, "h_foreignobject", "<foreignObject> with an HTML div (red, over the square), iframe, img",
        SAFE + '<foreignObject x="100" y="-700" width="600" height="700">'
        '<div xmlns="http://www.w3.org/1999/xhtml" style="width:600px;height:700px;background:#ff0000">'
        'HTML<iframe src="file:///etc/hostname"></iframe><img src="http://127.0.0.1:9/y.png"/></div>'
        '</foreignObject>')
    add(0xE203, "h_image_fileurl", '<image href="file:///etc/hostname">',
        SAFE + '<image x="100" y="-700" width="600" height="700" href="file:///etc/hostname"/>')
    add(0xE204, "h_image_relative", '<image href="%s"> (bare relative path)' % SECRET_REL,
        SAFE + '<image x="100" y="-700" width="600" height="700" href="%s"/>' % SECRET_REL
        + '<image x="100" y="-700" width="600" height="700" xlink:href="../fonts/secret.txt"/>')
    add(0xE205, "h_image_absolute", '<image href="%s"> (absolute path) and file://%s' % (SECRET_ABS, SECRET_ABS),
        SAFE + '<image x="100" y="-700" width="600" height="700" href="%s"/>' % SECRET_ABS
        + '<image x="100" y="-700" width="600" height="700" xlink:href="file://%s"/>' % SECRET_ABS)
    add(0xE206, "h_image_http", '<image href="http://127.0.0.1:9/x.png"> (network)',
        SAFE + '<image x="100" y="-700" width="600" height="700" href="http://127.0.0.1:9/x.png"/>')
    add(0xE207, "h_css_import", "CSS @import url(file:///etc/passwd), of the secret, of http",
        SAFE, head='<style type="text/css">@import url(file:///etc/passwd);\n'
                   '@import url("%s");\n@import "http://127.0.0.1:9/x.css";\n'
                   '#ct-safe { stroke: none; }</style>' % SECRET_REL)
    add(0xE208, "h_css_url_fill", "fill=url(file:...) in an attribute and in a style attribute",
        SAFE + '<rect x="100" y="-700" width="250" height="50" fill="url(file:///etc/hostname#p)"/>'
        '<rect x="450" y="-700" width="250" height="50" style="fill: url(\'%s#p\')"/>' % SECRET_REL
        + '<rect x="100" y="-50" width="600" height="50" style="fill: url(http://127.0.0.1:9/p.svg#p)"/>')
    add(0xE209, "h_xxe", "XML external entities (file:///etc/hostname, the secret) used in <text>",
        SAFE + '<text x="100" y="-100" font-size="200" fill="#ff0000">&x;&s;</text>',
        prolog='<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY x SYSTEM "file:///etc/hostname">\n'
               '<!ENTITY s SYSTEM "%s">\n]>\n' % SECRET_REL)
    add(0xE20A, "h_billion_laughs", "entity bomb: 10 levels x 10 (1e9 x 'lol') in <text>",
        SAFE + '<text x="100" y="-100" font-size="200" fill="#ff0000">&lol9;</text>',
        prolog=billion_laughs())
    add(0xE20B, "h_use_cycle", "<use> cycle: a uses b uses a, plus a self-referencing <use>",
        SAFE + '<use href="#ct-a"/><use id="ct-self" href="#ct-self"/>',
        head='<defs><g id="ct-a"><use href="#ct-b"/></g><g id="ct-b"><use xlink:href="#ct-a"/></g></defs>')
    add(0xE20C, "h_filter_region", "filter region x=-100000 width=1000000 (bounding-box units), feGaussianBlur 10000",
        SAFE + '<rect x="600" y="-700" width="100" height="100" fill="#808080" filter="url(#ct-f)"/>',
        head='<defs><filter id="ct-f" x="-100000" y="-100000" width="1000000" height="1000000">'
             '<feGaussianBlur stdDeviation="10000"/></filter></defs>')
    add(0xE20D, "h_deep_nesting", "20,000 nested <g> elements (after the square)",
        SAFE + "<g>" * 20000 + "</g>" * 20000)
    add(0xE20E, "h_text", "a <text> element (not allowed in OT-SVG), red",
        SAFE + '<text x="100" y="-100" font-family="sans-serif" font-size="300" fill="#ff0000">TEXT</text>')
    add(0xE20F, "h_anchor", "<a href> and <a xlink:href> around small gray squares",
        SAFE + '<a href="https://example.invalid/"><rect x="100" y="-700" width="100" height="100" fill="#808080"/></a>'
        '<a xlink:href="javascript:%s"><rect x="600" y="-700" width="100" height="100" fill="#808080"/></a>' % RECOLOR)
    add(0xE210, "h_xinclude", '<xi:include parse="text"> of the secret (relative, absolute) and /etc/hostname in <text>',
        SAFE + '<text x="100" y="-100" font-size="200" fill="#ff0000">'
        '<xi:include href="%s" parse="text"/><xi:include href="%s" parse="text"/>'
        '<xi:include href="file:///etc/hostname" parse="text"/></text>'
        '<xi:include href="%s"/>' % (SECRET_REL, SECRET_ABS, SECRET_ABS),
        root_attrs=' xmlns:xi="http://www.w3.org/2001/XInclude"')
    add(0xE211, "h_xml_stylesheet", "<?xml-stylesheet?> processing instructions (file URL, secret, http)",
        SAFE, prolog='<?xml version="1.0"?>\n<?xml-stylesheet type="text/css" href="file:///etc/passwd"?>\n'
                     '<?xml-stylesheet type="text/css" href="%s"?>\n'
                     '<?xml-stylesheet type="text/css" href="http://127.0.0.1:9/x.css"?>\n' % SECRET_REL)
    return H


def build_hostile_svg():
    H = hostile_glyphs()
    glyphs = [(".notdef", 500, draw_notdef), ("space", 300, draw_empty)]
    glyphs += [(name, ADVANCE, draw_frame) for _, name, *_ in H]
    cmap = {0x20: "space"}
    cmap.update({cp: name for cp, name, *_ in H})
    fb = build_base("Chromatype Hostile SVG", "ChromatypeHostileSVG", glyphs, cmap,
                    "Adversarial OT-SVG documents; do not install.")
    docs = []
    for i, (_, _, _, prolog, head, body, root_attrs) in enumerate(H):
        gid = i + 2
        docs.append((gid, gid, doc(gid, body, prolog=prolog, root_attrs=root_attrs, head=head), False))
    fb.font["SVG "] = svg_table(docs)
    return to_bytes(fb.font)


# ---------------------------------------------------------------- ct-svg-anim.ttf

# CPAL of ct-svg-anim.ttf: entry 0 and 1 per palette (RRGGBBAA)
ANIM_PALETTES = [["FF0000FF", "0000FFFF"], ["00C000FF", "C000C0FF"]]
BAR = '<rect x="100" y="-400" width="600" height="100" fill="#000000">%s</rect>'


def anim_hostile_body():
    """Over the limits: absurd times, event begins, a forbidden attributeName, an external
    href, 1000 values, empty and broken values on a gray square (that must stay gray:
    red means an animation that should have gone took effect), then 300 animations of
    the safe green square (the sanitizer keeps 256 in all)."""
    parts = [
        '<rect x="50" y="-700" width="100" height="100" fill="#808080">',
        '<animate attributeName="fill" from="#ff0000" to="#ff0000" dur="99999s"/>',
        '<animate attributeName="fill" from="#ff0000" to="#ff0000" dur="1s" begin="click"/>',
        '<animate attributeName="fill" from="#ff0000" to="#ff0000" dur="1s" begin="ct-safe.end"/>',
        '<animate attributeName="fill" from="#ff0000" to="#ff0000" dur="1s" repeatCount="1e9"/>',
        '<set attributeName="href" to="file:///etc/hostname"/>',
        '<animate attributeName="fill" to="#ff0000" dur="1s" href="file:///etc/hostname#x"/>',
        '<animate attributeName="fill" values="%s" dur="2s"/>' % ";".join(["#ff0000"] * 1000),
        '<animate attributeName="fill" values="" dur="2s"/>',
        '<animate attributeName="fill" values=";;;" keyTimes="0;2" dur="2s"/>',
        '<animateMotion path="M0 0 L100 100" dur="2s"/>',
        '</rect>',
        '<rect width="0" height="0"><animate attributeName="x" values="1e308;-1e308;NaN" dur="2s"/>',
        '<animate attributeName="d" values="M 0 0 L 1e400 0;M 0 0 L 1 1" dur="2s"/></rect>',
        '<rect id="ct-safe" x="150" y="-600" width="500" height="500" fill="#00a000">',
    ]
    parts += ['<animate attributeName="opacity" values="1;1" dur="%ds"/>' % (i % 7 + 1)
              for i in range(300)]
    parts.append('</rect>')
    return "".join(parts)


def ct_svg_anim_glyphs():
    """[(code point, glyph name, body)]; glyph id = index + 2."""
    A = []

    def add(cp, name, body):
        A.append((cp, name, body))

    add(0xE500, "anim_fill",
        '<rect x="50" y="-700" width="700" height="700" fill="#ff0000">'
        '<animate attributeName="fill" from="#ff0000" to="#0000ff" dur="2s" fill="freeze"/></rect>')
    add(0xE501, "anim_rotate", BAR % (
        '<animateTransform attributeName="transform" type="rotate" from="0 400 -350" '
        'to="90 400 -350" dur="2s" fill="freeze"/>'))
    add(0xE502, "anim_set",
        '<rect x="50" y="-700" width="700" height="700" fill="#808080">'
        '<set attributeName="fill" to="#00a000" begin="1s"/></rect>')
    add(0xE503, "anim_color",
        '<rect x="50" y="-700" width="700" height="700" fill="#000000">'
        '<animateColor attributeName="fill" values="#ff0000;#00ff00;#0000ff" keyTimes="0;0.25;1" '
        'dur="2s" fill="freeze"/></rect>')
    add(0xE504, "anim_repeat",
        '<rect x="50" y="-700" width="700" height="700" fill="#ff0000">'
        '<animate attributeName="fill" from="#000000" to="#ffffff" dur="1s" '
        'repeatCount="indefinite"/></rect>')
    add(0xE505, "anim_palette",
        '<rect x="50" y="-700" width="700" height="700" fill="var(--color0, #ff0000)">'
        '<animate attributeName="fill" values="var(--color0, #ff0000);var(--color1, #0000ff)" '
        'dur="2s" fill="freeze"/></rect>')
    add(0xE506, "anim_hostile", anim_hostile_body())
    add(0xE507, "anim_spline",
        '<rect x="50" y="-400" width="100" height="100" fill="#0000ff">'
        '<animateTransform attributeName="transform" type="translate" values="0 0;400 0" '
        'keyTimes="0;1" calcMode="spline" keySplines="0.42 0 0.58 1" dur="2s" fill="freeze"/></rect>')
    add(0xE508, "anim_style",
        '<rect x="50" y="-700" width="700" height="700" style="fill:#00ff00">'
        '<animate attributeName="fill" from="#ff0000" to="#0000ff" dur="2s" fill="freeze"/></rect>')
    return A


def build_ct_svg_anim():
    A = ct_svg_anim_glyphs()
    glyphs = [(".notdef", 500, draw_notdef), ("space", 300, draw_empty)]
    glyphs += [(name, ADVANCE, draw_box) for _, name, _ in A]
    cmap = {0x20: "space"}
    cmap.update({cp: name for cp, name, _ in A})
    fb = build_base("Chromatype SVG Anim", "ChromatypeSVGAnim", glyphs, cmap,
                    "OT-SVG glyphs with SMIL animation.")
    docs = [(i + 2, i + 2, doc(i + 2, body), False) for i, (_, _, body) in enumerate(A)]
    font = fb.font
    font["SVG "] = svg_table(docs)
    cpal = buildCPAL([[tuple(int(c[i:i + 2], 16) / 255 for i in (0, 2, 4, 6)) for c in p]
                      for p in ANIM_PALETTES])
    font["CPAL"] = cpal
    return to_bytes(font)


# ---------------------------------------------------------------- hostile-svgz.ttf

BOMB_INFLATED = 320 * 1024 * 1024  # >= 300 MiB of padding


def gzip_bomb(gid):
    """A gzip stream of an SVG document whose <g id="glyphN"> (a green square)
    comes first, followed by a comment of BOMB_INFLATED 'A's: ~320 KB
    compressed, ~320 MiB inflated.  Built streaming (1 MiB at a time); zlib's
    gzip wrapper writes mtime 0, so the bytes are deterministic."""
    co = zlib.compressobj(9, zlib.DEFLATED, 31, 9)
    out = [co.compress(('<svg %s><g id="glyph%d">%s</g><!--'
                        % (SVG_NS, gid, SAFE)).encode())]
    chunk = b"A" * (1 << 20)
    for _ in range(BOMB_INFLATED // len(chunk)):
        out.append(co.compress(chunk))
    out.append(co.compress(b"--></svg>\n"))
    out.append(co.flush())
    return b"".join(out)


def build_hostile_svgz():
    glyphs = [(".notdef", 500, draw_notdef), ("space", 300, draw_empty),
              ("hz_bomb", ADVANCE, draw_frame), ("hz_normal", ADVANCE, draw_frame)]
    cmap = {0x20: "space", 0xE240: "hz_bomb", 0xE241: "hz_normal"}
    fb = build_base("Chromatype Hostile SVGZ", "ChromatypeHostileSVGZ", glyphs, cmap,
                    "gzip bomb; do not install.")
    docs = [(2, 2, gzip_bomb(2), True),
            (3, 3, gz(doc(3, SAFE).encode()), True)]
    fb.font["SVG "] = svg_table(docs)
    return to_bytes(fb.font)


# ---------------------------------------------------------------- hostile-svgroot.ttf

HUGE_RECTS = 60000


def hostile_svgroot_glyphs():
    """[(code point, name, what, root attributes, body)]: documents whose root <svg>
    carries the glyph id, with a viewBox or size that is zero, negative, not numbers or
    absurd, or that are huge.  The green square (SAFE) shows where the document is drawn."""
    huge = ('<rect x="150" y="-600" width="2" height="2" fill="#ff0000" opacity="0"/>' * HUGE_RECTS) + SAFE
    return [
        (0xE260, "hr_vb_zero", 'viewBox="0 0 0 0": disables drawing (nothing)', ' viewBox="0 0 0 0"', SAFE),
        (0xE261, "hr_vb_negative", 'viewBox="0 0 -100 100": invalid, ignored (drawn 1:1)', ' viewBox="0 0 -100 100"', SAFE),
        (0xE262, "hr_vb_tiny", 'viewBox="0 0 1e-30 1e-30": a scale of 1e33 (nothing)', ' viewBox="0 0 1e-30 1e-30"', SAFE),
        (0xE263, "hr_vb_far", 'viewBox="1e30 1e30 100 100": 1e31 em away (nothing)', ' viewBox="1e30 1e30 100 100"', SAFE),
        (0xE264, "hr_vb_nan", 'viewBox="nan nan nan nan": invalid, ignored (drawn 1:1)', ' viewBox="nan nan nan nan"', SAFE),
        (0xE265, "hr_size_huge", 'width="1e9" height="1e9", no viewBox: a scale of 1e-6 (nothing)', ' width="1e9" height="1e9"', SAFE),
        (0xE266, "hr_size_tiny", 'width="1e-9": a scale of 1e12 (nothing)', ' width="1e-9"', SAFE),
        (0xE267, "hr_aspect", 'preserveAspectRatio="bogus" with viewBox 0 0 1000 1000: ignored (drawn)',
         ' viewBox="0 0 1000 1000" preserveAspectRatio="bogus"', SAFE),
        (0xE268, "hr_huge_coords", "a rect 2e30 wide at x -1e30 under the green square (the square drawn)", "",
         '<rect x="-1e30" y="-1e30" width="2e30" height="1e30" fill="#c0c0ff"/>' + SAFE),
        (0xE269, "hr_huge_doc", "%d elements (gzip), over CT_MAX_SVG_GLYPH_ELEMENTS: the outline" % (HUGE_RECTS + 2),
         "", huge),
    ]


def build_hostile_svgroot():
    G = hostile_svgroot_glyphs()
    glyphs = [(".notdef", 500, draw_notdef), ("space", 300, draw_empty)]
    glyphs += [(name, ADVANCE, draw_frame) for _, name, _, _, _ in G]
    # a document for three glyphs whose root is the first: the other two have no element
    glyphs += [("hr_range_%d" % i, ADVANCE, draw_frame) for i in range(3)]
    cmap = {0x20: "space"}
    cmap.update({cp: name for cp, name, _, _, _ in G})
    cmap.update({0xE26A + i: "hr_range_%d" % i for i in range(3)})
    fb = build_base("Chromatype Hostile SVG Root", "ChromatypeHostileSVGRoot", glyphs, cmap,
                    "OT-SVG root documents with hostile geometry; do not install.")
    docs = []
    for i, (_, name, _, attrs, body) in enumerate(G):
        gid = i + 2
        data = '<svg id="glyph%d" %s%s>%s</svg>\n' % (gid, SVG_NS, attrs, body)
        big = name == "hr_huge_doc"
        docs.append((gid, gid, gz(data.encode()) if big else data, big))
    first = len(G) + 2
    docs.append((first, first + 2, '<svg id="glyph%d" %s>%s</svg>\n' % (first, SVG_NS, SAFE), False))
    fb.font["SVG "] = svg_table(docs)
    return to_bytes(fb.font)


# ---------------------------------------------------------------- ct-sbix.ttf / ct-cbdt.ttf

STRIKES = (64, 128)
BITMAP_ADVANCE = 1000  # = ppem pixels at every strike


def bitmap_glyphs():
    """[(code point, name, description, png function, origin offset function)]"""
    return [
        (0xE300, "bmp_circle", "red (#E02020) disc on transparent, 0.8 em; 128-ppem strike: white center dot",
         png_circle, lambda p: (0, 0)),
        (0xE301, "bmp_flag", "flag 0.9 x 0.6 em, top #0057B7, bottom #FFD700, opaque",
         png_flag, lambda p: (0, 0)),
        (0xE302, "bmp_gradient", "0.8 em square, #FF0000 -> #0000FF left to right, bottom quarter alpha 128; "
         "origin offset (0.1 em, -0.2 em)",
         png_gradient, lambda p: (round(0.1 * p), -round(0.2 * p))),
    ]


def bitmap_base(family, ps_family):
    B = bitmap_glyphs()
    glyphs = [(".notdef", 500, draw_notdef), ("space", 300, draw_empty)]
    glyphs += [(name, BITMAP_ADVANCE, draw_empty) for _, name, *_ in B]
    cmap = {0x20: "space"}
    cmap.update({cp: name for cp, name, *_ in B})
    fb = build_base(family, ps_family, glyphs, cmap, "Bitmap color test font.")
    return fb.font, B


def build_sbix():
    font, B = bitmap_base("Chromatype sbix", "ChromatypeSbix")
    sbix = newTable("sbix")
    sbix.version, sbix.flags = 1, 1  # bit 0 always 1; bit 1 clear: draw bitmaps only
    for ppem in STRIKES:
        st = SbixStrike(ppem=ppem, resolution=72)
        for _, name, _, mk, off in B:
            ox, oy = off(ppem)
            st.glyphs[name] = SbixGlyph(glyphName=name, graphicType="png ", imageData=mk(ppem),
                                        originOffsetX=ox, originOffsetY=oy)
        sbix.strikes[ppem] = st
    font["sbix"] = sbix
    return to_bytes(font)


def line_metrics(ppem, width_max):
    lm = E_B_L_C_.SbitLineMetrics()
    for k in ("caretSlopeNumerator", "caretSlopeDenominator", "caretOffset", "minOriginSB",
              "minAdvanceSB", "maxBeforeBL", "minAfterBL", "pad1", "pad2"):
        setattr(lm, k, 0)
    lm.ascender = round(ASCENDER * ppem / UPEM)
    lm.descender = round(DESCENDER * ppem / UPEM)
    lm.widthMax = width_max
    return lm


def build_cbdt():
    """Same PNGs and placement as ct-sbix.ttf.  BearingX = sbix originOffsetX,
    BearingY = originOffsetY + height, Advance = ppem (hmtx 1000 of 1000).
    Like Noto Color Emoji: no glyf/loca, maxp 0.5."""
    font, B = bitmap_base("Chromatype CBDT", "ChromatypeCBDT")
    cblc, cbdt = newTable("CBLC"), newTable("CBDT")
    cblc.version = cbdt.version = 3.0
    cblc.strikes, cbdt.strikeData = [], []
    # (ppem, image format, index format)
    for ppem, image_format, index_format in ((64, 17, 1), (128, 18, 3)):
        data, widths = {}, []
        for _, name, _, mk, off in B:
            img = mk(ppem)
            w, h = png_size(img)
            ox, oy = off(ppem)
            if image_format == 17:
                m = SmallGlyphMetrics()
                m.width, m.height = w, h
                m.BearingX, m.BearingY, m.Advance = ox, oy + h, ppem
                bm = C_B_D_T_.cbdt_bitmap_format_17(None, font)
            else:
                m = BigGlyphMetrics()
                m.width, m.height = w, h
                m.horiBearingX, m.horiBearingY, m.horiAdvance = ox, oy + h, ppem
                # vertical metrics: centered under the vertical origin
                m.vertBearingX, m.vertBearingY, m.vertAdvance = -(w // 2), 0, ppem
                bm = C_B_D_T_.cbdt_bitmap_format_18(None, font)
            bm.metrics, bm.imageData = m, img
            data[name] = bm
            widths.append(w)
        strike = E_B_L_C_.Strike()
        bst = strike.bitmapSizeTable
        bst.colorRef, bst.ppemX, bst.ppemY, bst.bitDepth, bst.flags = 0, ppem, ppem, 32, 1
        bst.hori = line_metrics(ppem, max(widths))
        bst.vert = line_metrics(ppem, max(widths))
        cls = {1: E_B_L_C_.eblc_index_sub_table_1, 3: E_B_L_C_.eblc_index_sub_table_3}[index_format]
        ist = cls(None, font)
        ist.indexFormat, ist.imageFormat = index_format, image_format
        ist.names = [name for _, name, *_ in B]  # consecutive glyph ids
        strike.indexSubTables.append(ist)
        cblc.strikes.append(strike)
        cbdt.strikeData.append(data)
    del font["glyf"], font["loca"]
    font["CBLC"], font["CBDT"] = cblc, cbdt
    font["maxp"].tableVersion = 0x5000
    return to_bytes(font)


# ---------------------------------------------------------------- main


def expected_colors(palette, overrides=""):
    """'#RRGGBBAA' per CPAL entry of `palette`, with 'i=#RRGGBBAA,...' overrides."""
    colors = ["#" + c.upper() for c in PALETTES[palette][2]]
    for item in filter(None, overrides.split(",")):
        i, c = item.split("=")
        c = c.strip().lstrip("#").upper()
        if int(i) < len(colors):
            colors[int(i)] = "#" + (c + "FF" if len(c) == 6 else c)
    return colors


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--expected":
        # --expected PALETTE [--override S] [--fg C] OUT.ttf  (see build_ct_svg)
        args = sys.argv[2:]
        opts = {"--override": "", "--fg": None}
        try:
            palette, out = int(args[0]), args[-1]
            rest = args[1:-1]
            assert len(rest) % 2 == 0 and all(k in opts for k in rest[::2])
            opts.update(zip(rest[::2], rest[1::2]))
        except (IndexError, ValueError, AssertionError):
            sys.exit("usage: make_svg.py --expected PALETTE [--override 'i=#RRGGBBAA,...'] "
                     "[--fg '#RRGGBB'] OUT.ttf")
        colors = expected_colors(palette, opts["--override"])
        with open(out, "wb") as f:
            f.write(build_ct_svg(expected=colors, fg=opts["--fg"]))
        print("wrote %s (ct-svg with var() resolved to %s, currentColor %s, viewBox as transform)"
              % (out, ",".join(colors), opts["--fg"] or "kept"))
        return
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)

    def write(fname, data):
        path = os.path.join(out, fname)
        with open(path, "wb") as f:
            f.write(data)
        print("wrote %s (%d bytes)" % (path, len(data)))

    write("secret.txt", (SECRET_MARKER + "\n").encode())
    write("ct-svg.ttf", build_ct_svg())
    write("ct-svg-layouts.ttf", build_ct_svg_layouts())
    write("hostile-svg.ttf", build_hostile_svg())
    write("hostile-svgz.ttf", build_hostile_svgz())
    write("hostile-svgroot.ttf", build_hostile_svgroot())
    write("ct-svg-anim.ttf", build_ct_svg_anim())
    write("ct-sbix.ttf", build_sbix())
    write("ct-cbdt.ttf", build_cbdt())


if __name__ == "__main__":
    main()
