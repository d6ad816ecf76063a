--- chromatype.variable: variable fonts at the instances styles ask for.
-- A style names a font's location two ways, as CSS does.  `variations` sets axes by tag
-- ("EDPT=120,EHLT=12"): a tag that no font of the run has is an error.  The properties
-- `weight` (→ wght), `font_width` (→ wdth; `width` in styles and runs, which have no
-- geometry), `slant` (→ slnt), `italic` (→ ital) and
-- `optical_size` (→ opsz, by default the text size in points) move the registered axes of
-- the fonts that have them and leave other fonts alone, and `variations` wins over them
-- axis by axis (CSS's font-variation-settings over font-weight).
-- Each distinct location of a font is one instance (font:instance: the same bytes, its own
-- faces and caches), shared by every run, frame and page that asks for it; the instances
-- of a layered stack are stacks of instances.
-- Reference: docs/documents.md (Variable fonts), docs/lua-api.md.
-- @module chromatype.variable

local ct = require "chromatype"
local stack = require "chromatype.stack"

local M = {}

--- The style fields this module reads, besides `variations` (Lua names).
M.PROPERTIES = { "weight", "font_width", "slant", "italic", "optical_size" }

-- ---- the properties ------------------------------------------------------------------------

-- CSS's font-weight keywords, and the usual names of the weights between them.
local WEIGHTS = { thin = 100, hairline = 100, ["extra-light"] = 200, ["ultra-light"] = 200, light = 300,
  normal = 400, regular = 400, medium = 500, ["semi-bold"] = 600, ["demi-bold"] = 600, bold = 700,
  ["extra-bold"] = 800, ["ultra-bold"] = 800, black = 900, heavy = 900 }

-- CSS's font-stretch keywords, in percent of the normal width.
local WIDTHS = { ["ultra-condensed"] = 50, ["extra-condensed"] = 62.5, condensed = 75,
  ["semi-condensed"] = 87.5, normal = 100, ["semi-expanded"] = 112.5, expanded = 125,
  ["extra-expanded"] = 150, ["ultra-expanded"] = 200 }

local function number_of(v)
  if type(v) == "number" then return v end
  if type(v) == "string" then return tonumber((v:match("^%s*(.-)%s*$"))) end
  return nil
end

local check = {}

function check.weight(v)
  local n = number_of(v) or (type(v) == "string" and WEIGHTS[v:lower()])
  if not n or n < 1 or n > 1000 then
    return nil, ("expected a number from 1 to 1000 or normal, bold, thin, light, medium, black, ..., got '%s'")
      :format(tostring(v))
  end
  return n
end

function check.font_width(v)
  local n
  if type(v) == "string" then
    n = WIDTHS[v:lower()] or tonumber((v:match("^%s*([-+]?[%d.]+)%%%s*$"))) or number_of(v)
  else
    n = number_of(v)
  end
  if not n or n <= 0 or n > 1000 then
    return nil, ("expected a percentage of the normal width (\"75%%\", 75) or condensed, expanded, ..., got '%s'")
      :format(tostring(v))
  end
  return n
end

function check.slant(v)
  local n = number_of(type(v) == "string" and v:gsub("deg%s*$", "") or v)
  if not n or n <= -90 or n >= 90 then
    return nil, ("expected an angle in degrees between -90 and 90 (positive leans right), got '%s'"):format(tostring(v))
  end
  return n
end

function check.italic(v)
  if v == true or v == "yes" or v == "true" then return true end
  if v == false or v == "no" or v == "false" then return false end
  return nil, ("expected yes or no, got '%s'"):format(tostring(v))
end

function check.optical_size(v)
  if v == "auto" or v == "none" then return v end
  local n = number_of(v)
  if not n or n <= 0 then
    return nil, ("expected auto, none or a size in points, got '%s'"):format(tostring(v))
  end
  return n
end

--- Checks and converts the property `key` (one of M.PROPERTIES); returns the value, or
--- nil and a message.
function M.check(key, v)
  return check[key](v)
end

--- The axes the properties of `style` ask for (a table tag → value, empty if none):
--- `size` is the text size in points, for `optical_size = "auto"` (the default).
function M.soft_axes(style, size)
  local t = {}
  if style.weight then t.wght = style.weight end
  if style.font_width then t.wdth = style.font_width end
  if style.slant then t.slnt = -style.slant end          -- CSS's oblique angle leans right; slnt < 0 does
  if style.italic ~= nil then t.ital = style.italic and 1 or 0 end
  local opsz = style.optical_size
  if opsz == nil or opsz == "auto" then
    if size then t.opsz = size end
  elseif opsz ~= "none" then
    t.opsz = opsz
  end
  return t
end

-- ---- instances -----------------------------------------------------------------------------

local MAX_INSTANCES = 64
local per_base = setmetatable({}, { __mode = "k" })   -- Font or Stack -> { key -> instance }
local order = {}                                       -- { base, key }, oldest first

local function remember(base, key, inst)
  local t = per_base[base]
  if not t then t = {}; per_base[base] = t end
  t[key] = inst
  order[#order + 1] = { base, key }
  if #order > MAX_INSTANCES then
    local old = table.remove(order, 1)
    local ot = per_base[old[1]]
    if ot then ot[old[2]] = nil end
  end
end

--- How many instances are cached (for tests).
function M.cached()
  return #order
end

-- The location of `font` with `soft` and `hard` applied where it has the axes, clamped to
-- their ranges; the key of that location; whether anything moved; the tags it took.
local function location(font, soft, hard)
  local loc, keys, moved, took = {}, {}, false, {}
  for _, a in ipairs(font:axes()) do
    local v = a.value
    local want = hard[a.tag]
    if want == nil then want = soft[a.tag] end
    if want ~= nil then
      took[a.tag] = true
      want = math.max(a.min, math.min(a.max, want))
      if math.abs(want - v) > 1e-9 then v = want; moved = true end
    end
    loc[a.tag] = v
    keys[#keys + 1] = ("%s=%.4f"):format(a.tag, v)
  end
  table.sort(keys)
  return loc, table.concat(keys, ","), moved, took
end

-- ---- static families ------------------------------------------------------------------------

-- CSS weights to fontconfig's scale (fontconfig's own FcWeightFromOpenType table).
local FC_WEIGHTS = { { 100, 0 }, { 200, 40 }, { 300, 50 }, { 350, 55 }, { 380, 75 }, { 400, 80 },
  { 500, 100 }, { 600, 180 }, { 700, 200 }, { 800, 205 }, { 900, 210 }, { 1000, 215 } }

local function fc_weight(w)
  if w <= 100 then return 0 end
  for i = 2, #FC_WEIGHTS do
    local a, b = FC_WEIGHTS[i - 1], FC_WEIGHTS[i]
    if w <= b[1] then return math.floor(a[2] + (b[2] - a[2]) * (w - a[1]) / (b[1] - a[1]) + 0.5) end
  end
  return 215
end

local function has_axis(font, tag)
  for _, a in ipairs(font:axes()) do if a.tag == tag then return true end end
  return false
end

-- For a font without the axis a property moves, the face of its family that fontconfig has at
-- that weight, width or style (as a browser picks DejaVu Serif Bold for font-weight: bold); nil
-- when the font has the axes, the family is not installed, or fontconfig offers only itself.
-- `faces`: the properties asked for ({weight =, font_width =, slant =, italic =}).
local family_cache = {}

local function family_face(font, faces, took)
  local info = font:info()
  local family = info.family
  if not family or family == "" then return nil end
  local spec, tags = {}, {}
  local words = (info.style or ""):lower()
  if faces.weight and not has_axis(font, "wght") then
    spec[#spec + 1] = ":weight=" .. fc_weight(faces.weight); tags.wght = true
  elseif words:find("bold") then
    spec[#spec + 1] = ":weight=bold"
  end
  if faces.font_width and not has_axis(font, "wdth") then
    spec[#spec + 1] = (":width=%d"):format(math.floor(faces.font_width + 0.5)); tags.wdth = true
  end
  if faces.italic ~= nil and not has_axis(font, "ital") then
    spec[#spec + 1] = faces.italic and ":slant=italic" or ":slant=roman"; tags.ital = true
  elseif faces.slant and faces.slant ~= 0 and not has_axis(font, "slnt") then
    spec[#spec + 1] = ":slant=oblique"; tags.slnt = true
  elseif words:find("italic") or words:find("oblique") then
    spec[#spec + 1] = ":slant=italic"
  end
  if next(tags) == nil then return nil end
  local name = family:gsub("([%-:,\\])", "\\%1") .. table.concat(spec)
  local face = family_cache[name]
  if face == nil then
    face = false
    local ok, f = pcall(ct.shared_font, name)
    if ok and f then
      local fi = f:info()
      if fi.family == family and (fi.path ~= info.path or fi.face_index ~= info.face_index) then face = f end
    end
    family_cache[name] = face
  end
  if not face then return nil end
  for tag in pairs(tags) do took[tag] = true end
  return face
end

local function font_instance(font, soft, hard, took_all, faces)
  if faces then font = family_face(font, faces, took_all) or font end
  local loc, key, moved, took = location(font, soft, hard)
  for tag in pairs(took) do took_all[tag] = true end
  if not moved then return font end
  local t = per_base[font]
  local inst = t and t[key]
  if not inst then
    inst = font:instance(loc)
    remember(font, key, inst)
  end
  return inst
end

--- `font` (a Font, a fallback chain of Fonts or a layered Stack) at the location `hard`
--- (axes that must exist: tag → value) over `soft` (axes used where a font has them):
--- the same kind of value, made of cached instances (the font itself where nothing moves).
--- Also returns the set of the tags some font took.  Raises if an instance cannot be made.
function M.instance(font, soft, hard, faces)
  soft, hard = soft or {}, hard or {}
  local took = {}
  if next(soft) == nil and next(hard) == nil and not faces then return font, took end
  if stack.is_stack(font) then
    local keys = {}
    for _, l in ipairs(font.layers) do
      local _, key = location(l.font, soft, hard)
      keys[#keys + 1] = key
    end
    local key = table.concat(keys, "|")
    if faces then
      key = key .. ("|%s/%s/%s/%s"):format(tostring(faces.weight), tostring(faces.font_width),
        tostring(faces.slant), tostring(faces.italic))
    end
    local t = per_base[font]
    local inst = t and t[key]
    if not inst then
      inst = font:map_fonts(function(f) return font_instance(f, soft, hard, took, faces) end)
      remember(font, key, inst)
    else
      for _, l in ipairs(font.layers) do
        local _, _, _, tk = location(l.font, soft, hard)
        for tag in pairs(tk) do took[tag] = true end
      end
    end
    return inst, took
  end
  if type(font) == "table" then
    local out = {}
    for i, f in ipairs(font) do
      if stack.is_stack(f) then
        local inst, tk = M.instance(f, soft, hard, faces)
        out[i] = inst
        for tag in pairs(tk) do took[tag] = true end
      else
        out[i] = font_instance(f, soft, hard, took, faces)
      end
    end
    return out, took
  end
  return font_instance(font, soft, hard, took, faces), took
end

--- The properties of `style` that pick a face of a static family ({weight =, font_width =,
--- slant =, italic =}), or nil when it sets none.
function M.faces(style)
  if style.weight == nil and style.font_width == nil and style.slant == nil and style.italic == nil then return nil end
  return { weight = style.weight, font_width = style.font_width, slant = style.slant, italic = style.italic }
end

return M
