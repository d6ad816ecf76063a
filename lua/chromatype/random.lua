--- chromatype.random: seeded random streams that fork by key.
-- A stream is xoshiro256** seeded through SplitMix64.  `stream:fork(key)` derives a new,
-- independent stream from the stream's seed and a key (a string or an integer) without
-- drawing from it, so the stream a glyph gets depends only on the seed and the keys on
-- its path (filter, page, frame, paragraph, word): editing one word of a poster reshuffles
-- that word and nothing else.  The same seed gives the same numbers on every machine
-- (Lua 5.4 integers wrap at 64 bits).
-- @module chromatype.random

local M = {}

local Stream = {}
Stream.__index = Stream
Stream.__name = "chromatype.Random"

local function splitmix(x)
  x = x + 0x9E3779B97F4A7C15
  local z = x
  z = (z ~ (z >> 30)) * -4658895280553007687      -- 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * -7723592293110705685      -- 0x94D049BB133111EB
  return x, z ~ (z >> 31)
end

local function rotl(x, k) return (x << k) | (x >> (64 - k)) end

-- FNV-1a over the bytes of a string, mixed with `h`.
local function hash(h, s)
  h = h ~ -3750763034362895579                    -- 0xCBF29CE484222325
  for i = 1, #s do h = (h ~ s:byte(i)) * 0x100000001B3 end
  return h
end

local function key_int(key)
  if math.type(key) == "integer" then return key end
  if type(key) == "number" then return hash(0, ("%.17g"):format(key)) end
  if type(key) == "string" then return hash(0, key) end
  error(("bad argument #1 to 'fork' (string or number expected, got %s)"):format(type(key)), 3)
end

local function new_stream(seed)
  local s = setmetatable({ seed = seed }, Stream)
  local x = seed
  x, s[1] = splitmix(x)
  x, s[2] = splitmix(x)
  x, s[3] = splitmix(x)
  local _
  _, s[4] = splitmix(x)
  return s
end

--- A stream from a seed: an integer, or a string (hashed).
-- @treturn Stream
function M.new(seed)
  if seed == nil then seed = 0 end
  if type(seed) == "string" then
    local n = math.tointeger(tonumber(seed))
    seed = n or hash(0, seed)
  elseif type(seed) == "number" then
    seed = math.tointeger(seed) or hash(0, ("%.17g"):format(seed))
  else
    error(("bad argument #1 to 'new' (integer or string expected, got %s)"):format(type(seed)), 2)
  end
  return new_stream(seed)
end

--- A fresh seed from the system (for `--seed random`): a non-negative integer below 2^53
--- that prints and reads back exactly.
function M.fresh_seed()
  return require("chromatype.core").random_seed()
end

-- The next 64-bit integer (xoshiro256**).
function Stream:next()
  local s1 = self[2]
  local result = rotl(s1 * 5, 7) * 9
  local t = s1 << 17
  self[3] = self[3] ~ self[1]
  self[4] = self[4] ~ self[2]
  self[2] = self[2] ~ self[3]
  self[1] = self[1] ~ self[4]
  self[3] = self[3] ~ t
  self[4] = rotl(self[4], 45)
  return result
end

--- Like math.random: no argument, a float in [0, 1); `random(n)`, an integer 1..n;
--- `random(m, n)`, an integer m..n.
function Stream:random(m, n)
  local f = ((self:next() >> 11) + 0.0) * 2.0 ^ -53
  if m == nil then return f end
  if n == nil then m, n = 1, m end
  if math.type(m) ~= "integer" or math.type(n) ~= "integer" then
    error("bad argument to 'random' (integers expected)", 2)
  end
  if n < m then error("bad argument to 'random' (interval is empty)", 2) end
  return m + math.floor(f * (n - m + 1))
end

--- A float in [a, b).
function Stream:uniform(a, b) return a + (b - a) * self:random() end

--- A normally distributed number (Box–Muller).
function Stream:normal(mean, sd)
  local u1 = self:random()
  local u2 = self:random()
  if u1 < 1e-300 then u1 = 1e-300 end
  return (mean or 0) + (sd or 1) * math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * u2)
end

--- A random element of a non-empty list.
function Stream:pick(list)
  if type(list) ~= "table" or #list == 0 then error("bad argument #1 to 'pick' (non-empty list expected)", 2) end
  return list[self:random(#list)]
end

--- Shuffles a list in place (Fisher–Yates) and returns it.
function Stream:shuffle(list)
  for i = #list, 2, -1 do
    local j = self:random(i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

--- A new stream from this stream's seed and `key` (and further keys), independent of how
--- many numbers this stream has drawn.
function Stream:fork(key, ...)
  local seed = select(2, splitmix(self.seed ~ key_int(key)))
  local s = new_stream(seed)
  if select("#", ...) > 0 then return s:fork(...) end
  return s
end

function Stream:__tostring()
  return ("chromatype.Random (seed %d)"):format(self.seed)
end

return M
