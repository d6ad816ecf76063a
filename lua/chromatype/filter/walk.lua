-- chromatype.filter.walk: one filter run over the tree, top down, with each element's
-- context (its keys, its random streams) and the return conventions applied.  It knows the
-- tree's shape, not how it is built or drawn.

local random = require "chromatype.random"
local elements = require "chromatype.filter.tree"

local shape_key, glyphs_of, layers_of = elements.shape_key, elements.glyphs_of, elements.layers_of

local M = {}

-- ---- contexts ---------------------------------------------------------------------------------

-- ctx.rng is made on first use: a stream keyed by the filter and the element's path (and,
-- with `boil`, the animation frame over boil); ctx.boil_rng the same keyed by the frame.
local ctx_mt = {
  __index = function(ctx, k)
    if k == "rng" or k == "boil_rng" then
      local r = k == "rng" and ctx._root or ctx._boil_root
      for _, key in ipairs(ctx._keys) do r = r:fork(key) end
      rawset(ctx, k, r)
      return r
    elseif k == "boil_stream" then
      return function(self, ...)
        if select("#", ...) == 0 then return self._boil_root end
        return self._boil_root:fork(...)
      end
    elseif k == "stream" then
      return function(self, ...)
        if select("#", ...) == 0 then return self._root end
        return self._root:fork(...)
      end
    end
    return nil
  end,
}

local function new_ctx(base, keys, extra)
  local ctx = setmetatable({ _root = base._root, _keys = keys }, ctx_mt)
  for k, v in pairs(base) do if k ~= "_keys" and k ~= "rng" and k ~= "boil_rng" then ctx[k] = v end end
  for k, v in pairs(extra or {}) do ctx[k] = v end
  ctx._keys = keys
  return ctx
end

