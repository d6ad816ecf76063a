-- chromatype.layout.place: paragraphs in a frame: runs checked and prepared (styles, font
-- instances, items, shaping, segments), broken into lines, stacked to the frame's height
-- (the rest is the overflow) and placed in visual order.  It knows no fitting cascade.

local ct = require "chromatype"
local variable = require "chromatype.variable"
local motion = require "chromatype.motion"
local common = require "chromatype.layout.common"
local shape = require "chromatype.layout.shape"
local itemize = require("chromatype.layout.itemize").itemize
local segments = require("chromatype.layout.segments").segments
local breaker = require "chromatype.layout.lines"

local RUN_ALLOWED, argerr, check_keys, check_num = common.RUN_ALLOWED, common.argerr, common.check_keys,
  common.check_num
local is_stack, font_chain, first_font = common.is_stack, common.font_chain, common.first_font
local font_metrics, piece_glyphs, shape_runs = shape.font_metrics, shape.piece_glyphs, shape.shape_runs
local STRETCH, SHRINK, break_lines = breaker.STRETCH, breaker.SHRINK, breaker.break_lines

local M = {}

-- ---- paragraphs in a frame ------------------------------------------------------------------

local function line_metrics(line, default_style)
  local asc, desc, lead = 0, 0, 0
  local any = false
  for _, s in ipairs(line.segs) do
    for _, f in ipairs(s.frags) do
      local st = f.item.style
      local m = font_metrics(f.item.font)
      asc = math.max(asc, m.asc * st.size / m.upem)
      desc = math.max(desc, m.desc * st.size / m.upem)
      lead = math.max(lead, st.leading or 1.2 * st.size)
      any = true
    end
  end
  if not any then                -- an empty line: the paragraph's first run, or the options
    local r = default_style
    local size = r.size or 12
    local font = first_font(r.font)
    if font then
      local m = font_metrics(font)
      asc, desc = m.asc * size / m.upem, m.desc * size / m.upem
    else
      asc, desc = 0.8 * size, 0.2 * size
    end
    lead = r.leading or 1.2 * size
  end
  return asc, desc, lead
end

local function copy_style(base, over)
  local r = {}
  for k in pairs(RUN_ALLOWED) do
    if k ~= "text" and k ~= "width" then r[k] = base[k] end
  end
  if over then
    for k, v in pairs(over) do if k ~= "text" and k ~= "width" then r[k] = v end end
    if over.width ~= nil then r.font_width = over.width end
  end
  return r
end

-- The run's fonts at the location its `variations` and properties (weight, width, slant,
-- italic, optical size) give: instances shared through chromatype.variable.
local function vary(st, chain, fname, what)
  for _, k in ipairs(variable.PROPERTIES) do
    if st[k] ~= nil then
      local v, err = variable.check(k, st[k])
      if v == nil then argerr(fname, 1, ("%sfield '%s': %s"):format(what, k, err)) end
      st[k] = v
    end
  end
  local hard = {}
  if st.variations ~= nil then
    local v, err = motion.variations(st.variations)
    if not v then argerr(fname, 1, ("%sfield 'variations': %s"):format(what, err)) end
    hard = v
  end
  local ok, out, took = pcall(variable.instance, chain, variable.soft_axes(st, st.size), hard,
    variable.faces(st))
  if not ok then argerr(fname, 1, ("%sfield 'variations': %s"):format(what, tostring(out))) end
  for tag in pairs(hard) do
    if not took[tag] then
      argerr(fname, 1, ("%sfield 'variations': no font of the run has the axis '%s'"):format(what, tag))
    end
  end
  return out
end

