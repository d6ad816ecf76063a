#!/usr/bin/python3
"""hostile-svg-fonts.py: OT-SVG fonts that cost, for tests/cli/test_hostile_cost.sh (issue 33,
items 9 and 10), written into the current directory with tests/fonts/make_svg.py's helpers.

  hostile-svg-cost.ttf  U+E700: <use> references that double 39 times (2^39 copies of one
                        rect from a document of a few kB); U+E701: one <path> of 100,000
                        pseudo-random line segments; U+E702: a plain square (drawn);
                        U+E703: one <path> of 10,000 random segments (under the points
                        limit, some 11 million crossings: cairo's tessellator took 39 s);
                        U+E704: a path of 1,000 random segments (some 115,000 crossings,
                        drawn alone) used 4 times through two levels of doubling <use>
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fonts"))
import make_svg as m  # noqa: E402


def doubling(levels):
    defs = ['<rect id="l0" x="100" y="-700" width="600" height="600" fill="#c00" fill-opacity="0.01"/>']
    for i in range(1, levels + 1):
        defs.append('<g id="l%d"><use href="#l%d"/><use href="#l%d" x="0.001"/></g>' % (i, i - 1, i - 1))
    return "<defs>%s</defs>" % "".join(defs), '<use href="#l%d"/>' % levels


def long_path(n):
    rnd = random.Random(33)
    pts = " ".join("L%d %d" % (rnd.randrange(50, 750), -rnd.randrange(0, 700)) for _ in range(n))
    return '<path d="M50 -50 %s"/>' % pts


def doubled_path(n, levels):
    defs = [long_path(n).replace('<path ', '<path id="p0" ', 1)]
    for i in range(1, levels + 1):
        defs.append('<g id="p%d"><use href="#p%d"/><use href="#p%d" x="1"/></g>' % (i, i - 1, i - 1))
    return "<defs>%s</defs>" % "".join(defs), '<use href="#p%d"/>' % levels


def main():
    glyphs = [(".notdef", 500, m.draw_notdef), ("doubling", m.ADVANCE, m.draw_frame),
              ("longpath", m.ADVANCE, m.draw_frame), ("square", m.ADVANCE, m.draw_frame),
              ("crossing", m.ADVANCE, m.draw_frame), ("copies", m.ADVANCE, m.draw_frame)]
    cmap = {0xE700: "doubling", 0xE701: "longpath", 0xE702: "square", 0xE703: "crossing", 0xE704: "copies"}
    fb = m.build_base("Chromatype Hostile SVG Cost", "ChromatypeHostileSVGCost", glyphs, cmap,
                      "OT-SVG documents that cost; do not install.")
    head, body = doubling(39)
    docs = [(1, 1, m.doc(1, body, head=head), False),
            (2, 2, m.doc(2, long_path(100000)), False),
            (3, 3, m.doc(3, '<rect x="100" y="-700" width="600" height="600" fill="#00c"/>'), False),
            (4, 4, m.doc(4, long_path(10000)), False),
            (5, 5, m.doc(5, doubled_path(1000, 2)[1], head=doubled_path(1000, 2)[0]), False)]
    fb.font["SVG "] = m.svg_table(docs)
    with open("hostile-svg-cost.ttf", "wb") as f:
        f.write(m.to_bytes(fb.font))


if __name__ == "__main__":
    main()
