-- emoji-palettes.lua: an emoji specimen in every palette: the font's own CPAL palettes, then
-- palettes built in the script (chromatype.palette): duotones, a mix of two palettes, a list
-- of CSS colors, a palette shifted toward the night.  Twemoji (COLRv0, one palette of 1,099
-- entries) and the COLRv1 test font (two palettes).
--   chromatype examples/emoji-palettes.lua [OUT-STEM]
local ct = require "chromatype"
local P = require "chromatype.palette"

local here = arg and arg[0] and arg[0]:match("^(.*)/") or "examples"
local stem = arg[1] or "out/emoji-palettes"
local twemoji_path = here .. "/../tests/fonts/twemoji-colr0.woff2"
local colr1_path = here .. "/../tests/fonts/ct-colr1.ttf"
local twemoji = assert(ct.open_font(twemoji_path))
local colr1 = assert(ct.open_font(colr1_path))

local EMOJI = "🌈🎨🦜🌻🍉🐙🚀🎃"

-- each palette: a label and the overrides (nil: the font's own palette `palette`)
local night = {}
for i, c in ipairs(P.colors(twemoji, 0)) do night[i - 1] = P.mix_colors(c, "#0b1d51", 0.45) end
local rows = {
  { "Twemoji, palette 0 (the font's own)", nil },
  { "duotone navy / gold", P.duotone(twemoji, "#14213d", "#fca311") },
  { "duotone plum / mint", P.duotone(twemoji, "rebeccapurple", "#b8f2e6") },
  { "toward the night: each entry mixed 45% with #0b1d51", night },
  { "five CSS colors, repeated over the 1,099 entries",
    P.custom({ "tomato", "gold", "seagreen", "steelblue", "orchid" }, twemoji) },
  { "grayscale: duotone black / white", P.duotone(twemoji, "black", "white") },
}

local doc = ct.document { size = "A5", margin = "12mm", background = "#fbf8f1",
  title = "chromatype: emoji in every palette", base_dir = here }
doc:style("default", { font = "DejaVu Sans", size = "8pt", color = "#3d3a36" })
doc:style("emoji", { font = twemoji, size = "26pt", leading = "30pt" })
doc:style("head", { font = "fonts/bungee-latin.woff2", size = "14pt", color = "#b03a2e" })

local page = doc:page()
page:frame { y = "10mm", height = "10mm", style = "head" }:text("EMOJI IN EVERY PALETTE")
local y = 24
for _, row in ipairs(rows) do
  page:frame { y = y .. "mm", height = "5mm" }:text(row[1])
  page:frame { y = (y + 4) .. "mm", height = "13mm", style = "emoji", overrides = row[2] }:text(EMOJI)
  y = y + 20
end

-- the COLRv1 test font: both of its palettes, and a mix of the two
local cps = {}
for _, cp in ipairs(colr1:codepoints()) do if #cps < 8 and cp > 32 then cps[#cps + 1] = utf8.char(cp) end end
local sample = table.concat(cps)
local pals = colr1:palettes()
for i, p in ipairs(pals) do
  page:frame { y = y .. "mm", height = "5mm" }
    :text(("ct-colr1.ttf, palette %d%s"):format(p.index, p.name and (" '" .. p.name .. "'") or ""))
  page:frame { y = (y + 4) .. "mm", height = "13mm", font = colr1, size = "22pt", palette = p.index }:text(sample)
  y = y + 19
  if i == #pals then
    page:frame { y = y .. "mm", height = "5mm" }:text("ct-colr1.ttf, palettes 0 and 1 mixed half and half")
    page:frame { y = (y + 4) .. "mm", height = "13mm", font = colr1, size = "22pt",
      overrides = P.mix(colr1, 0, 1, 0.5) }:text(sample)
  end
end

assert(doc:write(stem .. ".pdf"))
assert(doc:write(stem .. ".png", { dpi = 110 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
