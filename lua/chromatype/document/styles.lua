-- chromatype.document.styles: the Document methods of styles, fonts and time: style fields
-- checked, fonts and stacks opened, styles resolved and merged, animated values taken at the
-- document's time and fonts varied.  It builds no pages, reads no XML, draws nothing.

local ct = require "chromatype"
local layout = require "chromatype.layout"
local stack = require "chromatype.stack"
local palette = require "chromatype.palette"
local motion = require "chromatype.motion"
local variable = require "chromatype.variable"
local common = require "chromatype.document.common"
local model = require "chromatype.document.model"

local STYLE_KEYS = common.STYLE_KEYS
local set_of, sorted_keys, fail, argerr = common.set_of, common.sorted_keys, common.fail, common.argerr
local check_keys, length = common.check_keys, common.length
local Document = model.Document

local M = {}

-- `width` is the font's width in styles and runs (they have no geometry); frames say `font_width`
local STYLE_ALLOWED = set_of(STYLE_KEYS, { "parent", "width" })

-- Opens a font by path or fontconfig name (cached); relative paths with a '/' are tried
-- from the document's directory first.
function Document:open_font(obj, spec)
  local f = self.fonts[spec]
  if f then return f end
  local path = spec
  if self.base_dir and not spec:match("^/") and spec:find("/") then
    local cand = self.base_dir .. "/" .. spec
    if ct.file_exists(cand) then path = cand end
  end
  local font, err = ct.shared_font(path)
  if not font then fail(obj, "font: " .. err) end
  self.fonts[spec] = font
  return font
end

