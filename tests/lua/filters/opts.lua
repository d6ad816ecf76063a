-- a filter that takes options: colors every glyph with opts.color
local opts = ...
return {
  options = { color = "#00ff00" },
  Glyph = function(g, ctx) g.color = ctx.options.color; g.opts_seen = opts.color end,
}
