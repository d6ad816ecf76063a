-- chromatype.filter.bake: one glyph alone through filters, as a paint tree in font units
-- (chromatype.fontmake); filters that read where the glyph stands are refused.  It knows no
-- page, frame or line.

local elements = require "chromatype.filter.tree"
local walk = require "chromatype.filter.walk"
local draw = require "chromatype.filter.draw"

local upem, tree_copy, layers_of = elements.upem, elements.copy, elements.layers_of
local apply = walk.apply
local css, layer_paint, glyph_transform = draw.css, draw.layer_paint, draw.glyph_transform

local M = {}

-- What a glyph baked into a font cannot depend on: the context keys that tell where it
-- stands or draw random numbers.
local NOT_GLYPH_LOCAL = {
  x = "its position", y = "its position", prev = "its neighbours", next = "its neighbours",
  index = "its place in the text", index_in_word = "its place in the word", word = "its word",
  word_length = "its word", index_in_line = "its place in the line", line_length = "its line",
  line = "its line", occurrence = "its word", page = "its page", frame = "its frame",
  paragraph = "its paragraph", run = "its run", document = "the document", style = "the document's style",
  rng = "a random stream", stream = "a random stream", boil_rng = "a random stream",
  boil_stream = "a random stream", t = "the time", frame_number = "the time", fps = "the time",
  duration = "the time", progress = "the time",
}

local function refuse_key(what, k)
  error(("cannot be baked into a font: it reads %s.%s (%s); a font's glyph can only depend on the glyph itself")
    :format(what, k, NOT_GLYPH_LOCAL[k]), 0)
end

-- With `rand` (a variant of a randomized font: chromatype font --randomize), a filter draws
-- from a random stream (ctx.rng, ctx:stream(...)) forked from `rand` by the filter, the
-- function and the layer, and finds the glyph alone in its own page, frame, line and word
-- (the keys random units are made of); its position stays refused.
local ALONE = { page = { index = 1 }, frame = { index = 1 }, paragraph = { index = 1 }, line = { index = 1 },
  word = "", occurrence = 1, index_in_word = 1, index = 1 }

local function baking_ctx(f, seed, extra, rand, keys)
  local ctx = { options = f.options, seed = seed }
  for k, v in pairs(extra) do ctx[k] = v end
  if rand then
    for k, v in pairs(ALONE) do ctx[k] = v end
    local root = rand:fork(f.name or "filter")
    ctx.stream = function(_, ...)
      if select("#", ...) == 0 then return root end
      return root:fork(...)
    end
    ctx.rng = root:fork(table.unpack(keys))
  end
  return setmetatable(ctx, { __index = function(_, k)
    if NOT_GLYPH_LOCAL[k] then refuse_key("ctx", k) end
    return nil
  end })
end

-- A glyph element whose position reads are refused (the fields filters set are kept).
local GLYPH_GUARD = { __index = function(_, k)
  if k == "x" or k == "y" or k == "run" then refuse_key("glyph", k) end
  return nil
end }

-- A copy of a tree whose glyph and bitmap nodes without a font name `font`.
local function font_named(t, font)
  local c = tree_copy(t)
  local function walk(n)
    if type(n) ~= "table" then return end
    if (n.kind == "glyph" or n.kind == "bitmap") and n.font == nil then n.font = font end
    for _, k in ipairs({ "child", "source", "backdrop" }) do walk(n[k]) end
    if n.children then for _, ch in ipairs(n.children) do walk(ch) end end
  end
  walk(c)
  return c
end

--- The paint tree (font units) that `filters` draw for glyph `gid` of `font` standing alone
--- (`text` is its character, for ctx.cluster).  Raises
--- "filter NAME: Glyph: cannot be baked ..." for filters that read anything but the glyph.
function M.bake(filters, font, gid, text, seed, rand)
  local size = upem(font)   -- points = font units
  local g = setmetatable({ kind = "Glyph", gid = gid, cluster = 1, text = text,
    advance = font:advance(gid), font = font, size = size }, GLYPH_GUARD)
  local list = { g }
  for _, f in ipairs(filters) do
    local fn = f.funcs
    local i = 1
    while i <= #list do
      local el = list[i]
      local n = 1
      if fn.Glyph then
        n = apply(fn.Glyph, list, i, baking_ctx(f, seed, { cluster = text, glyph = el }, rand, { "Glyph", i }), f.name, "Glyph")
      end
      for k = i, i + n - 1 do
        local gg = list[k]
        if fn.Layer and gg then
          gg.font = rawget(gg, "font") or font
          gg.size = rawget(gg, "size") or size
          if not rawget(gg, "layers") then gg.layers = layers_of(gg) end
          local li = 1
          while li <= #gg.layers do
            li = li + apply(fn.Layer, gg.layers, li, baking_ctx(f, seed, { cluster = text, glyph = gg,
              layer_count = #gg.layers }, rand, { "Layer", k, li }), f.name, "Layer")
          end
        end
      end
      i = i + n
    end
  end
  -- the glyphs' layers, deepest z first, as one tree
  local items = {}
  for _, gg in ipairs(list) do
    gg.font = rawget(gg, "font") or font
    gg.size = rawget(gg, "size") or size
    for li, layer in ipairs(rawget(gg, "layers") or layers_of(gg)) do
      if not layer.hidden then items[#items + 1] = { g = gg, layer = layer, z = layer.z or 0, order = #items + li / 1e6 } end
    end
  end
  table.sort(items, function(a, b) if a.z ~= b.z then return a.z < b.z end return a.order < b.order end)
  local children = {}
  for _, it in ipairs(items) do
    local gg, layer = it.g, it.layer
    local lfont = layer.font or gg.font
    local p = layer_paint(layer, gg.size)
    p = glyph_transform(gg, p, lfont)
    local gc = rawget(gg, "color")
    if gc and not layer.color then
      p = tree_copy(p)
      local c = css(gc, "glyph color")
      local function fg(t)
        if type(t) ~= "table" then return end
        if t.kind == "solid" and type(t.color) == "table" and t.color.foreground then
          t.color = { rgba = c, alpha = t.color.alpha }
        elseif t.stops then
          for _, st in ipairs(t.stops) do
            if type(st.color) == "table" and st.color.foreground then st.color = { rgba = c, alpha = st.color.alpha } end
          end
        end
        for _, k in ipairs({ "child", "source", "backdrop" }) do fg(t[k]) end
        if t.children then for _, ch in ipairs(t.children) do fg(ch) end end
      end
      fg(p)
    end
    local dx, dy = rawget(gg, "x") or 0, rawget(gg, "y") or 0
    if dx ~= 0 or dy ~= 0 then p = { kind = "transform", matrix = { 1, 0, 0, 1, dx, -dy }, child = p } end
    if lfont ~= font then p = font_named(p, lfont) end
    children[#children + 1] = p
  end
  if #children == 1 then return children[1] end
  return { kind = "layers", children = children }
end

return M
