-- tint.lua: the filter of the bench's filtered memory line: each glyph of the text that is
-- not a stack or color glyph drawn in one of three inks, drawn at random per word (a
-- Glyph filter, run page by page; the stacks and emoji keep their colors).
local INKS = { "#1d3557", "#d62828", "#2a9d8f" }
return {
  name = "tint",
  Glyph = function(g, ctx)
    if ctx.style and ctx.style.font and type(ctx.style.font) == "table" and ctx.style.font.layers then return end
    local r = ctx:stream("word", ctx.word or "", ctx.occurrence or 1)
    g.color = INKS[r:random(#INKS)]
  end,
}
