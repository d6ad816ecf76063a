-- duotone.lua: any color font in two colors.  Every color of every glyph (palette entries,
-- the text color, the stops of gradients, the colors of a stack's layers) is mapped by its
-- lightness onto the line from `dark` to `light`, alpha kept: a black becomes `dark`, a
-- white `light`, a mid-tone the mix between.  COLRv0, COLRv1 and stacked glyphs stay vector
-- and exact.  SVG and bitmap glyphs are mapped with PDF blend modes instead (grayscale,
-- then multiplied by `light` and screened with `dark`), which is exact where `dark` is black
-- and a little lighter otherwise.
--
-- Options:
--   dark     the color for black (CSS forms; default #14213d)
--   light    the color for white (default #fca311)
--   contrast stretch each glyph's lightness range to the full dark..light line: yes | no
--            (default no)
--
--   chromatype -f duotone:dark=#2b2d42,light=#edf2f4 emoji.xml
local filter = require "chromatype.filter"
local P = require "chromatype.palette"
local o = filter.options(..., "duotone")
local dark = o:color("dark", "#14213d")
local light = o:color("light", "#fca311")
local contrast = o:bool("contrast", false)
o:check()


local palettes = setmetatable({}, { __mode = "k" })
local function entry(font, pal, overrides, i)
  if overrides and overrides[i] then return P.color(overrides[i]) end
  local key = tostring(pal or 0)
  palettes[font] = palettes[font] or {}
  local colors = palettes[font][key]
  if not colors then
    colors = P.colors(font, pal or 0)
    palettes[font][key] = colors
  end
  return colors[i + 1] or "#000000ff"
end

-- resolves a paint color to "#rrggbbaa" (alpha of the entry times the color's)
local function resolve(c, font, g, layer)
  local hex
  if c.rgba then hex = P.color(c.rgba)
  elseif c.foreground or c.palette == 0xFFFF then hex = P.color(layer.color or g.color or "#000000")
  else hex = entry(font, layer.palette or g.palette, layer.overrides or g.overrides, c.palette) end
  return hex or "#000000ff"
end

local function walk(t, fn)
  if type(t) ~= "table" then return end
  if t.kind == "solid" then fn(t, "color")
  elseif t.stops then for _, s in ipairs(t.stops) do fn(s, "color") end end
  for _, k in ipairs({ "child", "source", "backdrop" }) do walk(t[k], fn) end
  if t.children then for _, ch in ipairs(t.children) do walk(ch, fn) end end
end

local function blend_map(p)
  -- gray (saturation from a gray), masked to the glyph; * light; screen dark
  local gray = { kind = "composite", mode = "hsl_saturation",
    source = { kind = "solid", color = { rgba = "#808080" } }, backdrop = p }
  local tinted = { kind = "composite", mode = "multiply", source = { kind = "solid", color = { rgba = light } },
    backdrop = gray }
  local toned = { kind = "composite", mode = "screen", source = { kind = "solid", color = { rgba = dark } },
    backdrop = tinted }
  return filter.inside(p, toned)
end

local function replace_blobs(t)
  if type(t) ~= "table" then return t end
  if t.kind == "svg" or t.kind == "bitmap" then return blend_map(t) end
  for _, k in ipairs({ "child", "source", "backdrop" }) do if t[k] then t[k] = replace_blobs(t[k]) end end
  if t.children then for i, ch in ipairs(t.children) do t.children[i] = replace_blobs(ch) end end
  return t
end

return {
  Glyph = function(g)
    g.layers = g.layers or filter.layers_of(g)
    -- every color of the glyph, resolved, and its lightness range
    local found, lo, hi = {}, math.huge, -math.huge
    for _, layer in ipairs(g.layers) do
      layer.paint = filter.copy(layer.paint)
      local font = layer.font or g.font
      walk(layer.paint, function(holder, k)
        local c = holder[k]
        local hex = layer.color and P.color(layer.color) or resolve(c, font, g, layer)
        local l = P.lightness(hex)
        lo, hi = math.min(lo, l), math.max(hi, l)
        found[#found + 1] = { holder = holder, key = k, hex = hex, l = l, alpha = c.alpha }
      end)
      layer.paint = replace_blobs(layer.paint)
      layer.color = nil
    end
    for _, f in ipairs(found) do
      local t = f.l
      if contrast then t = hi > lo and (f.l - lo) / (hi - lo) or 0.5 end
      local m = P.mix_colors(dark, light, t, "srgb")
      local a = tonumber(f.hex:sub(8, 9), 16) / 255 * (f.alpha or 1)
      f.holder[f.key] = { rgba = m:sub(1, 7), alpha = a }
    end
  end,
}
