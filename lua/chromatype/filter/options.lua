-- chromatype.filter.options: readers of filter options (`filter.options(opts, name)`): the
-- strings of the command line and the values of Lua converted, or one-line errors naming
-- the filter and the key.  It knows no document tree and runs no filter.

local M = {}

-- ---- reading options ------------------------------------------------------------------------

--- Readers of filter options, which come as strings from the command line and as numbers,
--- strings or tables from Lua: `filter.options(opts, "shadow")` gives an object whose methods
--- return the converted value or raise "shadow: KEY: expected ..., got 'VALUE'".
local Options = {}
Options.__index = Options

function M.options(opts, name)
  local self = setmetatable({ o = opts or {}, name = name or "filter", known = {} }, Options)
  -- every reader notes its key, for check()
  return self
end

--- Raises for options no reader asked for (a typo): "shadow: unknown option 'colr'
--- (options: offset, color, ...)".  `...` names further keys the filter reads itself.
function Options:check(...)
  for _, k in ipairs({ ... }) do self.known[k] = true end
  local names = {}
  for k in pairs(self.known) do names[#names + 1] = k end
  table.sort(names)
  local bad = {}
  for k in pairs(self.o) do if not self.known[k] then bad[#bad + 1] = tostring(k) end end
  table.sort(bad)
  if #bad > 0 then
    error(("%s: unknown option '%s' (options: %s)"):format(self.name, bad[1], table.concat(names, ", ")), 0)
  end
end

function Options:fail(key, want, v)
  error(("%s: %s: expected %s, got '%s'"):format(self.name, key, want, tostring(v)), 0)
end

--- A number (lo..hi).
function Options:number(key, default, lo, hi)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then return default end
  local n = tonumber(v)
  if not n or n ~= n or (lo and n < lo) or (hi and n > hi) then
    self:fail(key, ("a number%s"):format(lo and hi and (" from %g to %g"):format(lo, hi)
      or lo and (" of at least %g"):format(lo) or ""), v)
  end
  return n
end

--- An integer (lo..hi).
function Options:integer(key, default, lo, hi)
  local n = self:number(key, default, lo, hi)
  if n and math.type(n) ~= "integer" and n ~= math.floor(n) then self:fail(key, "an integer", self.o[key]) end
  return n and math.tointeger(n)
end

--- One of a list of words.
function Options:choice(key, default, choices)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then return default end
  for _, c in ipairs(choices) do if v == c then return v end end
  self:fail(key, table.concat(choices, ", "), v)
end

--- yes/no, true/false, 1/0.
function Options:bool(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then return default end
  if v == true or v == "yes" or v == "true" or v == "1" or v == 1 then return true end
  if v == false or v == "no" or v == "false" or v == "0" or v == 0 then return false end
  self:fail(key, "yes or no", v)
end

-- "2pt" -> 2, false; "0.05em" -> 0.05, true
local function em_length(v)
  if type(v) == "string" then
    local n = v:match("^%s*([-+]?[%d.]+)%s*em%s*$")
    if n and tonumber(n) then return tonumber(n), true end
  end
  local paper = require "chromatype.paper"
  local pt = paper.parse_length(v)
  return pt, false
end

--- A length: points, or a string with pt, mm, cm, in, px or em.  Returns the number and
--- whether it is in em (of the glyph's size).
function Options:length(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil then return nil end
  local n, em = em_length(v)
  if not n then self:fail(key, "a length such as 2pt, 1.5mm or 0.05em", v) end
  return n, em
end

--- Two lengths "DX DY" (or "DX;DY", or a table {dx, dy}): returns {dx, dy, em = {bool, bool}}.
function Options:offset(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  local parts = {}
  if type(v) == "table" then parts = { v[1], v[2] }
  elseif type(v) == "number" then parts = { v, v }
  else for p in tostring(v):gmatch("[^%s;]+") do parts[#parts + 1] = p end end
  if #parts == 1 then parts[2] = parts[1] end
  if #parts ~= 2 then self:fail(key, "two lengths such as '2pt 3pt'", v) end
  local dx, ex = em_length(parts[1])
  local dy, ey = em_length(parts[2])
  if not dx or not dy then self:fail(key, "two lengths such as '2pt 3pt' or '0.04em 0.04em'", v) end
  return { dx, dy, em = { ex, ey } }
end

--- A color (CSS forms): "#rrggbbaa".
function Options:color(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil then return nil end
  local c = require("chromatype.palette").color(v)
  if not c then self:fail(key, "a color (#rgb, #rrggbb[aa], rgb(), hsl() or a CSS name)", v) end
  return c
end

--- A list of colors: a table, or a string separated by ';', '|' or spaces.
function Options:colors(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil then return nil end
  local items = {}
  if type(v) == "table" then items = v
  else for p in tostring(v):gmatch("[^;|%s]+") do items[#items + 1] = p end end
  local out = {}
  local pal = require "chromatype.palette"
  for i, c in ipairs(items) do
    out[i] = pal.color(c) or self:fail(key, "colors separated by ';' (#rgb, #rrggbb, CSS names)", c)
  end
  if #out == 0 then self:fail(key, "at least one color", v) end
  return out
end

--- Which layers an effect takes: "all", "top" (each glyph's top layer: a stack's face), or
--- indices separated by ';'.  Returns a function(layer, ctx) -> boolean for Layer calls.
function Options:layers(key, default)
  local v = self.o[key]
  if v == nil then v = default or "all" end
  self.known[key] = true
  if v == "all" then return function() return true end end
  if v == "top" then
    return function(layer, ctx) return ctx.glyph.layers[ctx.layer_count] == layer end
  end
  local set = {}
  for _, i in ipairs(self:integers(key, v) or {}) do set[i] = true end
  return function(layer) return set[layer.index] == true end
end

--- A list of integers: a table or a string separated by ';', '|' or spaces; "all" gives nil.
function Options:integers(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil or v == "all" then return nil end
  local items = {}
  if type(v) == "table" then items = v
  elseif type(v) == "number" then items = { v }
  else for p in tostring(v):gmatch("[^;|%s]+") do items[#items + 1] = p end end
  local out = {}
  for i, x in ipairs(items) do
    out[i] = math.tointeger(tonumber(x)) or self:fail(key, "integers separated by ';', or all", x)
  end
  return out
end

return M
