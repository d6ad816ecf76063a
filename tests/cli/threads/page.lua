-- page.lua: a page that takes every path of the banded, threaded raster writer (bands.c,
-- png.c), for tests/cli/test_threads.sh: a sheet of distinct COLRv0 emoji (sprites drawn in
-- parallel), every COLRv1 test glyph (gradients; repeating ones are drawn directly in each
-- band), SVG and bitmap glyphs (drawn under the lock), a glyph larger than a sprite and a
-- rotated one (drawn directly across many bands), plain text, a picture file, translucent
-- rectangles over all of it, and glyph edges on every band boundary.
--   chromatype tests/cli/threads/page.lua OUT [DPI [BACKGROUND]]   (BACKGROUND "none": RGBA)
local ct = require "chromatype"
local out, dpi, bg = arg[1], tonumber(arg[2] or 72), arg[3] or "#fffef0"
local F = "tests/fonts/"
local function font(f) return assert(ct.open_font(F .. f)) end
local emoji, colr1, svg = font("twemoji-colr0.woff2"), font("ct-colr1.ttf"), font("ct-svg.ttf")
local noto, sbix, cbdt = font("noto-color-emoji-svg-subset.woff2"), font("ct-sbix.ttf"), font("ct-cbdt.ttf")

local c = ct.canvas { width = 600, height = 900 }
if bg ~= "none" then c:background(bg) end
-- 300 distinct color emoji, 22 pt: many of their edges fall on band boundaries at any dpi
local n, x, y = 0, 10, 30
for _, cp in ipairs(emoji:codepoints()) do
  if emoji:paint(emoji:glyph(cp)).kind == "layers" then
    c:text { utf8.char(cp), font = emoji, size = 22, x = x, y = y }
    n, x = n + 1, x + 19.3
    if x > 580 then x, y = 10, y + 21.7 end
    if n == 300 then break end
  end
end
-- every COLRv1 test glyph (linear, radial, sweep with pad, repeat and reflect; composites;
-- transforms; clips), and the same in the second palette
local row = {}
for cp = 0xE000, 0xE04F do row[#row + 1] = utf8.char(cp) end
c:text { table.concat(row, "", 1, 40), font = colr1, size = 14.5, x = 10, y = 330 }
c:text { table.concat(row, "", 41, 80), font = colr1, size = 14.5, x = 10, y = 350, palette = 1 }
-- SVG glyphs (librsvg), bitmap glyphs (sbix, CBDT)
local function run(a, b) local t = {} for cp = a, b do t[#t + 1] = utf8.char(cp) end return table.concat(t) end
c:text { run(0xE100, 0xE10E), font = svg, size = 30, x = 10, y = 400 }
c:text { "😀🎨", font = noto, size = 40, x = 10, y = 450 }
c:text { run(0xE300, 0xE302), font = sbix, size = 40, x = 200, y = 450 }
c:text { run(0xE300, 0xE302), font = cbdt, size = 40, x = 380, y = 450 }
-- larger than a sprite at any dpi of the test: drawn directly, in every band it crosses
c:text { "🌈", font = emoji, size = 260, x = 20, y = 700 }
c:text { utf8.char(0xE010), font = colr1, size = 200, x = 320, y = 660 }
-- rotated (no sprite): a transform around the tree
c:paint({ kind = "transform", matrix = { 0.8, 0.6, -0.6, 0.8, 0, 0 }, child = emoji:paint(emoji:glyph(0x1F3A8)) },
  { font = emoji, x = 330, y = 860, size = 60 })
-- plain text, one color
local sans = assert(ct.open_font("DejaVu Sans"))
c:text { "Bands of 64 rows, any number of threads, the same bytes.", font = sans, size = 11.3, x = 10, y = 740 }
-- a picture file (librsvg, under the lock)
c:image { "examples/images/press.svg", x = 440, y = 700, w = 150, h = 120 }
-- translucent rectangles over everything, edges at fractional positions
c:rect { x = 5.3, y = 100.45, w = 590, h = 33.3, color = "#ff000040" }
c:rect { x = 300.5, y = 5, w = 17.7, h = 880, color = "#0040ff30" }
assert(c:write(out, { dpi = dpi }))
