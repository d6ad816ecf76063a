-- draw.lua: what chromatype draws from a font's source (a stack, a font with palette
-- overrides, a font through a filter), at the geometry of ../shared/oracle's grid.sh (one
-- item per 72 px cell, 48 px, the pen at (12, 54) in each cell, white), so that it compares
-- pixel for pixel with the browsers' drawings of the fonts ct.save_font makes from it
-- (tests/fontmake/make_refs.sh, tests/cli/test_font.sh).
--   chromatype tests/fontmake/draw.lua OUT.png COLS ITEMS SOURCE [key=value...]
-- ITEMS: strings separated by ','; SOURCE: a font file, or "stack:FONT=COLOR;FONT=COLOR;..."
-- (lead 2 with three layers or more, else 1).  Options: size=48, palette=N (a font's
-- palette), recolor=#RRGGBB:#RRGGBB;... (palette 0's entries of that color overridden),
-- filter=SPEC (drawn through a document and the filter, one frame per cell),
-- variations=TAG=V,... (a variable font's location), override=IDX=#RRGGBB;... (palette 0's
-- entries by index).
local ct = require "chromatype"
local out, cols, items, source = arg[1], tonumber(arg[2]), arg[3], arg[4]
assert(out and cols and items and source, "usage: draw.lua OUT.png COLS ITEMS SOURCE [key=value...]")
local o = {}
for i = 5, #arg do
  local k, v = arg[i]:match("^([%w_]+)=(.*)$")
  assert(k, "bad option " .. arg[i])
  o[k] = v
end
local size = tonumber(o.size or 48)
local cell, ox, oy = 72, 12, 54
if size ~= 48 then cell, ox, oy = math.floor(size * 1.5), math.floor(size / 4), math.floor(size * 1.125) end

local list = {}
for s in items:gmatch("[^,]+") do list[#list + 1] = s end
local rows = math.ceil(#list / cols)
local w, h = cell * math.min(cols, #list), cell * rows

local font
if source:match("^stack:") then
  local layers = {}
  for spec in source:sub(7):gmatch("[^;]+") do
    local f, c = spec:match("^(.*)=([^=]*)$")
    layers[#layers + 1] = { font = f, color = c }
  end
  layers.lead = #layers >= 3 and 2 or 1
  layers.warn = false
  font = ct.stack(layers)
else
  font = assert(ct.open_font(source))
  if o.variations then assert(font:set_variations(o.variations)) end
end

local overrides
if o.override then
  overrides = {}
  for i, c in o.override:gmatch("(%d+)=(#%x+)") do overrides[tonumber(i)] = c end
end
if o.recolor then
  overrides = {}
  local base = font:palettes()[1].colors
  for from, to in o.recolor:gmatch("(#%x+):(#%x+)") do
    for i, c in ipairs(base) do
      if c:sub(1, 7):lower() == from:lower() then overrides[i - 1] = to end
    end
  end
end

local function pen(i) return ((i - 1) % cols) * cell + ox, ((i - 1) // cols) * cell + oy end

if o.filter then
  -- the document pipeline, as users run filters: one frame per cell whose first baseline
  -- falls on the pen (the frame's top plus the font's ascent)
  local filter = require "chromatype.filter"
  local document = require "chromatype.document"
  local info = font:info()
  local asc = info.ascender * size / info.units_per_em
  local doc = document.new { size = { w, h }, margin = 0, background = "#ffffff" }
  doc:style("default", { font = font, size = size, leading = size * 1.25 })
  local page = doc:page()
  for i, s in ipairs(list) do
    local x, y = pen(i)
    page:frame { x = x, y = y - asc, width = cell - ox, height = cell }:text(s)
  end
  local c = doc:render { filters = { filter.load(o.filter) } }
  assert(c:write(out, { dpi = 72 }))
  return
end

local c = ct.canvas { width = w, height = h }
c:background("#ffffff")
for i, s in ipairs(list) do
  local x, y = pen(i)
  local t = { s, font = font, size = size, x = x, y = y, palette = tonumber(o.palette), overrides = overrides }
  if getmetatable(font) and getmetatable(font).__name == "chromatype.Stack" then font:draw(c, t) else c:text(t) end
end
assert(c:write(out, { dpi = 72 }))
