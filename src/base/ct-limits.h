/*
** ct-limits.h: every limit of the core in one place (base stage).
** Each is #ifndef-guarded, so a build may override it with -D.
*/
#ifndef CT_LIMITS_H
#define CT_LIMITS_H

/* Largest font file read into memory (bytes). */
#ifndef CT_MAX_FONT_FILE_SIZE
#define CT_MAX_FONT_FILE_SIZE (256u * 1024u * 1024u)
#endif

/* Largest sfnt a WOFF2 file may decode to (bytes): no more than a plain font file may
   have.  Checked against every size the file declares before anything is allocated. */
#ifndef CT_MAX_WOFF2_SFNT_SIZE
#define CT_MAX_WOFF2_SFNT_SIZE CT_MAX_FONT_FILE_SIZE
#endif

/* Largest em size accepted for drawing, in points. */
#ifndef CT_MAX_FONT_SIZE
#define CT_MAX_FONT_SIZE 100000.0
#endif

/* Largest page side, in points (about 35 m: beyond any press). */
#ifndef CT_MAX_PAGE_SIDE
#define CT_MAX_PAGE_SIDE 100000.0
#endif

/* Largest raster side in pixels (cairo's own limit is 32767). */
#ifndef CT_MAX_IMAGE_SIDE
#define CT_MAX_IMAGE_SIDE 32767
#endif

/* Largest raster in pixels (4 bytes each): 256 Mpx = 1 GiB. */
#ifndef CT_MAX_IMAGE_PIXELS
#define CT_MAX_IMAGE_PIXELS (256.0 * 1024 * 1024)
#endif

/* Picture files drawn on a canvas: bytes read, and decoded pixels (4 bytes each: 128 Mpx
   is 512 MiB, an A1 poster at 300 dpi); their sides are capped by CT_MAX_IMAGE_SIDE. */
#ifndef CT_MAX_IMAGE_FILE_SIZE
#define CT_MAX_IMAGE_FILE_SIZE (256u * 1024u * 1024u)
#endif
#ifndef CT_MAX_IMAGE_FILE_PIXELS
#define CT_MAX_IMAGE_FILE_PIXELS (128.0 * 1024 * 1024)
#endif

/* Largest PNG resolution. */
#ifndef CT_MAX_DPI
#define CT_MAX_DPI 9600.0
#endif

/* Pages per canvas. */
#ifndef CT_MAX_PAGES
#define CT_MAX_PAGES 100000u
#endif

/* Glyphs drawn on one canvas (all its pages): a document of a million pages of text is
   refused before it fills the memory. */
#ifndef CT_MAX_GLYPHS
#define CT_MAX_GLYPHS 50000000u
#endif

/* Paint tree walks: nesting depth and nodes drawn per tree. */
#ifndef CT_MAX_PAINT_DEPTH
#define CT_MAX_PAINT_DEPTH 64u
#endif
#ifndef CT_MAX_PAINT_WORK
#define CT_MAX_PAINT_WORK 16384u
#endif
/* Paint node visits on one page and on one canvas (a document, a script's canvas), in every
   output.  A tree placed costs the nodes drawing it visits (a subtree used twice counts
   twice; at most CT_MAX_PAINT_WORK); placed again it costs the page 1 and the canvas
   nothing (it is drawn once, then repeated: a recording, a sprite).  A page of 64 trees of
   CT_MAX_PAINT_WORK visits takes about 2 s and 200 MB as PDF; past either budget the canvas
   refuses to draw (CT_ERR_LIMIT). */
#ifndef CT_MAX_PAGE_PAINT_WORK
#define CT_MAX_PAGE_PAINT_WORK (64u * CT_MAX_PAINT_WORK)
#endif
#ifndef CT_MAX_RUN_PAINT_WORK
#define CT_MAX_RUN_PAINT_WORK (4096u * CT_MAX_PAINT_WORK)
#endif

