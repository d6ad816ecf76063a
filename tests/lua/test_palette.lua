-- test_palette.lua: chromatype.palette: CSS-like colors, a font's palettes by index, name and
-- type, custom palettes as overrides (lists, mixing two palettes, duotone), and their use
-- per run in documents.  Font: ct-colr0.ttf (three palettes, 2 is "Dark"; tests/fonts/README.md).
local ct = require "chromatype"
local P = require "chromatype.palette"

local f = assert(ct.open_font(font_path("ct-colr0.ttf")))

return {
  { "CSS colors", function()
    eq(P.color("tomato"), "#ff6347ff")
    eq(P.color("RebeccaPurple"), "#663399ff")
    eq(P.color("#f80"), "#ff8800ff")
    eq(P.color("#ff880080"), "#ff880080")
    eq(P.color("rgb(255 128 0 / 50%)"), "#ff800080")
    eq(P.color("rgba(0, 0, 255, 0.5)"), "#0000ff80")
    eq(P.color("rgb(100%, 0%, 0%)"), "#ff0000ff")
    eq(P.color("hsl(120 100% 25%)"), "#008000ff")
    eq(P.color("hsl(0.5turn, 100%, 50%)"), "#00ffffff")
    eq(P.color("transparent"), "#00000000")
    eq(P.color({ 1, 0, 0 }), "#ff0000ff")
    eq(ct.color("navy"), "#000080ff")
    local v, err = P.color("nope")
    eq(v, nil); assert(err:find("bad color 'nope'"), err)
    eq((P.color("rgb(1,2)")), nil)
  end },
  { "148 CSS names", function()
    local n = 0
    for _ in pairs(P.named) do n = n + 1 end
    eq(n, 148)
    eq(P.named.gray, "#808080"); eq(P.named.green, "#008000"); eq(P.named.crimson, "#dc143c")
  end },
  { "a font's palettes by index, name and type", function()
    eq(P.colors(f, 0), { "#e02020ff", "#2040e0ff", "#20a040ff", "#f0a000ff" })
    eq(P.colors(f, "dark"), P.colors(f, 2))
    eq(P.colors(f, "Dark"), P.colors(f, 2))
    checkerr("no palette 'Nope'", P.colors, f, "Nope")
  end },
  { "custom palettes", function()
    eq(P.custom({ "red", "#00ff00" }), { [0] = "#ff0000ff", [1] = "#00ff00ff" })
    eq(P.custom({ "red", "blue" }, f), { [0] = "#ff0000ff", [1] = "#0000ffff", [2] = "#ff0000ff", [3] = "#0000ffff" })
    checkerr("bad color 'bleu'", P.custom, { "bleu" })
  end },
  { "mixing palettes and colors", function()
    eq(P.mix_colors("black", "white", 0), "#000000ff")
    eq(P.mix_colors("black", "white", 1), "#ffffffff")
    eq(P.mix_colors("black", "white", 0.5, "srgb"), "#808080ff")
    eq(P.mix_colors("black", "white", 0.5), "#bcbcbcff", "linear light")
    local m = P.mix(f, 0, "dark", 0)
    eq(m[0], "#e02020ff")
    m = P.mix(f, 0, "dark", 1)
    eq(m[3], "#ffe08080")
  end },
  { "duotone maps every entry between two colors by lightness", function()
    local d = P.duotone(f, "#000080", "#ffd700")
    eq(#d + 1, 4)
    -- the darkest entry (blue, #2040e0) is nearest the dark color
    local function lum(c) return P.luminance(c) end
    assert(lum(d[1]) < lum(d[3]), "blue darker than amber")
  end },
  { "per-run overrides and CSS colors in documents", function()
    local xml = ([[<document size="60mm x 30mm" margin="2mm" background="ivory">
<style name="default" font="%s" size="40pt" color="rebeccapurple"/>
<page><frame><p>A<span overrides="0=lime, Accent=rgb(0 0 255)">A</span></p></frame></page></document>]]):format(font_path("ct-colr0.ttf"))
    local out = tmpname(".png")
    assert(require("chromatype.document").render(xml, "t.xml", out))
    -- a corner of each square: the first A's red (palette 0), the second's lime (entry 0 overridden)
    local r1, g1 = ct.read_png_pixel(out, 9, 35)
    local r2, g2 = ct.read_png_pixel(out, 9 + 32, 35)
    assert(r1 > 200 and g1 < 80, ("first A red, got %d %d"):format(r1, g1))
    assert(g2 > 200 and r2 < 80, ("second A lime, got %d %d"):format(r2, g2))
    checkerr("t%.xml:3: <span>: overrides: bad color 'limey'", require("chromatype.document").render,
      xml:gsub("0=lime", "0=limey"), "t.xml")
  end },
}
