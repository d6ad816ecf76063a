-- shadow.lua: an offset shadow, or with steps an extrusion (the solid depth of a 3-D letter).
-- Each glyph gets copies of its color layers in one color (a silhouette: a color font's
-- colors, SVG and bitmap glyphs included, all become the shadow's), moved by `offset`; with
-- `steps` N > 1 there are N copies from offset/N to offset, which join into an extrusion,
-- shaded from `color` (nearest) to `color2` (farthest) if given.  Shadows are drawn under the
-- whole text of the frame, so a letter's shadow never covers its neighbour.
--
-- Options:
--   offset   "DX DY": lengths, x right, y down (pt, mm, px or em of the glyph size; default
--            "0.04em 0.04em"); one length moves both ways
--   color    the shadow's color (CSS forms; default #1d3557)
--   color2   the far end of an extrusion (default: color)
--   steps    number of copies, 1 for a shadow (default 1; at most 200)
--   layers   which layers cast a shadow: all, top, or indices separated by ';' (default all)
--
--   chromatype -f shadow:offset=2pt,color=#333 poster.xml
--   chromatype -f 'shadow:offset=0.08em 0.08em,steps=24,color=#7f1d1d,color2=#2b0a0a' poster.xml
local filter = require "chromatype.filter"
local palette = require "chromatype.palette"
local o = filter.options(..., "shadow")
local offset = o:offset("offset", "0.04em 0.04em")
local color = o:color("color", "#1d3557")
local color2 = o:color("color2", color)
local steps = o:integer("steps", 1, 1, 200)
local takes = o:layers("layers")
o:check()

-- a silhouette of a paint in `c`: SVG and bitmap nodes have no colors to set, so they are
-- masked by a solid instead
local function silhouette(p, c)
  if p.kind == "svg" or p.kind == "bitmap" then
    return filter.inside(p, { kind = "solid", color = { rgba = c } })
  end
  return p
end

return {
  Layer = function(layer, ctx)
    if not takes(layer, ctx) then return end
    local size = ctx.glyph.size
    local dx = offset.em[1] and offset[1] * size or offset[1]
    local dy = offset.em[2] and offset[2] * size or offset[2]
    local off = layer.offset or { 0, 0 }
    local out = {}
    for i = steps, 1, -1 do
      local t = i / steps
      local c = steps > 1 and palette.mix_colors(color, color2, (i - 1) / (steps - 1), "srgb") or color
      out[#out + 1] = { kind = "Layer", index = layer.index, name = layer.name, font = layer.font, gid = layer.gid,
        paint = silhouette(layer.paint, c), color = c, offset = { off[1] + dx * t, off[2] + dy * t },
        z = -i, shadow = true }
    end
    out[#out + 1] = layer
    return out
  end,
}
