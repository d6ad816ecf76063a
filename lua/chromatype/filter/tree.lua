-- chromatype.filter.tree: the element tree filters walk, built from typeset sheets
-- (Document, Page, Frame, Paragraph, Run), with the glyphs and layers made when asked for.
-- It calls no filter and draws nothing.

local M = {}

-- ---- the element tree -------------------------------------------------------------------

local function is_stack(v)
  local mt = getmetatable(v)
  return type(v) == "table" and type(mt) == "table" and mt.__name == "chromatype.Stack"
end

--- Whether a font value is a layered font stack (chromatype.stack).
M.is_stack = is_stack

local upem_of = setmetatable({}, { __mode = "k" })
local function upem(font)
  local u = upem_of[font]
  if not u then u = font:info().units_per_em; upem_of[font] = u end
  return u
end

local RUN_COPY = { "palette", "overrides", "color", "format", "features", "language", "tracking", "size" }

-- The shaping key of a run: when it changes, the glyphs are made again.
local function shape_key(run)
  return table.concat({ tostring(run.text), tostring(run.font), tostring(run.size), run.features or "",
    run.script or "", run.language or "", run.direction or "", tostring(run.tracking or 0) }, "\0")
end

--- Builds the element tree of typeset sheets (see chromatype.document): a Document with
--- Pages, Frames, Paragraphs and Runs (glyphs and layers come when a filter asks for them).
--- `first` is the number of the first sheet (for a document typeset page by page).
function M.build(doc, sheets, first)
  local d = { kind = "Document", pages = {}, meta = doc and doc.meta or {}, model = doc }
  first = first or 1
  for si, sh in ipairs(sheets) do
    local page = { kind = "Page", index = first + si - 1, width = sh.width, height = sh.height, frames = {},
      sheet = sh }
    for fi, fr in ipairs(sh.frames) do
      local frame = { kind = "Frame", index = fi, x = fr.x, y = fr.y, width = fr.width, height = fr.height,
        paragraphs = {}, model = fr.frame }
      local by_para, order = {}, {}
      for li, line in ipairs(fr.lines) do
        local pi = line.paragraph or 1
        local para = by_para[pi]
        if not para then
          para = { kind = "Paragraph", index = #order + 1, lines = {}, runs = {} }
          by_para[pi] = para
          order[#order + 1] = para
        end
        local l = { index = #para.lines + 1, frame_line = li, x = line.x, y = line.y, width = line.width,
          text = line.text, rtl = line.rtl, runs = {} }
        para.lines[#para.lines + 1] = l
        for _, it in ipairs(line.items) do
          local r = it.run
          local run = { kind = "Run", text = it.text, font = it.font, x = it.x, y = line.y, width = it.width,
            script = it.script, direction = it.direction, word = it.word, start = it.start, line = l, style = r,
            rand = it.rand }
          for _, k in ipairs(RUN_COPY) do run[k] = r[k] end
          if it.features then run.features = it.features end
          run.size = run.size or 12
          -- the glyphs layout shaped with the paragraph, while nothing that shapes changes
          if it.glyphs then run.layout_glyphs, run.layout_key = it.glyphs, shape_key(run) end
          l.runs[#l.runs + 1] = run
          para.runs[#para.runs + 1] = run
        end
      end
      frame.paragraphs = order
      page.frames[#page.frames + 1] = frame
    end
    d.pages[#d.pages + 1] = page
  end
  return d
end

local tree_copy
tree_copy = function(t, seen)
  if type(t) ~= "table" then return t end
  seen = seen or {}
  if seen[t] then return seen[t] end
  local c = {}
  seen[t] = c
  for k, v in pairs(t) do c[k] = tree_copy(v, seen) end
  return c
end
M.copy = tree_copy

--- The glyphs of a run: `{kind = "Glyph", gid =, cluster =, text =, x =, y =, advance =, font =,
--- size =, color =, palette =, overrides =}`, x and y on the page (points, y down).
function M.glyphs_of(run)
  local font = run.font
  local so = { features = run.features, script = run.script, language = run.language, direction = run.direction }
  local shaped
  local tracking = run.tracking or 0
  local scale = run.size / upem(font)
  if run.layout_glyphs and run.layout_key == shape_key(run) then
    shaped = run.layout_glyphs
  else
    shaped = font:shape(run.text, so)
  end
  local starts = {}
  for _, g in ipairs(shaped) do starts[g.cluster] = true end
  local sorted = {}
  for c in pairs(starts) do sorted[#sorted + 1] = c end
  table.sort(sorted)
  local ends = {}
  for i, c in ipairs(sorted) do ends[c] = sorted[i + 1] or #run.text + 1 end
  local out, x = {}, run.x
  for i, g in ipairs(shaped) do
    out[i] = { kind = "Glyph", gid = g.gid, cluster = g.cluster, text = run.text:sub(g.cluster, ends[g.cluster] - 1),
      x = x + g.x_offset * scale, y = run.y - g.y_offset * scale, advance = g.x_advance * scale,
      font = font, size = run.size, color = run.color, palette = run.palette, overrides = run.overrides,
      format = run.format, run = run }
    x = x + g.x_advance * scale + tracking
  end
  run.shaped_as = shape_key(run)
  return out
end

--- The layers of a glyph: `{kind = "Layer", index =, paint = tree, font =, color =, offset =,
--- hidden =}`.  A color glyph's top-level layers (COLRv0 layers, a COLRv1 PaintColrLayers,
--- SVG element layers) are its layers; other glyphs have one; a stack glyph has one per
--- stack layer.
function M.layers_of(g)
  local out = {}
  if is_stack(g.font) then
    local s = g.font
    local cp = utf8.codepoint(g.text ~= "" and g.text or " ")
    for i, layer in ipairs(s.layers) do
      local lg = s:layer_glyph(layer, g.gid, cp)
      if lg then
        out[#out + 1] = { kind = "Layer", index = i, font = layer.font, gid = lg,
          paint = layer.font:paint(lg, { format = layer.format or "auto" }), color = layer.color,
          palette = layer.palette, overrides = layer.overrides, hidden = layer.hidden, name = layer.label or layer.name,
          offset = { layer.dx * g.size, layer.dy * g.size }, stacked = true }
      else
        s:note(layer, "missing", g.gid)
      end
    end
    s:report()
    return out
  end
  local tree = g.font:paint(g.gid, { format = g.format or "auto" })
  if tree.kind == "layers" then
    for i, child in ipairs(tree.children) do
      out[i] = { kind = "Layer", index = i, font = g.font, paint = child }
    end
  else
    out[1] = { kind = "Layer", index = 1, font = g.font, paint = tree }
  end
  return out
end

M.upem, M.shape_key = upem, shape_key

return M
