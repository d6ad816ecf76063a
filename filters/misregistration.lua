-- misregistration.lua: letterpress jitter, each color layer printed a little out of register.
-- On a press every ink has its own plate, and no two plates land exactly where they should.
-- This filter moves each color layer of each glyph (each font of a layered stack, each layer
-- of a COLR glyph, each element layer of an SVG glyph; a one-color glyph as a whole) by a
-- random offset of at most `amount`, the same offset for every glyph of the unit `per`:
-- per line (the default) is a plate shifted for the whole line, per glyph is rough hand
-- inking.  The offsets come from the seed: the same seed gives the same print.
--
-- Options:
--   amount   the largest offset, a length (pt, mm, px or em of the glyph size; default 1pt)
--   per      page | line | word | glyph: how far one offset reaches (default line)
--   fixed    index of a layer that stays in register, the key plate (default: none)
--   angle    the largest rotation of a layer about the glyph, degrees (default 0)
--
--   chromatype -f misregistration:amount=1.5pt,per=word --seed 7 poster.xml
--   doc:filter("misregistration", { amount = "0.02em", per = "glyph", fixed = 1 })
local filter = require "chromatype.filter"
local o = filter.options(..., "misregistration")
local amount, amount_em = o:length("amount", "1pt")
local per = o:choice("per", "line", { "page", "line", "word", "glyph" })
local fixed = o:integer("fixed", nil, 1)
local angle = o:number("angle", 0, 0, 45)
o:check()

return {
  Layer = function(layer, ctx)
    if layer.index == fixed then return end
    local keys = filter.unit_keys(ctx, per)
    keys[#keys + 1] = "layer"
    keys[#keys + 1] = layer.index or 0
    local rng = ctx:stream(table.unpack(keys))
    local size = ctx.glyph.size
    local r = (amount_em and amount * size or amount) * math.sqrt(rng:random())  -- uniform in the disc
    local a = rng:uniform(0, 2 * math.pi)
    local off = layer.offset or { 0, 0 }
    layer.offset = { off[1] + r * math.cos(a), off[2] + r * math.sin(a) }
    if angle > 0 then
      layer.paint = filter.turned(layer.paint, layer.font, ctx.glyph.advance, size, rng:uniform(-angle, angle))
    end
  end,
}
