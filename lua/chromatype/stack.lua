--- chromatype.stack: layered font families as one font.
-- Chromatic wood type and its digital heirs (Bungee's Regular, Inline, Shade, Outline,
-- Hairline) print one color per font, each layer on top of the last.  A stack shapes the
-- text once, with the font chosen to lead the metrics, and draws every layer's glyph at the
-- lead's glyph positions, found by glyph name (or by character), layer by layer (a layer is
-- printed across the whole line before the next, as on a press).  Layers can be recolored,
-- offset (in em) or hidden.  Where the layer fonts disagree with the lead (advances,
-- missing glyphs) the stack says so, once per layer font, naming the fonts and glyphs.
-- A stack works wherever a Font does: canvas:text, chromatype.layout, documents.
-- @module chromatype.stack

local ct = require "chromatype"

local M = {}

local Stack = {}
Stack.__index = Stack
Stack.__name = "chromatype.Stack"
M.Stack = Stack

local LAYER_KEYS = { font = true, color = true, offset = true, hidden = true, palette = true,
  overrides = true, format = true, name = true }
local STACK_KEYS = { lead = true, match = true, warn = true }

local function argerr(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

local function is_font(v)
  return type(v) == "userdata" and tostring(v):find("^chromatype%.Font") ~= nil
end

--- Whether `v` is a Stack.
function M.is_stack(v) return getmetatable(v) == Stack end

local function basename(p) return (p:match("([^/]*)$")) end

--- A new stack.  `layers` is a list, bottom layer first, of `{font =, color =, offset = {x, y},
--- hidden =, palette =, overrides =, format =, name =}`: `font` a Font or a name/path for
--- ct.open_font, `color` the layer's text color (monochrome fonts draw in it), `offset` in em
--- (x right, y down), `palette`, `overrides`, `format` as in canvas:text for color layers.
--- Options in the same table: `lead` (the index of the layer whose metrics lead; default 1),
--- `match` ("name", the default, or "cmap": find each layer's glyph by character) and `warn`
--- (false: no warnings for mismatches, e.g. a shade font wider by design; `check` still
--- reports them).
-- @treturn Stack
function M.new(t)
  if type(t) ~= "table" then argerr("stack", 1, "table expected, got " .. type(t)) end
  for k in pairs(t) do
    if math.type(k) ~= "integer" and not STACK_KEYS[k] then
      argerr("stack", 1, ("unknown field '%s' (expected lead, match, warn, and the layers)"):format(tostring(k)))
    end
  end
  if #t == 0 then argerr("stack", 1, "a stack needs at least one layer") end
  local self = setmetatable({ layers = {}, warned = {} }, Stack)
  for i, l in ipairs(t) do
    if type(l) ~= "table" then argerr("stack", 1, ("layer %d: table expected"):format(i)) end
    for k in pairs(l) do
      if not LAYER_KEYS[k] then
        argerr("stack", 1, ("layer %d: unknown field '%s' (expected font, color, offset, hidden, palette, overrides, format, name)")
          :format(i, tostring(k)))
      end
    end
    local font = l.font
    if type(font) == "string" then
      local f, err = ct.shared_font(font)
      if not f then argerr("stack", 1, ("layer %d: %s"):format(i, err)) end
      font = f
    elseif not is_font(font) then
      argerr("stack", 1, ("layer %d: field 'font': a Font or a font name expected, got %s"):format(i, type(font)))
    end
    if l.color ~= nil and not pcall(ct.parse_color, l.color) then
      argerr("stack", 1, ("layer %d: field 'color': bad color '%s'"):format(i, tostring(l.color)))
    end
    local off = l.offset or { 0, 0 }
    if type(off) ~= "table" or type(off[1] or off.x) ~= "number" or type(off[2] or off.y) ~= "number" then
      argerr("stack", 1, ("layer %d: field 'offset': {x, y} in em expected"):format(i))
    end
    local info = font:info()
    self.layers[i] = { font = font, color = l.color, dx = off[1] or off.x, dy = off[2] or off.y,
      hidden = l.hidden and true or false, palette = l.palette, overrides = l.overrides, format = l.format,
      name = l.name and (l.name .. " (" .. basename(info.path) .. ")") or basename(info.path),
      label = l.name, upem = info.units_per_em, gids = {}, names = nil }
  end
  local lead = t.lead or 1
  if math.type(lead) ~= "integer" or lead < 1 or lead > #self.layers then
    argerr("stack", 1, ("field 'lead': a layer index 1..%d expected"):format(#self.layers))
  end
  self.lead_index = lead
  self.quiet = t.warn == false
  self.lead = self.layers[lead].font
  self.match = t.match or "name"
  if self.match ~= "name" and self.match ~= "cmap" then
    argerr("stack", 1, ("field 'match': expected name or cmap, got '%s'"):format(tostring(self.match)))
  end
  return self
end

--- A stack like this one whose layer fonts are `fn(font)` (e.g. instances of a variable
--- font at another location): the same colors, offsets, lead and matching.
-- @treturn Stack
function Stack:map_fonts(fn)
  local t = { lead = self.lead_index, match = self.match, warn = not self.quiet }
  for i, l in ipairs(self.layers) do
    t[i] = { font = fn(l.font), color = l.color, offset = { l.dx, l.dy }, hidden = l.hidden,
      palette = l.palette, overrides = l.overrides, format = l.format, name = l.label }
  end
  return M.new(t)
end

function Stack:__tostring()
  local names = {}
  for i, l in ipairs(self.layers) do names[i] = l.name end
  return ("chromatype.Stack (%s; lead %s)"):format(table.concat(names, " + "), self.layers[self.lead_index].name)
end

-- ---- the Font interface (the lead's metrics) --------------------------------------------------

function Stack:info() return self.lead:info() end
function Stack:glyph(c) return self.lead:glyph(c) end
function Stack:shape(text, opts) return self.lead:shape(text, opts) end
function Stack:axes() return self.lead:axes() end
function Stack:glyph_name(gid) return self.lead:glyph_name(gid) end
function Stack:advance(gid) return self.lead:advance(gid) end
function Stack:codepoints() return self.lead:codepoints() end
function Stack:features(t) return self.lead:features(t) end
function Stack:alternates(gid, f) return self.lead:alternates(gid, f) end

-- ---- alignment ----------------------------------------------------------------------------

-- name -> gid of a font (built once per layer)
local function names_of(layer)
  if not layer.names then
    local n = {}
    local count = layer.font:info().glyph_count
    for gid = 0, count - 1 do
      local name = layer.font:glyph_name(gid)
      if name and n[name] == nil then n[name] = gid end
    end
    layer.names = n
  end
  return layer.names
end

-- The gid in `layer` for the lead's glyph `gid` (drawn for the character `cp`), or false.
function Stack:layer_glyph(layer, gid, cp)
  if layer.font == self.lead then return gid end
  local key = gid
  local v = layer.gids[key]
  if v ~= nil then return v end
  v = false
  if self.match == "name" then
    local name = self.lead:glyph_name(gid)
    if name then v = names_of(layer)[name] or false end
    if not v and cp then v = layer.font:glyph(cp) or false end
  elseif cp then
    v = layer.font:glyph(cp) or false
  end
  layer.gids[key] = v
  return v
end

-- Records a mismatch (reported by `report`): kind "missing" or "advance".
function Stack:note(layer, kind, gid, lgid)
  local w = self.warned[layer]
  if not w then w = { missing = {}, advance = {}, nmissing = 0, nadvance = 0 }; self.warned[layer] = w end
  if w[kind][gid] then return end
  w[kind][gid] = true
  w["n" .. kind] = w["n" .. kind] + 1
  if not w["first_" .. kind] then w["first_" .. kind] = { gid = gid, lgid = lgid } end
  w.dirty = true
end

--- Checks that every layer has the lead's glyphs for `text`, with the same advances.
-- @treturn table a list of messages (empty when the layers agree)
function Stack:check(text)
  local glyphs = self.lead:shape(text)
  local cps = {}
  for p, cp in utf8.codes(text) do cps[p] = cp end
  for _, g in ipairs(glyphs) do
    for _, layer in ipairs(self.layers) do
      if layer.font ~= self.lead then
        local lg = self:layer_glyph(layer, g.gid, cps[g.cluster])
        if not lg then self:note(layer, "missing", g.gid)
        elseif layer.font:advance(lg) * (self.layers[self.lead_index].upem / layer.upem)
               ~= self.lead:advance(g.gid) then
          self:note(layer, "advance", g.gid, lg)
        end
      end
    end
  end
  return self:messages()
end

-- The message for one layer and kind; `count` adds the number of glyphs.
function Stack:message(layer, kind, count)
  local w = self.warned[layer]
  local lead = self.layers[self.lead_index]
  local n = count and (" %d glyph%s"):format(w["n" .. kind], w["n" .. kind] == 1 and "" or "s") or ""
  if kind == "missing" then
    local f = w.first_missing
    return ("stack: %s lacks%s of the lead %s (first '%s'); that layer leaves them out")
      :format(layer.name, n ~= "" and n or " glyphs", lead.name, self.lead:glyph_name(f.gid) or ("gid " .. f.gid))
  end
  local f = w.first_advance
  return ("stack: %s: advances differ from the lead %s%s (first '%s': %g vs %g units); drawn at the lead's positions")
    :format(layer.name, lead.name, n ~= "" and " for" .. n or "", self.lead:glyph_name(f.gid) or ("gid " .. f.gid),
      layer.font:advance(f.lgid), self.lead:advance(f.gid))
end

--- The mismatches found so far, one message per layer font and kind, with counts.
function Stack:messages()
  local out = {}
  for _, layer in ipairs(self.layers) do
    local w = self.warned[layer]
    if w then
      if w.nmissing > 0 then out[#out + 1] = self:message(layer, "missing", true) end
      if w.nadvance > 0 then out[#out + 1] = self:message(layer, "advance", true) end
    end
  end
  return out
end

-- Sends each kind of mismatch of each layer to the warning handler, once (unless the stack
-- was made with warn = false).
function Stack:report()
  if self.quiet then return end
  for _, layer in ipairs(self.layers) do
    local w = self.warned[layer]
    if w and w.dirty then
      w.dirty = false
      for _, kind in ipairs({ "missing", "advance" }) do
        if w["n" .. kind] > 0 and not w["told_" .. kind] then
          w["told_" .. kind] = true
          require("chromatype.layout").warn(self:message(layer, kind))
        end
      end
    end
  end
end

-- ---- drawing -------------------------------------------------------------------------------

local tree_cache = setmetatable({}, { __mode = "k" })

local function tree_of(font, gid, format)
  local per = tree_cache[font]
  if not per then per = {}; tree_cache[font] = per end
  local key = (format or "auto") .. ":" .. gid
  local t = per[key]
  if not t then t = font:paint(gid, { format = format or "auto" }); per[key] = t end
  return t
end

--- The positioned glyphs of `text` shaped with the lead: {{gid =, cluster =, x =, y =}, ...}
--- in points from the pen origin (tracking after every glyph), and the advance.
function Stack:place(text, size, opts)
  local so = nil
  if opts and (opts.features or opts.script or opts.language or opts.direction) then
    so = { features = opts.features, script = opts.script, language = opts.language, direction = opts.direction }
  end
  local glyphs = self.lead:shape(text, so)
  local scale = size / self.layers[self.lead_index].upem
  local tracking = opts and opts.tracking or 0
  local x, out = 0, {}
  for i, g in ipairs(glyphs) do
    out[i] = { gid = g.gid, cluster = g.cluster, x = x + g.x_offset * scale, y = -g.y_offset * scale }
    x = x + g.x_advance * scale + tracking
  end
  return out, x
end

--- Draws `text` on a canvas, layer by layer: `t` is canvas:text's table (`t[1]` the text,
--- `x`, `y`, `size`, `features`, `script`, `language`, `direction`, `tracking`, and `color`,
--- `palette`, `overrides` for layers that set none).  The text goes once into the PDF's text
--- layer, from the lead.  Returns the advance in points.
function Stack:draw(canvas, t)
  local text = t[1]
  local size = t.size or 12
  local x0, y0 = t.x or 0, t.y or 0
  local placed, adv = self:place(text, size, t)
  local cps = {}
  for p, cp in utf8.codes(text) do cps[p] = cp end
  local lead_upem = self.layers[self.lead_index].upem
  for _, layer in ipairs(self.layers) do
    if not layer.hidden then
      local po = { font = layer.font, size = size, color = layer.color or t.color,
        palette = layer.palette or (layer.font == self.lead and t.palette) or nil,
        overrides = layer.overrides or (layer.font == self.lead and t.overrides) or nil }
      for _, g in ipairs(placed) do
        local lg = self:layer_glyph(layer, g.gid, cps[g.cluster])
        if not lg then
          self:note(layer, "missing", g.gid)
        else
          if layer.font ~= self.lead and layer.font:advance(lg) * (lead_upem / layer.upem) ~= self.lead:advance(g.gid) then
            self:note(layer, "advance", g.gid, lg)
          end
          po.x = x0 + g.x + layer.dx * size
          po.y = y0 + g.y + layer.dy * size
          canvas:paint(tree_of(layer.font, lg, layer.format), po)
        end
      end
    end
  end
  -- the text once, invisible, for copying and searching
  canvas:text { text, font = self.lead, size = size, x = x0, y = y0, format = "mono", color = "#00000000",
    features = t.features, script = t.script, language = t.language, direction = t.direction }
  self:report()
  return adv
end

return M