/* Layers one COLRv0 glyph may have. */
#ifndef CT_MAX_COLR0_LAYERS
#define CT_MAX_COLR0_LAYERS 65535u
#endif

/* Bytes of UTF-8 text shaped in one call. */
#ifndef CT_MAX_TEXT_BYTES
#define CT_MAX_TEXT_BYTES (16u * 1024u * 1024u)
#endif

/* Bytes of a text file read whole through the Lua API (read_file, load_file, require of a
   module, records): documents, scripts, CSV.  Larger documents are streamed. */
#ifndef CT_MAX_TEXT_FILE_SIZE
#define CT_MAX_TEXT_FILE_SIZE (1024u * 1024u * 1024u)
#endif

/* Open brackets remembered while finding script runs (deeper ones forget the outermost). */
#ifndef CT_MAX_BRACKET_DEPTH
#define CT_MAX_BRACKET_DEPTH 64u
#endif

/* Overrides in one palette choice. */
#ifndef CT_MAX_PALETTE_OVERRIDES
#define CT_MAX_PALETTE_OVERRIDES 65536u
#endif

/* SVG documents: bytes after inflating (the Noto Color Emoji SVG build shares one of
   14 MB between all glyphs), elements, and nesting depth. */
#ifndef CT_MAX_SVG_DOC_SIZE
#define CT_MAX_SVG_DOC_SIZE (64u * 1024u * 1024u)
#endif
#ifndef CT_MAX_SVG_ELEMENTS
#define CT_MAX_SVG_ELEMENTS 1000000u
#endif
#ifndef CT_MAX_SVG_DEPTH
#define CT_MAX_SVG_DEPTH 200u
#endif
/* Elements of one glyph as librsvg gets it (the glyph element and what it references, or
   the whole document when its root is the glyph): librsvg holds some 4 KB per element, so
   a glyph of a million (a document within CT_MAX_SVG_ELEMENTS) would take 4 GB; the
   largest emoji glyphs have a few thousand. */
#ifndef CT_MAX_SVG_GLYPH_ELEMENTS
#define CT_MAX_SVG_GLYPH_ELEMENTS 50000u
#endif

/* Coordinate pairs of one element's path data (`d`) or point list (`points`), and of a
   picture's paths in all (glyph documents: CT_MAX_SVG_GLYPH_ELEMENTS bounds a glyph).  A
   path of 100,000 random lines took cairo's tessellator (librsvg asks it for the path's
   extents) minutes: the cost grows with the crossings, up to the square of the length.  A
   path of 50,000 points without many crossings draws in well under a second. */
#ifndef CT_MAX_SVG_PATH_POINTS
#define CT_MAX_SVG_PATH_POINTS 50000u
#endif
#ifndef CT_MAX_SVG_POINTS
#define CT_MAX_SVG_POINTS 1000000u
#endif
/* Crossings of path segments in one glyph or picture, each path counted once for every
   copy drawn (glyph/svg/svg-crossings.c estimates them): cairo's tessellator, run for every
   path's extents, takes 1 to 7 microseconds a crossing (10,000 random lines cross some 11
   million times and took 39 s; a 1000 x 1000 grid of lines in one path, turned, 28 s).
   Artwork crosses itself rarely, and separate paths never count against each other: a
   hatching of 200 lines each way in one path crosses 160,000 times as cairo sees it (every
   subpath closed). */
#ifndef CT_MAX_SVG_CROSSINGS
#define CT_MAX_SVG_CROSSINGS 250000.0
#endif

/* SMIL animation kept in SVG glyph documents (glyph/svg/smil*.c): animation elements per document
   (more are removed), the largest time in seconds (dur, each begin and end offset,
   repeatDur, dur x repeatCount: an element beyond it is removed), and the most items of
   values, keyTimes and keySplines. */
#ifndef CT_MAX_SVG_ANIMATIONS
#define CT_MAX_SVG_ANIMATIONS 256u
#endif
#ifndef CT_MAX_SVG_ANIM_TIME
#define CT_MAX_SVG_ANIM_TIME 3600.0
#endif
#ifndef CT_MAX_SVG_ANIM_VALUES
#define CT_MAX_SVG_ANIM_VALUES 256u
#endif

