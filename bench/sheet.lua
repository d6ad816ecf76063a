-- sheet.lua: a glyph sheet, the peer comparison of `make bench`: COUNT glyphs of FONT at
-- SIZE px in a grid of COLS columns of cells 1.5 em wide and tall, black on white, written
-- to OUT (PNG at 72 dpi: a point is a pixel; or PDF).  WHICH is "cmap" (the default: the
-- font's cmap in order, repeated) or "distinct" (its first COUNT color glyphs, each once:
-- see sheet-codepoints.lua).  bench/chromium.sh draws the same sheet with headless Chromium.
--   chromatype bench/sheet.lua FONT OUT [COUNT [SIZE [COLS [WHICH]]]]
local ct = require "chromatype"

local path, out = arg[1], arg[2]
local count = math.tointeger(tonumber(arg[3] or 1000))
local size = tonumber(arg[4] or 64)
local cols = math.tointeger(tonumber(arg[5] or 25))
if not path or not out then error("usage: sheet.lua FONT OUT [COUNT [SIZE [COLS [WHICH]]]]", 0) end

local font = assert(ct.open_font(path))
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local cps = dofile(here .. "sheet-codepoints.lua")(font, count, arg[6] or "cmap")
local cell = size * 1.5
local rows = math.ceil(count / cols)
local c = ct.canvas { width = cols * cell, height = rows * cell }
c:background("#ffffff")
for i = 0, count - 1 do
  local col, row = i % cols, i // cols
  -- the pen where a browser puts it: centred in the cell, baseline at the font's ascent
  c:text { utf8.char(cps[i + 1]), font = font, size = size, x = col * cell + size * 0.25,
    y = row * cell + size * 1.1 }
end
assert(c:write(out))
