--- chromatype.layout: paragraphs in a frame.
-- A paragraph is a list of runs (text with a style).  Each run's text is split into items
-- that shape alone: by font (a run's `font` may be a fallback chain, a list of fonts tried
-- in order for each character), by script (ICU's script property, `ct.script_runs`) and by
-- bidi level (`ct.bidi`).  Lines end at Unicode line-break opportunities (UAX #14 through
-- ICU, `ct.line_breaks`), filled greedily, with hyphenation (`ct.hyphenate`) when a run asks
-- for it; each line is put in visual order by the bidi algorithm, aligned (start, end, left,
-- right, center, justify) and stacked in the frame; what does not fit is the overflow, in
-- the same shape as the input so it can flow into another frame.  A fitting cascade
-- (tracking, a width axis, alternates, size) shrinks text into its frame or its lines.
-- Reference: docs/documents.md.
-- @module chromatype.layout

local ct = require "chromatype"
local variable = require "chromatype.variable"
local motion = require "chromatype.motion"
local linebreak = require "chromatype.linebreak"

local M = {}

local has_rand   -- defined with the itemizer

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

-- ---- measuring ---------------------------------------------------------------------

-- cache[font][key][text] = {advance in font units, glyph count} (weak in the fonts)
local cache = setmetatable({}, { __mode = "k" })
local metrics_cache = setmetatable({}, { __mode = "k" })

local function font_metrics(font)
  local m = metrics_cache[font]
  if not m then
    local info = font:info()
    m = { upem = info.units_per_em, asc = info.ascender, desc = -info.descender,
          color = #info.formats > 0, name = info.path }
    metrics_cache[font] = m
  end
  return m
end

-- Scripts whose letters join: no tracking between their glyphs.
local CURSIVE = { Arab = true, Syrc = true, Mong = true, Nkoo = true, Adlm = true, Rohg = true,
  Mand = true, Phag = true }

local function shape_opts(run)
  if not (run.features or run.script or run.language or run.direction) then return nil, "" end
  local o = { features = run.features, script = run.script, language = run.language, direction = run.direction }
  return o, table.concat({ run.features or "", run.script or "", run.language or "", run.direction or "" }, "\0")
end

-- Memos sharing a budget: at most 2 × `budget.n` entries in all, in two generations.  New
-- entries go to a memo's young generation; when the budget's young entries number n, every
-- memo's young generation becomes its old one (the old one is let go), lazily, as each memo
-- is next used; a hit in the old generation is moved up.  A long document's vocabulary is
-- bounded, its numbers and names are not: the word caches below stay this size however many
-- pages and fonts go by.
local function new_budget(n) return { n = n, count = 0, gen = 0 } end

local function memo(budget)
  if type(budget) == "number" then budget = new_budget(budget) end
  local young, old, gen = {}, {}, budget.gen
  local m = {}
  local function age()
    if gen ~= budget.gen then
      old = budget.gen - gen == 1 and young or {}
      young, gen = {}, budget.gen
    end
  end
  function m.set(k, v)
    age()
    if young[k] == nil then
      if budget.count >= budget.n then
        budget.gen, budget.count = budget.gen + 1, 0
        age()
      end
      budget.count = budget.count + 1
    end
    young[k] = v
  end
  function m.get(k)
    age()
    local v = young[k]
    if v == nil then
      v = old[k]
      if v ~= nil then m.set(k, v) end
    end
    return v
  end
  return m
end
M.memo, M.memo_budget = memo, new_budget

-- Shaped text from the caches: a word's (cache[font][key] = memo of text -> entry, weak in
-- the fonts; WORDS_KEPT words in each generation, in all fonts, about 1.3 kB each) or, for
-- longer texts (a paragraph's run), a bounded table emptied when full.  Each entry is
-- {advance in font units, glyph count, glyphs (font:shape's list)}.
local LONG_TEXT, LONG_MAX = 64, 32
local WORDS_KEPT = 256
local words_budget = new_budget(WORDS_KEPT)
local long_cache, long_count = setmetatable({}, { __mode = "k" }), 0

local function shaped_with(font, so, key, text)
  local w, words
  if #text <= LONG_TEXT then
    local per = cache[font]
    if not per then per = {}; cache[font] = per end
    words = per[key]
    if not words then words = memo(words_budget); per[key] = words end
    w = words.get(text)
  else
    if long_count >= LONG_MAX then long_cache, long_count = setmetatable({}, { __mode = "k" }), 0 end
    local per = long_cache[font]
    if not per then per = {}; long_cache[font] = per end
    local texts = per[key]
    if not texts then texts = {}; per[key] = texts end
    if not texts[text] then long_count = long_count + 1 end
    words = { get = function(t) return texts[t] end, set = function(t, v) texts[t] = v end }
    w = texts[text]
  end
  if not w then
    local adv, n = 0, 0
    local glyphs = font:shape(text, so)
    for _, g in ipairs(glyphs) do adv = adv + g.x_advance; n = n + 1 end
    w = { adv, n, glyphs }
    words.set(text, w)
  end
  return w
end

local function shaped(run, text)
  local so, key = shape_opts(run)
  return shaped_with(run.font, so, key, text)
end

local function tracked(run)
  return run.tracking and run.tracking ~= 0 and not CURSIVE[run.script]
end

--- Width of `text` in points for a run {font=, size=, tracking=, features=, script=, ...}:
--- the sum of the shaped advances × size / units_per_em, plus tracking per glyph (none in
--- joining scripts such as Arabic).  `font` must be one Font here.
-- @treturn number points
function M.measure(run, text)
  local m = font_metrics(run.font)
  local w = shaped(run, text)
  local pts = w[1] * run.size / m.upem
  if tracked(run) then pts = pts + run.tracking * w[2] end
  return pts
end

-- ---- itemizing ---------------------------------------------------------------------------

-- Characters that belong to the cluster of the character before them.
local function extender(cp)
  return cp == 0x200D or (cp >= 0xFE00 and cp <= 0xFE0F) or (cp >= 0x1F3FB and cp <= 0x1F3FF)
      or (cp >= 0xE0020 and cp <= 0xE007F) or cp == 0x20E3 or (cp >= 0xE0100 and cp <= 0xE01EF)
      or (cp >= 0x300 and cp <= 0x36F) or (cp >= 0x1AB0 and cp <= 0x1AFF)
      or (cp >= 0x1DC0 and cp <= 0x1DFF) or (cp >= 0x20D0 and cp <= 0x20FF)
      or (cp >= 0xFE20 and cp <= 0xFE2F)
end
-- Characters any font is expected to lack: they never ask for a fallback.
local function ignorable(cp)
  return cp == 0x200D or cp == 0x200C or (cp >= 0xFE00 and cp <= 0xFE0F)
      or (cp >= 0xE0000 and cp <= 0xE0FFF) or cp == 0x2028 or cp == 10 or cp == 13 or cp == 9
      or cp == 0xAD or (cp >= 0x200B and cp <= 0x200F) or (cp >= 0x202A and cp <= 0x202E)
      or (cp >= 0x2066 and cp <= 0x2069)
end
-- Spaces, digits and punctuation stay in the font of the text around them when it has them.
local function neutral(cp)
  return (cp < 0x80 and not ((cp >= 0x41 and cp <= 0x5A) or (cp >= 0x61 and cp <= 0x7A)))
      or (cp >= 0xA0 and cp <= 0xBF) or (cp >= 0x2000 and cp <= 0x206F) or cp == 0x3000
end

local function has_all(font, cps)
  for _, cp in ipairs(cps) do
    if not font:glyph(cp) then return false end
  end
  return true
end

local function chain_names(chain)
  local t = {}
  for i, f in ipairs(chain) do t[i] = font_metrics(f).name end
  return table.concat(t, ", ")
end

-- Splits text[s..e] (a run's bytes) by font: a list of {s =, e =, font =}.  `warned` holds
-- the characters already reported as missing.
local function font_runs(text, s, e, chain, warned)
  if #chain == 1 then return { { s = s, e = e, font = chain[1] } } end
  local out = {}
  local cur_font
  local function add(cs, ce, font)
    local last = out[#out]
    if last and last.font == font and last.e + 1 == cs then last.e = ce
    else out[#out + 1] = { s = cs, e = ce, font = font } end
  end
  local pos = s
  local sub = text:sub(s, e)
  local cps, starts = {}, {}
  for p, cp in utf8.codes(sub) do cps[#cps + 1] = cp; starts[#starts + 1] = p end
  local i = 1
  while i <= #cps do
    -- a cluster: a character and its extenders (ZWJ joins the next character too)
    local j = i
    while j < #cps and (extender(cps[j + 1]) or cps[j] == 0x200D) do j = j + 1 end
    local need, emoji_style = {}, false
    for k = i, j do
      if cps[k] == 0xFE0F or cps[k] == 0x20E3 or (cps[k] >= 0x1F3FB and cps[k] <= 0x1F3FF) then
        emoji_style = true
      end
      if not ignorable(cps[k]) then need[#need + 1] = cps[k] end
    end
    local cs = pos + starts[i] - 1
    local ce = (j < #cps) and (pos + starts[j + 1] - 2) or e
    local font
    if #need == 0 or (cur_font and neutral(cps[i]) and i == j and has_all(cur_font, need)) then
      font = cur_font or chain[1]
    else
      if emoji_style then
        for _, f in ipairs(chain) do
          if font_metrics(f).color and has_all(f, need) then font = f; break end
        end
      end
      if not font then
        for _, f in ipairs(chain) do
          if has_all(f, need) then font = f; break end
        end
      end
      if not font then
        for _, f in ipairs(chain) do
          if f:glyph(need[1]) then font = f; break end
        end
      end
      if not font then
        font = cur_font or chain[1]
        local key = need[1]
        if not warned[key] then
          warned[key] = true
          M.warn(("no font has U+%04X '%s' (tried %s); drawing .notdef")
            :format(key, utf8.char(key), chain_names(chain)))
        end
      end
    end
    add(cs, ce, font)
    cur_font = font
    i = j + 1
  end
  return out
end

-- Whether a font's GSUB has a rand feature (cached).
local rand_cache = setmetatable({}, { __mode = "k" })
has_rand = function(font)
  local v = rand_cache[font]
  if v == nil then
    v = false
    local ok, feats = pcall(function() return font:features() end)
    if ok and feats then
      for _, t in ipairs(feats) do if t == "rand" then v = true end end
    end
    rand_cache[font] = v
  end
  return v
end

-- A list of {s =, e =, ...} ranges covering 1..n from a function giving ranges.
local function script_runs(text)
  if ct.script_runs and #text > 0 then
    local ok, runs = pcall(ct.script_runs, text)
    if ok then return runs end
  end
  return { { start = 1, stop = #text, script = nil } }
end

-- Cuts the paragraph's text into items {s =, e =, style =, font =, script =, rtl =}.
local function itemize(text, styled, para_dir, warned)
  local bounds = {}
  local function mark(p) bounds[p] = true end
  local fonts = {}
  for _, r in ipairs(styled) do
    if r.e >= r.s then
      for _, fr in ipairs(font_runs(text, r.s, r.e, r.chain, warned)) do
        fr.style = r.style
        fonts[#fonts + 1] = fr
        mark(fr.s)
      end
    end
  end
  local scripts = script_runs(text)
  for _, sr in ipairs(scripts) do mark(sr.start) end
  local levels = {}
  if text:find("[\xD6-\xDF\xE2\xEF\xF0]") then     -- bytes that may start RTL or bidi controls
    local runs = ct.bidi(text, para_dir)
    for _, br in ipairs(runs) do levels[#levels + 1] = { s = br.start, e = br.stop, rtl = br.rtl } end
    table.sort(levels, function(a, b) return a.s < b.s end)
  else
    levels[1] = { s = 1, e = #text, rtl = para_dir == "rtl" }
  end
  for _, lv in ipairs(levels) do mark(lv.s) end
  local starts = {}
  for p in pairs(bounds) do if p <= #text then starts[#starts + 1] = p end end
  table.sort(starts)
  local items = {}
  local fi, si, li = 1, 1, 1
  for k, s in ipairs(starts) do
    local e = (starts[k + 1] or #text + 1) - 1
    while fonts[fi + 1] and fonts[fi + 1].s <= s do fi = fi + 1 end
    while scripts[si + 1] and scripts[si + 1].start <= s do si = si + 1 end
    while levels[li + 1] and levels[li + 1].s <= s do li = li + 1 end
    local fr, sr, lv = fonts[fi], scripts[si], levels[li]
    local st = fr.style
    local script = st.script or (sr.script ~= "Zyyy" and sr.script ~= "Zinh" and sr.script ~= "Zzzz"
      and sr.script) or nil
    local rtl = lv.rtl
    local features, rand = st.features, false
    if has_rand(fr.font) and not (features and features:find("rand")) then
      -- HarfBuzz 6.0 cannot seed rand: shape without it; documents apply it from the seed
      features = features and (features .. ",-rand") or "-rand"
      rand = true
    end
    items[#items + 1] = { s = s, e = e, style = st, font = fr.font, script = script, rtl = rtl,
      features = features, rand = rand,
      shape = { font = fr.font, size = st.size, tracking = st.tracking, features = features,
                language = st.language, script = script, direction = rtl and "rtl" or "ltr" } }
  end
  return items
end

-- ---- shaping a paragraph ------------------------------------------------------------------
-- A paragraph is shaped as a whole, run by run: consecutive items whose font, features,
-- script, language and direction agree shape together (their colors and palettes may differ,
-- and their sizes too in a font without an `opsz` axis: shaping works in font units), so
-- kerning and contextual forms see across words, spaces and spans.  Widths come from these
-- glyphs; only the text at a line's ends is shaped again (a hyphen, the last word, the part of
-- a word after a break inside it).

local opsz_cache = setmetatable({}, { __mode = "k" })
local function has_opsz(font)
  local v = opsz_cache[font]
  if v == nil then
    v = false
    local ok, axes = pcall(function() return font:axes() end)
    if ok and axes then
      for _, a in ipairs(axes) do if a.tag == "opsz" then v = true end end
    end
    opsz_cache[font] = v
  end
  return v
end

local function same_shaping(a, b)
  local x, y = a.shape, b.shape
  return a.font == b.font and x.features == y.features and x.script == y.script
    and x.language == y.language and x.direction == y.direction
    and (x.size == y.size or not has_opsz(a.font))
end

-- Points per font unit and tracking (points after each glyph) of an item.
local function item_scale(it)
  local sh = it.shape
  return sh.size / font_metrics(it.font).upem, tracked(sh) and sh.tracking or 0
end

-- Groups the items into shaping runs {s =, e =, items =, font =} and shapes each: `cum[k]`
-- is the advance (points) of the run's clusters that start before its byte k (1-based in
-- the run), so the width of a cluster-aligned range is a difference of two entries.
local function shape_runs(p)
  local runs = {}
  for k, it in ipairs(p.items) do
    local r = runs[#runs]
    if r and same_shaping(r.items[1], it) and r.e + 1 == it.s then
      r.e = it.e
      r.items[#r.items + 1] = it
    else
      r = { s = it.s, e = it.e, items = { it }, font = it.font }
      runs[#runs + 1] = r
    end
    it.srun, it.index = r, k
  end
  for _, r in ipairs(runs) do
    local text = p.text:sub(r.s, r.e)
    for _, it in ipairs(r.items) do it.so, it.key = shape_opts(it.shape) end
    local first = r.items[1]
    local glyphs = shaped_with(r.font, first.so, first.key, text)[3]
    local n = #text
    local adv = {}
    local sc, tr = item_scale(first)
    local its, ki = r.items, 1
    for _, g in ipairs(glyphs) do
      local c = g.cluster
      if #its > 1 then
        -- the item of the cluster (clusters run backwards in right-to-left text)
        local pos = r.s + c - 1
        while its[ki + 1] and its[ki + 1].s <= pos do ki = ki + 1 end
        while ki > 1 and its[ki].s > pos do ki = ki - 1 end
        sc, tr = item_scale(its[ki])
      end
      adv[c] = (adv[c] or 0) + g.x_advance * sc + tr
    end
    local cum = { 0 }
    for k = 1, n do cum[k + 1] = cum[k] + (adv[k] or 0) end
    r.glyphs, r.cum, r.text = glyphs, cum, text
  end
  return runs
end

-- The width of text[a..b] inside one shaping run as shaped in the run.
local function run_width(r, a, b)
  return r.cum[b - r.s + 2] - r.cum[a - r.s + 1]
end

-- The glyphs of a piece as the paragraph's shaping made them, for drawing: {gid =, cluster =
-- (1-based in the piece's text), x_advance =, y_advance =, x_offset =, y_offset =} in font
-- units (tracking not included), in visual order; nil when they are the glyphs of the
-- piece's text shaped alone (most words: canvas:text shapes them again faster than it reads
-- glyph tables).
local function piece_glyphs(pc)
  local it = pc.item
  if pc.alone then return nil end
  local r = it.srun
  if not r.gfirst then
    -- the first and last glyph of each cluster (a cluster's glyphs are consecutive)
    local gfirst, glast = {}, {}
    for i, g in ipairs(r.glyphs) do
      local c = g.cluster
      if not gfirst[c] then gfirst[c] = i end
      glast[c] = i
    end
    r.gfirst, r.glast = gfirst, glast
  end
  local k0, k1 = pc.s - r.s + 1, pc.e - r.s + 1
  local lo, hi = k0, k1
  while lo <= k1 and not r.gfirst[lo] do lo = lo + 1 end
  while hi >= lo and not r.gfirst[hi] do hi = hi - 1 end
  if lo > hi then return nil end
  local i0, i1
  if it.rtl then i0, i1 = r.gfirst[hi], r.glast[lo] else i0, i1 = r.gfirst[lo], r.glast[hi] end
  local base = k0 - 1
  local glyphs = r.glyphs
  local own = shaped_with(it.font, it.so, it.key, pc.text)[3]
  if #own == i1 - i0 + 1 then
    local same = true
    for j = 0, i1 - i0 do
      local g, h = glyphs[i0 + j], own[j + 1]
      if g.gid ~= h.gid or g.x_advance ~= h.x_advance or g.x_offset ~= h.x_offset
          or g.y_offset ~= h.y_offset or g.cluster - base ~= h.cluster then
        same = false
        break
      end
    end
    if same then return nil end
  end
  local out = {}
  for i = i0, i1 do
    local g = glyphs[i]
    out[#out + 1] = { gid = g.gid, cluster = g.cluster - base, x_advance = g.x_advance,
      y_advance = g.y_advance, x_offset = g.x_offset, y_offset = g.y_offset }
  end
  return out
end

-- ---- segments: the text between two break opportunities ----------------------------------

local HARD = { [0x0A] = true, [0x0D] = true, [0x2028] = true, [0x2029] = true, [0x85] = true,
  [0x0B] = true, [0x0C] = true }

-- The width of a piece shaped on its own (with a hyphen after it when `hyphen`).
local function alone(pc, hyphen)
  local it = pc.item
  local t = hyphen and pc.text .. "-" or pc.text
  local w = shaped_with(it.font, it.so, it.key, t)
  local sc, tr = item_scale(it)
  pc.text, pc.alone, pc.hyphen = t, w[3], hyphen or nil
  pc.width = w[1] * sc + tr * w[2]
  return pc
end

-- Pieces of items over text[a..b]: {s =, e =, item =, text =, width =}, measured in their
-- run; `edge` reshapes the first piece (edge.first: after a break inside a word) and the last
-- (edge.last: at a line's end, with a hyphen when edge.hyphen) on their own.
local function pieces(p, a, b, from, edge)
  local text, items = p.text, p.items
  local out = {}
  local k = from or 1
  while items[k] and items[k].e < a do k = k + 1 end
  while items[k] and items[k].s <= b do
    local it = items[k]
    local s, e = math.max(a, it.s), math.min(b, it.e)
    out[#out + 1] = { s = s, e = e, item = it, text = text:sub(s, e), width = run_width(it.srun, s, e) }
    k = k + 1
  end
  if edge and #out > 0 then
    if edge.first then alone(out[1], #out == 1 and edge.last and edge.hyphen) end
    if edge.last and not (edge.first and #out == 1) then alone(out[#out], edge.hyphen) end
  end
  return out
end

local function sum_width(list)
  local w = 0
  for _, p in ipairs(list) do w = w + p.width end
  return w
end

-- Splits a paragraph into segments {frags =, width =, glue = {pieces, width} | nil, hard =,
-- s =, e =, k = (its first item)} at its break opportunities.
local function segments(p)
  local text, items = p.text, p.items
  local ends, mandatory = ct.line_breaks(text, p.language)
  local segs = {}
  local a = 1
  local k = 1
  for bi, b in ipairs(ends) do
    local wend = b
    local hard = false
    -- the line-ending characters of a mandatory break are not drawn
    while wend >= a do
      local c0 = utf8.offset(text, -1, wend + 1)
      local cp = utf8.codepoint(text, c0)
      if HARD[cp] and (mandatory[bi] or cp == 0x2028) then wend = c0 - 1; hard = true else break end
    end
    local gend = wend
    while wend >= a do
      local ch = text:byte(wend)
      if ch == 0x20 or ch == 0x09 then wend = wend - 1 else break end
    end
    while items[k] and items[k].e < a do k = k + 1 end
    local seg = { s = a, e = wend, frags = {}, width = 0, hard = hard, k = k }
    if wend >= a then
      seg.frags = pieces(p, a, wend, k)
      seg.width = sum_width(seg.frags)
    end
    if gend > wend then
      local g = pieces(p, wend + 1, gend, k)
      seg.glue = { pieces = g, width = sum_width(g), s = wend + 1, e = gend }
    end
    if #seg.frags > 0 or seg.glue or hard then segs[#segs + 1] = seg end
    a = b + 1
  end
  return segs
end

-- ---- break points inside words ------------------------------------------------------------------

local points_budget = new_budget(4 * WORDS_KEPT)   -- small entries: the points of a word
local hyph_cache = memo(points_budget)

local function hyphen_points(word, lang)
  local key = (lang or "") .. "\0" .. word
  local v = hyph_cache.get(key)
  if v == nil then
    v = ct.hyphenate(word, lang) or false
    hyph_cache.set(key, v)
  end
  return v or nil
end

-- The segment's width in its run from its start to byte `b`.
local function width_to(p, seg, b)
  local w = 0
  local k = seg.k
  local items = p.items
  while items[k] and items[k].s <= b do
    local it = items[k]
    local s, e = math.max(seg.s, it.s), math.min(b, it.e)
    if e >= s then w = w + run_width(it.srun, s, e) end
    k = k + 1
  end
  return w
end

-- The hyphenation points of a segment's text (byte offsets of the last byte before each),
-- for a word of letters (five or more) with any punctuation around it kept whole.
local word_cache = {}
local NONE = {}
local function word_points(text, lang)
  local per = word_cache[lang or ""]
  if not per then per = memo(points_budget); word_cache[lang or ""] = per end
  local v = per.get(text)
  if v then return v end
  v = NONE
  local lead, body = text:match("^(%p*)(.-)%p*$")
  if not body:find("[%s%d%p]") and (utf8.len(body) or 0) >= 5 then
    local pts = hyphen_points(body, lang)
    if pts and #pts > 0 then
      v = {}
      for _, pt in ipairs(pts) do
        local off = #lead + pt
        if off >= 1 and off < #text then v[#v + 1] = off end
      end
    end
  end
  per.set(text, v)
  return v
end

-- The places inside segment `seg` where a line may end: {at = last byte before the break,
-- hyphen = (a hyphen is added), emergency = (no hyphenation point)}, ascending.  Hyphenation
-- points when the run hyphenates (words of letters, five or more); in a word wider than
-- `maxw` (when `emergency`), the hyphenation points whatever the run says, and every grapheme
-- boundary unless those points alone cut the word into parts that fit.
local function cut_points(p, seg, maxw, emergency)
  if #seg.frags == 0 then return NONE end
  local first = seg.frags[1].item.style
  local long = emergency and seg.width > maxw + 1e-6
  if not (first.hyphenate or long) then return NONE end
  local cuts, at = {}, {}
  for _, off in ipairs(word_points(p.text:sub(seg.s, seg.e), first.language)) do
    local c = seg.s + off - 1
    cuts[#cuts + 1] = { at = c, hyphen = true }
    at[c] = true
  end
  if long then
    -- the hyphenation points are enough when every part between them fits the measure
    local hyph = M.measure(seg.frags[#seg.frags].item.shape, "-")
    local prev, fits = 0, true
    for i = 1, #cuts + 1 do
      local upto = cuts[i] and width_to(p, seg, cuts[i].at) + hyph or seg.width
      if upto - prev > maxw + 1e-6 then fits = false; break end
      prev = upto - (cuts[i] and hyph or 0)
    end
    if fits then long = false end
  end
  if long then
    -- between two graphemes of a word: not beside a space
    local word = p.text:sub(seg.s, seg.e)
    for _, g in ipairs(ct.grapheme_breaks(word)) do
      local c = seg.s + g - 1
      if c < seg.e and not at[c] and not word:sub(g, g + 1):find("%s") then
        cuts[#cuts + 1] = { at = c, emergency = true }
      end
    end
    table.sort(cuts, function(x, y) return x.at < y.at end)
  end
  return cuts
end

-- ---- the line breakers ---------------------------------------------------------------------------

-- The item holding byte `b` of a segment.
local function item_at(p, seg, b)
  local k = seg.k
  while p.items[k + 1] and p.items[k + 1].s <= b do k = k + 1 end
  return p.items[k]
end

-- Width changes at a break, computed when the breaker first looks at it: `pre`, the line's
-- last piece shaped on its own (with its hyphen) less its width in the run; `post`, the same
-- for the first piece after a break inside a word.
local function lazy_cut(node)
  local p, seg, c = node.p, node.sg, node.cut
  local it = item_at(p, seg, c.at)
  local s = math.max(seg.s, it.s)
  local pc = alone({ s = s, e = c.at, item = it, text = p.text:sub(s, c.at) }, c.hyphen)
  node.pre = pc.width - run_width(it.srun, s, c.at)
  local it2 = item_at(p, seg, c.at + 1)
  local e = math.min(seg.e, it2.e)
  local pc2 = alone({ s = c.at + 1, e = e, item = it2, text = p.text:sub(c.at + 1, e) })
  node.post = pc2.width - run_width(it2.srun, c.at + 1, e)
end

local function lazy_end(node)
  local seg = node.sg
  local last = seg.frags[#seg.frags]
  if not last then node.pre = 0; return end
  local it = last.item
  local w = shaped_with(it.font, it.so, it.key, last.text)
  local sc, tr = item_scale(it)
  node.pre = w[1] * sc + tr * w[2] - last.width
end

local STRETCH, SHRINK = 1 / 2, 1 / 3          -- of an interword space, as in TeX's fonts
local RAGGED_STRETCH = 2                       -- em: ragged lines stretch on one side only
local NOMINAL_STRETCH = 1 / 8                  -- em: a line without spaces is rated as if it had one

-- The paragraph as boxes, glue and penalties (chromatype.linebreak), each break carrying
-- where it is: {seg =, cut =}.
local function break_items(p, segs, maxw, bp, P)
  local justify = bp.justify
  local list = {}
  local function add(t) list[#list + 1] = t; return t end
  for i, seg in ipairs(segs) do
    local done = 0
    for _, c in ipairs(cut_points(p, seg, maxw, bp.emergency)) do
      local w = width_to(p, seg, c.at)
      add { type = "box", width = w - done }
      add { type = "penalty", width = 0, flagged = c.hyphen or false, discretionary = true,
        emergency = c.emergency, penalty = c.emergency and P.emergency_penalty or P.hyphen_penalty,
        seg = i, cut = c, p = p, sg = seg, lazy = lazy_cut }
      done = w
    end
    add { type = "box", width = seg.width - done }
    if seg.hard or i == #segs then
      add { type = "penalty", penalty = linebreak.INF_PENALTY }
      add { type = "glue", width = 0, fill = true }
      add { type = "penalty", penalty = -linebreak.INF_PENALTY, seg = i, p = p, sg = seg, lazy = lazy_end }
    elseif seg.glue then
      local gw = seg.glue.width
      add { type = "glue", width = gw, stretch = justify and gw * STRETCH or 0,
        shrink = justify and gw * SHRINK or 0, seg = i, p = p, sg = seg, lazy = lazy_end }
    else
      add { type = "penalty", penalty = 0, seg = i, p = p, sg = seg, lazy = lazy_end }
    end
  end
  return list
end

-- The part of segment `seg` from byte a to b as a segment of a line; `first`: after a break
-- inside the word, `last`: at the line's end (`hyphen`: with a hyphen).
local function part(p, seg, a, b, first, last, hyphen)
  if a == seg.s and b == seg.e and not last then return seg end
  local frags = {}
  if b >= a then frags = pieces(p, a, b, seg.k, { first = first, last = last, hyphen = hyphen }) end
  local whole = b == seg.e
  return { s = a, e = b, frags = frags, width = sum_width(frags), hyphenated = hyphen or nil,
    glue = whole and seg.glue or nil, hard = whole and seg.hard or nil, k = seg.k }
end

-- Lines from the breaks: {segs =, natural =, stretch =, shrink =, last =, penalty =, flagged =}.
local function make_lines(p, segs, list, breaks, justify)
  local lines = {}
  local si, from = 1, segs[1] and segs[1].s or 1     -- where the next line starts
  local after_cut = false
  for _, b in ipairs(breaks) do
    local node = list[b]
    local line = { segs = {}, natural = 0, stretch = 0, shrink = 0,
      last = node.type == "penalty" and node.penalty <= -linebreak.INF_PENALTY or nil,
      penalty = node.type == "penalty" and node.penalty or 0, flagged = node.flagged or false }
    local j = node.seg
    local cut = node.cut
    for k = si, j do
      local seg = segs[k]
      local a = k == si and from or seg.s
      local e = (k == j and cut) and cut.at or seg.e
      local is_last = k == j
      line.segs[#line.segs + 1] = part(p, seg, a, e, k == si and after_cut, is_last,
        is_last and cut and cut.hyphen)
    end
    for k, s in ipairs(line.segs) do
      line.natural = line.natural + s.width
      if k < #line.segs and s.glue then
        local gw = s.glue.width
        line.natural = line.natural + gw
        if justify then
          line.stretch = line.stretch + gw * STRETCH
          line.shrink = line.shrink + gw * SHRINK
        end
      end
    end
    lines[#lines + 1] = line
    if cut then si, from, after_cut = j, cut.at + 1, true
    else si, from, after_cut = j + 1, segs[j + 1] and segs[j + 1].s, false end
  end
  return lines
end

-- The width segment `seg` has at a line's end (its last piece shaped on its own).
local function end_width(seg)
  local last = seg.frags[#seg.frags]
  if not last then return seg.width end
  if seg.end_width == nil then
    local node = { sg = seg }
    lazy_end(node)
    seg.end_width = seg.width + node.pre
  end
  return seg.end_width
end

-- Splits `seg` (starting a line's part after a break inside it when `first`) at the last of
-- its cuts whose first part, as it ends a line, fits `room`; emergency cuts only when
-- `emergency` and no other fits.  Returns the two parts and the cut, or nil.
local function split(p, seg, cuts, room, first, emergency)
  for pass = 1, emergency and 2 or 1 do
    for i = #cuts, 1, -1 do
      local c = cuts[i]
      if (pass == 1) == not c.emergency and c.at >= seg.s and c.at < seg.e then
        local s1 = part(p, seg, seg.s, c.at, first, true, c.hyphen)
        if s1.width <= room + 1e-6 then
          return s1, part(p, seg, c.at + 1, seg.e, true, false), c
        end
      end
    end
  end
  return nil
end

-- First fit over the segments: each line takes segments while they fit at their widths in
-- the run (the last one as it ends a line); a segment that does not fit is hyphenated at
-- the last point whose part fits, and one wider than a whole line is broken in an emergency
-- (chromatype.linebreak.first_fit does the same on a list of boxes and glue).
local function first_fit_lines(p, segs, avail_for, bp, maxw)
  local lines = {}
  local line = { segs = {}, natural = 0 }
  local function finish(last, cut)
    local n = #line.segs
    local tail = line.segs[n]
    if tail and not cut then
      line.segs[n] = part(p, tail, tail.s, tail.e, tail.after_cut, true)
      line.natural = line.natural - tail.width + line.segs[n].width
    end
    line.last = last or nil
    line.penalty = last and -linebreak.INF_PENALTY or (cut and (cut.emergency and linebreak.DEFAULTS.emergency_penalty
      or linebreak.DEFAULTS.hyphen_penalty) or 0)
    line.flagged = cut and cut.hyphen or false
    line.stretch, line.shrink = 0, 0
    if bp.justify then
      for k = 1, #line.segs - 1 do
        local g = line.segs[k].glue
        if g then
          line.stretch = line.stretch + g.width * STRETCH
          line.shrink = line.shrink + g.width * SHRINK
        end
      end
    end
    lines[#lines + 1] = line
    line = { segs = {}, natural = 0 }
  end
  local i = 1
  local cur = segs[1]
  while cur do
    local n = #line.segs
    local prev = line.segs[n]
    local gap = prev and prev.glue and prev.glue.width or 0
    local avail = avail_for(#lines + 1)
    local placed = false
    if n > 0 and line.natural + gap + end_width(cur) > avail + 1e-6 then
      local room = avail - line.natural - gap
      -- hyphenation points (a word wider than a line has them whatever the run says)
      local s1, s2, c = split(p, cur, cut_points(p, cur, maxw, bp.emergency), room, cur.after_cut, false)
      if s1 then
        line.segs[n + 1] = s1
        line.natural = line.natural + gap + s1.width
        finish(false, c)
        s2.after_cut = true
        cur = s2
        placed = true
      else
        finish(false)
        gap, n = 0, 0
      end
    end
    if not placed and n == 0 and end_width(cur) > avail + 1e-6 then
      local s1, s2, c = split(p, cur, cut_points(p, cur, maxw, bp.emergency), avail, cur.after_cut,
        bp.emergency)
      if s1 then
        line.segs[1] = s1
        line.natural = s1.width
        finish(false, c)
        s2.after_cut = true
        cur = s2
        placed = true
      end
    end
    if not placed then
      line.segs[#line.segs + 1] = cur
      line.natural = line.natural + gap + cur.width
      if cur.hard or i == #segs then finish(true) end
      i = i + 1
      cur = segs[i]
    end
  end
  return lines
end

-- Breaks a paragraph into lines by its breaker: "optimal" (the default for justified text)
-- or "first-fit"; `avail_for(line)` is a line's measure.  Each line gets its adjustment
-- ratio, badness, fitness and demerits (the optimal breaker's formula, whichever broke it).
local function break_lines(p, segs, avail_for, bp)
  if #segs == 0 then return {} end
  local size = p.style.size or 12
  local P = { tolerance = bp.tolerance, looseness = bp.looseness or 0 }
  for k, v in pairs(linebreak.DEFAULTS) do if P[k] == nil then P[k] = v end end
  P.emergency_stretch = bp.emergency_stretch or 0
  if not bp.justify then P.line_stretch = RAGGED_STRETCH * size end
  P.nominal_stretch = NOMINAL_STRETCH * size
  P.easy_line = 2                               -- only the first line has a measure of its own
  local maxw = math.min(avail_for(1), avail_for(2))
  local lines, info
  if bp.breaker == "optimal" then
    local list = break_items(p, segs, maxw, bp, P)
    local breaks
    breaks, info = linebreak.optimal(list, avail_for, P)
    lines = make_lines(p, segs, list, breaks, bp.justify)
  else
    lines = first_fit_lines(p, segs, avail_for, bp, maxw)
  end
  -- the lines as set, scored with the optimal breaker's formula
  local total, prev_fit, prev_flag = 0, nil, false
  for i, l in ipairs(lines) do
    local r, bad, fit = linebreak.fit(avail_for(i), l.natural, l.stretch + P.line_stretch, l.shrink,
      l.last and 1 or 0, P.nominal_stretch)
    local d = linebreak.demerits(P, bad, l.penalty, l.flagged, fit, prev_fit, prev_flag, l.last)
    l.ratio, l.badness, l.fitness, l.demerits = r, math.min(bad, linebreak.INF_BAD), fit, d
    total = total + d
    prev_fit, prev_flag = fit, l.flagged
  end
  lines[1].paragraph_demerits = total
  lines[1].breaker = bp.breaker
  lines[1].pass = info and info.pass
  return lines
end

-- ---- paragraphs in a frame ------------------------------------------------------------------

local function first_font(f)
  if is_font(f) then return f end
  return f and f[1]
end

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
      breaker = l.breaker, pass = l.pass, hyphenated = l.flagged or nil }
  end
  return out
end

-- ---- fitting ------------------------------------------------------------------------------

-- The font at another value of its width axis, its other axes where they are (an instance:
-- set_variations would change a font for every user), or nil.
local function width_instance(font, value)
  local key = math.floor(value * 10 + 0.5) / 10
  local ok, f = pcall(variable.instance, font, nil, { wdth = key })
  return ok and f or nil
end

local function width_axis(font)
  for _, a in ipairs(font:axes()) do
    if a.tag == "wdth" then return a end
  end
  return nil
end

local function parse_steps(v, fname)
  if v == nil then return nil end
  local list = {}
  if type(v) == "string" then
    for w in v:gmatch("[^,%s]+") do list[#list + 1] = w end
  elseif type(v) == "table" then
    for i, w in ipairs(v) do list[i] = w end
  else
    argerr(fname, 2, "field 'fit': expected a list of steps, got " .. type(v))
  end
  for _, w in ipairs(list) do
    if not FIT_STEPS[w] then
      argerr(fname, 2, ("field 'fit': unknown step '%s' (expected tracking, width, alternates, size)")
        :format(tostring(w)))
    end
  end
  return list
end

-- Runs the layout with the fitting parameters `fp` (tracking in em, width axis value,
-- features on or off, size scale).
local function attempt(paras, opts, base, fname, warned, fp)
  local adjust = nil
  if fp then
    adjust = function(st, chain)
      local s = {}
      for k, v in pairs(st) do s[k] = v end
      if fp.scale and fp.scale ~= 1 then
        s.size = st.size * fp.scale
        if st.leading then s.leading = st.leading * fp.scale end
      end
      if fp.tracking and fp.tracking ~= 0 then s.tracking = (st.tracking or 0) + fp.tracking * s.size end
      if fp.features then
        s.features = st.features and (st.features .. "," .. fp.features) or fp.features
      end
      if fp.wdth then
        local nc = {}
        for i, f in ipairs(chain) do
          local a = width_axis(f)
          nc[i] = a and width_instance(f, math.max(a.min, math.min(a.max, fp.wdth))) or f
        end
        chain = nc
        s.font = #nc == 1 and nc[1] or nc
      end
      return s, chain
    end
  end
  local width = opts.width
  local prepared = {}
  for pi, para in ipairs(paras) do
    prepared[pi] = prepare(para, pi, base, fname, warned, adjust)
  end
  local all, fit, used, overflow = set_paragraphs(prepared, paras, opts, width)
  return { all = all, fit = fit, used = used, overflow = overflow, prepared = prepared }
end

-- Whether a result fits: no overflow ("frame"), or also no paragraph broken by the width
-- ("line": every paragraph on its lines as written).
local function fits(res, opts)
  if res.overflow then return false end
  if opts.fit_to == "line" then
    for _, l in ipairs(res.all) do
      if not l.last then return false end
      if l.natural > opts.width - l.indent + 1e-6 then return false end
    end
  end
  return true
end

local function fit_cascade(paras, opts, base, fname, warned, steps)
  local fp = { tracking = 0, scale = 1 }
  local res = attempt(paras, opts, base, fname, warned, fp)
  local applied = {}
  if fits(res, opts) then return res, { fits = true, steps = applied } end
  local first_font0 = first_font(base.font) or first_font(paras[1] and paras[1][1] and paras[1][1].font)
  for _, step in ipairs(steps) do
    local lo, hi, set
    if step == "tracking" then
      lo, hi = opts.fit_tracking or -0.05, 0
      set = function(v) fp.tracking = v end
    elseif step == "size" then
      lo, hi = opts.fit_size or 0.5, 1
      set = function(v) fp.scale = v end
    elseif step == "width" then
      local a = first_font0 and width_axis(first_font0)
      if a then
        lo, hi = math.max(a.min, opts.fit_width or a.min), a.value
        set = function(v) fp.wdth = v end
      end
    elseif step == "alternates" then
      fp.features = opts.fit_features or "jalt"
      local r2 = attempt(paras, opts, base, fname, warned, fp)
      applied[#applied + 1] = { step = "alternates", value = fp.features }
      res = r2
      if fits(res, opts) then return res, { fits = true, steps = applied } end
    end
    if set and lo < hi then
      set(lo)
      local r_lo = attempt(paras, opts, base, fname, warned, fp)
      if not fits(r_lo, opts) then
        res = r_lo
        applied[#applied + 1] = { step = step, value = lo }
      else
        -- the least change that fits: bisection between hi (does not fit) and lo (fits)
        local good, bad, best = lo, hi, r_lo
        for _ = 1, 12 do
          local mid = (good + bad) / 2
          set(mid)
          local r = attempt(paras, opts, base, fname, warned, fp)
          if fits(r, opts) then good, best = mid, r else bad = mid end
        end
        set(good)
        applied[#applied + 1] = { step = step, value = good }
        return best, { fits = true, steps = applied }
      end
    end
  end
  return res, { fits = false, steps = applied }
end

-- ---- the public functions ---------------------------------------------------------------------

-- Checks the line-breaking options of a frame or paragraph `t` ("" or "paragraph N: ").
local function check_break(t, fname, n, what)
  if t.breaker ~= nil and not BREAKERS[t.breaker] then
    argerr(fname, n, ("%sfield 'breaker': expected optimal or first-fit, got '%s'"):format(what, tostring(t.breaker)))
  end
  local lo = t.looseness
  if lo ~= nil and (math.type(lo) ~= "integer" or lo < -100 or lo > 100) then
    argerr(fname, n, ("%sfield 'looseness': expected an integer from -100 to 100, got %s"):format(what, tostring(lo)))
  end
  local tol = t.tolerance
  if tol ~= nil and (type(tol) ~= "number" or not (tol >= 0 and tol <= linebreak.INF_BAD)) then
    argerr(fname, n, ("%sfield 'tolerance': expected a number from 0 to %d, got %s")
      :format(what, linebreak.INF_BAD, tostring(tol)))
  end
end

local function check_opts(opts, fname)
  if type(opts) ~= "table" then argerr(fname, 2, "options table expected, got " .. type(opts)) end
  check_keys(opts, OPTS_ALLOWED, fname, 2)
  for _, k in ipairs({ "width", "height", "x", "y", "first_line_indent", "leading", "tracking", "size",
                       "fit_tracking", "fit_width", "fit_size" }) do
    check_num(opts, k, fname, 2)
  end
  local width = opts.width
  if width == nil then argerr(fname, 2, "field 'width': required") end
  if width <= 0 then argerr(fname, 2, "field 'width': must be > 0") end
  if opts.height and opts.height < 0 then argerr(fname, 2, "field 'height': must be >= 0") end
  if opts.size and opts.size <= 0 then argerr(fname, 2, "field 'size': must be > 0") end
  if opts.fit_size and (opts.fit_size <= 0 or opts.fit_size > 1) then
    argerr(fname, 2, "field 'fit_size': the smallest size as a fraction of the size, 0 < fit_size <= 1")
  end
  if opts.align and not ALIGN[opts.align] then
    argerr(fname, 2, ("field 'align': expected %s, got '%s'"):format(ALIGN_NAMES, tostring(opts.align)))
  end
  if opts.valign and not VALIGN[opts.valign] then
    argerr(fname, 2, ("field 'valign': expected top, middle or bottom, got '%s'"):format(tostring(opts.valign)))
  end
  if opts.fit_to and opts.fit_to ~= "frame" and opts.fit_to ~= "line" then
    argerr(fname, 2, ("field 'fit_to': expected frame or line, got '%s'"):format(tostring(opts.fit_to)))
  end
  check_break(opts, fname, 2, "")
  check_num(opts, "emergency_stretch", fname, 2, 0)
  if opts.font ~= nil and not font_chain(opts.font) then
    argerr(fname, 2, "field 'font': a Font or a list of Fonts is required")
  end
end

--- Lays out paragraphs in a frame.
-- `paras` is a list of paragraphs; each is a list of runs `{text =, font =, size =, ...}`
-- (missing style keys come from `opts`), with optional `align`, `first_line_indent` and
-- `continued` (the paragraph goes on from a previous frame: no indent).
-- Within a run, U+2028 (and "\n") is a line break.
-- @treturn table lines: {x =, y = baseline, width =, natural =, text = (logical order),
--   height =, ascent =, descent =, rtl =, items = {{text =, run =, font =, script =,
--   direction =, x =, width =}, ...} (visual order)} in frame coordinates
-- @treturn table|nil the overflow: paragraphs in the input's shape (nil if all fits)
-- @treturn number the height used (top of the frame to the last line's descent)
-- @treturn table|nil the fitting result when `fit` is given: {fits =, steps = {{step =, value =}...}}
function M.paragraphs(paras, opts, fname)
  fname = fname or "paragraphs"
  check_opts(opts, fname)
  if type(paras) ~= "table" then argerr(fname, 1, "list of paragraphs expected, got " .. type(paras)) end
  for pi, para in ipairs(paras) do
    if type(para) ~= "table" then argerr(fname, 1, ("paragraph %d: table expected"):format(pi)) end
    for k in pairs(para) do
      if type(k) ~= "number" and not set_of(PARA_KEYS)[k] then
        argerr(fname, 1, ("paragraph %d: unknown field '%s' (expected %s)")
          :format(pi, tostring(k), table.concat(PARA_KEYS, ", ")))
      end
    end
    for _, k in ipairs({ "space_before", "space_after", "first_line_indent" }) do
      check_num(para, k, fname, 1, nil, ("paragraph %d: "):format(pi))
    end
    check_break(para, fname, 1, ("paragraph %d: "):format(pi))
    if para.align and not ALIGN[para.align] then
      argerr(fname, 1, ("paragraph %d: align: expected %s, got '%s'"):format(pi, ALIGN_NAMES, tostring(para.align)))
    end
  end
  local steps = parse_steps(opts.fit, fname)
  local base = copy_style(opts)
  base.size = base.size or 12
  local warned = {}
  local res, fitinfo
  if steps and #steps > 0 then
    res, fitinfo = fit_cascade(paras, opts, base, fname, warned, steps)
  else
    res = attempt(paras, opts, base, fname, warned, nil)
  end
  local out = place(res.all, res.fit, res.used, opts, opts.width)
  return out, res.overflow, res.used, fitinfo
end

local function runs_text(paras)
  if not paras then return nil end
  local t = {}
  for i, p in ipairs(paras) do
    for _, r in ipairs(p) do t[#t + 1] = r.text end
    if i < #paras then t[#t + 1] = "\n" end
  end
  return table.concat(t)
end
M.overflow_text = runs_text

-- A string or a list of runs, cut into paragraphs at "\n".
local function to_paras(input, fname)
  local runs
  if type(input) == "string" then runs = { { text = input } }
  elseif type(input) == "table" then runs = input
  else argerr(fname, 1, "string or list of runs expected, got " .. type(input)) end
  local paras, cur = {}, {}
  for _, r in ipairs(runs) do
    if type(r) ~= "table" or type(r.text) ~= "string" then
      argerr(fname, 1, "each run must be a table with a string 'text'")
    end
    local text = r.text:gsub("\r\n", "\n")
    local first = true
    for piece in (text .. "\n"):gmatch("(.-)\n") do
      if not first then paras[#paras + 1] = cur; cur = {} end
      first = false
      local nr = {}
      for k, v in pairs(r) do nr[k] = v end
      nr.text = piece
      if piece ~= "" then cur[#cur + 1] = nr end
    end
  end
  paras[#paras + 1] = cur
  return paras
end
M.to_paragraphs = to_paras

--- Lays out a text (a string, or a list of runs `{text =, font =, size =, color =, ...}`)
--- in a frame.  "\n" starts a paragraph, U+2028 breaks a line.
-- Options: `font` (a Font or a fallback chain, a list of Fonts; required unless every run
-- has one), `size` (12), `width` (required), `height` (none: no limit), `x`, `y` (0: the
-- frame's top left), `leading` (1.2 × size), `tracking` (0, points after every glyph),
-- `align` ("start"), `valign` ("top"), `first_line_indent` (0), `hyphenate` (false),
-- the fitting options `fit`, `fit_to`, `fit_tracking`, `fit_width`, `fit_features`,
-- `fit_size`, and canvas:text's `palette`, `overrides`, `color`, `format`, `features`,
-- `script`, `language`, `direction`.
-- @treturn table lines (see `paragraphs`)
-- @treturn string|nil the text that did not fit in `height`
-- @treturn number the height used
-- @treturn table|nil the fitting result (see `paragraphs`)
function M.lines(input, opts)
  local lines, over, used, fit = M.paragraphs(to_paras(input, "lines"), opts, "lines")
  return lines, runs_text(over), used, fit
end

-- Byte ranges of the clusters of a shaped text: cluster start -> end (exclusive).
local function cluster_ends(glyphs, n)
  local starts = {}
  for _, g in ipairs(glyphs) do starts[g.cluster] = true end
  local sorted = {}
  for c in pairs(starts) do sorted[#sorted + 1] = c end
  table.sort(sorted)
  local ends = {}
  for i, c in ipairs(sorted) do ends[c] = sorted[i + 1] or n + 1 end
  return ends
end

--- Draws laid-out lines on a canvas with canvas:text (tracking: cluster by cluster).
function M.draw_lines(canvas, lines)
  for _, l in ipairs(lines) do
    for _, it in ipairs(l.items) do
      local r = it.run
      local font = it.font or first_font(r.font)
      local t = { it.text, font = font, size = r.size, x = it.x, y = l.y,
        script = it.script or r.script, direction = it.direction or r.direction }
      for _, k in ipairs(PASS) do t[k] = r[k] end
      if it.features then t.features = it.features end
      local run = { font = font, size = r.size, tracking = r.tracking, script = t.script,
        features = t.features, language = r.language, direction = t.direction }
      if is_stack(font) then
        t.tracking = tracked(run) and r.tracking or nil
        font:draw(canvas, t)
      elseif it.glyphs then
        -- shaped with the paragraph (kerning across words and spans)
        local glyphs = it.glyphs
        if tracked(run) then
          local extra = r.tracking * font_metrics(font).upem / r.size
          glyphs = {}
          for i, g in ipairs(it.glyphs) do
            glyphs[i] = { gid = g.gid, cluster = g.cluster, x_advance = g.x_advance + extra,
              y_advance = g.y_advance, x_offset = g.x_offset, y_offset = g.y_offset }
          end
        end
        t.glyphs = glyphs
        canvas:text(t)
      elseif tracked(run) then
        -- cluster by cluster (visual order), tracking after each glyph
        local glyphs = font:shape(it.text, (shape_opts(run)))
        local ends = cluster_ends(glyphs, #it.text)
        local m = font_metrics(font)
        local x = it.x
        local i = 1
        while i <= #glyphs do
          local c0 = glyphs[i].cluster
          local adv, n = 0, 0
          local j = i
          while j <= #glyphs and glyphs[j].cluster == c0 do
            adv = adv + glyphs[j].x_advance; n = n + 1; j = j + 1
          end
          t[1], t.x = it.text:sub(c0, ends[c0] - 1), x
          canvas:text(t)
          x = x + adv * r.size / m.upem + r.tracking * n
          i = j
        end
      else
        canvas:text(t)
      end
    end
  end
end

--- Lays out and draws a text in a frame; see `lines` for the options.
-- @treturn string|nil the overflow (the text that did not fit)
-- @treturn integer the number of lines drawn
-- @treturn table|nil the fitting result
function M.draw(canvas, input, opts)
  local lines, over, _, fit = M.paragraphs(to_paras(input, "draw"), opts, "draw")
  M.draw_lines(canvas, lines)
  return runs_text(over), #lines, fit
end

return M