/* Artwork (glyph/artwork/: SVG drawings made into glyphs): a file's bytes, the points of
   one drawing's paths (after arcs and dashes are split), its shapes (paint nodes are
   CT_MAX_PAINT_WORK at most), the dash segments of one stroke, and the largest coordinate
   of a shape in font units (glyf holds 16-bit ones).  The element count and depth are
   CT_MAX_SVG_ELEMENTS and CT_MAX_SVG_DEPTH, as for OT-SVG documents. */
#ifndef CT_MAX_ARTWORK_FILE_SIZE
#define CT_MAX_ARTWORK_FILE_SIZE (16u * 1024u * 1024u)
#endif
#ifndef CT_MAX_ARTWORK_POINTS
#define CT_MAX_ARTWORK_POINTS 1000000u
#endif
#ifndef CT_MAX_ARTWORK_SHAPES
#define CT_MAX_ARTWORK_SHAPES 4096u
#endif
#ifndef CT_MAX_ARTWORK_DASHES
#define CT_MAX_ARTWORK_DASHES 100000u
#endif
#ifndef CT_MAX_ARTWORK_COORD
#define CT_MAX_ARTWORK_COORD 32000.0
#endif

/* Largest OT-SVG glyph document written from a paint tree (svgwrite.c), in bytes. */
#ifndef CT_MAX_SVG_WRITE_SIZE
#define CT_MAX_SVG_WRITE_SIZE (4u * 1024u * 1024u)
#endif

/* PDFs up to this size are read into memory for the finishing pass (faster); larger ones are
   read in place (less memory) */
#ifndef CT_PDF_PASS_IN_MEMORY
#define CT_PDF_PASS_IN_MEMORY (16L * 1024 * 1024)
#endif

/* A PDF written page by page (c:stream, documents) is finished and joined in chunks of this
   many pages, so the finishing pass holds one chunk's objects, not the document's; a
   document of one chunk is written as ct_canvas_write writes it.  See docs/performance.md. */
#ifndef CT_PDF_STREAM_CHUNK
#define CT_PDF_STREAM_CHUNK 100u
#endif

/* The font writer: how far (font units) a quadratic may stray from the cubic it replaces
   when CFF outlines become TrueType glyphs, and the most glyphs a written font may have. */
#ifndef CT_GLYF_TOLERANCE
#define CT_GLYF_TOLERANCE 0.5
#endif
#ifndef CT_MAX_WRITTEN_GLYPHS
#define CT_MAX_WRITTEN_GLYPHS 65535u
#endif

/* Animations: frames per second and frames in one animation. */
#ifndef CT_MAX_ANIM_FPS
#define CT_MAX_ANIM_FPS 240
#endif
#ifndef CT_MAX_ANIM_FRAMES
#define CT_MAX_ANIM_FRAMES 100000u
#endif
/* Sample frames a GIF's shared palette is made from. */
#ifndef CT_MAX_ANIM_SAMPLES
#define CT_MAX_ANIM_SAMPLES 8u
#endif
/* GIF frame rate: delays are whole hundredths of a second, and browsers play a delay under
   2 of them as 10, so GIF stops at 50 frames per second. */
#ifndef CT_MAX_GIF_FPS
#define CT_MAX_GIF_FPS 50
#endif
/* Worker processes drawing one animation's frames, and distinct warnings kept per render. */
#ifndef CT_MAX_ANIM_WORKERS
#define CT_MAX_ANIM_WORKERS 64u
#endif
#ifndef CT_MAX_ANIM_WARNINGS
#define CT_MAX_ANIM_WARNINGS 256u
#endif
/* Threads one process draws and compresses a raster page with (--threads). */
#ifndef CT_MAX_THREADS
#define CT_MAX_THREADS 64
#endif

#endif /* CT_LIMITS_H */
