-- chromatype.filter.draw: filtered frames drawn on a canvas: glyphs layer by layer (z
-- passes, stacks, colors and offsets set by filters), untouched runs as the layout draws
-- them, and the paint-tree helpers filters use.  It runs no filter.

local elements = require "chromatype.filter.tree"

local is_stack, upem, shape_key = elements.is_stack, elements.upem, elements.shape_key
local tree_copy, layers_of = elements.copy, elements.layers_of

local M = {}

-- ---- drawing -------------------------------------------------------------------------------

-- Every solid color and gradient stop of a tree set to `color` (alpha multiplied).
local function recolor(t, color)
  if type(t) ~= "table" then return end
  if t.kind == "solid" then
    t.color = { rgba = color, alpha = type(t.color) == "table" and t.color.alpha or nil }
  elseif t.stops then
    for _, s in ipairs(t.stops) do s.color = { rgba = color, alpha = type(s.color) == "table" and s.color.alpha or nil } end
  end
  for _, k in ipairs({ "child", "source", "backdrop" }) do recolor(t[k], color) end
  if t.children then for _, c in ipairs(t.children) do recolor(c, color) end end
end

-- A color set by a filter: CSS forms (names, rgb(), hsl()) become "#rrggbbaa".
local function css(c, what)
  if type(c) ~= "string" or c:sub(1, 1) == "#" then return c end
  local v, err = require("chromatype.palette").color(c)
  if not v then error(("%s: %s"):format(what, err), 0) end
  return v
end

--- Sets every solid color and gradient stop of a paint tree to `color` (CSS forms; alpha
--- kept).
function M.recolor(t, color) return recolor(t, css(color, "recolor")) end

-- A layer's paint, with its color and offset applied (font units of the layer's font).
local function layer_paint(layer, size)
  local p = layer.paint
  if layer.color then
    p = tree_copy(p)
    recolor(p, css(layer.color, "layer color"))
  end
  local off = layer.offset
  if off and (off[1] ~= 0 or off[2] ~= 0) then
    local u = upem(layer.font) / size
    p = { kind = "transform", matrix = { 1, 0, 0, 1, off[1] * u, -off[2] * u }, child = p }
  end
  return p
end

--- A paint turned by `degrees` (clockwise on the page) and scaled by `scale` about the
--- centre of a glyph `advance` points wide at `size` points, in `font`'s units.
function M.turned(p, font, advance, size, degrees, scale)
  local u = upem(font)
  local cx, cy = (advance or 0) / size * u / 2, u * 0.35
  local a = math.rad(degrees or 0)
  local s = scale or 1
  local ca, sa = math.cos(a) * s, math.sin(a) * s
  -- translate(c) * rotate/scale * translate(-c); y up in font units: a clockwise rotation on
  -- the page is negative here
  local m = { ca, -sa, sa, ca, cx - (ca * cx + sa * cy), cy - (-sa * cx + ca * cy) }
  return { kind = "transform", matrix = m, child = p }
end

--- `source` painted inside the shape of `p` (its alpha): how a color, a gradient or a blend
--- reaches SVG and bitmap glyphs, whose colors are not in the tree.
function M.inside(p, source)
  return { kind = "composite", mode = "src_in", source = source, backdrop = p }
end

-- A glyph's transform (rotate, scale) around its center, as a paint wrapper.
local function glyph_transform(g, p, font)
  if not g.rotate and not g.scale then return p end
  return M.turned(p, font, g.advance, g.size, g.rotate, g.scale)
end

