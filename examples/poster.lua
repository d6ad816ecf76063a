-- poster.lua: a short poster: a title in Bungee colored letter by letter, a row of Twemoji
-- (COLRv0) as the font draws them, the same row with the rainbow's palette entries
-- overridden, and a heart recolored through its palette entry. Writes out/poster.pdf and out/poster.png.
--   chromatype examples/poster.lua [OUT-STEM]
local ct = require "chromatype"

local here = arg and arg[0] and arg[0]:match("^(.*)/") or "examples"
local stem = arg[1] or "out/poster"
local title = assert(ct.open_font(here .. "/fonts/bungee-latin.woff2"))
local emoji = assert(ct.open_font(here .. "/../tests/fonts/twemoji-colr0.woff2"))

local W, H = ct.mm(148), ct.mm(210)            -- A5 portrait
local page = ct.canvas{ width = W, height = H }
page:background("#1d1b2f")

-- the title, one color per letter
local colors = { "#ff5e5b", "#ffcb4c", "#5c903f", "#2dc7ff", "#b48cff", "#ff8fd8" }
local x = 28
for i, ch in ipairs{ "C", "H", "R", "O", "M", "A" } do
  x = x + page:text{ ch, font = title, size = 60, x = x, y = 110, color = colors[i] }
end
page:text{ "TYPE IN EVERY COLOR", font = title, size = 17, x = 30, y = 140, color = "#f4f1ea" }

-- a row of emoji as the font draws them
local row = "\u{1F308}\u{1F3A8}\u{2764}\u{1F60E}\u{1F970}"
page:text{ row, font = emoji, size = 64, x = 26, y = 250 }

-- the same row with the rainbow's bands swapped through palette overrides
page:text{ row, font = emoji, size = 64, x = 26, y = 340,
           overrides = { [581] = "#ffcb4c", [582] = "#2dc7ff", [583] = "#b48cff",
                         [584] = "#ff5e5b", [585] = "#f4f1ea", [586] = "#5c903f" } }

-- one heart, recolored through its palette entry (2), four times over
local hx = 26
for _, color in ipairs{ "#2dc7ff", "#5c903f", "#ffcb4c", "#b48cff" } do
  hx = hx + page:text{ "\u{2764}", font = emoji, size = 64, x = hx, y = 430, overrides = { [2] = color } }
end

page:text{ "COLRV0 + CPAL  /  PALETTES AT DRAW TIME", font = title, size = 8, x = 30, y = H - 30,
           color = "#8a87a8" }

assert(page:write(stem .. ".pdf", { title = "chromatype poster", author = "chromatype" }))
assert(page:write(stem .. ".png", { dpi = 144 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
