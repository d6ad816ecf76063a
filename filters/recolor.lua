-- recolor.lua: each color layer of each glyph in a color drawn at random from a palette.
-- The layers of one glyph take different colors while the palette has enough of them (the
-- palette is shuffled per unit and layer i takes the i-th color).  Works on layered stacks,
-- COLRv0 and COLRv1 layers and one-color glyphs; an SVG or bitmap layer becomes a silhouette.
--
-- Options:
--   colors    colors separated by ';' (CSS forms), or
--   palette   take the colors from the glyph font's CPAL palette (an index, a name, light or
--             dark); default: colors #e63946;#f1c453;#2a9d8f;#1d3557;#f4a261
--   per       glyph | word | line | page (default glyph): one draw per unit
--   order     random (default) | fixed: layer i takes the i-th color, no draw (bakes into a
--             font: chromatype font -f 'recolor:colors=...,order=fixed')
--   layers    which layers to recolor: all, top, or indices separated by ';' (default all)
--
--   chromatype -f recolor:palette=0,per=word --seed 3 specimen.xml
local filter = require "chromatype.filter"
local P = require "chromatype.palette"
local o = filter.options(..., "recolor")
local colors = o:colors("colors", not o.o.palette and "#e63946;#f1c453;#2a9d8f;#1d3557;#f4a261" or nil)
local palette = o.o.palette
local per = o:choice("per", "glyph", { "glyph", "word", "line", "page" })
local order = o:choice("order", "random", { "random", "fixed" })
local takes = o:layers("layers")
o:check("palette")

local from_font = setmetatable({}, { __mode = "k" })
local function palette_colors(font)
  local c = from_font[font]
  if not c then
    if filter.is_stack(font) or not font.find_palette then error("recolor: palette: a layered stack has no CPAL palette; use colors", 0) end
    local n = tonumber(palette)
    c = P.colors(font, n and math.tointeger(n) or palette)
    -- keep the opaque entries: shadows and highlights with alpha stay out of the draw
    local opaque = {}
    for _, x in ipairs(c) do if x:sub(8, 9) == "ff" then opaque[#opaque + 1] = x end end
    c = #opaque > 0 and opaque or c
    from_font[font] = c
  end
  return c
end

return {
  Layer = function(layer, ctx)
    if not takes(layer, ctx) then return end
    local list = colors or palette_colors(ctx.glyph.font)
    if #list == 0 then return end
    local shuffled = list
    if order == "random" and #list > 1 then
      shuffled = ctx:stream(table.unpack(filter.unit_keys(ctx, per))):shuffle({ table.unpack(list) })
    end
    local c = shuffled[((layer.index or 1) - 1) % #shuffled + 1]
    layer.color = c
    if layer.paint.kind == "svg" or layer.paint.kind == "bitmap" then
      layer.paint = filter.inside(layer.paint, { kind = "solid", color = { rgba = c } })
    end
  end,
}
