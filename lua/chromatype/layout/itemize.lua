-- chromatype.layout.itemize: a paragraph's text cut into items that shape alone: by font
-- (fallback chains, cluster by cluster), by script and by bidi level.  It shapes nothing
-- and knows no lines.

local ct = require "chromatype"
local common = require "chromatype.layout.common"
local shape = require "chromatype.layout.shape"

local font_metrics = shape.font_metrics

local M = {}

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
          common.warn(("no font has U+%04X '%s' (tried %s); drawing .notdef")
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
local function has_rand(font)
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

M.itemize = itemize

return M