local function extend(keys, ...)
  local t = {}
  for i, k in ipairs(keys) do t[i] = k end
  for i = 1, select("#", ...) do t[#t + 1] = select(i, ...) end
  return t
end

-- Calls fn(element, ctx) and applies the return convention to `list[i]`; returns the
-- number of elements now in its place.
local function apply(fn, list, i, ctx, fname, kind)
  local el = list[i]
  local ok, res = pcall(fn, el, ctx)
  if not ok then
    local msg = tostring(res):match("^[^\n]*") or tostring(res)
    error(("filter %s: %s: %s"):format(fname, kind, msg), 0)
  end
  if res == nil or res == true then return 1 end
  if res == false then table.remove(list, i); return 0 end
  if type(res) ~= "table" then
    error(("filter %s: %s returned a %s (expected nil, false, a %s or a list)"):format(fname, kind, type(res), kind), 0)
  end
  if res.kind == nil and res[1] ~= nil then            -- a list: splice
    table.remove(list, i)
    for j, e in ipairs(res) do
      if type(e) ~= "table" then error(("filter %s: %s: item %d of the list is not a table"):format(fname, kind, j), 0) end
      e.kind = e.kind or kind
      table.insert(list, i + j - 1, e)
    end
    return #res
  end
  res.kind = res.kind or kind
  list[i] = res
  return 1
end

-- Word contexts of a paragraph's glyphs (logical order): index in word, word text and its
-- occurrence, index in line.
local function word_info(para)
  local info = {}
  local occ = {}
  local words = {}
  for _, run in ipairs(para.runs) do
    local w = words[run.word or run]
    if not w then w = { text = {}, runs = {} }; words[run.word or run] = w; words[#words + 1] = w end
    w.runs[#w.runs + 1] = run
  end
  for _, w in ipairs(words) do
    table.sort(w.runs, function(a, b) return (a.start or 0) < (b.start or 0) end)
    local t = {}
    for _, r in ipairs(w.runs) do t[#t + 1] = r.text end
    w.word = table.concat(t)
    occ[w.word] = (occ[w.word] or 0) + 1
    w.occurrence = occ[w.word]
    for _, r in ipairs(w.runs) do info[r] = w end
  end
  return info
end

-- Runs one filter over the tree at the time `time` (see M.run).
local function run_filter(tree, f, seed, time)
  local fn = f.funcs
  local root = random.new(seed):fork(f.name)
  local n = time.frame_number
  -- a boiling filter draws again every `boil` frames; boil_rng every frame
  local boil_root = root:fork("boil", n)
  if f.boil then root = root:fork("boil", n // f.boil) end
  local base = { _root = root, _boil_root = boil_root, options = f.options, seed = seed, document = tree,
    t = time.t, frame_number = n, fps = time.fps, duration = time.duration, progress = time.progress }
  local need_glyphs = fn.Glyph or fn.Layer
  local dctx = new_ctx(base, {}, {})
  if fn.Document then
    local list = { tree }
    local n = apply(fn.Document, list, 1, dctx, f.name, "Document")
    if n == 0 then tree.pages = {}; return tree end
    tree = list[1]
  end
  local pi = 1
  while pi <= #tree.pages do
    local page = tree.pages[pi]
    local pctx = new_ctx(base, { "page", page.index }, { page = page })
    local n = fn.Page and apply(fn.Page, tree.pages, pi, pctx, f.name, "Page") or 1
    for k = pi, pi + n - 1 do
      page = tree.pages[k]
      local fi = 1
      while fi <= #page.frames do
        local frame = page.frames[fi]
        local fctx = new_ctx(base, { "page", page.index, "frame", frame.index }, { page = page, frame = frame })
        local nf = fn.Frame and apply(fn.Frame, page.frames, fi, fctx, f.name, "Frame") or 1
        for kf = fi, fi + nf - 1 do
          frame = page.frames[kf]
          local qi = 1
          while qi <= #frame.paragraphs do
            local para = frame.paragraphs[qi]
            local keys = { "page", page.index, "frame", frame.index, "paragraph", para.index }
            local qctx = new_ctx(base, keys, { page = page, frame = frame, paragraph = para })
            local nq = fn.Paragraph and apply(fn.Paragraph, frame.paragraphs, qi, qctx, f.name, "Paragraph") or 1
            for kq = qi, qi + nq - 1 do
              para = frame.paragraphs[kq]
              local winfo = word_info(para)
              local ri = 1
              local runs = para.runs
              while ri <= #runs do
                local run = runs[ri]
                local w = winfo[run] or { word = run.text, occurrence = 1 }
                local rkeys = extend(keys, "word", w.word, w.occurrence, "run", run.start or ri)
                local rctx = new_ctx(base, rkeys, { page = page, frame = frame, paragraph = para, run = run,
                  line = run.line, style = run.style, word = w.word, occurrence = w.occurrence, x = run.x, y = run.y })
                local nr = fn.Run and apply(fn.Run, runs, ri, rctx, f.name, "Run") or 1
                for kr = ri, ri + nr - 1 do
                  run = runs[kr]
                  if run.glyphs and run.shaped_as ~= shape_key(run) then run.glyphs = nil end
                  if need_glyphs and not run.glyphs then run.glyphs = glyphs_of(run) end
                end
                ri = ri + nr
              end
              if need_glyphs then
                -- glyph contexts: the paragraph's glyphs in order, grouped by word and line
                local all, line_pos, word_pos = {}, {}, {}
                for _, run in ipairs(runs) do
                  for _, g in ipairs(run.glyphs or {}) do all[#all + 1] = g end
                end
                local line_count, word_count = {}, {}
                for _, g in ipairs(all) do
                  local l = g.run.line
                  line_count[l] = (line_count[l] or 0) + 1
                  line_pos[g] = line_count[l]
                  local w = winfo[g.run] or g.run
                  word_count[w] = (word_count[w] or 0) + 1
                  word_pos[g] = word_count[w]
                end
                for gi, g in ipairs(all) do
                  local run = g.run
                  local w = winfo[run] or { word = run.text, occurrence = 1 }
                  local gkeys = extend(keys, "word", w.word, w.occurrence, "glyph", word_pos[g])
                  local gctx = new_ctx(base, gkeys, { page = page, frame = frame, paragraph = para, run = run,
                    line = run.line, style = run.style, word = w.word, occurrence = w.occurrence, index = gi,
                    index_in_word = word_pos[g], word_length = word_count[winfo[run] or run],
                    index_in_line = line_pos[g], line_length = line_count[run.line],
                    prev = all[gi - 1], next = all[gi + 1], cluster = g.text, x = g.x, y = g.y })
                  local list = run.glyphs
                  local at
                  for j, x in ipairs(list) do if x == g then at = j; break end end
                  local ng = at and fn.Glyph and apply(fn.Glyph, list, at, gctx, f.name, "Glyph") or 1
                  if fn.Layer and at then
                    for kg = at, at + ng - 1 do
                      local gg = list[kg]
                      if gg then
                        gg.kind = "Glyph"
                        gg.run = gg.run or run
                        gg.font = gg.font or run.font
                        gg.size = gg.size or run.size
                        if not gg.layers then gg.layers = layers_of(gg) end
                        local li = 1
                        while li <= #gg.layers do
                          local layer = gg.layers[li]
                          local lctx = new_ctx(base, extend(gkeys, "layer", layer.index or li), {
                            page = page, frame = frame, paragraph = para, run = run, line = run.line,
                            style = run.style, word = w.word, occurrence = w.occurrence, glyph = gg,
                            layer_count = #gg.layers, index = gi,
                            index_in_word = word_pos[g], index_in_line = line_pos[g], cluster = gg.text,
                            prev = all[gi - 1], next = all[gi + 1], x = gg.x, y = gg.y })
                          li = li + apply(fn.Layer, gg.layers, li, lctx, f.name, "Layer")
                        end
                      end
                    end
                  end
                end
              end
            end
            qi = qi + nq
          end
        end
        fi = fi + nf
      end
    end
    pi = pi + n
  end
  return tree
end

--- The keys of the unit `per` ("document", "page", "frame", "paragraph", "line", "word" or
--- "glyph") that holds the context's element: `ctx:stream(table.unpack(keys))` is then one
--- stream for the whole unit (a line's glyphs all draw the same numbers), stable when other
--- words change.  Words are keyed by their text and occurrence, glyphs by their index in it.
function M.unit_keys(ctx, per)
  if per == "document" then return {} end
  local k = { "page", ctx.page and ctx.page.index or 0 }
  if per == "page" then return k end
  k[#k + 1] = "frame"; k[#k + 1] = ctx.frame and ctx.frame.index or 0
  if per == "frame" then return k end
  k[#k + 1] = "paragraph"; k[#k + 1] = ctx.paragraph and ctx.paragraph.index or 0
  if per == "paragraph" then return k end
  if per == "line" then
    k[#k + 1] = "line"; k[#k + 1] = ctx.line and ctx.line.index or 0
    return k
  end
  k[#k + 1] = "word"; k[#k + 1] = ctx.word or ""; k[#k + 1] = ctx.occurrence or 1
  if per == "word" then return k end
  k[#k + 1] = "glyph"; k[#k + 1] = ctx.index_in_word or 0
  return k
end

M.apply, M.run_filter = apply, run_filter

return M
