-- test_alternates.lua: font:alternates and font:features (GSUB through HarfBuzz), the seeded
-- rand that documents apply (HarfBuzz 6.0 cannot seed its own), and filters/alternates.lua.
-- Fonts: ct-wdth.ttf (jalt, ss01 -> x.alt1; salt -> x.alt2; aalt -> both) and ct-rand.ttf
-- (the same plus rand -> [x.alt1, x.alt2]); see tests/fonts/README.md.
local ct = require "chromatype"

local W = assert(ct.open_font(font_path("ct-wdth.ttf")))
local R = assert(ct.open_font(font_path("ct-rand.ttf")))

local function names(font, list)
  local t = {}
  for i, a in ipairs(list) do t[i] = font:glyph_name(a.gid) .. "/" .. a.feature end
  return t
end

local function gids_of(text, seed, extra)
  local d = ct.document { size = "150mm x 20mm", margin = "2mm", seed = seed }
  d:style("default", { font = font_path("ct-rand.ttf"), size = "20pt" })
  d:page():frame {}:text(text)
  if extra then d:filter(extra) end
  local got, xs = {}, {}
  d:filter { Glyph = function(g) got[#got + 1] = R:glyph_name(g.gid); xs[#xs + 1] = g.x end }
  d:render()
  return got, xs
end

return {
  { "feature tags", function()
    eq(W:features(), { "aalt", "jalt", "salt", "ss01" })
    eq(W:features("GPOS"), {})
    eq(R:features(), { "aalt", "jalt", "rand", "salt", "ss01" })
    checkerr("invalid option 'GDEF'", function() W:features("GDEF") end)
  end },
  { "alternates of a glyph, by feature", function()
    local a = W:glyph("a")
    eq(names(W, W:alternates(a)), { "a.alt1/aalt", "a.alt2/aalt" })
    eq(names(W, W:alternates(a, "salt")), { "a.alt2/salt" })
    eq(names(W, W:alternates(a, { "jalt", "salt" })), { "a.alt1/jalt", "a.alt2/salt" })
    eq(names(W, W:alternates(a, "ss01")), { "a.alt1/ss01" })
    eq(W:alternates(W:glyph("A")), {}, "no alternates for capitals")
    checkerr("feature tags have at most 4 characters", function() W:alternates(a, "stylistic") end)
    checkerr("bad argument #1 to 'alternates'", function() W:alternates(99999) end)
  end },
  { "rand is applied from the seed: same seed, same forms; another seed, others", function()
    local a1 = gids_of("aaaaaaaa aaaaaaaa", 1)
    local a2 = gids_of("aaaaaaaa aaaaaaaa", 1)
    local b = gids_of("aaaaaaaa aaaaaaaa", 2)
    eq(a1, a2)
    assert(not same(a1, b), "seed 2 differs")
    for _, n in ipairs(a1) do assert(n == "a.alt1" or n == "a.alt2", n) end
  end },
  { "rand alternates move the glyphs after them by their advance", function()
    local g, xs = gids_of("aaaa", 3)
    local adv = { ["a.alt1"] = 350, ["a.alt2"] = 650 }
    for i = 2, #g do
      local want = xs[i - 1] + adv[g[i - 1]] * 20 / 1000
      assert(math.abs(xs[i] - want) < 1e-6, ("glyph %d at %g, want %g"):format(i, xs[i], want))
    end
  end },
  { "rand asked for or refused in the features is left to HarfBuzz", function()
    local d = ct.document { size = "150mm x 20mm", margin = "2mm", seed = 1 }
    d:style("default", { font = font_path("ct-rand.ttf"), size = "20pt", features = "-rand" })
    d:page():frame {}:text("aaaa")
    local got = {}
    d:filter { Glyph = function(g) got[#got + 1] = R:glyph_name(g.gid) end }
    d:render()
    eq(got, { "a", "a", "a", "a" })
  end },
  { "filters/alternates: never the same form twice in a row", function()
    local flt = require("chromatype.filter").load(ROOT .. "/filters/alternates.lua", { features = "aalt", keep = "0.3" })
    for seed = 1, 5 do
      local d = ct.document { size = "150mm x 20mm", margin = "2mm", seed = seed }
      d:style("default", { font = font_path("ct-wdth.ttf"), size = "20pt" })
      d:page():frame {}:text("aaaaaaaaaa")
      d:filter(flt)
      local got = {}
      d:filter { Glyph = function(g) got[#got + 1] = W:glyph_name(g.gid) end }
      d:render()
      for i = 2, #got do assert(got[i] ~= got[i - 1], ("seed %d: %s twice at %d"):format(seed, got[i], i)) end
    end
  end },
  { "filters/alternates: cycle mode and bad options", function()
    local filter = require "chromatype.filter"
    local flt = filter.load(ROOT .. "/filters/alternates.lua", { mode = "cycle", features = "aalt" })
    local d = ct.document { size = "150mm x 20mm", margin = "2mm" }
    d:style("default", { font = font_path("ct-wdth.ttf"), size = "20pt" })
    d:page():frame {}:text("aaaa")
    d:filter(flt)
    local got = {}
    d:filter { Glyph = function(g) got[#got + 1] = W:glyph_name(g.gid) end }
    d:render()
    eq(got, { "a", "a.alt1", "a.alt2", "a" })
    local f, err = filter.load(ROOT .. "/filters/alternates.lua", { mode = "shuffle" })
    eq(f, nil); assert(err:find("alternates: mode: expected random or cycle, got 'shuffle'"), err)
  end },
}
