-- filters.lua: the ready filters of filters/, each on the same two lines: a chromatic wood
-- type stacked from the Bungee family, and color emoji (Twemoji, COLRv0).  The pictures of
-- docs/filters.md are made by this script:
--   chromatype examples/filters.lua [OUT-DIR]      (default out/filters; docs use docs/images)
local ct = require "chromatype"

local dir = ... or "out/filters"
local here = (arg and arg[0] and arg[0]:match("^(.*)/")) or "examples"
local F = here .. "/fonts/"
os.execute(("mkdir -p '%s'"):format(dir))

local function wood()
  return ct.stack {
    { font = F .. "bungee-shade-latin.woff2", color = "#1d3557" },
    { font = F .. "bungee-latin.woff2", color = "#f1c453" },
    { font = F .. "bungee-inline-latin.woff2", color = "#d62828" },
    lead = 2, warn = false,
  }
end

local EXAMPLES = {
  { "misregistration", { amount = "2.5pt", per = "glyph" } },
  { "shadow", { offset = "0.07em 0.07em", steps = 16, color = "#6b2c1a", color2 = "#2b0f08" } },
  { "palette-cycle", { per = "glyph" } },
  { "gradient", { colors = "#ff006e;#8338ec;#3a86ff", layers = "top", blend = "color" } },
  { "recolor", { colors = "#e63946;#f1c453;#2a9d8f;#1d3557;#f4a261" } },
  -- Bungee and Twemoji have no alternates: the layout tests' font does (bars of three widths)
  { "alternates", { features = "aalt", keep = 0.2 }, second = { text = "alternates never repeat",
    font = here .. "/../tests/fonts/ct-rand.ttf", size = "28pt", color = "#1d3557" } },
  { "duotone", { dark = "#10243e", light = "#ffd166", contrast = "yes" } },
}

for _, ex in ipairs(EXAMPLES) do
  local name, opts = ex[1], ex[2]
  local doc = ct.document { size = { "420pt", "150pt" }, margin = "12pt", background = "#f4efe3", seed = 7 }
  doc:stack("wood", wood())
  doc:style("default", { font = "wood", size = "54pt", leading = "62pt", align = "center" })
  doc:style("emoji", { font = here .. "/../tests/fonts/twemoji-colr0.woff2", size = "40pt", leading = "48pt",
    align = "center" })
  local page = doc:page()
  page:frame { y = "12pt", height = "66pt", fit = "size", fit_to = "line" }:text("CHROMATIC")
  if ex.second then
    local sec = ex.second
    page:frame { y = "84pt", height = "54pt", font = sec.font, size = sec.size, color = sec.color,
      align = "center", valign = "middle" }:text(sec.text)
  else
    page:frame { y = "84pt", height = "54pt", style = "emoji" }:text("🌈🎨🦜🌻🍉🐙🚀")
  end
  doc:filter(name, opts)
  local out = ("%s/filter-%s.png"):format(dir, name)
  assert(doc:write(out, { dpi = 144 }))
  print("wrote " .. out)
end
