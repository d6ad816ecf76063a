-- chromatype.layout.common: the layout's option keys and argument checks ("bad argument
-- ..." at the caller of the public function), what a font value is, and the warnings.
-- It knows no text, shaping or lines.

local ct = require "chromatype"

local M = {}

-- ---- options ---------------------------------------------------------------------

-- Keys a run may carry that go to canvas:text unchanged.
local PASS = { "palette", "overrides", "color", "format", "features", "language" }
-- Keys of a run (style): the passthrough keys and these.
local RUN_KEYS = { "font", "size", "leading", "tracking", "hyphenate", "script", "direction",
  "variations", "weight", "font_width", "slant", "italic", "optical_size" }
local OPT_KEYS = { "width", "height", "x", "y", "align", "valign", "first_line_indent",
  "fit", "fit_to", "fit_tracking", "fit_width", "fit_features", "fit_size" }
local PARA_KEYS = { "align", "first_line_indent", "continued", "space_before", "space_after" }
-- Line breaking (chromatype.linebreak): options of a frame and of a paragraph.
local BREAK_KEYS = { "breaker", "looseness", "tolerance" }
for _, k in ipairs(BREAK_KEYS) do OPT_KEYS[#OPT_KEYS + 1] = k; PARA_KEYS[#PARA_KEYS + 1] = k end
OPT_KEYS[#OPT_KEYS + 1] = "emergency_stretch"
local BREAKERS = { optimal = true, ["first-fit"] = true }

local ALIGN = { left = true, right = true, center = true, justify = true, start = true, ["end"] = true }
local ALIGN_NAMES = "start, end, left, right, center or justify"
local VALIGN = { top = true, middle = true, bottom = true }
local FIT_STEPS = { tracking = true, width = true, alternates = true, size = true }

local function set_of(...)
  local s = {}
  for _, list in ipairs({ ... }) do for _, k in ipairs(list) do s[k] = true end end
  return s
end
local OPTS_ALLOWED = set_of(PASS, RUN_KEYS, OPT_KEYS)
-- a run has no geometry: its `width` is the font's (`font_width`; in options `width` is the frame's)
local RUN_ALLOWED = set_of(PASS, RUN_KEYS, { "text", "width" })

local function argerr(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 4)
end

local function check_keys(t, allowed, fname, n, what)
  for k in pairs(t) do
    if not allowed[k] then
      local names = {}
      for a in pairs(allowed) do names[#names + 1] = a end
      table.sort(names)
      argerr(fname, n, ("%sunknown field '%s' (expected %s)"):format(what or "", tostring(k),
        table.concat(names, ", ")))
    end
  end
end

local function check_num(t, k, fname, n, min, what)
  local v = t[k]
  if v == nil then return end
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    argerr(fname, n, ("%sfield '%s': expected a finite number, got %s"):format(what or "", k, type(v)))
  end
  if min and v < min then argerr(fname, n, ("%sfield '%s': must be >= %g"):format(what or "", k, min)) end
end

local function is_stack(v)
  local mt = getmetatable(v)
  return type(v) == "table" and type(mt) == "table" and mt.__name == "chromatype.Stack"
end

-- A Font, or a Stack (chromatype.stack), which measures like its lead font.
local function is_font(v)
  return (type(v) == "userdata" and tostring(v):find("^chromatype%.Font") ~= nil) or is_stack(v)
end

-- A run's `font` as a non-empty list of fonts (the fallback chain), or nil, msg.
local function font_chain(v)
  if is_font(v) then return { v } end
  if type(v) ~= "table" or #v == 0 then return nil, "a Font or a list of Fonts is required" end
  for i, f in ipairs(v) do
    if not is_font(f) then return nil, ("item %d: a Font expected, got %s"):format(i, type(f)) end
  end
  return v
end

--- Sends a warning to the handler set with `ct.on_warning` (standard error by default).
function M.warn(msg)
  local h = ct.on_warning(nil)
  ct.on_warning(h)
  if h == nil then ct.write_stderr("chromatype: warning: ", msg, "\n")
  elseif h then h(msg) end
end

local function first_font(f)
  if is_font(f) then return f end
  return f and f[1]
end

M.PASS, M.PARA_KEYS, M.BREAKERS, M.FIT_STEPS = PASS, PARA_KEYS, BREAKERS, FIT_STEPS
M.ALIGN, M.ALIGN_NAMES, M.VALIGN = ALIGN, ALIGN_NAMES, VALIGN
M.OPTS_ALLOWED, M.RUN_ALLOWED, M.set_of = OPTS_ALLOWED, RUN_ALLOWED, set_of
M.argerr, M.check_keys, M.check_num = argerr, check_keys, check_num
M.is_stack, M.font_chain, M.first_font = is_stack, font_chain, first_font

return M
