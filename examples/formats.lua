-- formats.lua: one poster, every color format chromatype draws: COLRv0 (Twemoji), COLRv1
-- and OT-SVG (the same Noto emoji in both of the font's tables), SVG display type (Nabla,
-- Bungee Spice), and CBDT bitmaps (Debian's Noto Color Emoji, found by name through
-- fontconfig; skipped with a note when it is not installed).  Writes out/formats.pdf/.png.
--   chromatype examples/formats.lua [OUT-STEM]
local ct = require "chromatype"

local here = arg and arg[0] and arg[0]:match("^(.*)/") or "examples"
local fonts = here .. "/../tests/fonts/"
local stem = arg[1] or "out/formats"
local label = assert(ct.open_font(here .. "/fonts/bungee-latin.woff2"))

local W, H = ct.mm(210), ct.mm(250)
local page = ct.canvas{ width = W, height = H }
page:background("#fbf7ef")
page:text{ "ONE TREE, EVERY FORMAT", font = label, size = 26, x = 36, y = 64, color = "#1d1b2f" }

local emoji = "\u{1F600}\u{1F308}\u{1F680}\u{1F44D}\u{2764}"
local rows = {
  { "COLRV0 + CPAL  TWEMOJI", fonts .. "twemoji-colr0.woff2", emoji, {} },
  { "COLRV1  NOTO (PAINT GRAPHS)", fonts .. "noto-color-emoji-svg-subset.woff2", emoji, { format = "colr1" } },
  { "OT-SVG  NOTO (LIBRSVG, SANITIZED)", fonts .. "noto-color-emoji-svg-subset.woff2", emoji, { format = "svg" } },
  { "CBDT BITMAPS  NOTO COLOR EMOJI", "Noto Color Emoji", emoji, { format = "bitmap" } },
  { "OT-SVG  NABLA", fonts .. "nabla-svg-latin.woff2", "Nabla", {} },
  { "OT-SVG  BUNGEE SPICE", fonts .. "bungee-spice-latin.woff2", "SPICE", {} },
}
local y = 120
for _, r in ipairs(rows) do
  page:text{ r[1], font = label, size = 9, x = 36, y = y, color = "#6b6890" }
  local font, err = ct.open_font(r[2])
  if font then
    local t = { r[3], font = font, size = 46, x = 36, y = y + 52 }
    for k, v in pairs(r[4]) do t[k] = v end
    page:text(t)
  else
    page:text{ "(NOT INSTALLED)", font = label, size = 12, x = 36, y = y + 40, color = "#b0a8a0" }
    io.stderr:write("formats.lua: skipped: ", err, "\n")
  end
  y = y + 78
end
page:text{ "SELECT AND COPY: EVERY GLYPH ABOVE IS TEXT IN THE PDF", font = label, size = 8,
           x = 36, y = H - 28, color = "#6b6890" }

assert(page:write(stem .. ".pdf", { title = "chromatype: every color format" }))
assert(page:write(stem .. ".png", { dpi = 110 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
