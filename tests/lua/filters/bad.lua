-- a filter that fails on its third line of code: for the error-report test
return {
  Glyph = function(g) local x = nil; return x.field end,
}
