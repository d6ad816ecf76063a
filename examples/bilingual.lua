-- bilingual.lua: one page in English, Hebrew and Arabic with emoji, each line laid out by
-- the bidirectional algorithm (ct.bidi: level runs in visual order, each shaped in its own
-- direction) and drawn right-aligned when the line is right to left.  The PDF's text copies
-- in logical order.  Fonts: DejaVu Sans through fontconfig, Twemoji for the emoji.
--   chromatype examples/bilingual.lua [OUT-STEM]
local ct = require "chromatype"

local here = arg and arg[0] and arg[0]:match("^(.*)/") or "examples"
local stem = arg[1] or "out/bilingual"
local text = assert(ct.open_font("DejaVu Sans"))
local emoji = assert(ct.open_font(here .. "/../tests/fonts/twemoji-colr0.woff2"))
local title = assert(ct.open_font(here .. "/fonts/bungee-latin.woff2"))

local W, H, margin = ct.mm(148), ct.mm(105), 28
local page = ct.canvas{ width = W, height = H }
page:background("#fbf7ef")
page:text{ "WELCOME", font = title, size = 16, x = margin, y = 44, color = "#1d1b2f" }

-- width of a piece of text in a font at a size (points)
local function width(font, s, size, dir)
  local adv = 0
  for _, g in ipairs(font:shape(s, { direction = dir })) do adv = adv + g.x_advance end
  return adv * size / font:info().units_per_em
end

-- draws one line: runs in visual order; emoji from Twemoji, the rest from DejaVu.  (Runs
-- are not split by script yet: Hebrew and Arabic in one run would shape as one script.)
local function line(s, y, size)
  local runs, dir = ct.bidi(s)
  local pieces, total = {}, 0
  for _, r in ipairs(runs) do
    local str, rdir = s:sub(r.start, r.stop), r.rtl and "rtl" or "ltr"
    local font = str:find("[\xF0-\xF4]") and emoji or text
    local w = width(font, str, size, rdir)
    pieces[#pieces + 1] = { str = str, font = font, dir = rdir, w = w }
    total = total + w
  end
  local x = dir == "rtl" and W - margin - total or margin
  for _, p in ipairs(pieces) do
    page:text{ p.str, font = p.font, size = size, x = x, y = y, direction = p.dir, color = "#1d1b2f" }
    x = x + p.w
  end
end

line("Type in every color, in every direction.", 90, 14)
line("כתב בכל צבע, בכל כיוון.", 125, 14)
line("اكتب بكل لون، في كل اتجاه.", 160, 14)
line("Mixed: שלום and مرحبا in one line", 195, 14)
line("\u{1F308}\u{1F3A8}\u{2764}", 250, 28)

assert(page:write(stem .. ".pdf", { title = "chromatype: bidi" }))
assert(page:write(stem .. ".png", { dpi = 144 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
