-- palette-cycle.lua: a color (or a font palette) per letter, word or line, never the same for
-- two neighbours.  One-color glyphs take the colors of `colors`; a layered stack recolors
-- its top layer (or `layer`); a color font with several CPAL palettes changes palette (or,
-- with `colors`, its text-colored parts change color).
--
-- Options:
--   colors    colors separated by ';' (CSS forms; default #e63946;#f4a261;#2a9d8f;#264653;#e9c46a)
--   palettes  palette indices for color fonts separated by ';', or all (default all)
--   per       glyph | word | line (default glyph); spaces never count as a unit
--   order     random | cycle: random never repeats the neighbour's choice, cycle goes round
--             the list in order (default random)
--   layer     which layer of a stack takes the color (default: the top one)
--
--   chromatype -f 'palette-cycle:colors=tomato;gold;teal,per=word' poster.xml
local filter = require "chromatype.filter"
local o = filter.options(..., "palette-cycle")
local colors = o:colors("colors", "#e63946;#f4a261;#2a9d8f;#264653;#e9c46a")
local palettes = o:integers("palettes", "all")
local per = o:choice("per", "glyph", { "glyph", "word", "line" })
local order = o:choice("order", "random", { "random", "cycle" })
local target = o:integer("layer", nil, 1)
o:check()

local last_unit, last_choice, choice = nil, {}, nil
local counter = 0

-- the choices for a glyph: font palettes (0-based indices) or colors
local function choices_for(g)
  if filter.is_stack(g.font) then return colors, "color" end        -- a stack
  local pals = g.font:palettes()
  if #pals > 1 and not o.o.colors then
    if palettes then
      local list = {}
      for _, i in ipairs(palettes) do if i >= 0 and i < #pals then list[#list + 1] = i end end
      if #list > 0 then return list, "palette" end
    else
      local list = {}
      for _, p in ipairs(pals) do list[#list + 1] = p.index end
      return list, "palette"
    end
  end
  return colors, "color"
end

return {
  Glyph = function(g, ctx)
    if (g.text or ""):match("^%s*$") then return end
    local list, kind = choices_for(g)
    local keys = filter.unit_keys(ctx, per)
    local unit = table.concat(keys, "\0")
    if unit ~= last_unit then
      counter = counter + 1
      local prev = last_choice[kind]
      if order == "cycle" then
        choice = list[(counter - 1) % #list + 1]
      else
        local rng = ctx:stream(table.unpack(keys))
        repeat choice = list[rng:random(#list)] until choice ~= prev or #list < 2
      end
      last_unit = unit
      last_choice[kind] = choice
    end
    if kind == "palette" then
      g.palette = choice
    elseif not filter.is_stack(g.font) then
      g.color = choice
    else                                                      -- a stack: one layer
      g.layers = g.layers or filter.layers_of(g)
      local top = target or #g.layers
      for _, l in ipairs(g.layers) do
        if l.index == top or (not target and l == g.layers[#g.layers]) then l.color = choice end
      end
    end
  end,
}
