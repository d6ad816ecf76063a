-- chromatype.document.common: the keys of styles, the errors ("FILE:LINE: <elem>: msg" or
-- "bad argument ...") and the value checks (lengths, page sizes, timing, inks) that the
-- document's modules share.  It knows no Document, page or XML element.

local ct = require "chromatype"
local paper = require "chromatype.paper"
local motion = require "chromatype.motion"

local M = {}

-- Keys of a style (Lua names; XML uses the same with '-' for '_' and lang/dir aliases).
local STYLE_KEYS = { "font", "size", "leading", "color", "palette", "overrides", "align", "tracking",
  "features", "language", "direction", "hyphenate", "indent", "format", "space_before", "space_after",
  "variations", "animate", "weight", "font_width", "slant", "italic", "optical_size" }
local FIT_KEYS = { "fit", "fit_to", "fit_tracking", "fit_width", "fit_features", "fit_size" }
-- Line breaking (chromatype.linebreak): style keys that act on whole paragraphs, like align.
local BREAK_KEYS = { "breaker", "looseness", "tolerance" }
for _, k in ipairs(BREAK_KEYS) do STYLE_KEYS[#STYLE_KEYS + 1] = k end

local function set_of(...)
  local s = {}
  for _, l in ipairs({ ... }) do for _, k in ipairs(l) do s[k] = true end end
  return s
end

local function sorted_keys(t)
  local names = {}
  for k in pairs(t) do names[#names + 1] = k end
  table.sort(names)
  return table.concat(names, ", ")
end

-- ---- errors ------------------------------------------------------------------------------

-- Raises at an object: "FILE:LINE: <elem>: msg" for XML objects, "chromatype.document:
-- what: msg" otherwise.
local function fail(obj, msg)
  if obj and obj.where then error(obj.where .. msg, 0) end
  error(("chromatype.document: %s%s"):format(obj and obj.what and obj.what .. ": " or "", msg), 0)
end

local function argerr(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

local function check_keys(t, allowed, fname, n)
  for k in pairs(t) do
    if not allowed[k] then
      argerr(fname, n, ("unknown field '%s' (expected %s)"):format(tostring(k), sorted_keys(allowed)))
    end
  end
end

-- ---- values ---------------------------------------------------------------------------------

-- A length (number of points or a string with a unit) or nil, msg.
local function length(v)
  if v == nil then return nil end
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return nil, "not a finite number" end
    return v
  end
  return paper.parse_length(v)
end

-- A page size from a name, "W x H", or {w, h}: w, h or nil, msg.
local function page_size(size, orient, default_w, default_h)
  if orient ~= nil and orient ~= "portrait" and orient ~= "landscape" then
    return nil, ("orientation: expected portrait, landscape, got '%s'"):format(tostring(orient))
  end
  local w, h
  if size == nil then
    w, h = default_w, default_h
    if orient and (orient == "landscape") == (w < h) then w, h = h, w end
    return w, h
  elseif type(size) == "table" then
    local e1, e2
    w, e1 = length(size[1]); h, e2 = length(size[2])
    if not w or not h then return nil, "size: " .. (e1 or e2 or "expected {width, height}") end
  elseif type(size) == "string" then
    local a, b = size:match("^%s*(%S+)%s*[xX ]%s*(%S+)%s*$")
    if a and b then
      local e1, e2
      w, e1 = paper.parse_length(a); h, e2 = paper.parse_length(b)
      if not w or not h then return nil, "size: " .. (e1 or e2) end
    else
      local ok, pw, ph = pcall(paper.size, size, orient)
      if not ok then
        return nil, "size: " .. tostring(pw):gsub("^bad argument #%d to 'size' %((.*)%)$", "%1")
      end
      return pw, ph
    end
  else
    return nil, "size: expected a paper name, \"W x H\" or {w, h}, got " .. type(size)
  end
  if w <= 0 or h <= 0 then return nil, "size: sides must be positive" end
  if orient and (orient == "landscape") == (w < h) then w, h = h, w end
  return w, h
end

-- ---- timing and inks ----------------------------------------------------------------------

--- Checks an animation's timing: `fps` (more than 0, at most 240), `duration` (seconds or a
--- time string, more than 0, at most 3600), `loop` (times to play, 0 = forever), each
--- optional; returns them converted, or nil, nil, nil, msg naming the field.
function M.timing(fps, duration, loop)
  local f, d, l
  if fps ~= nil then
    f = tonumber(fps)
    if not f or not (f > 0 and f <= motion.MAX_FPS) then
      return nil, nil, nil, ("fps: more than 0, at most %d expected, got '%s'"):format(motion.MAX_FPS, tostring(fps))
    end
  end
  if duration ~= nil then
    local err
    d, err = motion.time(duration)
    if not d then return nil, nil, nil, "duration: " .. err end
    if not (d > 0 and d <= motion.MAX_SECONDS) then
      return nil, nil, nil, ("duration: more than 0, at most %d seconds expected, got '%s'")
        :format(motion.MAX_SECONDS, tostring(duration))
    end
    local n = math.floor(d * (f or 30) + 0.5)
    if n > motion.MAX_FRAMES then
      return nil, nil, nil, ("duration: %g s at %g fps is %d frames (at most %d)"):format(d, f or 30, n, motion.MAX_FRAMES)
    end
  end
  if loop ~= nil then
    l = math.tointeger(tonumber(loop))
    if not l or l < 0 or l > 65535 then
      return nil, nil, nil, ("loop: times to play from 0 (forever) to 65535 expected, got '%s'"):format(tostring(loop))
    end
  end
  return f, d, l
end

-- An ink (a spec "NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]" or a table as canvas:ink takes)
-- checked, as ct.parse_ink gives it; or nil, msg.
local function check_ink(v)
  local ok, ink = pcall(ct.parse_ink, v)
  if ok then return ink end
  return nil, (tostring(ink):gsub("^bad argument #%d+ to '[^']*' %((.*)%)$", "%1"))
end

M.STYLE_KEYS, M.FIT_KEYS, M.BREAK_KEYS = STYLE_KEYS, FIT_KEYS, BREAK_KEYS
M.set_of, M.sorted_keys, M.fail, M.argerr, M.check_keys = set_of, sorted_keys, fail, argerr, check_keys
M.length, M.page_size, M.check_ink = length, page_size, check_ink

return M
