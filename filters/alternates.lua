-- alternates.lua: random (or cycling) OpenType alternates per glyph.
-- Each glyph that has alternates in the font's GSUB (rand, aalt, salt, swsh, ssXX, cvXX, or
-- the features named) becomes one of them, or stays itself, picked by the seeded stream;
-- with `repeat=no` (the default) a form is never used twice in a row, so a word of double
-- letters never shows the same shape twice.  The glyphs after a changed one in its run move
-- by the difference in advance.
--
-- Options:
--   features     comma list of feature tags to take alternates from (default: all of the above)
--   mode         random | cycle   (cycle: the default form, then each alternate in turn)
--   keep         probability (0..1) that a glyph keeps its default form (default 0.25)
--   repeat       yes | no         (default no: never the same form as the previous glyph)
--
--   chromatype -f alternates:features=salt,ss01,keep=0 --seed 3 poster.xml
local opts = ...
require("chromatype.filter").options(opts, "alternates"):check("features", "mode", "keep", "repeat")
local features = opts.features and opts.features:gsub(";", ",") or nil
local mode = opts.mode or "random"
if mode ~= "random" and mode ~= "cycle" then
  error(("alternates: mode: expected random or cycle, got '%s'"):format(mode), 0)
end
local keep = tonumber(opts.keep or 0.25)
if not keep or keep < 0 or keep > 1 then
  error(("alternates: keep: expected a number 0..1, got '%s'"):format(tostring(opts.keep)), 0)
end
local no_repeat = opts["repeat"] ~= "yes"
local counters = {}

return {
  Glyph = function(g, ctx)
    local font = g.font
    local alts = font.alternates and font:alternates(g.gid, features) or {}
    if #alts == 0 then return end
    local forms = { g.gid }
    for _, a in ipairs(alts) do forms[#forms + 1] = a.gid end
    local pick
    if mode == "cycle" then
      local key = tostring(font) .. ":" .. g.gid
      counters[key] = (counters[key] or 0) % #forms + 1
      pick = forms[counters[key]]
    elseif ctx.rng:random() < keep then
      pick = g.gid
    else
      pick = forms[ctx.rng:random(2, #forms)]
    end
    local prev = ctx.prev
    if no_repeat and prev and prev.gid == pick and prev.font == font then
      -- another form than the glyph before (there are at least two)
      for _ = 1, #forms do
        pick = forms[pick == forms[#forms] and 1 or (function()
          for i, f in ipairs(forms) do if f == pick then return i + 1 end end
          return 1
        end)()]
        if pick ~= prev.gid then break end
      end
    end
    if pick == g.gid then return end
    local scale = g.size / font:info().units_per_em
    local delta = (font:advance(pick) - font:advance(g.gid)) * scale
    g.gid, g.layers = pick, nil
    if delta ~= 0 then
      g.advance = g.advance + delta
      local after = false
      for _, other in ipairs(ctx.run.glyphs) do
        if after then other.x = other.x + delta end
        if other == g then after = true end
      end
    end
  end,
}