-- Checks one paragraph's runs and prepares it: text, styles, items, segments.
local function prepare(para, pi, base, fname, warned, adjust)
  local texts, styled = {}, {}
  local pos = 1
  for ri, r in ipairs(para) do
    local what = ("paragraph %d, run %d: "):format(pi, ri)
    if type(r) ~= "table" then argerr(fname, 1, what .. "table expected") end
    check_keys(r, RUN_ALLOWED, fname, 1, what)
    if type(r.text) ~= "string" then argerr(fname, 1, what .. "field 'text': expected string, got " .. type(r.text)) end
    if not utf8.len(r.text) then argerr(fname, 1, what .. "text is not valid UTF-8") end
    for _, k in ipairs({ "size", "leading", "tracking" }) do check_num(r, k, fname, 1, nil, what) end
    if r.width ~= nil and r.font_width ~= nil then argerr(fname, 1, what .. "width and font_width both given") end
    local st = copy_style(base, r)
    if st.font == nil then argerr(fname, r.font == nil and 2 or 1, "field 'font': a Font is required") end
    local chain, err = font_chain(st.font)
    if not chain then argerr(fname, 1, what .. "field 'font': " .. err) end
    if type(st.size) ~= "number" or st.size <= 0 then argerr(fname, 1, what .. "field 'size': must be > 0") end
    chain = vary(st, chain, fname, what)
    if adjust then st, chain = adjust(st, chain) end
    texts[#texts + 1] = r.text
    styled[#styled + 1] = { s = pos, e = pos + #r.text - 1, style = st, chain = chain, input = r }
    pos = pos + #r.text
  end
  local text = table.concat(texts)
  local first = styled[1] and styled[1].style or base
  local dir = first.direction
  if dir ~= "rtl" and dir ~= "ltr" then dir = "auto" end
  if dir == "auto" then
    if text:find("[\xD6-\xDF\xE2\xEF\xF0]") then
      local _, d = ct.bidi(text, "auto")
      dir = d
    else
      dir = "ltr"
    end
  end
  local p = { text = text, styled = styled, dir = dir, language = first.language, style = first }
  p.items = itemize(text, styled, dir, warned)
  p.runs = shape_runs(p)
  p.segs = segments(p)
  return p
end

-- The overflow of paragraph `p` from byte `from` on: a paragraph in the input's shape.
local function rest_of(p, para, from)
  local out = {}
  for k, v in pairs(para) do if type(k) ~= "number" then out[k] = v end end
  for _, r in ipairs(p.styled) do
    if r.e >= from then
      local nr = {}
      for k, v in pairs(r.input) do nr[k] = v end
      nr.text = p.text:sub(math.max(from, r.s), r.e)
      if nr.text ~= "" then out[#out + 1] = nr end
    end
  end
  if from > 1 then out.continued = true end
  return out
end

-- Visual order of a line's pieces (frags and interior glue) by the bidi algorithm.
local function visual(p, pieces_list, l0, l1)
  local any_rtl = p.dir == "rtl"
  if not any_rtl then
    for _, pc in ipairs(pieces_list) do if pc.item.rtl then any_rtl = true; break end end
  end
  if not any_rtl then return pieces_list end
  local runs = ct.bidi(p.text:sub(l0, l1), p.dir)
  for _, pc in ipairs(pieces_list) do
    local rel = pc.s - l0 + 1
    pc.vrun, pc.vrtl = #runs, false
    for ri, r in ipairs(runs) do
      if rel >= r.start and rel <= r.stop then pc.vrun, pc.vrtl = ri, r.rtl; break end
    end
  end
  local sorted = {}
  for i, pc in ipairs(pieces_list) do sorted[i] = pc end
  table.sort(sorted, function(a, b)
    if a.vrun ~= b.vrun then return a.vrun < b.vrun end
    if a.vrtl then return a.s > b.s end
    return a.s < b.s
  end)
  return sorted
end

-- Lays out prepared paragraphs; returns lines, overflow paragraphs, height used.
local function set_paragraphs(prepared, paras, opts, width)
  local all = {}
  for pi, p in ipairs(prepared) do
    local para = paras[pi]
    local indent = para.continued and 0 or (para.first_line_indent or opts.first_line_indent or 0)
    local align = para.align or opts.align or "start"
    -- fitting text to its lines as written: no breaks inside words
    local bp = { justify = align == "justify", emergency = opts.fit_to ~= "line",
      tolerance = para.tolerance or opts.tolerance, emergency_stretch = opts.emergency_stretch,
      looseness = para.looseness or opts.looseness,
      breaker = para.breaker or opts.breaker or (align == "justify" and "optimal" or "first-fit") }
    local lines = break_lines(p, p.segs, function(i) return i == 1 and width - indent or width end, bp)
    if #lines == 0 then
      lines = { { segs = {}, natural = 0, last = true, stretch = 0, shrink = 0, ratio = 0, badness = 0,
        fitness = 1, demerits = 0, paragraph_demerits = 0, breaker = bp.breaker } }
    end
    for i, l in ipairs(lines) do
      l.indent = i == 1 and indent or 0
      l.align = align
      l.para, l.pi = p, pi
      if i == 1 and pi > 1 then
        -- space between paragraphs: this one's space before and the previous one's after
        l.space = (para.space_before or 0) + (paras[pi - 1].space_after or 0)
      end
      l.from = l.segs[1] and l.segs[1].s or #p.text + 1
      all[#all + 1] = l
    end
    all[#all].par_end = true
  end

  -- vertical: stack lines, stop at the frame height
  local height = opts.height
  local y, used, fit = 0, 0, #all
  for i, l in ipairs(all) do
    local asc, desc, lead = line_metrics(l, l.para.style)
    local baseline = i == 1 and asc or y + lead + (l.space or 0)
    if height and baseline + desc > height + 1e-6 then fit = i - 1; break end
    l.baseline, l.asc, l.desc, l.lead = baseline, asc, desc, lead
    y = baseline
    used = baseline + desc
  end
  local overflow = nil
  if fit < #all then
    local l = all[fit + 1]
    overflow = {}
    local first = rest_of(l.para, paras[l.pi], l.from)
    if #first > 0 or l.from == 1 then overflow[1] = first end
    for pi = l.pi + 1, #paras do overflow[#overflow + 1] = paras[pi] end
    if #overflow == 0 then overflow = nil end
  end
  return all, fit, used, overflow
end

-- Places the first `fit` lines horizontally; returns the output lines.
local function place(all, fit, used, opts, width)
  local height = opts.height
  local shift = 0
  if height and opts.valign == "middle" then shift = (height - used) / 2
  elseif height and opts.valign == "bottom" then shift = height - used end
  local x0, y0 = opts.x or 0, opts.y or 0
  local out = {}
  for i = 1, fit do
    local l = all[i]
    local p = l.para
    local rtl = p.dir == "rtl"
    local avail = width - l.indent
    -- logical pieces: frags and the glue between segments (not after the last one)
    local list, texts = {}, {}
    local ngaps = 0
    for j, s in ipairs(l.segs) do
      for _, f in ipairs(s.frags) do f.word = s.s; list[#list + 1] = f; texts[#texts + 1] = f.text end
      if s.glue and j < #l.segs then
        list[#list + 1] = { s = s.glue.s, e = s.glue.e, glue = true, width = s.glue.width,
          item = s.glue.pieces[1].item }
        texts[#texts + 1] = p.text:sub(s.glue.s, s.glue.e)
        ngaps = ngaps + 1
      end
    end
    local align = l.align
    if align == "start" then align = rtl and "right" or "left"
    elseif align == "end" then align = rtl and "left" or "right" end
    local extra, ratio = 0, nil
    local dx = rtl and 0 or l.indent
    if align == "justify" then
      if l.last and ngaps > 0 and l.ratio < 0 and l.shrink > 0 then
        ratio = math.max(l.ratio, -1) * SHRINK       -- a last line set tighter than its spaces
      elseif not l.last and ngaps > 0 then
        -- each space by its own stretch or shrink (TeX's glue setting); an overfull line
        -- shrinks no further than the shrink it has
        if l.ratio > 0 and l.stretch > 0 then ratio = l.ratio * STRETCH
        elseif l.ratio < 0 and l.shrink > 0 then ratio = math.max(l.ratio, -1) * SHRINK
        else extra = (avail - l.natural) / ngaps end
      elseif rtl then dx = avail - l.natural end
    elseif align == "right" then dx = (rtl and 0 or l.indent) + avail - l.natural
    elseif align == "center" then dx = (rtl and 0 or l.indent) + (avail - l.natural) / 2 end
    local l0 = l.segs[1] and l.segs[1].s or 1
    local l1 = l.segs[#l.segs] and l.segs[#l.segs].e or 0
    local order = (#list > 1) and visual(p, list, l0, math.max(l0, l1)) or list
    local items = {}
    local x = x0 + dx
    for _, pc in ipairs(order) do
      if pc.glue then
        x = x + pc.width + (ratio and pc.width * ratio or extra)
      else
        local it = pc.item
        items[#items + 1] = { text = pc.text, run = it.style, font = it.font, script = it.script,
          direction = it.rtl and "rtl" or "ltr", x = x, width = pc.width, hyphen = pc.hyphen,
          word = pc.word, start = pc.s, features = it.features, rand = it.rand,
          glyphs = not is_stack(it.font) and piece_glyphs(pc) or nil }
        x = x + pc.width
      end
    end
    out[#out + 1] = { x = x0 + dx, y = y0 + shift + l.baseline, width = x - (x0 + dx),
      natural = l.natural, text = table.concat(texts), items = items, height = l.lead,
      ascent = l.asc, descent = l.desc, rtl = rtl, paragraph = l.pi,
      ratio = ((l.last and l.ratio > 0) or l.ratio ~= l.ratio) and 0 or l.ratio, badness = l.badness,
      fitness = l.fitness, demerits = l.demerits, paragraph_demerits = l.paragraph_demerits,
      breaker = l.breaker, pass = l.pass, break_work = l.break_work, hyphenated = l.flagged or nil }
  end
  return out
end

M.copy_style, M.prepare, M.set_paragraphs, M.place = copy_style, prepare, set_paragraphs, place

return M
