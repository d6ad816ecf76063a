--- chromatype.document: documents of pages, frames, paragraphs and runs.
-- One model for two inputs: Lua scripts build it with `ct.document{...}`, `doc:style`,
-- `doc:page`, `page:frame`, `frame:text`; XML documents (`render`, the `chromatype
-- DOC.xml` command) are read into the same model.  Rendering lays the text out with
-- chromatype.layout (frames may flow into other frames and onto new pages), draws page
-- backgrounds, images and print marks, and writes PDF, PNG or SVG.
-- The vocabulary and the API are in docs/documents.md.  XML errors are one line
-- "FILE:LINE: <elem>: message"; Lua misuse raises "bad argument ...".
-- This file only makes the public table; the code is in the modules beside it: common.lua
-- (keys, errors, values), model.lua (the classes; pages, frames, text), styles.lua (styles,
-- fonts, time), render.lua (typesetting, drawing), write.lua (files, streams, animations),
-- xml.lua (XML documents).
-- @module chromatype.document

local common = require "chromatype.document.common"
local model = require "chromatype.document.model"
require "chromatype.document.styles"     -- the Document methods of styles, fonts and time
require "chromatype.document.render"     -- typesetting and drawing
local write = require "chromatype.document.write"
local xml = require "chromatype.document.xml"

local M = {}

M.timing = common.timing
M.new = model.new
M.is_animation = write.is_animation
M.Document, M.Page, M.Frame = model.Document, model.Page, model.Frame
M.from_xml, M.render, M.render_file = xml.from_xml, xml.render, xml.render_file

return M
