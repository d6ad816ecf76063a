-- test_filter.lua: chromatype.filter over documents: walk order, return conventions (nil,
-- a replacement, false, a list), contexts on a known text, reshaping of changed runs,
-- determinism by seed, options from "file.lua:key=value", errors with the filter's file and
-- line.  Font: ct-wdth.ttf (bars; letters 500 units, space 250).
local ct = require "chromatype"
local filter = require "chromatype.filter"

local W = font_path("ct-wdth.ttf")

local function doc(text, opts)
  local d = ct.document { size = "200mm x 60mm", margin = "10mm", background = "#ffffff", seed = opts and opts.seed }
  d:style("default", { font = W, size = "20pt" })
  local fr = d:page():frame {}
  for _, p in ipairs(type(text) == "table" and text or { text }) do fr:text(p) end
  return d
end

local function png_bytes(d, opts)
  local p = tmpname(".png")
  assert(d:write(p, opts))
  local h = assert(io.open(p, "rb"))
  local s = h:read("a")
  h:close()
  return s
end

return {
  { "walk order: top down, every kind", function()
    local order = {}
    local function note(kind) return function(e) order[#order + 1] = kind .. ":" .. (e.text or e.index or "") end end
    local d = doc("ab c")
    d:filter { Document = note("Document"), Page = note("Page"), Frame = note("Frame"), Paragraph = note("Paragraph"),
      Run = note("Run"), Glyph = note("Glyph"), Layer = function(_, ctx) order[#order + 1] = "Layer:" .. ctx.glyph.text end }
    d:render()
    eq(order, { "Document:", "Page:1", "Frame:1", "Paragraph:1", "Run:ab", "Run:c",
      "Glyph:a", "Layer:a", "Glyph:b", "Layer:b", "Glyph:c", "Layer:c" })
  end },
  { "contexts: neighbours, word and line positions, cluster, style", function()
    local got = {}
    local d = doc("ab cab")
    d:filter { Glyph = function(g, ctx)
      got[#got + 1] = { g.text, ctx.word, ctx.index_in_word, ctx.word_length, ctx.index_in_line, ctx.line_length,
        ctx.prev and ctx.prev.text or "-", ctx.next and ctx.next.text or "-", ctx.cluster, ctx.style.size }
    end }
    d:render()
    eq(got[1], { "a", "ab", 1, 2, 1, 5, "-", "b", "a", 20.0 })
    eq(got[3], { "c", "cab", 1, 3, 3, 5, "b", "a", "c", 20.0 })
    eq(got[5], { "b", "cab", 3, 3, 5, 5, "a", "-", "b", 20.0 })
  end },
  { "return conventions: nil keeps, false removes, a list splices, a table replaces", function()
    local texts = {}
    local d = doc("abc")
    d:filter { Glyph = function(g)
      if g.text == "a" then return false end
      if g.text == "b" then
        local copy = {}
        for k, v in pairs(g) do copy[k] = v end
        copy.x = g.x + 40
        return { g, copy }
      end
      if g.text == "c" then
        local r = {}
        for k, v in pairs(g) do r[k] = v end
        r.color = "#ff0000"
        return r
      end
    end }
    d:filter { Glyph = function(g) texts[#texts + 1] = g.text .. (g.color == "#ff0000" and "!" or "") end }
    d:render()
    eq(texts, { "b", "b", "c!" })
  end },
  { "a removed page, a removed run", function()
    local d = doc("ab cd")
    d:filter { Run = function(r) if r.text == "ab" then return false end end }
    local out = tmpname(".pdf")
    assert(d:write(out))
    local p = io.popen('pdftotext "' .. out .. '" - 2>/dev/null')
    local t = p and p:read("a") or ""
    if p then p:close() end
    if t ~= "" then eq(t:gsub("%s", ""), "cd") end
    local d2 = doc("x")
    d2:filter { Page = function() return false end }
    checkerr("the filters removed every page", function() d2:render() end)
  end },
  { "a changed run is shaped again", function()
    local widths = {}
    local d = doc("ab")
    d:filter { Run = function(r) r.text = "abcd" end }
    d:filter { Glyph = function(g) widths[#widths + 1] = g.text end }
    d:render()
    eq(widths, { "a", "b", "c", "d" })
  end },
  { "same seed, same bytes; another seed, other bytes; untouched runs are unchanged", function()
    local function jitter() return { Glyph = function(g, ctx) g.y = g.y + ctx.rng:uniform(-5, 5) end } end
    local function render(seed)
      local d = doc({ "abc abc", "xyz" })
      d:filter(jitter())
      return png_bytes(d, { seed = seed })
    end
    eq(render(1), render(1))
    assert(render(1) ~= render(2), "different seeds differ")
    local function pdf(seed)
      local d = doc({ "abc abc", "xyz" })
      d:filter(jitter())
      local p = tmpname(".pdf")
      assert(d:write(p, { seed = seed }))
      local h = assert(io.open(p, "rb"))
      local s = h:read("a")
      h:close()
      return s
    end
    eq(pdf(9), pdf(9), "PDF bytes")
    assert(pdf(9) ~= pdf(10), "PDF differs by seed")
  end },
  { "streams are keyed by word: editing one word leaves the others", function()
    local function ys(text)
      local t = {}
      local d = doc(text)
      d:filter { Glyph = function(g, ctx) t[#t + 1] = ctx.rng:random(1000000) end }
      d:render { seed = 5 }
      return t
    end
    local a = ys("abc def ghi")
    local b = ys("abc xyzw ghi")
    eq({ a[1], a[2], a[3] }, { b[1], b[2], b[3] }, "first word")
    eq({ a[7], a[8], a[9] }, { b[8], b[9], b[10] }, "last word")
    assert(a[4] ~= b[4], "the edited word changes")
  end },
  { "options from a file spec, and defaults", function()
    local f = assert(filter.load(ROOT .. "/tests/lua/filters/opts.lua:color=#0000ff"))
    eq(f.options.color, "#0000ff")
    local seen
    local d = doc("a")
    d:filter(f)
    d:filter { Glyph = function(g) seen = g.color end }
    d:render()
    eq(seen, "#0000ff")
    f = assert(filter.load(ROOT .. "/tests/lua/filters/opts.lua"))
    eq(f.options.color, "#00ff00")
  end },
  { "an error inside a filter names the filter file and line", function()
    local f = assert(filter.load(ROOT .. "/tests/lua/filters/bad.lua"))
    local d = doc("a")
    d:filter(f)
    checkerr("filter bad: Glyph: .*tests/lua/filters/bad%.lua:3: attempt to index a nil value", function() d:render() end)
  end },
  { "loading errors", function()
    local f, err = filter.load("/no/such/filter.lua")
    eq(f, nil); assert(err:find("cannot open"), err)
    f, err = filter.load(ROOT .. "/tests/lua/filters/opts.lua:color")
    eq(f, nil); assert(err:find("bad filter option 'color'"), err)
    checkerr("unknown field 'Glyf'", filter.new, { Glyf = function() end })
    checkerr("field 'Glyph' must be a function", filter.new, { Glyph = 3 })
  end },
  { "a bad return value", function()
    local d = doc("a")
    d:filter { Glyph = function() return 42 end }
    checkerr("Glyph returned a number", function() d:render() end)
  end },
  { "the command line: -f, --seed, --seed random", function()
    local exe = (os.getenv("CT_BUILD") or (ROOT .. "/build")) .. "/chromatype"
    if not io.open(exe, "rb") then return end
    local src = tmpname(".xml")
    local h = assert(io.open(src, "w"))
    h:write(('<document size="80mm x 30mm" margin="5mm" background="#ffffff"><style name="default" font="%s" size="20pt"/>'
      .. '<page><frame><p>abc def</p></frame></page></document>'):format(W))
    h:close()
    local flt = tmpname(".lua")
    h = assert(io.open(flt, "w"))
    h:write("local o = ...\nreturn { Glyph = function(g, ctx) g.y = g.y + ctx.rng:uniform(-5, 5) * tonumber(o.k or 1) end }\n")
    h:close()
    local function run(args)
      local out = tmpname(".png")
      local p = io.popen(('"%s" %s "%s" -o "%s" 2>&1; echo "rc=$?"'):format(exe, args, src, out))
      local msg = p:read("a")
      p:close()
      local f = io.open(out, "rb")
      local bytes = f and f:read("a")
      if f then f:close() end
      return bytes, msg
    end
    local a = run(('-f "%s:k=2" --seed 4'):format(flt))
    local b = run(('--seed=4 -f "%s:k=2"'):format(flt))
    local c = run(('-f "%s:k=2" --seed 5'):format(flt))
    assert(a and a == b, "same seed, same bytes")
    assert(c and c ~= a, "another seed, other bytes")
    local _, msg = run(('-f "%s" --seed random'):format(flt))
    assert(msg:match("^chromatype: seed %d+\nrc=0\n$"), msg)
    _, msg = run("-f /no/such.lua")
    assert(msg:match("^chromatype: /no/such%.lua: cannot open: No such file or directory\nrc=1\n$"), msg)
    _, msg = run(('-f "%s" --seed x'):format(flt))
    assert(msg:find("--seed: expected an integer or 'random', got 'x'", 1, true), msg)
    -- ready filters by name, with options; a mistyped option is named
    local plain = run("")
    local shadowed, m2 = run("-f 'shadow:offset=2pt 2pt,color=#ff0000' -f palette-cycle:per=word")
    assert(shadowed and m2 == "rc=0\n" and shadowed ~= plain, m2)
    _, msg = run("-f shadow:colr=red")
    assert(msg:find("^chromatype: shadow: unknown option 'colr' %(options: color, color2, layers, offset, steps%)\nrc=1"), msg)
  end },
  { "--watch renders again when a filter changes", function()
    local exe = (os.getenv("CT_BUILD") or (ROOT .. "/build")) .. "/chromatype"
    if not io.open(exe, "rb") then return end
    local src = tmpname(".xml")
    local h = assert(io.open(src, "w"))
    h:write(('<document size="80mm x 30mm" margin="5mm"><style name="default" font="%s" size="20pt"/>'
      .. '<page><frame><p>abc</p></frame></page></document>'):format(W))
    h:close()
    local flt = tmpname(".lua")
    h = assert(io.open(flt, "w"))
    h:write("return { Glyph = function(g) g.color = '#ff0000' end }\n")
    h:close()
    local out, log = tmpname(".png"), tmpname(".log")
    os.execute(('CHROMATYPE_WATCH_RUNS=2 "%s" --watch -f "%s" "%s" -o "%s" 2>"%s" &'):format(exe, flt, src, out, log))
    local function lines()
      local f = io.open(log, "r")
      local s = f and f:read("a") or ""
      if f then f:close() end
      local n = 0
      for _ in s:gmatch("rendered in") do n = n + 1 end
      return n, s
    end
    local t0 = os.time()
    while lines() < 1 and os.time() - t0 < 20 do os.execute("sleep 0.1") end
    -- a pixel inside the bar of the 'a' (x 16..22 pt, y 16..30 pt at 72 dpi)
    local r1, _, b1 = ct.read_png_pixel(out, 19, 25)
    os.execute("sleep 0.3")
    h = assert(io.open(flt, "w"))
    h:write("return { Glyph = function(g) g.color = '#0000ff' end }\n")
    h:close()
    while lines() < 2 and os.time() - t0 < 20 do os.execute("sleep 0.1") end
    local n, s = lines()
    eq(n, 2, s)
    assert(s:find("watching 3 files", 1, true), s)
    assert(s:find(flt .. " changed", 1, true), s)
    os.execute("sleep 0.2")
    local r2, _, b2 = ct.read_png_pixel(out, 19, 25)
    eq({ r1, b1, r2, b2 }, { 255, 0, 0, 255 }, "red, then blue")
  end },
}
