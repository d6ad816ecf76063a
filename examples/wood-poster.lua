-- wood-poster.lua: a chromatic wood-type poster from the Bungee family stacked by chromatype
-- (Shade, Regular, Inline, Outline: one font and one ink per layer, aligned glyph by glyph)
-- and printed slightly out of register by the misregistration filter, as a letterpress run
-- would be.  A3 with 3 mm bleed and crop marks.  The seed decides the misregistration and
-- which inks go to which lines: the same seed gives the same poster, byte for byte.
--   chromatype examples/wood-poster.lua [OUT-STEM [SEED]]
-- writes OUT-STEM.pdf and OUT-STEM.png (default out/wood-poster, seed 1).
local ct = require "chromatype"

local stem, seed = ...
stem = stem or "out/wood-poster"
seed = math.tointeger(tonumber(seed or 1)) or error("the seed must be an integer", 0)
local here = (arg and arg[0] and arg[0]:match("^(.*)/")) or "examples"
local F = here .. "/fonts/"

-- one stack per color scheme: the shade below; Regular in the stripe's ink, which shows only
-- through the inline groove; Inline (the letter with its groove cut out) in the body's ink
local function wood(shade, body, stripe)
  return ct.stack {
    { font = F .. "bungee-shade-latin.woff2", color = shade, name = "shade" },
    { font = F .. "bungee-latin.woff2", color = stripe, name = "stripe" },
    { font = F .. "bungee-inline-latin.woff2", color = body, name = "body" },
    lead = 2,      -- Regular leads: Shade's advances are 100 units wider,
    warn = false,  -- by design (the shade hangs to the right), so no warning
  }
end
local outline = ct.stack {
  { font = F .. "bungee-latin.woff2", color = "#f1c453", name = "fill" },
  { font = F .. "bungee-outline-latin.woff2", color = "#1d3557", name = "outline" },
}

local doc = ct.document { size = "A3", margin = "18mm", bleed = "3mm", crop_marks = true,
  background = "#efe6d0", title = "Chromatic Wood Type", author = "chromatype", seed = seed }
-- three ink sets (shade, body, stripe), dealt to the three wood-type lines by the seed
local inks = require("chromatype.random").new(seed):fork("inks"):shuffle {
  { "#1d3557", "#d62828", "#f1c453" }, { "#264653", "#2a9d8f", "#e9c46a" }, { "#3d2b1f", "#f77f00", "#fcbf49" } }
doc:stack("red", wood(table.unpack(inks[1])))
doc:stack("green", wood(table.unpack(inks[2])))
doc:stack("orange", wood(table.unpack(inks[3])))
doc:stack("outline", outline)
doc:style("default", { font = "DejaVu Sans", size = "15pt", leading = "21pt", color = "#1d3557", align = "center" })
doc:style("huge", { font = "red", size = "150pt", leading = "146pt", align = "center" })
doc:style("big", { font = "green", size = "104pt", leading = "104pt", align = "center" })
doc:style("band", { font = "outline", size = "50pt", leading = "54pt", align = "center" })
doc:style("small", { font = "orange", size = "44pt", leading = "48pt", align = "center" })

local page = doc:page()
page:frame { y = "20mm", height = "112mm", style = "huge", fit = "tracking, size", fit_to = "line", fit_size = 0.5 }
  :text("CHROMA\nTYPE")
page:frame { y = "136mm", height = "80mm", style = "big", fit = "size", fit_to = "line" }
  :text("WOOD &\nMETAL")
page:frame { y = "222mm", height = "26mm", style = "band", fit = "size", fit_to = "line" }
  :text("SHOW · PRINT · PLAY")
page:frame { y = "256mm", height = "40mm", valign = "middle" }
  :text("Letters stacked from the Bungee family: one font and one ink per layer, aligned glyph by\n"
    .. "glyph by chromatype, then printed a little out of register, as a press would.")
page:frame { y = "306mm", height = "80mm", style = "small", fit = "size", fit_to = "line", valign = "middle" }
  :text("ONE NIGHT ONLY\nPRESS ROOM 7")
page:frame { y = "392mm", height = "10mm", size = "8pt", color = "#6b5e4b" }
  :text(("seed %d · chromatype"):format(seed))

-- letterpress: each ink plate a little off, per line
doc:filter("misregistration", { amount = "1.6pt", per = "line" })

local dir = stem:match("^(.*)/")
if dir then os.execute(("mkdir -p '%s'"):format(dir)) end
local ok, err = doc:write(stem .. ".pdf")
assert(ok, err)
assert(doc:write(stem .. ".png", { dpi = 50 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
