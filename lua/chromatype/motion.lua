--- chromatype.motion: animated values of documents (the `<animate>` element, a style's or a
-- frame's `animate` list): what may move, keyframes checked once, and their value at a
-- time.  Pure Lua over chromatype.palette and chromatype.animate's easing; documents
-- (chromatype.document) apply the values when they are laid out at a time.
-- The vocabulary is in docs/documents.md ("Animation").
-- @module chromatype.motion

local paper = require "chromatype.paper"
local palette = require "chromatype.palette"

local M = {}

--- What each attribute animates and how its values read: "length", "size" (a length
--- more than 0), "color", "variations" ("TAG=NUM,..."), "palette" (an index or a name).
M.KINDS = { size = "size", tracking = "length", color = "color", variations = "variations",
  palette = "palette", x = "length", y = "length" }

--- The attributes a style, a paragraph or a span may animate; frames also take x and y.
M.TEXT = { "variations", "palette", "size", "tracking", "color" }
M.FRAME = { "variations", "palette", "size", "tracking", "color", "x", "y" }

M.MAX_SECONDS = 3600
M.MAX_FPS = 240
M.MAX_FRAMES = 100000

local FIELDS = { attribute = true, values = true, from = true, to = true, begin = true, dur = true, ease = true,
  _where = true }

--- A time: a number of seconds, or a string "1.5", "1.5s" or "500ms"; or nil, msg.
function M.time(v)
  local n
  if type(v) == "number" then n = v
  elseif type(v) == "string" then
    local num, unit = v:match("^%s*([-+]?[%d.]+[eE]?[-+]?%d*)%s*(m?s?)%s*$")
    n = num and tonumber(num)
    if n and unit == "ms" then n = n / 1000 elseif unit == "m" then n = nil end
  end
  if not n or n ~= n or n == math.huge or n == -math.huge then
    return nil, ("expected a time such as 2s, 1.5 or 500ms, got '%s'"):format(tostring(v))
  end
  return n
end

-- "SWPS=90, ALPH=0.5" or {SWPS = 90} -> {SWPS = 90, ALPH = 0.5}; or nil, msg.
function M.variations(v)
  local out = {}
  if type(v) == "table" then
    for k, x in pairs(v) do
      if type(k) ~= "string" or type(x) ~= "number" then return nil, "expected {TAG = number, ...}" end
      out[k] = x
    end
  elseif type(v) == "string" then
    for part in v:gmatch("[^,]+") do
      local tag, num = part:match("^%s*([%w ]+)%s*=%s*([-+]?[%d.eE+-]+)%s*$")
      if tag then tag = tag:match("^(.-)%s*$") end
      if not tag or not tonumber(num) then return nil, ("'%s' is not TAG=NUMBER (\"wght=700,wdth=80\")"):format(part) end
      out[tag] = tonumber(num)
    end
  else
    return nil, "expected \"TAG=NUMBER,...\""
  end
  for tag in pairs(out) do
    if #tag < 1 or #tag > 4 then return nil, ("'%s' is not an axis tag (one to four letters)"):format(tag) end
  end
  if next(out) == nil then return nil, "no axis given" end
  return out
end

-- One keyframe value of `kind`, checked and converted; or nil, msg.
local function value(kind, v)
  if kind == "size" or kind == "length" then
    local n, err
    if type(v) == "number" then n = v else n, err = paper.parse_length(v) end
    if not n then return nil, err end
    if kind == "size" and n < 0.01 then return nil, ("must be at least 0.01 pt, got '%s'"):format(tostring(v)) end
    return n
  elseif kind == "color" then
    return palette.color(v)
  elseif kind == "variations" then
    return M.variations(v)
  else   -- palette
    if type(v) == "string" then v = v:match("^%s*(.-)%s*$") end
    local n = math.tointeger(tonumber(v))
    if n then
      if n < 0 then return nil, ("a palette index is at least 0, got %d"):format(n) end
      return n
    end
    if type(v) ~= "string" or v == "" then return nil, "expected a palette index or name" end
    return v
  end
end

-- The easing function named `name` ("linear", "in", "out", "in-out", "steps(N)"); or nil, msg.
local function easing(name)
  local ease = require("chromatype.animate").ease
  if name == nil or name == "linear" then return ease.linear end
  if name == "in" or name == "out" then return ease[name] end
  if name == "in-out" or name == "in_out" then return ease.in_out end
  local n = type(name) == "string" and name:match("^%s*steps%(%s*(%d+)%s*%)%s*$")
  n = n and math.tointeger(tonumber(n))
  if n and n >= 1 and n <= 100000 then return ease.steps(n) end
  return nil, ("ease: expected linear, in, out, in-out or steps(N), got '%s'"):format(tostring(name))
end

--- Checks one animation `{attribute =, values = "a;b;..." or a list (or from =, to =),
--- begin =, dur =, ease =}` where the attributes `allowed` may move; returns the checked
--- animation or nil, msg.
function M.check(a, allowed)
  if type(a) ~= "table" then return nil, "an animation must be a table {attribute =, values =, ...}" end
  for k in pairs(a) do
    if not FIELDS[k] then
      return nil, ("unknown field '%s' (expected attribute, values, from, to, begin, dur, ease)"):format(tostring(k))
    end
  end
  local attr = a.attribute
  local ok = false
  for _, x in ipairs(allowed) do if x == attr then ok = true end end
  if not ok then
    return nil, ("attribute: expected %s, got '%s'"):format(table.concat(allowed, ", "), tostring(attr))
  end
  local kind = M.KINDS[attr]
  local raw
  if a.values ~= nil then
    if a.from ~= nil or a.to ~= nil then return nil, "give values, or from and to, not both" end
    if type(a.values) == "table" then raw = a.values
    elseif type(a.values) == "string" then
      raw = {}
      for part in (a.values .. ";"):gmatch("(.-);") do
        if part:find("%S") then raw[#raw + 1] = part end
      end
    else
      return nil, "values: expected \"A;B;...\" or a list"
    end
  else
    if a.from == nil or a.to == nil then return nil, "needs values=\"A;B;...\", or from= and to=" end
    raw = { a.from, a.to }
  end
  if #raw < 2 then return nil, "values: at least two values (separated by ';') expected" end
  local vals = {}
  for i, v in ipairs(raw) do
    local x, err = value(kind, v)
    if x == nil then return nil, ("%s: value %d: %s"):format(attr, i, err) end
    vals[i] = x
  end
  if kind == "variations" then   -- every keyframe names the same axes
    local function tags(t)
      local l = {}
      for k in pairs(t) do l[#l + 1] = k end
      table.sort(l)
      return table.concat(l, ", ")
    end
    local first = tags(vals[1])
    for i = 2, #vals do
      if tags(vals[i]) ~= first then
        return nil, ("variations: value %d names the axes %s, value 1 %s (every value names the same axes)")
          :format(i, tags(vals[i]), first)
      end
    end
  end
  local begin, dur = 0, nil
  if a.begin ~= nil then
    local err
    begin, err = M.time(a.begin)
    if not begin then return nil, "begin: " .. err end
    if begin < 0 or begin > M.MAX_SECONDS then
      return nil, ("begin: from 0 to %d seconds, got '%s'"):format(M.MAX_SECONDS, tostring(a.begin))
    end
  end
  if a.dur ~= nil then
    local err
    dur, err = M.time(a.dur)
    if not dur then return nil, "dur: " .. err end
    if not (dur > 0 and dur <= M.MAX_SECONDS) then
      return nil, ("dur: more than 0, at most %d seconds, got '%s'"):format(M.MAX_SECONDS, tostring(a.dur))
    end
  end
  local ease, err = easing(a.ease)
  if not ease then return nil, err end
  return { attribute = attr, kind = kind, values = vals, begin = begin, dur = dur, ease = ease,
    where = a._where }
end

-- Two keyframe values of `kind` mixed at f (0 < f < 1).
local function mix(kind, a, b, f)
  if kind == "color" then return palette.mix_colors(a, b, f, "oklab") end
  if kind == "variations" then
    local out = {}
    for k, x in pairs(a) do out[k] = x + (b[k] - x) * f end
    return out
  end
  if kind == "palette" then return { a, b, f } end
  return a + (b - a) * f
end

--- The value of animation `a` at time `t` in a document `total` seconds long: before its
--- begin the first value, after its end the last; in between the keyframes share the
--- time evenly and each step is eased.  Palettes give `{from, to, fraction}` while
--- between two palettes, a palette alone at a keyframe.
function M.at(a, t, total)
  local dur = a.dur or (total - a.begin)
  local vals = a.values
  local p
  if dur > 0 then p = (t - a.begin) / dur else p = t > a.begin and 1 or 0 end
  if p <= 0 then return vals[1] end
  if p >= 1 then return vals[#vals] end
  local x = p * (#vals - 1)
  local i = math.floor(x)
  local f = a.ease(x - i)
  if f <= 0 then return vals[i + 1] end
  if f >= 1 then return vals[i + 2] end
  return mix(a.kind, vals[i + 1], vals[i + 2], f)
end

--- The time an animation ends, or nil when it runs to the document's end.
function M.ends(a)
  return a.dur and a.begin + a.dur or nil
end

return M
