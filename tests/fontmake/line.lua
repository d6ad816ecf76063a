-- line.lua: one line of text drawn by chromatype at the geometry of ../shared/oracle's
-- render.sh (a white W x H page, the pen at (X, BASELINE)), to compare with Chromium's
-- drawing of the same line (tests/cli/test_font_randomize.sh).
--   chromatype tests/fontmake/line.lua OUT.png FONT TEXT SIZE W H X BASELINE [FEATURES]
local ct = require "chromatype"
local out, path, text = arg[1], arg[2], arg[3]
local size, w, h, x, y = tonumber(arg[4]), tonumber(arg[5]), tonumber(arg[6]), tonumber(arg[7]), tonumber(arg[8])
assert(out and path and text and size and w and h and x and y,
  "usage: line.lua OUT.png FONT TEXT SIZE W H X BASELINE [FEATURES]")
local font = assert(ct.open_font(path))
local c = ct.canvas { width = w, height = h }
c:background("#ffffff")
c:text { text, font = font, size = size, x = x, y = y, features = arg[9] }
assert(c:write(out, { dpi = 72 }))
