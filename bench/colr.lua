-- colr.lua: COLR drawing speed: the whole test_glyphs sheet (COLRv1 conformance glyphs)
-- and a page of 1,000 COLRv1 emoji; glyphs per second, cold (a fresh font: nothing cached,
-- every tree read, every outline extracted, every glyph rendered) and warm (the same glyphs
-- again: trees, outlines and, on images, glyph sprites cached).  Images are drawn in memory
-- (canvas:rasterize: no PNG encoding, which `make bench` times separately); PDFs are written.
-- Run by `make bench`.
--   chromatype bench/colr.lua [ROUNDS]
local ct = require "chromatype"

local rounds = tonumber(arg and arg[1]) or 3
local here = arg and arg[0] and arg[0]:match("^(.*)/") or "bench"
local root = here .. "/.."
local shared = root .. "/../shared/fonts/color-fonts/"
local out = os.getenv("TMPDIR") or "/tmp"

local function exists(p) local f = io.open(p, "rb"); if f then f:close() end return f ~= nil end

-- fonts: the public conformance and emoji fonts when ../shared is there, else our own
local sheets = {
  { name = "test_glyphs sheet", file = shared .. "test_glyphs-glyf_colr_1.ttf", size = 48, cols = 16 },
  { name = "emoji, each once", file = shared .. "twemoji_smiley-glyf_colr_1.ttf", size = 64, cols = 25 },
  { name = "emoji page (1000)", file = shared .. "twemoji_smiley-glyf_colr_1.ttf", size = 64, cols = 25, count = 1000 },
  { name = "ct-colr1 sheet", file = root .. "/tests/fonts/ct-colr1.ttf", size = 48, cols = 16 },
}

local function layout(font, sheet)
  local cps, items = font:codepoints(), {}
  for _, cp in ipairs(cps) do
    if cp > 0x20 then items[#items + 1] = utf8.char(cp) end
  end
  if sheet.count then   -- repeat the set up to `count` glyphs
    local base, n = items, #items
    items = {}
    for i = 1, sheet.count do items[i] = base[(i - 1) % n + 1] end
  end
  return items
end

local function render(font, sheet, items, fmt, n)
  local cell = sheet.size * 1.5
  local rows = math.ceil((n or #items) / sheet.cols)
  local page = ct.canvas{ width = sheet.cols * cell, height = rows * cell }
  page:background("#ffffff")
  for i, s in ipairs(items) do
    local col, row = (i - 1) % sheet.cols, (i - 1) // sheet.cols
    page:text{ s, font = font, size = sheet.size, x = col * cell + sheet.size / 4, y = row * cell + sheet.size * 1.125 }
  end
  if fmt == "png" then page:rasterize() else assert(page:write(out .. "/chromatype-bench." .. fmt)) end
end

ct.on_warning(false)
print(("%-20s %-4s %8s %12s %12s %8s"):format("sheet", "fmt", "glyphs", "cold g/s", "warm g/s", "warm/cold"))
for _, sheet in ipairs(sheets) do
  if not exists(sheet.file) then
    print(("%-20s skipped: %s not found"):format(sheet.name, sheet.file))
  else
    for _, fmt in ipairs{ "png", "pdf" } do
      local font = assert(ct.open_font(sheet.file))
      local items = layout(font, sheet)
      -- the page alone (background, and for PDF the file), to leave out of both times
      -- (the fastest of `rounds` runs: the least disturbed by the rest of the machine)
      local function fastest(f)
        local best = math.huge
        for _ = 1, rounds do
          local t0 = os.clock()
          f()
          best = math.min(best, os.clock() - t0)
        end
        return best
      end
      local blank = fastest(function() render(font, sheet, {}, fmt, #items) end)
      local t0 = os.clock()
      render(font, sheet, items, fmt)                  -- cold: builds trees and outlines
      local cold = math.max(os.clock() - t0 - blank, 1e-6)
      local warm = math.max(fastest(function() render(font, sheet, items, fmt) end) - blank, 1e-6)
      print(("%-20s %-4s %8d %12.0f %12.0f %7.1fx"):format(sheet.name, fmt, #items, #items / cold, #items / warm,
        cold / warm))
      font:close()
    end
  end
end
os.remove(out .. "/chromatype-bench.png")
os.remove(out .. "/chromatype-bench.pdf")
