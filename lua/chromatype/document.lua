--- chromatype.document: an XML vocabulary for pages of color text.
-- `<document>` holds `<style>`s and `<page>`s; pages hold `<frame>`s; frames hold
-- `<p>` paragraphs of text, `<span>` runs and `<br/>`.  The whole vocabulary is in
-- docs/documents.md.  Every error is one line "FILE:LINE: <elem>: message".
-- @module chromatype.document

local ct = require "chromatype"
local paper = require "chromatype.paper"
local layout = require "chromatype.layout"

local M = {}

-- ---- the vocabulary ----------------------------------------------------------------

local STYLE_ATTRS = { "font", "size", "leading", "color", "palette", "align", "tracking", "features" }

local function list(...)
  local s = {}
  for _, l in ipairs({ ... }) do for _, k in ipairs(l) do s[#s + 1] = k end end
  return s
end

local ATTRS = {
  document = { "title", "author", "subject", "keywords", "size", "orientation", "margin", "bleed",
               "crop-marks", "background" },
  style = list({ "name", "parent" }, STYLE_ATTRS),
  page = { "size", "orientation", "background" },
  frame = { "x", "y", "width", "height", "valign", "style" },
  p = list({ "style", "indent" }, STYLE_ATTRS),
  span = list({ "style" }, STYLE_ATTRS),
  br = {},
}
local ALLOWED = {}
for el, attrs in pairs(ATTRS) do
  ALLOWED[el] = {}
  for _, a in ipairs(attrs) do ALLOWED[el][a] = true end
end

local Doc = {}
Doc.__index = Doc

-- Raises "FILE:LINE: <elem>: msg" (no position prefix from Lua).
function Doc:fail(node, msg)
  error(("%s:%d: <%s>: %s"):format(self.name, node.line or 0, node.tag, msg), 0)
end

function Doc:check_attrs(node)
  local allowed = ALLOWED[node.tag]
  local keys = {}
  for k in pairs(node.attrs) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    if not allowed[k] then
      local names = ATTRS[node.tag]
      self:fail(node, ("unknown attribute '%s'%s"):format(k,
        #names > 0 and " (expected " .. table.concat(names, ", ") .. ")" or " (it takes none)"))
    end
  end
end

-- Children elements, refusing text that is not white space.
function Doc:elements(node, allowed)
  local out = {}
  for _, c in ipairs(node.children) do
    if type(c) == "string" then
      if c:find("%S") then self:fail(node, ("text outside a <p>: '%s'"):format(c:match("%S[^\n]*"):sub(1, 40))) end
    else
      if not allowed[c.tag] then
        local want = {}
        for k in pairs(allowed) do want[#want + 1] = "<" .. k .. ">" end
        table.sort(want)
        self:fail(c, ("unknown element here (in <%s>: %s)"):format(node.tag, table.concat(want, ", ")))
      end
      self:check_attrs(c)
      out[#out + 1] = c
    end
  end
  return out
end

-- ---- values -----------------------------------------------------------------------

function Doc:length(node, attr, min)
  local v = node.attrs[attr]
  if v == nil then return nil end
  local n, err = paper.parse_length(v)
  if not n then self:fail(node, attr .. ": " .. err) end
  if min and n < min then self:fail(node, ("%s: must be at least %g pt, got '%s'"):format(attr, min, v)) end
  return n
end

function Doc:enum(node, attr, values)
  local v = node.attrs[attr]
  if v == nil then return nil end
  for _, ok in ipairs(values) do if v == ok then return v end end
  self:fail(node, ("%s: expected %s, got '%s'"):format(attr, table.concat(values, ", "), v))
end

function Doc:color(node, attr)
  local v = node.attrs[attr]
  if v == nil then return nil end
  if not pcall(ct.parse_color, v) then
    self:fail(node, ("%s: bad color '%s' (expected #RRGGBB or #RRGGBBAA)"):format(attr, v))
  end
  return v
end

function Doc:font(node, name)
  local f = self.fonts[name]
  if f then return f end
  local path = name
  if self.dir and not name:match("^/") and name:find("/") then
    local cand = self.dir .. "/" .. name
    local h = io.open(cand, "rb")
    if h then h:close(); path = cand end
  end
  local font, err = ct.open_font(path)
  if not font then self:fail(node, ("font: %s"):format(err)) end
  self.fonts[name] = font
  return font
end

-- Style attributes of a node as a table of run fields (only those present).
function Doc:style_fields(node)
  local s = {}
  local a = node.attrs
  if a.font then s.font = self:font(node, a.font) end
  s.size = self:length(node, "size", 0.01)
  if a.leading then
    local pct = a.leading:match("^%s*([%d.]+)%%%s*$")
    if pct then s.leading_factor = tonumber(pct) / 100
      if not s.leading_factor then self:fail(node, "leading: bad percentage '" .. a.leading .. "'") end
    else s.leading = self:length(node, "leading", 0) end
  end
  s.color = self:color(node, "color")
  if a.palette then s.palette = math.tointeger(tonumber(a.palette)) or a.palette end
  s.align = self:enum(node, "align", { "left", "right", "center", "justify" })
  s.tracking = self:length(node, "tracking")
  s.features = a.features
  return s
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
  return r
end

-- The resolved fields of the style named `name` (parents first).
function Doc:style(node, name, seen)
  local st = self.styles[name]
  if not st then
    local names = {}
    for k in pairs(self.styles) do names[#names + 1] = k end
    table.sort(names)
    self:fail(node, ("unknown style '%s'%s"):format(name,
      #names > 0 and " (defined: " .. table.concat(names, ", ") .. ")" or " (no styles defined)"))
  end
  if st.resolved then return st.resolved end
  seen = seen or {}
  if seen[name] then self:fail(st.node, ("style '%s' inherits from itself"):format(name)) end
  seen[name] = true
  local base = {}
  if st.node.attrs.parent then base = self:style(st.node, st.node.attrs.parent, seen) end
  st.resolved = merge(base, st.fields)
  return st.resolved
end

-- ---- text ------------------------------------------------------------------------------

-- Collects the runs of a <p> (and its <span>s) into `runs`.
function Doc:collect(node, style, runs)
  for _, c in ipairs(node.children) do
    if type(c) == "string" then
      local t = c:gsub("%s+", " ")
      if t ~= "" then runs[#runs + 1] = { text = t, style = style, node = node } end
    else
      if c.tag ~= "span" and c.tag ~= "br" then
        self:fail(c, ("unknown element here (in <%s>: <span>, <br>)"):format(node.tag))
      end
      self:check_attrs(c)
      if c.tag == "br" then
        if #c.children > 0 then self:fail(c, "must be empty") end
        runs[#runs + 1] = { text = "\u{2028}", style = style, node = c }
      else
        local s = style
        if c.attrs.style then s = merge(s, self:style(c, c.attrs.style)) end
        s = merge(s, self:style_fields(c))
        self:collect(c, s, runs)
      end
    end
  end
end

-- Trims white space at the start and end of the paragraph and around line breaks.
local function trim(runs)
  local at_start = true
  for _, r in ipairs(runs) do
    if r.text == "\u{2028}" then at_start = true
    elseif at_start then
      r.text = r.text:gsub("^ +", "")
      if r.text ~= "" then at_start = false end
    end
  end
  local at_end = true
  for i = #runs, 1, -1 do
    local r = runs[i]
    if r.text == "\u{2028}" then at_end = true
    elseif at_end then
      r.text = r.text:gsub(" +$", "")
      if r.text ~= "" then at_end = false end
    end
  end
  local out = {}
  for _, r in ipairs(runs) do if r.text ~= "" then out[#out + 1] = r end end
  return out
end

function Doc:paragraph(p, frame_style)
  local style = frame_style
  if p.attrs.style then style = merge(style, self:style(p, p.attrs.style)) end
  style = merge(style, self:style_fields(p))
  local runs = trim((function() local r = {}; self:collect(p, style, r); return r end)())
  local para = { align = style.align, first_line_indent = self:length(p, "indent") }
  for _, r in ipairs(runs) do
    local s = r.style
    if not s.font then
      self:fail(r.node, "no font (give font= here, or in a <style> it uses)")
    end
    local size = s.size or 12
    local leading = s.leading or (s.leading_factor and s.leading_factor * size) or nil
    para[#para + 1] = { text = r.text, font = s.font, size = size, leading = leading,
      tracking = s.tracking, color = s.color, palette = s.palette, features = s.features }
  end
  return para
end

-- ---- pages --------------------------------------------------------------------------------

function Doc:page_size(node, default_w, default_h)
  local size, orient = node.attrs.size, self:enum(node, "orientation", { "portrait", "landscape" })
  if not size then
    if orient then
      local w, h = default_w, default_h
      if (orient == "landscape") == (w < h) then w, h = h, w end
      return w, h
    end
    return default_w, default_h
  end
  local a, b = size:match("^%s*(%S+)%s*[x ]%s*(%S+)%s*$")
  if a and b then
    local w, e1 = paper.parse_length(a)
    local h, e2 = paper.parse_length(b)
    if not w or not h then self:fail(node, "size: " .. (e1 or e2)) end
    if w <= 0 or h <= 0 then self:fail(node, "size: sides must be positive") end
    return w, h
  end
  local ok, w, h = pcall(paper.size, size, orient)
  if not ok then
    self:fail(node, "size: " .. tostring(w):gsub("^bad argument #1 to 'size' %((.*)%)$", "%1"))
  end
  return w, h
end

function Doc:frame(c, fr, ox, oy, trim_w, trim_h, margin)
  local x = self:length(fr, "x") or margin
  local y = self:length(fr, "y") or margin
  local w = self:length(fr, "width", 0.01) or trim_w - x - margin
  local h = self:length(fr, "height", 0) or trim_h - y - margin
  if w <= 0 then self:fail(fr, "width: the frame has no room (check x, width and the margin)") end
  if h < 0 then h = 0 end
  local valign = self:enum(fr, "valign", { "top", "middle", "bottom" })
  local style = self.base
  if fr.attrs.style then style = merge(style, self:style(fr, fr.attrs.style)) end
  local paras = {}
  for _, p in ipairs(self:elements(fr, { p = true })) do
    paras[#paras + 1] = self:paragraph(p, style)
  end
  local ok, lines, over = pcall(layout.paragraphs, paras,
    { width = w, height = h, x = ox + x, y = oy + y, valign = valign, font = style.font,
      size = style.size }, "frame")
  if not ok then self:fail(fr, tostring(lines)) end
  if over then
    local n = 0
    for _, r in ipairs(over) do n = n + utf8.len(r.text) end
    io.stderr:write(("chromatype: warning: %s:%d: <frame>: the text overflows (%d characters not drawn)\n")
      :format(self.name, fr.line, n))
  end
  local okd, err = pcall(layout.draw_lines, c, lines)
  if not okd then self:fail(fr, tostring(err)) end
end

-- Crop marks: 0.25 pt lines on the trim lines, in the bleed, at the four corners.
local function crop_marks(c, bleed, tw, th)
  local t = 0.25
  local x0, y0, x1, y1 = bleed, bleed, bleed + tw, bleed + th
  local len = bleed
  for _, cx in ipairs({ x0, x1 }) do
    for _, cy in ipairs({ y0, y1 }) do
      local hx = cx == x0 and 0 or x1        -- horizontal mark, outside the trim
      local vy = cy == y0 and 0 or y1
      c:rect { x = hx, y = cy - t / 2, w = len, h = t, color = "#000000" }
      c:rect { x = cx - t / 2, y = vy, w = t, h = len, color = "#000000" }
    end
  end
end

--- Renders a document.
-- @tparam string xml the document text
-- @tparam[opt] string name its file name, for messages and relative font paths
-- @tparam[opt] string out_path where to write: .pdf, .png (one file per page: name-1.png, ...),
--   .svg, or "-" (PDF on standard output); absent: no file
-- @tparam[opt] table opts `dpi` (PNG), `format` ("pdf", "png", "svg")
-- @treturn Canvas the canvas (every page), then `true` or `nil, msg` from canvas:write
function M.render(xml, name, out_path, opts)
  if type(xml) ~= "string" then
    error(("bad argument #1 to 'render' (string expected, got %s)"):format(type(xml)), 2)
  end
  name = name or "<document>"
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "dpi" and k ~= "format" then
      error(("bad argument #4 to 'render' (unknown field '%s' (expected dpi, format))"):format(tostring(k)), 2)
    end
  end
  local root, err = ct.parse_xml(xml, name)
  if not root then error(err, 0) end
  local self = setmetatable({ name = name, fonts = {}, styles = {},
    dir = name:match("^(.*)/[^/]*$") }, Doc)
  if root.tag ~= "document" then
    self:fail(root, "the root element must be <document>")
  end
  self:check_attrs(root)
  local kids = self:elements(root, { style = true, page = true })

  -- styles first (they may be used before they are defined)
  for _, el in ipairs(kids) do
    if el.tag == "style" then
      if #el.children > 0 then
        for _, ch in ipairs(el.children) do
          if type(ch) ~= "string" or ch:find("%S") then self:fail(el, "must be empty") end
        end
      end
      local n = el.attrs.name
      if not n or n == "" then self:fail(el, "needs a name= attribute") end
      if self.styles[n] then self:fail(el, ("style '%s' is defined twice"):format(n)) end
      self.styles[n] = { node = el, fields = self:style_fields(el) }
    end
  end
  self.base = self.styles.default and self:style(root, "default") or {}

  local tw, th = self:page_size(root, paper.size("A4"))
  local margin = self:length(root, "margin", 0) or paper.parse_length("15mm")
  local bleed = self:length(root, "bleed", 0) or 0
  local marks = self:enum(root, "crop-marks", { "yes", "no" }) == "yes"
  local doc_bg = self:color(root, "background")

  local pages = {}
  for _, el in ipairs(kids) do if el.tag == "page" then pages[#pages + 1] = el end end
  if #pages == 0 then self:fail(root, "has no <page>") end

  local c = ct.canvas { width = tw + 2 * bleed, height = th + 2 * bleed }
  for i, pg in ipairs(pages) do
    local pw, ph = self:page_size(pg, tw, th)
    if math.abs(pw - tw) > 0.01 or math.abs(ph - th) > 0.01 then
      self:fail(pg, "size: pages of different sizes are not supported yet")
    end
    if i > 1 then c:new_page() end
    local bg = self:color(pg, "background") or doc_bg
    if bg then c:background(bg) end
    for _, fr in ipairs(self:elements(pg, { frame = true })) do
      self:frame(c, fr, bleed, bleed, tw, th, margin)
    end
    if marks and bleed > 0 then crop_marks(c, bleed, tw, th) end
  end

  if not out_path then return c, true end
  local wo = { title = root.attrs.title, author = root.attrs.author, subject = root.attrs.subject,
    keywords = root.attrs.keywords, dpi = opts.dpi, format = opts.format }
  if out_path == "-" and not wo.format then wo.format = "pdf" end
  local ext = out_path:match("%.(%w+)$")
  if ext and ext:lower() ~= "pdf" then
    wo.title, wo.author, wo.subject, wo.keywords = nil, nil, nil, nil
  end
  if wo.format and wo.format ~= "pdf" then
    wo.title, wo.author, wo.subject, wo.keywords = nil, nil, nil, nil
  end
  return c, c:write(out_path, wo)
end

return M
