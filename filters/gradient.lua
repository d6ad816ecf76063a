-- gradient.lua: one continuous linear gradient across each line (or word, or frame): the
-- colors run from the left end to the right end, through every letter, as if the line were
-- cut from one gradient sheet.  Each layer's colors are replaced by the gradient (a color
-- glyph becomes a gradient silhouette of its layers; an SVG or bitmap layer is masked by it).
-- Drawn as real gradients: vector in PDF and SVG.
--
-- Options:
--   colors   the gradient's stops, evenly spaced, separated by ';' (CSS forms;
--            default #e63946;#f4a261;#2a9d8f)
--   per      line | word | frame | glyph (default line): the span the gradient runs across
--            (glyph: each letter's own advance and height, so it can be baked into a font)
--   angle    direction in degrees, 0 left to right, 90 top to bottom (default 0)
--   layers   which layers take the gradient: all, top (each glyph's top layer: the face of a
--            stack), or indices separated by ';' (default all)
--   blend    replace | multiply | screen | overlay | color | hue | luminosity: replace the
--            layer's colors (default), or blend the gradient with them (a color glyph keeps
--            its drawing, tinted; PDF blend modes, still vector)
--
--   chromatype -f 'gradient:colors=#ff006e;#8338ec;#3a86ff' poster.xml
local filter = require "chromatype.filter"
local o = filter.options(..., "gradient")
local colors = o:colors("colors", "#e63946;#f4a261;#2a9d8f")
local per = o:choice("per", "line", { "line", "word", "frame", "glyph" })
local angle = math.rad(o:number("angle", 0, -360, 360))
local takes = o:layers("layers")
local blend = o:choice("blend", "replace", { "replace", "multiply", "screen", "overlay", "color", "hue", "luminosity" })
local BLEND_MODE = { color = "hsl_color", hue = "hsl_hue", luminosity = "hsl_luminosity" }
o:check()
if #colors == 1 then colors[2] = colors[1] end

-- the span [a, b] along the direction, on the page: the line's, word's or frame's box; for
-- per=glyph, the glyph's box from its pen (no position read: such a gradient bakes into fonts)
local function span(ctx)
  local g = ctx.glyph
  local x0, x1, y0, y1
  if per == "glyph" then
    x0, x1, y0, y1 = 0, g.advance or g.size, -g.size * 0.8, g.size * 0.2
  elseif per == "frame" then
    local f = ctx.frame
    x0, x1, y0, y1 = f.x, f.x + f.width, f.y, f.y + f.height
  elseif per == "word" then
    x0, x1 = math.huge, -math.huge
    for _, run in ipairs(ctx.paragraph.runs) do
      if run.word == ctx.run.word and run.line == ctx.line then
        x0 = math.min(x0, run.x)
        x1 = math.max(x1, run.x + (run.width or 0))
      end
    end
    y0, y1 = g.y - g.size * 0.8, g.y + g.size * 0.2
  else
    local l = ctx.line
    x0, x1 = l.x, l.x + l.width
    y0, y1 = g.y - g.size * 0.8, g.y + g.size * 0.2
  end
  return x0, x1, y0, y1
end

local function gradient_paint(ctx, layer, alpha)
  local g = ctx.glyph
  local x0, x1, y0, y1 = span(ctx)
  local cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
  local dx, dy = math.cos(angle), math.sin(angle)
  -- half the box's extent along the direction
  local h = (math.abs(dx) * (x1 - x0) + math.abs(dy) * (y1 - y0)) / 2
  if h <= 0 then h = g.size end
  local off = layer.offset or { 0, 0 }
  local u = layer.font:info().units_per_em / g.size
  -- page points -> the layer's font units (origin at the glyph's pen, y up)
  local gx, gy = 0, 0
  if per ~= "glyph" then gx, gy = g.x, g.y end
  local function fu(px, py) return { (px - gx - off[1]) * u, -(py - gy - off[2]) * u } end
  local stops = {}
  for i, c in ipairs(colors) do
    stops[i] = { offset = (i - 1) / (#colors - 1), color = { rgba = c, alpha = alpha } }
  end
  return { kind = "linear", extend = "pad", stops = stops,
    p0 = fu(cx - dx * h, cy - dy * h), p1 = fu(cx + dx * h, cy + dy * h) }
end

local function replace(t, ctx, layer)
  if type(t) ~= "table" then return t end
  if t.kind == "solid" then
    return gradient_paint(ctx, layer, type(t.color) == "table" and t.color.alpha or 1)
  elseif t.kind == "linear" or t.kind == "radial" or t.kind == "sweep" then
    return gradient_paint(ctx, layer, 1)
  elseif t.kind == "svg" or t.kind == "bitmap" then
    return filter.inside(t, gradient_paint(ctx, layer, 1))
  end
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  for _, k in ipairs({ "child", "source", "backdrop" }) do
    if t[k] then c[k] = replace(t[k], ctx, layer) end
  end
  if t.children then
    c.children = {}
    for i, ch in ipairs(t.children) do c.children[i] = replace(ch, ctx, layer) end
  end
  return c
end

return {
  Layer = function(layer, ctx)
    if not takes(layer, ctx) then return end
    if blend == "replace" then
      layer.paint = replace(layer.paint, ctx, layer)
      layer.color = nil            -- a stack layer's ink would recolor the gradient away
    else
      -- the gradient blended over the layer, kept inside the layer's shape
      local p = layer.paint
      if layer.color then          -- a stack layer's ink goes into the paint first
        p = filter.copy(p)
        filter.recolor(p, layer.color)
        layer.color = nil
      end
      local blended = { kind = "composite", mode = BLEND_MODE[blend] or blend,
        source = gradient_paint(ctx, layer, 1), backdrop = p }
      layer.paint = filter.inside(p, blended)
    end
  end,
}
