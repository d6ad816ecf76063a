-- test_random.lua: chromatype.random: seeded streams, forks by key, ranges, bad input.
local random = require "chromatype.random"

local function draws(s, n)
  local t = {}
  for i = 1, n do t[i] = s:random(1000000) end
  return t
end

return {
  { "the same seed gives the same numbers", function()
    eq(draws(random.new(42), 20), draws(random.new(42), 20))
    assert(not same(draws(random.new(42), 20), draws(random.new(43), 20)), "different seeds differ")
  end },
  { "pinned values (xoshiro256** seeded by SplitMix64, checked against a Python model)", function()
    local s = random.new(42)
    eq({ s:random(1000000), s:random(1000000), s:random(1000000) }, { 83863, 378981, 680044 })
  end },
  { "forks depend on the key and the seed, not on what was drawn", function()
    local a, b = random.new(7), random.new(7)
    for _ = 1, 100 do b:random() end
    eq(draws(a:fork("word"), 10), draws(b:fork("word"), 10))
    assert(not same(draws(a:fork("word"), 10), draws(a:fork("other"), 10)), "keys differ")
    eq(draws(a:fork("p", 3, "x"), 5), draws(a:fork("p"):fork(3):fork("x"), 5))
  end },
  { "ranges", function()
    local s = random.new(1)
    for _ = 1, 1000 do
      local f = s:random()
      assert(f >= 0 and f < 1)
      local n = s:random(6)
      assert(n >= 1 and n <= 6 and math.type(n) == "integer")
      local m = s:random(-3, 3)
      assert(m >= -3 and m <= 3)
    end
    local seen = {}
    for _ = 1, 600 do seen[s:random(6)] = true end
    eq(seen, { true, true, true, true, true, true })
  end },
  { "string seeds, pick and shuffle", function()
    eq(draws(random.new("poster"), 5), draws(random.new("poster"), 5))
    eq(random.new("12").seed, 12)
    local s = random.new(3)
    local l = s:shuffle({ 1, 2, 3, 4, 5 })
    table.sort(l)
    eq(l, { 1, 2, 3, 4, 5 })
    local p = s:pick({ "a", "b" })
    assert(p == "a" or p == "b")
  end },
  { "fresh seeds are integers below 2^53", function()
    local x = random.fresh_seed()
    assert(math.type(x) == "integer" and x >= 0 and x < 2 ^ 53)
  end },
  { "bad seed", random.new, { {} }, false, "integer or string expected" },
  { "bad range", function() random.new(1):random(5, 1) end, {}, false, "interval is empty" },
  { "bad fork key", function() random.new(1):fork({}) end, {}, false, "string or number expected" },
}
