#!/usr/bin/python3
"""make_seeds.py: writes the seeds of the fuzz targets fontbuild, svgtime and image
(tests/fuzz/corpus/TARGET/) from the committed test fonts and from pictures made here, so
that no picture of another origin is checked in.  JPEG and TIFF seeds come from
build/tests/ctimg (gdk-pixbuf's savers: `make build/tests/ctimg` first); the rest is written
byte by byte.  usage: tests/fuzz/make_seeds.py [BUILD]   (from the worktree root)"""
import os, struct, subprocess, sys, zlib

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
CORPUS = "tests/fuzz/corpus"


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def tables(font):
    """The sfnt's tables by tag."""
    n = struct.unpack(">H", font[4:6])[0]
    out = {}
    for i in range(n):
        tag, _, off, ln = struct.unpack(">4sIII", font[12 + 16 * i:28 + 16 * i])
        out[tag.decode("latin-1")] = font[off:off + ln]
    return out


def svg_documents(font):
    """Each distinct document of an SVG table."""
    svg = tables(font)["SVG "]
    lst = struct.unpack(">I", svg[2:6])[0]
    n = struct.unpack(">H", svg[lst:lst + 2])[0]
    docs = []
    for i in range(n):
        _, _, off, ln = struct.unpack(">HHII", svg[lst + 2 + 12 * i:lst + 14 + 12 * i])
        doc = svg[lst + off:lst + off + ln]
        if doc not in docs:
            docs.append(doc)
    return docs


# ---- fontbuild: an option byte (see fuzz_fontbuild.c), then a font or an SVG drawing -----
FONTS = [("colr0", "ct-colr0.ttf", 0x00), ("colr1", "ct-colr1.ttf", 0x02), ("colr1-svg", "ct-colr1.ttf", 0x06),
         ("svg", "ct-svg.ttf", 0x00), ("cbdt", "ct-cbdt.ttf", 0x00), ("colr0-woff2", "ct-colr0.woff2", 0x2a),
         ("colr0-cff", "ct-colr0-cff.otf", 0x01), ("var", "ct-colr1-var.ttf", 0x02), ("rand", "ct-rand.ttf", 0x42),
         ("subset", "ct-colr1.ttf", 0x12), ("overlap", "ct-overlap.ttf", 0x20), ("kern", "ct-kern.ttf", 0x07)]
for name, font, opts in FONTS:
    put("fontbuild", name, bytes([opts]) + read("tests/fonts/" + font))

DRAWINGS = {
    "art-flat": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><circle cx="18" cy="18" r="16" '
                'fill="#fc3"/><path d="M10 22q8 8 16 0" stroke="#630" stroke-width="2" fill="none"/></svg>',
    "art-gradient": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><defs><linearGradient id="g" '
                    'x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f00"/><stop offset="1" '
                    'stop-color="#00f" stop-opacity=".5"/></linearGradient><radialGradient id="r"><stop '
                    'offset=".2" stop-color="#fff"/><stop offset="1" stop-color="#0a0"/></radialGradient>'
                    '<clipPath id="c"><rect x="4" y="4" width="28" height="20" rx="3"/></clipPath></defs>'
                    '<rect width="36" height="36" fill="url(#g)"/><ellipse cx="18" cy="20" rx="12" ry="9" '
                    'fill="url(#r)" clip-path="url(#c)"/><g opacity=".6" transform="rotate(20 18 18)">'
                    '<polygon points="8,30 18,6 28,30" fill="#333"/></g></svg>',
    "art-text": '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><use href="#p" x="4"/>'
                '<defs><path id="p" d="M2 2h10v10H2z" fill-rule="evenodd" style="fill:rgb(10%,50%,90%)"/></defs>'
                '<polyline points="0,30 16,20 32,30" stroke="#000" stroke-linejoin="round" fill="none"/></svg>',
}
for name, svg in DRAWINGS.items():
    put("fontbuild", name, b"\x80" + svg.encode())
put("fontbuild", "art-flat-colr0", b"\x81" + DRAWINGS["art-flat"].encode())
put("fontbuild", "art-gradient-svg-woff2", b"\x8c" + DRAWINGS["art-gradient"].encode())

# ---- svgtime: SVG documents of glyphs, the animated ones of the test fonts ---------------
for font in ("ct-svg-anim.ttf", "ct-svg.ttf"):
    for i, doc in enumerate(svg_documents(read("tests/fonts/" + font))):
        if len(doc) <= 16384:
            put("svgtime", "%s-%d.svg" % (font[:-4], i), doc)
