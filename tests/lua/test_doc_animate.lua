-- test_doc_animate.lua: motion in documents and filters (issue 15): filters see the time
-- (ctx.t, ctx.frame_number) and keep their random draws across frames unless boil=N;
-- <animate> in XML documents (variations, palettes blended, size, tracking, color, a
-- frame's position) written as APNG, WebP and PNG frames, whose first and last frames are
-- the stills at the start and end values; bad input: one message, no file.
local ct = require "chromatype"
local document = require "chromatype.document"
local filter = require "chromatype.filter"
local motion = require "chromatype.motion"

local VAR = font_path("ct-colr1-var.ttf")
local BUNGEE = ROOT .. "/examples/fonts/bungee-latin.woff2"

local function read(p)
  local f = io.open(p, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function count(s, pat)
  local n = 0
  for _ in s:gmatch(pat) do n = n + 1 end
  return n
end

local function exists(p) local f = io.open(p, "rb"); if f then f:close() end return f ~= nil end

-- A one-page document: `style` attributes of the default style, `body` the frame's content.
local function doc(attrs, style, body, font)
  return ([[<document size="320pt x 90pt" margin="10pt" background="#fffaf0" %s>
  <style name="default" font="%s" size="40pt" %s/>
  <page><frame>%s</frame></page>
</document>]]):format(attrs or "", font or VAR, style or "", body)
end

local MOVING = doc('duration="1.5s" fps="4"', 'variations="SWPS=0" palette="0"', [[
  <p>&#xE003;&#xE007; <span font="]] .. BUNGEE .. [[" color="#c0392b">Go<animate attribute="color"
      values="#c0392b;#2040e0" dur="1s"/></span>
    <animate attribute="variations" values="SWPS=0;SWPS=360" dur="1s" ease="in-out"/>
    <animate attribute="palette" values="0;1" dur="1s"/>
    <animate attribute="tracking" from="0" to="6pt" dur="1s" ease="out"/></p>]])

-- The same document standing still at the end values, and at the start.
local END = doc("", 'variations="SWPS=360"', [[
  <p tracking="6pt"><span palette="1">&#xE003;&#xE007; </span><span font="]] .. BUNGEE .. [[" color="#2040e0">Go</span></p>]])
local START = doc("", 'variations="SWPS=0"', [[
  <p tracking="0">&#xE003;&#xE007; <span font="]] .. BUNGEE .. [[" color="#c0392b">Go</span></p>]])

local function pixels(path)
  local w, h, px = ct.read_png(path)
  assert(w, h)
  return w, h, px
end

-- the random draws and times a filter saw, per frame
local function recorder(seen)
  return filter.new({
    Glyph = function(_, ctx)
      seen[#seen + 1] = { t = ctx.t, n = ctx.frame_number, r = ctx.rng:random(), s = ctx:stream("x"):random(),
        b = ctx.boil_rng:random() }
    end,
  })
end

-- what the recorder saw of the first glyph in each of `n` frames, with `boil`
local function frames_of(boil, n, fps)
  local d = document.from_xml(doc("", "", "<p>&#xE003;</p>"), "t.xml")
  local out = {}
  for i = 0, n - 1 do
    local seen = {}
    local f = recorder(seen)
    f.boil = boil
    d:render { filters = { f }, time = { t = i / fps, frame_number = i, fps = fps, duration = n / fps,
      progress = i / (n - 1) } }
    out[i + 1] = seen[1]
  end
  return out
end

return {
  -- ---- filters and time ----------------------------------------------------------------------
  { "every context has ctx.t and ctx.frame_number; a still is t 0, frame 0", function()
    local seen = {}
    local kinds = {}
    for _, k in ipairs({ "Document", "Page", "Frame", "Paragraph", "Run", "Glyph", "Layer" }) do
      kinds[k] = function(_, ctx) seen[#seen + 1] = { k, ctx.t, ctx.frame_number, ctx.fps, ctx.duration } end
    end
    local d = document.from_xml(doc("", "", "<p>&#xE003;</p>"), "t.xml")
    d:render { filters = { filter.new(kinds) } }
    eq(#seen >= 7, true)
    for _, s in ipairs(seen) do eq({ s[2], s[3], s[5] }, { 0, 0, 0 }, s[1]) end
    seen = {}
    d:render { filters = { filter.new(kinds) }, time = { t = 0.75, frame_number = 9, fps = 12, duration = 2, progress = 0.4 } }
    for _, s in ipairs(seen) do eq({ s[2], s[3], s[4], s[5] }, { 0.75, 9, 12, 2 }, s[1]) end
    -- a still at a time: --at
    seen = {}
    d:render { filters = { filter.new(kinds) }, at = "1.5s" }
    eq({ seen[1][2], seen[1][3] }, { 1.5, 45 })
  end },
  { "ctx.rng is the same in every frame by default; boil=1 draws again each frame, boil=2 on twos", function()
    local fixed = frames_of(nil, 4, 10)
    for i = 2, 4 do
      eq(fixed[i].r, fixed[1].r, "rng, frame " .. i)
      eq(fixed[i].s, fixed[1].s, "stream, frame " .. i)
      eq(fixed[i].n, i - 1)
      assert(fixed[i].b ~= fixed[i - 1].b, "boil_rng changes every frame")
    end
    local boil1 = frames_of(1, 4, 10)
    for i = 2, 4 do
      assert(boil1[i].r ~= boil1[i - 1].r, "boil=1: frame " .. i)
      assert(boil1[i].s ~= boil1[i - 1].s, "boil=1 stream: frame " .. i)
      eq(boil1[i].r, boil1[i].b, "boil=1: ctx.rng is ctx.boil_rng")
    end
    local boil2 = frames_of(2, 4, 10)
    eq(boil2[2].r, boil2[1].r)
    eq(boil2[4].r, boil2[3].r)
    assert(boil2[3].r ~= boil2[2].r)
  end },
  { "boil is the runner's option: taken from -f specs and filter options, checked", function()
    local f = assert(filter.load(ROOT .. "/filters/misregistration.lua:amount=2pt,boil=3"))
    eq(f.boil, 3)
    eq(f.options.boil, nil)
    eq(filter.new({ Glyph = function() end }, { boil = "1" }).boil, 1)
    eq(filter.new({ Glyph = function() end }, { boil = 0 }).boil, nil)
    local ok, err = filter.load(ROOT .. "/filters/misregistration.lua:boil=-1")
    eq(ok, nil)
    assert(err:find("misregistration: boil: expected an integer from 0 to 100000", 1, true), err)
    checkerr("boil: expected an integer", filter.new, { Glyph = function() end }, { boil = "often" })
  end },
  { "misregistration: identical layer offsets across frames, boiling ones with boil=1", function()
    local xml = doc('duration="1s" fps="4"', 'color="#c0392b"', "<p>Hi</p>", BUNGEE)
    local function frames(spec)
      local pat = tmpname("") .. "-%02d.png"
      local f = assert(filter.load(ROOT .. "/filters/" .. spec))
      local d = document.from_xml(xml, "t.xml")
      assert(d:write(pat, { filters = { f } }))
      local out = {}
      for i = 0, 3 do
        out[i + 1] = select(3, pixels(pat:format(i)))
        os.remove(pat:format(i))
      end
      return out
    end
    local still = frames("misregistration.lua:amount=5pt,per=glyph")
    for i = 2, 4 do eq(still[i] == still[1], true, "frame " .. i) end
    local boil = frames("misregistration.lua:amount=5pt,per=glyph,boil=1")
    for i = 2, 4 do eq(boil[i] == boil[i - 1], false, "boiling frame " .. i) end
  end },
  { "a filter that reads the time cannot be baked into a font", function()
    local f = filter.new({ Glyph = function(g, ctx) if ctx.t > 1 then return false end end }, {}, "fade")
    local font = assert(ct.open_font(VAR))
    checkerr("it reads ctx%.t %(the time%)", filter.bake, { f }, font, font:glyph(0xE003), "\u{E003}", 0)
    local f2 = filter.new({ Glyph = function(_, ctx) return ctx.frame_number > 0 end }, {}, "blink")
    checkerr("it reads ctx%.frame_number %(the time%)", filter.bake, { f2 }, font, font:glyph(0xE003), "\u{E003}", 0)
  end },
  { "a filter reading ctx.t changes the frames", function()
    local xml = doc('duration="1s" fps="3"', "", "<p>Hi</p>", BUNGEE)
    local d = document.from_xml(xml, "t.xml")
    d:filter { Glyph = function(g, ctx) g.color = ctx.t < 0.3 and "#ff0000" or "#0000ff" end }
    local pat = tmpname("") .. "-%d.png"
    assert(d:write(pat))
    local a, b, c = select(3, pixels(pat:format(0))), select(3, pixels(pat:format(1))), select(3, pixels(pat:format(2)))
    for i = 0, 2 do os.remove(pat:format(i)) end
    eq(a ~= b, true)
    eq(b == c, true)
  end },

  -- ---- documents that move ----------------------------------------------------------------------
  { "keyframes: values at a time, easing per step, held before and after", function()
    local a = assert(motion.check({ attribute = "size", values = "10pt;20pt;40pt", begin = "1s", dur = "2s" }, motion.TEXT))
    eq(motion.at(a, 0, 5), 10)
    eq(motion.at(a, 1.5, 5), 15)
    eq(motion.at(a, 2, 5), 20)
    eq(motion.at(a, 2.5, 5), 30)
    eq(motion.at(a, 4, 5), 40)
    local s = assert(motion.check({ attribute = "tracking", from = 0, to = 8, ease = "steps(2)" }, motion.TEXT))
    eq({ motion.at(s, 0.4, 1), motion.at(s, 0.6, 1), motion.at(s, 1, 1) }, { 0, 4, 8 })
    local c = assert(motion.check({ attribute = "color", values = { "red", "blue" } }, motion.TEXT))
    eq({ motion.at(c, 0, 1), motion.at(c, 1, 1) }, { "#ff0000ff", "#0000ffff" })
    eq(motion.at(c, 0.5, 1), require("chromatype.palette").mix_colors("red", "blue", 0.5, "oklab"))
    local p = assert(motion.check({ attribute = "palette", values = "0;Alpha" }, motion.TEXT))
    eq(motion.at(p, 0.25, 1), { 0, "Alpha", 0.25 })
    eq({ motion.time("500ms"), motion.time("2s"), motion.time(1.5) }, { 0.5, 2, 1.5 })
  end },
  { "an animated document to APNG: one frame per 1/fps, the first and last frames are the stills", function()
    local out = tmpname(".apng")
    local _, ok, err = document.render(MOVING, "t.xml", out)
    assert(ok, err)
    local s = assert(read(out))
    local at = s:find("acTL", 1, true)
    eq(string.unpack(">I4", s, at + 4), 6)            -- 1.5 s at 4 fps
    eq(count(s, "fcTL"), 6)
    -- the APNG's default image is its first frame: the still at the start values
    local sp = tmpname(".png")
    assert(select(2, document.render(START, "t.xml", sp)))
    eq(select(3, pixels(out)) == select(3, pixels(sp)), true, "first frame = still at the start")
    -- a still of the moving document is its first frame too
    local mp = tmpname(".png")
    assert(select(2, document.render(MOVING, "t.xml", mp)))
    eq(select(3, pixels(mp)) == select(3, pixels(sp)), true, "the moving document's still")
    os.remove(out); os.remove(sp); os.remove(mp)
  end },
  { "PNG frames: frames after the animations end are the still at the end values", function()
    local pat = tmpname("") .. "-%03d.png"
    assert(select(2, document.render(MOVING, "t.xml", pat)))
    local ep = tmpname(".png")
    assert(select(2, document.render(END, "t.xml", ep)))
    local last = select(3, pixels(pat:format(5)))      -- t = 1.25 s, after dur 1 s
    eq(last == select(3, pixels(ep)), true, "last frame = still at the end")
    eq(select(3, pixels(pat:format(4))) == last, true, "t = 1 s is the end")
    eq(select(3, pixels(pat:format(2))) ~= last, true, "t = 0.5 s moves")
    -- the still at 1.2 s (--at) is that frame too
    local atp = tmpname(".png")
    assert(select(2, document.render(MOVING, "t.xml", atp, { at = "1.25s" })))
    eq(select(3, pixels(atp)) == last, true, "--at")
    for i = 0, 5 do os.remove(pat:format(i)) end
    os.remove(ep); os.remove(atp)
  end },
  { "animated WebP with --fps and --duration overrides; frame position and size move", function()
    local xml = doc("", "", [[<animate attribute="x" from="0" to="60pt" dur="2s"/>
      <p>Go<animate attribute="size" values="20pt;40pt" dur="2s" ease="steps(4)"/></p>]], BUNGEE)
    local out = tmpname(".webp")
    assert(select(2, document.render(xml, "t.xml", out, { fps = 5, duration = "1s" })))
    local s = assert(read(out))
    eq({ s:sub(1, 4), s:sub(9, 12) }, { "RIFF", "WEBP" })
    eq(count(s, "ANMF"), 5)
    os.remove(out)
    -- without a duration the animations' end sets it: 2 s at 30 fps
    out = tmpname(".apng")
    assert(select(2, document.render(xml, "t.xml", out, { fps = 10 })))
    s = assert(read(out))
    eq(string.unpack(">I4", s, s:find("acTL", 1, true) + 4), 20)
    os.remove(out)
  end },
  { "bad input: one message naming the file and line, no file left", function()
    local out = tmpname(".apng")
    local function bad(pattern, xml, opts)
      os.remove(out)
      checkerr(pattern, document.render, xml, "poster.xml", out, opts)
      eq(exists(out), false, pattern)
    end
    bad("^poster%.xml:1: <document>: duration: more than 0", doc('duration="0"', "", "<p>&#xE003;</p>"))
    bad("^poster%.xml:1: <document>: duration: more than 0", doc('duration="-2s"', "", "<p>&#xE003;</p>"))
    bad("^poster%.xml:1: <document>: duration: more than 0, at most 3600", doc('duration="1e9"', "", "<p>&#xE003;</p>"))
    bad("^poster%.xml:1: <document>: fps: more than 0", doc('fps="0" duration="1"', "", "<p>&#xE003;</p>"))
    bad("^poster%.xml:1: <document>: duration: 3600 s at 240 fps is 864000 frames %(at most 100000%)",
      doc('fps="240" duration="3600"', "", "<p>&#xE003;</p>"))
    bad("^poster%.xml:1: <document>: duration: expected a time", doc('duration="soon"', "", "<p>&#xE003;</p>"))
    bad("^poster%.xml:3: <animate>: unknown attribute 'speed'",
      doc("", "", '<animate attribute="x" from="0" to="1" speed="2"/><p>&#xE003;</p>'))
    bad("^poster%.xml:3: <animate>: attribute: expected variations, palette, size, tracking, color, x, y, got 'leading'",
      doc("", "", '<animate attribute="leading" from="0" to="1" dur="1s"/><p>&#xE003;</p>'))
    bad("^poster%.xml:3: <animate>: attribute: expected variations, palette, size, tracking, color, got 'x'",
      doc("", "", '<p>&#xE003;<animate attribute="x" from="0" to="1" dur="1s"/></p>'))
    bad("^poster%.xml:3: <animate>: variations: no font here has the axis 'wght': ct%-colr1%-var%.ttf %(axes SWPS, ALPH%)",
      doc("", "", '<p>&#xE003;<animate attribute="variations" values="wght=100;wght=900" dur="1s"/></p>'))
    bad("^poster%.xml:2: <style>: variations: no font here has the axis 'SWPX'", doc("", 'variations="SWPX=3"', "<p>&#xE003;</p>"))
    bad("^poster%.xml:3: <animate>: palette: .*ct%-colr1%-var%.ttf has no palette '7' %(it has 2: 0%.%.1%)",
      doc("", "", '<p>&#xE003;<animate attribute="palette" values="0;7" dur="1s"/></p>'))
    bad("^poster%.xml:3: <animate>: ease: expected linear, in, out, in%-out or steps%(N%), got 'bouncy'",
      doc("", "", '<p>&#xE003;<animate attribute="size" values="10;20" dur="1s" ease="bouncy"/></p>'))
    bad("^poster%.xml:3: <animate>: dur: more than 0", doc("", "", '<p>&#xE003;<animate attribute="size" values="10;20" dur="0s"/></p>'))
    bad("^poster%.xml:3: <animate>: dur: needed when the document has no duration",
      doc("", "", '<p>&#xE003;<animate attribute="size" values="10;20"/></p>'))
    bad("^poster%.xml:3: <animate>: values: at least two values",
      doc("", "", '<p>&#xE003;<animate attribute="size" values="10" dur="1"/></p>'))
    bad("^poster%.xml:3: <animate>: variations: value 2 names the axes ALPH, SWPS, value 1 SWPS",
      doc("", "", '<p>&#xE003;<animate attribute="variations" values="SWPS=0;SWPS=9,ALPH=0" dur="1"/></p>'))
    bad("^poster%.xml:3: <animate>: size: value 2: must be at least 0%.01 pt",
      doc("", "", '<p>&#xE003;<animate attribute="size" values="10;0" dur="1"/></p>'))
    bad("^poster%.xml:1: <document>: an animation has one page; this document has 2",
      '<document duration="1"><style name="default" font="' .. VAR .. '"/><page/><page/></document>')
    bad("^poster%.xml:1: <document>: fps: more than 0", doc('duration="1"', "", "<p>&#xE003;</p>"), { fps = 1000 })
    -- a still refuses the animation's options
    checkerr("fps: for animations", document.render, doc("", "", "<p>&#xE003;</p>"), "poster.xml", tmpname(".png"), { fps = 5 })
    -- an error in the middle of the frames leaves nothing behind
    local d = document.from_xml(doc('duration="1" fps="5"', "", "<p>&#xE003;</p>"), "poster.xml")
    d:filter { Glyph = function(_, ctx) if ctx.frame_number == 3 then error("frame three is bad") end end }
    os.remove(out)
    checkerr("frame three is bad", d.write, d, out)
    eq(exists(out), false)
  end },
}