local function draw_glyph_layers(canvas, g, layers, stacked_pass, z)
  local groups = {}
  z = z or 0
  for _, layer in ipairs(layers) do
    if not layer.hidden and (layer.z or 0) == z and (z ~= 0 or not stacked_pass or layer.index == stacked_pass) then
      local font = layer.font or g.font
      local last = groups[#groups]
      if last and last.font == font and not layer.stacked and not last.layer.stacked then
        last.children[#last.children + 1] = layer_paint(layer, g.size)
      else
        groups[#groups + 1] = { font = font, children = { layer_paint(layer, g.size) }, layer = layer }
      end
    end
  end
  for _, grp in ipairs(groups) do
    local tree = #grp.children == 1 and grp.children[1] or { kind = "layers", children = grp.children }
    tree = glyph_transform(g, tree, grp.font)
    local l = grp.layer
    canvas:paint(tree, { font = grp.font, size = g.size, x = g.x, y = g.y,
      color = css((l.stacked and l.color) or g.color, "glyph color"),
      palette = (l.stacked and l.palette) or (grp.font == g.font and g.palette) or nil,
      overrides = (l.stacked and l.overrides) or (grp.font == g.font and g.overrides) or nil })
  end
end

local function draw_run(canvas, run, layout)
  if run.glyphs and run.shaped_as ~= shape_key(run) then run.glyphs = nil end
  if not run.glyphs then
    -- untouched by glyph filters: draw the run as layout does
    local line = { y = run.y, items = { { text = run.text, run = run, font = run.font, script = run.script,
      direction = run.direction, x = run.x,
      glyphs = run.layout_key == shape_key(run) and run.layout_glyphs or nil } } }
    layout.draw_lines(canvas, { line })
    return
  end
  local any = false
  -- stacks print layer by layer across the run; other glyphs one after the other
  local max_stack = 0
  for _, g in ipairs(run.glyphs) do
    if not g.layers then g.layers = layers_of(g) end
    for _, l in ipairs(g.layers) do
      if l.stacked then max_stack = math.max(max_stack, l.index) end
    end
    any = true
  end
  if max_stack > 0 then
    for pass = 1, max_stack do
      for _, g in ipairs(run.glyphs) do draw_glyph_layers(canvas, g, g.layers, pass) end
    end
    for _, g in ipairs(run.glyphs) do
      local rest = {}
      for _, l in ipairs(g.layers) do if not l.stacked then rest[#rest + 1] = l end end
      if #rest > 0 then draw_glyph_layers(canvas, g, rest) end
    end
  else
    for _, g in ipairs(run.glyphs) do draw_glyph_layers(canvas, g, g.layers) end
  end
  if any and run.text ~= "" then
    -- the run's text once, invisible, for copying
    local font = is_stack(run.font) and run.font.lead or run.font
    canvas:text { run.text, font = font, size = run.size, x = run.x, y = run.y, format = "mono",
      color = "#00000000", features = run.features, script = run.script, language = run.language,
      direction = run.direction }
  end
end

--- Draws a filtered frame element on a canvas.  Layers with a negative `z` (shadows,
--- extrusions) are drawn first, under all the frame's text, deepest first; layers with a
--- positive `z` last, over it; the rest run by run.
function M.draw_frame(canvas, frame)
  local layout = require "chromatype.layout"
  local zs, seen = {}, {}
  for _, para in ipairs(frame.paragraphs) do
    for _, run in ipairs(para.runs) do
      if run.glyphs and run.shaped_as ~= shape_key(run) then run.glyphs = nil end
      for _, g in ipairs(run.glyphs or {}) do
        for _, l in ipairs(g.layers or {}) do
          local z = l.z
          if type(z) == "number" and z ~= 0 and not seen[z] then seen[z] = true; zs[#zs + 1] = z end
        end
      end
    end
  end
  table.sort(zs)
  local function zpass(z)
    for _, para in ipairs(frame.paragraphs) do
      for _, run in ipairs(para.runs) do
        for _, g in ipairs(run.glyphs or {}) do
          if g.layers then draw_glyph_layers(canvas, g, g.layers, nil, z) end
        end
      end
    end
  end
  for _, z in ipairs(zs) do if z < 0 then zpass(z) end end
  for _, para in ipairs(frame.paragraphs) do
    for _, run in ipairs(para.runs) do draw_run(canvas, run, layout) end
  end
  for _, z in ipairs(zs) do if z > 0 then zpass(z) end end
end

M.css, M.layer_paint, M.glyph_transform = css, layer_paint, glyph_transform

return M
