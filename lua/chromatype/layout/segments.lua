-- chromatype.layout.segments: a shaped paragraph cut into segments at its break
-- opportunities (UAX #14), measured in their runs, and the places inside a word where a
-- line may end (hyphenation, emergency breaks).  It chooses no breaks.

local ct = require "chromatype"
local shape = require "chromatype.layout.shape"

local shaped_with, item_scale, run_width = shape.shaped_with, shape.item_scale, shape.run_width
local memo, new_budget, WORDS_KEPT = shape.memo, shape.memo_budget, shape.WORDS_KEPT

local M = {}

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
    local hyph = shape.measure(seg.frags[#seg.frags].item.shape, "-")
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

M.alone, M.pieces, M.sum_width, M.segments = alone, pieces, sum_width, segments
M.width_to, M.cut_points = width_to, cut_points

return M