ANIM = ('<svg xmlns="http://www.w3.org/2000/svg"><g id="glyph1"><rect x="100" y="-700" width="600" '
        'height="600" fill="var(--color0, #c00)"><animate attributeName="fill" values="#f00;#0f0;#00f" '
        'dur="2s" repeatCount="indefinite"/><animateTransform attributeName="transform" type="rotate" '
        'from="0 400 -400" to="360 400 -400" dur="4s" repeatCount="indefinite"/><set attributeName="opacity" '
        'to="0.5" begin="1s" dur="1s"/></rect></g><g id="glyph2"><circle cx="400" cy="-400" r="200">'
        '<animate attributeName="r" values="100;300;100" keyTimes="0;0.5;1" calcMode="spline" '
        'keySplines=".4 0 .6 1;.4 0 .6 1" dur="3s" begin="0.5s" repeatCount="5" fill="freeze"/>'
        '<animateMotion path="M0 0L200 0" dur="2s" repeatCount="indefinite"/></circle></g></svg>')
put("svgtime", "anim-kinds.svg", ANIM.encode())
put("svgtime", "anim-kinds.svgz", __import__("gzip").compress(ANIM.encode(), mtime=0))

# ---- image: one picture of each kind -----------------------------------------------------
def png(w, h, color_type, rows, extra=b""):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)
    raw = b"".join(b"\0" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

put("image", "rgba.png", png(4, 3, 6, [bytes([255, 0, 0, 255, 0, 255, 0, 128] * 2)] * 3))
put("image", "palette.png", png(3, 2, 3, [b"\0\1\2"] * 2,
                                b"".join([struct.pack(">I", 9) + b"PLTE" + b"\xff\0\0\0\xff\0\0\0\xff"
                                          + struct.pack(">I", zlib.crc32(b"PLTE\xff\0\0\0\xff\0\0\0\xff") & 0xffffffff)])))
put("image", "gray.png", png(2, 2, 0, [b"\0\xff"] * 2))
# BMP: 2 x 2, 24 bits, bottom-up rows padded to 4 bytes
bmp_px = (b"\0\0\xff\0\xff\0" + b"\0\0") + (b"\xff\0\0\xff\xff\xff" + b"\0\0")
put("image", "rgb.bmp", b"BM" + struct.pack("<IHHI", 54 + len(bmp_px), 0, 0, 54)
    + struct.pack("<IiiHHIIiiII", 40, 2, 2, 1, 24, 0, len(bmp_px), 2835, 2835, 0, 0) + bmp_px)
put("image", "red.gif", b"GIF89a\1\0\1\0\x80\0\0" + b"\xff\0\0\0\0\0" + b",\0\0\0\0\1\0\1\0\0" + b"\2\2\x44\1\0" + b";")
# an animated GIF of two frames, 2 x 1
put("image", "two-frames.gif", b"GIF89a\2\0\1\0\x80\0\0" + b"\xff\0\0\0\0\xff" + b"!\xff\x0bNETSCAPE2.0\3\1\0\0\0"
    + b"!\xf9\4\0\x0a\0\0\0" + b",\0\0\0\0\2\0\1\0\0" + b"\2\2\x44\x0a\0"
    + b"!\xf9\4\0\x0a\0\0\0" + b",\0\0\0\0\2\0\1\0\0" + b"\2\2\x4c\x0a\0" + b";")
put("image", "picture.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 4 3">'
    b'<rect width="4" height="3" fill="#08f"/><circle cx="2" cy="1.5" r="1" fill="url(#g)"/><defs>'
    b'<radialGradient id="g"><stop offset="0" stop-color="#ff0"/><stop offset="1" stop-color="#f00"/>'
    b'</radialGradient></defs><image width="1" height="1" href="data:image/png;base64,'
    + __import__("base64").b64encode(png(1, 1, 2, [b"\0\xff\0"])) + b'"/></svg>')
put("image", "picture.svgz", __import__("gzip").compress(read(os.path.join(CORPUS, "image", "picture.svg")), mtime=0))
ctimg = os.path.join(BUILD, "tests", "ctimg")
for fmt, args in (("jpeg", []), ("jpeg", ["--orientation", "6"]), ("tiff", []), ("bmp", [])):
    out = os.path.join(CORPUS, "image", "%s%s.%s" % ("ctimg", "-turned" if args else "", fmt))
    subprocess.run([ctimg, fmt, out, "6", "4"] + args, check=True)