-- A style's `font` value as a Font or a fallback chain: a Font, a name or path, "A; B"
-- (a chain), or a list of those.
function Document:font_value(obj, v)
  local function one(x)
    if type(x) == "userdata" or stack.is_stack(x) then return x end
    if type(x) == "string" then
      local t = {}
      for part in x:gmatch("[^;]+") do
        part = part:match("^%s*(.-)%s*$")
        if part ~= "" then t[#t + 1] = self.stacks[part] or self:open_font(obj, part) end
      end
      if #t == 0 then fail(obj, "font: empty font name") end
      return t
    end
    fail(obj, "font: expected a Font, a name or a path, got " .. type(x))
  end
  local list = (type(v) == "table" and not stack.is_stack(v)) and v or { v }
  local chain = {}
  for _, x in ipairs(list) do
    local r = one(x)
    if type(r) == "table" then for _, f in ipairs(r) do chain[#chain + 1] = f end
    else chain[#chain + 1] = r end
  end
  return #chain == 1 and chain[1] or chain
end

-- Checks the line-breaking fields of a style (`breaker`, `looseness`, `tolerance`), converting
-- the numbers of XML strings.
function Document:check_break(obj, s)
  if s.breaker ~= nil and s.breaker ~= "optimal" and s.breaker ~= "first-fit" then
    fail(obj, ("breaker: expected optimal, first-fit, got '%s'"):format(tostring(s.breaker)))
  end
  if s.looseness ~= nil then
    local v = math.tointeger(tonumber(s.looseness))
    if not v or v < -100 or v > 100 then
      fail(obj, ("looseness: expected an integer from -100 to 100, got '%s'"):format(tostring(s.looseness)))
    end
    s.looseness = v
  end
  if s.tolerance ~= nil then
    local v = tonumber(s.tolerance)
    if not v or not (v >= 0 and v <= 10000) then
      fail(obj, ("tolerance: expected a number from 0 to 10000, got '%s'"):format(tostring(s.tolerance)))
    end
    s.tolerance = v
  end
end

-- Checks style fields and converts them (lengths to points, fonts to Fonts).  `obj` is
-- where errors point.
function Document:style_fields(obj, t, allow_position)
  local s = {}
  for k, v in pairs(t) do s[k] = v end
  if s.width ~= nil then
    if s.font_width ~= nil then fail(obj, "width and font-width both given: they are the same") end
    s.font_width, s.width = s.width, nil
  end
  if s.font ~= nil then s.font = self:font_value(obj, s.font) end
  for _, k in ipairs(variable.PROPERTIES) do
    if s[k] ~= nil then
      local v, err = variable.check(k, s[k])
      if v == nil then fail(obj, ("%s: %s"):format(k == "font_width" and "width" or k:gsub("_", "-"), err)) end
      s[k] = v
    end
  end
  for _, k in ipairs({ "size", "tracking", "indent", "space_before", "space_after" }) do
    if s[k] ~= nil then
      local v, err = length(s[k])
      if not v then fail(obj, ("%s: %s"):format(k, err)) end
      if k == "size" and v <= 0 then fail(obj, "size: must be > 0") end
      s[k] = v
    end
  end
  if s.leading ~= nil then
    local pct = type(s.leading) == "string" and s.leading:match("^%s*([%d.]+)%%%s*$")
    if pct then
      s.leading_factor = tonumber(pct) and tonumber(pct) / 100
      if not s.leading_factor then fail(obj, "leading: bad percentage '" .. s.leading .. "'") end
      s.leading = nil
    else
      local v, err = length(s.leading)
      if not v then fail(obj, "leading: " .. err) end
      if v < 0 then fail(obj, "leading: must be >= 0") end
      s.leading = v
    end
  end
  if s.color ~= nil then
    local v, err = palette.color(s.color)
    if not v then fail(obj, "color: " .. err) end
    s.color = v
  end
  if s.overrides ~= nil then
    if type(s.overrides) == "string" then           -- "0=#ff0000, Accent=tomato"
      local t = {}
      for part in s.overrides:gmatch("[^,]+") do
        local k, v = part:match("^%s*([%w_%-]+)%s*=%s*(.-)%s*$")
        if not k then fail(obj, ("overrides: bad entry '%s' (want ENTRY=COLOR)"):format(part)) end
        local c, err = palette.color(v)
        if not c then fail(obj, "overrides: " .. err) end
        t[math.tointeger(tonumber(k)) or k] = c
      end
      s.overrides = t
    elseif type(s.overrides) ~= "table" then
      fail(obj, "overrides: a table or \"ENTRY=COLOR,...\" expected")
    end
  end
  if s.align ~= nil then
    local ok = { left = 1, right = 1, center = 1, justify = 1, start = 1, ["end"] = 1 }
    if not ok[s.align] then
      fail(obj, ("align: expected start, end, left, right, center, justify, got '%s'"):format(tostring(s.align)))
    end
  end
  self:check_break(obj, s)
  if s.direction ~= nil and s.direction ~= "ltr" and s.direction ~= "rtl" and s.direction ~= "auto" then
    fail(obj, ("direction: expected ltr, rtl, auto, got '%s'"):format(tostring(s.direction)))
  end
  if s.hyphenate ~= nil and type(s.hyphenate) ~= "boolean" then
    fail(obj, "hyphenate: expected a boolean")
  end
  if s.variations ~= nil then
    local v, err = motion.variations(s.variations)
    if not v then fail(obj, "variations: " .. err) end
    s.variations, s.variations_obj = v, {}
    for tag in pairs(v) do s.variations_obj[tag] = obj end
  end
  if s.animate ~= nil then
    if type(s.animate) ~= "table" then fail(obj, "animate: a list of animations expected") end
    local list = {}
    for i, a in ipairs(s.animate) do
      local checked, err = motion.check(a, allow_position and motion.FRAME or motion.TEXT)
      if not checked then
        local at = type(a) == "table" and a._where and { where = a._where } or obj
        fail(at, (at == obj and ("animate: [%d]: "):format(i) or "") .. err)
      end
      checked.obj = type(a) == "table" and a._where and { where = a._where } or obj
      list[#list + 1] = checked
    end
    s.animate = #list > 0 and list or nil
    if s.animate then self.animated = true end
  end
  return s
end

--- Sets the time (seconds) at which the document is laid out: animated fields take their
--- values at `t`.  `total` is the animation's length (for animations without `dur`).
function Document:set_time(t, total)
  self.time, self.total = t, total or self.duration or self:animations_end() or 0
  for _, st in pairs(self.styles) do st.resolved = nil end
  for _, pg in ipairs(self.pages) do
    for _, fr in ipairs(pg.frames) do
      fr.x, fr.y = fr.x0, fr.y0
      for _, a in ipairs(fr.moves or {}) do fr[a.attribute] = motion.at(a, self.time, self.total) end
    end
  end
end

-- Fields with their animations applied at the document's time (the fields themselves when
-- nothing moves).
function Document:at(fields)
  local list = fields.animate
  if not list then return fields end
  local r = {}
  for k, v in pairs(fields) do if k ~= "animate" then r[k] = v end end
  for _, a in ipairs(list) do
    local v = motion.at(a, self.time or 0, self.total or self.duration or 0)
    if a.kind == "palette" then
      if type(v) == "table" then r.palette, r.palette_mix = v[1], { v[1], v[2], v[3], anim = a }
      else r.palette, r.palette_mix = v, { v, v, 0, anim = a } end
    elseif a.kind == "variations" then
      local vars = {}
      for k, x in pairs(r.variations or {}) do vars[k] = x end
      local objs = {}
      for k, o in pairs(r.variations_obj or {}) do objs[k] = o end
      for k, x in pairs(v) do vars[k] = x; objs[k] = a.obj end
      r.variations, r.variations_obj = vars, objs
    else
      r[a.attribute] = v
    end
  end
  return r
end

-- The end of the document's last animation that has one (seconds), and the first
-- animation that runs to the document's end (which needs a duration).
function Document:animations_end()
  local last, open = nil, nil
  local function scan(list)
    for _, a in ipairs(list or {}) do
      local e = motion.ends(a)
      if e then last = math.max(last or 0, e) else open = open or a end
    end
  end
  for _, st in pairs(self.styles) do scan(st.fields.animate) end
  for _, pg in ipairs(self.pages) do
    for _, fr in ipairs(pg.frames) do
      scan(fr.fields.animate); scan(fr.moves)
      for _, p in ipairs(fr.paras) do
        scan(p.fields.animate)
        for _, r in ipairs(p.runs) do for _, l in ipairs(r.layers) do scan(l.fields.animate) end end
      end
    end
  end
  return last, open
end

-- Tags of the axes that the style properties move, for the warnings.
local PROPERTY_AXES = { weight = "wght", font_width = "wdth", slant = "slnt", italic = "ital", optical_size = "opsz" }

-- The font `font` (a Font, a chain or a stack) of a run with the resolved style `s`, at
-- `size` points: an instance (chromatype.variable, shared across the document and with
-- chromatype.layout) at the location its `variations` and its properties (weight, width,
-- slant, italic, optical size) give.  Variations reach every run below the element that
-- sets them, whatever its font; an axis that no font they reach has is an error at that
-- element (`s.variations_obj`: tag -> element), raised by check_axes once the document is
-- laid out.  A property whose axis no font of the run has is a warning (once per font):
-- the font's own design stands.
function Document:vary(s, font, size, obj)
  local vars = s.variations or {}
  local ok, inst, took = pcall(variable.instance, font, variable.soft_axes(s, size), vars,
    variable.faces(s))
  if not ok then
    fail(next(vars) and s.variations_obj[next(vars)] or obj, "variations: " .. tostring(inst))
  end
  self.axes_seen = self.axes_seen or {}
  local first = stack.is_stack(font) and font.lead or (type(font) == "table" and font[1]) or font
  if stack.is_stack(first) then first = first.lead end
  for tag in pairs(vars) do
    local o = s.variations_obj[tag]
    local seen = self.axes_seen[o]
    if not seen then seen = { fonts = {} }; self.axes_seen[o] = seen end
    seen[tag] = seen[tag] or took[tag] or false
    seen.fonts[first] = true
  end
  for _, k in ipairs(variable.PROPERTIES) do
    local tag = PROPERTY_AXES[k]
    if s[k] ~= nil and type(s[k]) ~= "string" and not took[tag] and vars[tag] == nil then
      self.axis_warned = self.axis_warned or {}
      local name = first:info().path:match("[^/]*$")
      local key = name .. "\0" .. k
      if not self.axis_warned[key] then
        self.axis_warned[key] = true
        layout.warn(("%s%s: %s has no '%s' axis, nor fontconfig a face of its family for it: its own design is used"):format(obj.where or "",
          k == "font_width" and "width" or k:gsub("_", "-"), name, tag))
      end
    end
  end
  return inst
end

-- Raises at the element whose variations name an axis none of the fonts they reach has.
function Document:check_axes()
  for o, seen in pairs(self.axes_seen or {}) do
    for tag, found in pairs(seen) do
      if tag ~= "fonts" and not found then
        local names = {}
        for f in pairs(seen.fonts) do
          local have = {}
          for _, a in ipairs(f:axes()) do have[#have + 1] = a.tag end
          names[#names + 1] = ("%s (%s)"):format(f:info().path:match("[^/]*$"),
            #have > 0 and "axes " .. table.concat(have, ", ") or "no axes")
        end
        table.sort(names)
        fail(o, ("variations: no font here has the axis '%s': %s"):format(tag, table.concat(names, "; ")))
      end
    end
  end
end

-- The palette and overrides of a run whose palette moves (`mix` = {from, to, fraction,
-- anim =}): two palettes mixed entry by entry in OKLab; the run's own overrides on top.
-- Every palette the animation names must be one of the font's (a font without palettes,
-- inheriting the motion, is left alone).
function Document:blend(font, mix, overrides)
  local f = stack.is_stack(font) and font.lead or (type(font) == "table" and font[1]) or font
  local a = mix.anim
  if f:palette_count() == 0 then return nil, overrides end   -- no colors to move
  for _, v in ipairs(a.values) do
    local ok, idx = pcall(f.find_palette, f, v)
    if not ok or not idx then
      local n = f:palette_count()
      fail(a.obj, ("palette: %s has no palette '%s' (%s)"):format(f:info().path, tostring(v),
        n > 0 and ("it has %d: 0..%d"):format(n, n - 1) or "it has no palettes"))
    end
  end
  if mix[3] <= 0 or mix[1] == mix[2] then return mix[1], overrides end
  local ov = palette.mix(f, mix[1], mix[2], mix[3], "oklab")
  for k, v in pairs(overrides or {}) do ov[k] = v end
  return mix[1], ov
end

local function merge(base, over)
  local r = {}
  for k, v in pairs(base) do r[k] = v end
  for k, v in pairs(over) do r[k] = v end
  if over.size and not over.leading and not over.leading_factor and base.leading_factor == nil then
    r.leading = nil            -- a new size without a leading: 1.2 × the new size
  end
  if over.leading_factor then r.leading = nil end
  if over.leading then r.leading_factor = nil end
  if over.palette ~= nil and over.palette_mix == nil then r.palette_mix = nil end
  if base.variations and over.variations then     -- axis by axis
    local v = {}
    for k, x in pairs(base.variations) do v[k] = x end
    for k, x in pairs(over.variations) do v[k] = x end
    r.variations = v
    local o = {}
    for k, x in pairs(base.variations_obj or {}) do o[k] = x end
    for k, x in pairs(over.variations_obj or {}) do o[k] = x end
    r.variations_obj = o
  end
  return r
end

--- Defines a named layered font stack (see chromatype.stack), usable as a font name in
--- styles (`font = "wood"`, or in a chain `"wood; Noto Color Emoji"`).  `layers` is a Stack
--- or the table ct.stack takes; layer fonts may be paths (relative to `base_dir`) or names.
function Document:stack(name, layers)
  if type(name) ~= "string" or name == "" then argerr("stack", 1, "a stack name expected") end
  if stack.is_stack(layers) then self.stacks[name] = layers; return self end
  if type(layers) ~= "table" then argerr("stack", 2, "a Stack or a table of layers expected") end
  local where = layers._where
  local t = {}
  for k, v in pairs(layers) do if k ~= "_where" then t[k] = v end end
  local obj = { where = where, what = ("stack '%s'"):format(name) }
  for i, l in ipairs(t) do
    if type(l) == "table" and type(l.font) == "string" then
      local nl = {}
      for k, v in pairs(l) do nl[k] = v end
      nl.font = self:open_font(l._where and { where = l._where } or obj, l.font)
      nl._where = nil
      t[i] = nl
    end
  end
  local ok, s = pcall(stack.new, t)
  if not ok then fail(obj, (tostring(s):gsub("^bad argument #%d+ to 'stack' %((.*)%)$", "%1"))) end
  self.stacks[name] = s
  return self
end

--- Defines (or redefines) a named style.  Fields: `parent` (a style name), `font` (a Font,
--- a name or path, "A; B" or a list: a fallback chain), `size`, `leading` (a length or
--- "120%"), `color`, `palette`, `overrides`, `align`, `tracking`, `features`, `language`,
--- `direction`, `hyphenate`, `indent`, `format`.  The style named "default" is the base of
--- every frame.
function Document:style(name, fields)
  if type(name) ~= "string" or name == "" then argerr("style", 1, "a style name expected") end
  fields = fields or {}
  if type(fields) ~= "table" then argerr("style", 2, "table expected, got " .. type(fields)) end
  local where = fields._where
  fields._where = nil
  check_keys(fields, STYLE_ALLOWED, "style", 2)
  local obj = { where = where, what = ("style '%s'"):format(name) }
  local parent = fields.parent
  local f = {}
  for k, v in pairs(fields) do if k ~= "parent" then f[k] = v end end
  self.styles[name] = { obj = obj, parent = parent, fields = self:style_fields(obj, f) }
  return self
end

-- The resolved fields of the style named `name` (parents first).
function Document:resolve(obj, name, seen)
  local st = self.styles[name]
  if not st then
    local names = sorted_keys(self.styles)
    fail(obj, ("unknown style '%s'%s"):format(name,
      names ~= "" and " (defined: " .. names .. ")" or " (no styles defined)"))
  end
  if st.resolved then return st.resolved end
  seen = seen or {}
  if seen[name] then fail(st.obj, ("style '%s' inherits from itself"):format(name)) end
  seen[name] = true
  local base = {}
  if st.parent then base = self:resolve(st.obj, st.parent, seen) end
  st.resolved = merge(base, self:at(st.fields))
  return st.resolved
end

M.merge = merge

return M
