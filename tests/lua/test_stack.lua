-- test_stack.lua: chromatype.stack: layered fonts drawn as one (Bungee Regular, Inline and
-- Shade from examples/fonts), aligned at the lead's positions; the mismatch messages; use as
-- a font in layout and documents; the text once in the PDF; bad input.
local ct = require "chromatype"
local layout = require "chromatype.layout"

local F = ROOT .. "/examples/fonts/"
local regular = assert(ct.open_font(F .. "bungee-latin.woff2"))
local inline = assert(ct.open_font(F .. "bungee-inline-latin.woff2"))
local shade = assert(ct.open_font(F .. "bungee-shade-latin.woff2"))

local function wood(extra)
  local t = { { font = shade, color = "#1d3557" }, { font = regular, color = "#e63946" },
              { font = inline, color = "#f1c453" }, lead = 2 }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ct.stack(t)
end

local function quiet(fn)
  local got = {}
  local prev = ct.on_warning(function(m) got[#got + 1] = m end)
  local ok, err = pcall(fn)
  ct.on_warning(prev)
  if not ok then error(err, 0) end
  return got
end

local function pixel(path, x, y) return { ct.read_png_pixel(path, x, y) } end

return {
  { "a stack measures like its lead", function()
    local s = wood()
    eq(layout.measure({ font = s, size = 100 }, "WOOD"), layout.measure({ font = regular, size = 100 }, "WOOD"))
    assert(tostring(s):find("^chromatype%.Stack %(bungee%-shade%-latin%.woff2 %+ bungee%-latin%.woff2 %+ "
      .. "bungee%-inline%-latin%.woff2; lead bungee%-latin%.woff2%)"), tostring(s))
  end },
  { "check names the layer font and the first glyph whose advance differs", function()
    local msgs = wood():check("AW")
    eq(#msgs, 1)
    eq(msgs[1], "stack: bungee-shade-latin.woff2: advances differ from the lead bungee-latin.woff2 for 2 glyphs "
      .. "(first 'A': 830 vs 730 units); drawn at the lead's positions")
    eq(#ct.stack({ { font = regular }, { font = inline } }):check("WOOD TYPE"), 0, "Regular and Inline agree")
  end },
  { "missing glyphs are named, and drawing warns once", function()
    local w = assert(ct.open_font(font_path("ct-wdth.ttf")))
    local c0 = assert(ct.open_font(font_path("ct-colr0.ttf")))
    local s = ct.stack { { font = w, color = "#000000" }, { font = c0 } }
    local msgs = s:check("Ab")
    assert(msgs[1]:find("^stack: ct%-colr0%.ttf lacks 1 glyph of the lead ct%-wdth%.ttf %(first 'b'%)"), msgs[1])
    local c = ct.canvas { width = 100, height = 50 }
    local got = quiet(function() s:draw(c, { "bbAb", size = 20, y = 30 }) s:draw(c, { "b", size = 20, y = 30 }) end)
    local n = 0
    for _, m in ipairs(got) do if m:find("lacks") then n = n + 1 end end
    eq(n, 1, "one warning: " .. table.concat(got, " | "))
  end },
  { "layers are drawn in order at the lead's positions, with offsets and hidden layers", function()
    -- Regular in red under Inline in yellow: the inline groove of 'I' shows red; hiding
    -- Inline leaves the letter red; an offset moves a layer
    local function render(s)
      local c = ct.canvas { width = 120, height = 120 }
      c:background("#ffffff")
      quiet(function() s:draw(c, { "I", size = 100, x = 20, y = 90 }) end)
      local p = tmpname(".png")
      assert(c:write(p))
      return p
    end
    local both = render(ct.stack { { font = regular, color = "#ff0000" }, { font = inline, color = "#ffff00" } })
    local hidden = render(ct.stack { { font = regular, color = "#ff0000" }, { font = inline, color = "#ffff00", hidden = true } })
    -- scan the middle row of the letter: yellow and red (the groove) with the inline, only red without
    local function colors(p)
      local seen = {}
      for x = 20, 100 do
        local r, g, b = ct.read_png_pixel(p, x, 50)
        if r > 200 and g > 200 and b < 80 then seen.yellow = true end
        if r > 200 and g < 60 and b < 60 then seen.red = true end
      end
      return seen
    end
    eq(colors(both), { yellow = true, red = true })
    eq(colors(hidden), { red = true })
    local moved = render(ct.stack { { font = regular, color = "#ff0000", offset = { 0.5, 0 } } })
    local plain = render(ct.stack { { font = regular, color = "#ff0000" } })
    assert(not same(pixel(moved, 75, 50), pixel(plain, 75, 50)) or not same(pixel(moved, 40, 50), pixel(plain, 40, 50)),
      "the offset moves the layer")
  end },
  { "a stacked line gives its text once in the PDF", function()
    local p = io.popen("command -v pdftotext")
    local have = p:read("a") ~= ""
    p:close()
    if not have then return end
    local c = ct.canvas { width = 400, height = 100 }
    quiet(function() layout.draw(c, "STACKED TYPE", { font = wood(), size = 30, width = 400, y = 10 }) end)
    local out = tmpname(".pdf")
    assert(c:write(out))
    p = assert(io.popen('pdftotext "' .. out .. '" -'))
    local t = p:read("a")
    p:close()
    eq(t:gsub("%s+$", ""), "STACKED TYPE")
  end },
  { "a stack in a document, from XML", function()
    local document = require "chromatype.document"
    local xml = ([[<document size="100mm x 40mm" margin="5mm">
  <stack name="wood" lead="2">
    <layer font="%sbungee-shade-latin.woff2" color="#1d3557"/>
    <layer font="%sbungee-latin.woff2" color="#e63946"/>
    <layer font="%sbungee-inline-latin.woff2" color="#f1c453" offset="0.01 0"/>
  </stack>
  <style name="default" font="wood" size="30pt"/>
  <page><frame><p>WOOD</p></frame></page>
</document>]]):format(F, F, F)
    local got = quiet(function() assert(document.render(xml, "t.xml")) end)
    eq(#got, 1)
    assert(got[1]:find("advances differ"), got[1])
    checkerr("t%.xml:5: <layer>: offset: two numbers in em expected", document.render,
      xml:gsub('offset="0.01 0"', 'offset="right"'), "t.xml")
    checkerr("t%.xml:1: <stack>: needs at least one <layer>", document.render,
      '<document><stack name="x"></stack><page/></document>', "t.xml")
  end },
  { "canvas:text takes a stack as its font", function()
    local s = ct.stack { { font = regular, color = "#ff0000" }, { font = inline, color = "#ffff00" } }
    local c = ct.canvas { width = 300, height = 80 }
    local adv = c:text { "WOOD", font = s, size = 50, x = 10, y = 60 }
    eq(adv, layout.measure({ font = regular, size = 50 }, "WOOD"))
    checkerr("bad argument #1 to 'text' %(field 'font': expected chromatype%.Font, got table%)",
      function() c:text { "X", font = {} } end)
  end },
  { "bad stacks", function()
    checkerr("bad argument #1 to 'stack' %(a stack needs at least one layer%)", ct.stack, {})
    checkerr("layer 1: unknown field 'colour'", ct.stack, { { font = regular, colour = "#fff" } })
    checkerr("field 'lead': a layer index 1..1 expected", ct.stack, { { font = regular }, lead = 2 })
    checkerr("layer 1: .*cannot open", ct.stack, { { font = "/no/such.ttf" } })
    checkerr("field 'match': expected name or cmap", ct.stack, { { font = regular }, match = "glyph" })
    checkerr("layer 1: field 'color': bad color 'nope'", ct.stack, { { font = regular, color = "nope" } })
  end },
}
