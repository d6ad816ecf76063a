-- chromatype.layout.shape: measuring and shaping: font metrics, the bounded word caches
-- (memos sharing a budget), text widths, and a paragraph's items shaped run by run with the
-- glyphs its pieces draw.  It knows no line breaks, frames or options.

local M = {}

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

M.WORDS_KEPT, M.font_metrics, M.shape_opts, M.shaped_with, M.tracked = WORDS_KEPT, font_metrics, shape_opts,
  shaped_with, tracked
M.item_scale, M.shape_runs, M.run_width, M.piece_glyphs = item_scale, shape_runs, run_width, piece_glyphs

return M
