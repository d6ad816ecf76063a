-- palette-specimen.lua: every CPAL palette of a COLRv0 font side by side, each labelled
-- with its index, name and light/dark type, with its entries as swatches (hex + label).
-- Dark-background palettes are shown on a dark ground.
--   chromatype examples/palette-specimen.lua [FONT [OUT-STEM [TEXT]]]
-- writes OUT-STEM.pdf and OUT-STEM.png (default out/palette-specimen).
local ct = require "chromatype"

local here = arg and arg[0] and arg[0]:match("^(.*)/") or "examples"
local font_path = arg[1] or here .. "/../tests/fonts/ct-colr0.ttf"
local stem = arg[2] or "out/palette-specimen"
local sample = arg[3] or "ABD"

local font = assert(ct.open_font(font_path))
local sans = assert(ct.open_font(here .. "/fonts/bungee-latin.woff2"))
local info = font:info()
local palettes = font:palettes()
local labels = font:entry_labels()
assert(#palettes > 0, font_path .. ": the font has no palettes")

local col_w, margin, glyph_size = 210, 24, 64
local rows = #palettes[1].colors
local width = margin * 2 + col_w * #palettes
local height = 110 + glyph_size + 40 + rows * 22 + margin
local page = ct.canvas{ width = width, height = height }
page:background("#f4f1ea")

page:text{ (info.family .. " " .. info.style):upper(), font = sans, size = 18,
           x = margin, y = margin + 18, color = "#222222" }
page:text{ ("%d palettes, %d entries, COLRv0"):format(#palettes, rows):upper(), font = sans,
           size = 9, x = margin, y = margin + 36, color = "#666666" }

for i, pal in ipairs(palettes) do
  local x = margin + (i - 1) * col_w
  local dark = pal.type == "dark"
  local ink = dark and "#f4f1ea" or "#222222"
  page:rect{ x = x, y = 80, w = col_w - 10, h = height - 80 - margin,
             color = dark and "#26262b" or "#ffffff" }
  local title = ("%d  %s"):format(pal.index, pal.name or "unnamed")
  page:text{ title:upper(), font = sans, size = 11, x = x + 10, y = 100, color = ink }
  page:text{ (pal.type and (pal.type .. " background") or "no type"):upper(), font = sans,
             size = 7, x = x + 10, y = 112, color = dark and "#aaaaaa" or "#777777" }
  page:text{ sample, font = font, size = glyph_size, x = x + 10, y = 120 + glyph_size,
             palette = pal.index, color = ink }
  for j, hex in ipairs(pal.colors) do
    local y = 120 + glyph_size + 20 + (j - 1) * 22
    page:rect{ x = x + 10, y = y, w = 16, h = 16, color = hex }
    local label = labels[j] or ""
    page:text{ ("%d %s %s"):format(j - 1, hex:upper(), label):upper(), font = sans, size = 8,
               x = x + 32, y = y + 11, color = ink }
  end
end

assert(page:write(stem .. ".pdf", { title = info.family .. " palettes", creator = "chromatype" }))
assert(page:write(stem .. ".png", { dpi = 144 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
