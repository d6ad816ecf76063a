--- chromatype.paper: named page sizes and lengths with units, in points.
-- ISO 216 A and B series, ISO 269 C4-C6 envelopes (millimetres, converted at
-- 72 / 25.4 pt per mm) and ANSI letter, legal, tabloid, ledger (exact points).
-- Reference: docs/documents.md.
-- @module chromatype.paper

local M = {}

local MM = 72 / 25.4

-- name -> {width, height} in millimetres (ISO) or points (ANSI, flagged pt = true)
local ISO = {
  A0 = { 841, 1189 }, A1 = { 594, 841 }, A2 = { 420, 594 }, A3 = { 297, 420 },
  A4 = { 210, 297 }, A5 = { 148, 210 }, A6 = { 105, 148 }, A7 = { 74, 105 },
  A8 = { 52, 74 }, A9 = { 37, 52 }, A10 = { 26, 37 },
  B0 = { 1000, 1414 }, B1 = { 707, 1000 }, B2 = { 500, 707 }, B3 = { 353, 500 },
  B4 = { 250, 353 }, B5 = { 176, 250 }, B6 = { 125, 176 }, B7 = { 88, 125 },
  B8 = { 62, 88 }, B9 = { 44, 62 }, B10 = { 31, 44 },
  C4 = { 229, 324 }, C5 = { 162, 229 }, C6 = { 114, 162 },
}
local ANSI = {
  letter = { 612, 792 }, legal = { 612, 1008 }, tabloid = { 792, 1224 }, ledger = { 1224, 792 },
}

--- Every size: `paper.sizes[name] = {width, height}` in points (portrait, except ledger).
M.sizes = {}
for k, v in pairs(ISO) do M.sizes[k] = { v[1] * MM, v[2] * MM } end
for k, v in pairs(ANSI) do M.sizes[k] = { v[1], v[2] } end

local function names()
  local t = {}
  for k in pairs(M.sizes) do t[#t + 1] = k end
  table.sort(t, function(a, b)
    local pa, na = a:match("^(%u)(%d+)$")
    local pb, nb = b:match("^(%u)(%d+)$")
    if pa and pb then
      if pa ~= pb then return pa < pb end
      return tonumber(na) < tonumber(nb)
    end
    if pa or pb then return pa ~= nil end
    return a < b
  end)
  return table.concat(t, ", ")
end

--- The size of a named paper in points.
-- Names are case-insensitive for ISO sizes (`"a4"` = `"A4"`) and ANSI names.
-- @tparam string name `"A4"`, `"letter"`, ...
-- @tparam[opt] string orientation `"portrait"` (the longer side vertical) or
--   `"landscape"`; absent: the size as listed (ledger is landscape)
-- @treturn number width
-- @treturn number height
function M.size(name, orientation)
  if type(name) ~= "string" then
    error(("bad argument #1 to 'size' (string expected, got %s)"):format(type(name)), 2)
  end
  local s = M.sizes[name] or M.sizes[name:upper()] or M.sizes[name:lower()]
  if not s then
    error(("bad argument #1 to 'size' (unknown paper size '%s' (expected %s))"):format(name, names()), 2)
  end
  local w, h = s[1], s[2]
  if orientation == nil then return w, h end
  if orientation == "portrait" then
    if w > h then w, h = h, w end
  elseif orientation == "landscape" then
    if w < h then w, h = h, w end
  else
    error(("bad argument #2 to 'size' (expected 'portrait' or 'landscape', got '%s')"):format(tostring(orientation)), 2)
  end
  return w, h
end

--- Points per unit: pt, mm, cm, in, and px (CSS pixels: 1/96 in = 0.75 pt).
M.units = { pt = 1, mm = MM, cm = 10 * MM, ["in"] = 72, px = 0.75 }

--- Parses a length: a number (points) or a string `"210mm"`, `"1.5in"`, `"12"`, `"-3pt"`.
-- Returns nil and a message for a bad string (raise it with `assert` or `error`).
-- @param s number or string
-- @treturn number points, or nil, message
function M.parse_length(s)
  if type(s) == "number" then
    if s ~= s or s == math.huge or s == -math.huge then return nil, "length is not finite" end
    return s
  end
  if type(s) ~= "string" then return nil, ("expected a length, got %s"):format(type(s)) end
  local num, unit = s:match("^%s*([-+]?[%d.]+[eE]?[-+]?%d*)%s*(%a*)%s*$")
  local v = num and tonumber(num)
  if not v or v ~= v or v == math.huge or v == -math.huge then
    return nil, ("bad length '%s' (expected a number with pt, mm, cm, in or px)"):format(s)
  end
  if unit == "" then return v end
  local k = M.units[unit:lower()]
  if not k then
    return nil, ("bad unit in '%s' (expected pt, mm, cm, in or px)"):format(s)
  end
  return v * k
end

return M
