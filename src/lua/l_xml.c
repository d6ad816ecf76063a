/*
** l_xml.c: ct.parse_xml(string [, name]) (bindings layer): parses XML with libxml2
** (no network, no DTD, no entity expansion; a DOCTYPE is refused) and returns the
** root element as plain tables {tag =, attrs = {...}, line = N, children = {...}},
** text nodes as strings.  A parse error returns nil, "name:LINE: message".
** The xmlDoc lives in a userdata box whose __gc frees it, so an error raised while
** the tables are built (out of memory) cannot leak it; no Lua error ever crosses a
** libxml2 frame (the tables are built after parsing, from the finished tree).
**
** ct.xml_reader(string [, name]) and ct.xml_file_reader(path [, name]) read a document
** as a stream (libxml2's xmlTextReader): the root element first, then its children one at
** a time, each built as the same tables and freed by libxml2 once the reader moves past
** it, so a long document is never held whole (chromatype.document reads its pages so).
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include <lauxlib.h>

#include "l_aux.h"
#include "l_xml.h"

#define CT_XMLDOC_MT "chromatype.XmlDoc"   /* internal: owns an xmlDoc */
#define CT_XMLREADER_MT "chromatype.XmlReader"

/* The deepest element nesting converted (libxml2 itself stops at 256 without HUGE). */
#define LCT_XML_MAX_DEPTH 512

typedef struct {
  xmlDocPtr doc;
} xmldoc_box;

static int xmldoc_gc(lua_State *L) {
  xmldoc_box *b = luaL_checkudata(L, 1, CT_XMLDOC_MT);
  if (b->doc) {
    xmlDocPtr d = b->doc;
    b->doc = NULL;
    xmlFreeDoc(d);
  }
  return 0;
}

/* Pushes the text of an attribute (its text children concatenated).  [-0, +1] */
static void push_attr_value(lua_State *L, xmlAttrPtr a) {
  luaL_Buffer buf;
  xmlNodePtr c;
  luaL_buffinit(L, &buf);
  for (c = a->children; c; c = c->next)
    if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content)
      luaL_addstring(&buf, (const char *)c->content);
  luaL_pushresult(&buf);
}

/* Pushes a "prefix:name" or "name".  [-0, +1] */
static void push_name(lua_State *L, const xmlChar *name, xmlNsPtr ns) {
  if (ns && ns->prefix) lua_pushfstring(L, "%s:%s", (const char *)ns->prefix, (const char *)name);
  else lua_pushstring(L, (const char *)name);
}

/* Pushes the element `n` as a table.  [-0, +1] */
static void push_element(lua_State *L, xmlNodePtr n, int depth) {
  xmlAttrPtr a;
  xmlNodePtr c;
  lua_Integer i = 0;
  int last_text = 0;
  if (depth > LCT_XML_MAX_DEPTH) luaL_error(L, "XML nested deeper than %d elements", LCT_XML_MAX_DEPTH);
  luaL_checkstack(L, 8, "XML nesting");
  lua_createtable(L, 0, 4);
  push_name(L, n->name, n->ns);
  lua_setfield(L, -2, "tag");
  lua_pushinteger(L, (lua_Integer)xmlGetLineNo(n));
  lua_setfield(L, -2, "line");
  lua_newtable(L);
  for (a = n->properties; a; a = a->next) {
    push_name(L, a->name, a->ns);
    push_attr_value(L, a);
    lua_rawset(L, -3);
  }
  lua_setfield(L, -2, "attrs");
  lua_newtable(L);                                   /* children */
  for (c = n->children; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) {
      push_element(L, c, depth + 1);
      lua_rawseti(L, -2, ++i);
      last_text = 0;
    } else if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content) {
      if (last_text) {                               /* merge with the text before */
        lua_rawgeti(L, -1, i);
        lua_pushstring(L, (const char *)c->content);
        lua_concat(L, 2);
        lua_rawseti(L, -2, i);
      } else {
        lua_pushstring(L, (const char *)c->content);
        lua_rawseti(L, -2, ++i);
        last_text = 1;
      }
    }
  }
  lua_setfield(L, -2, "children");
}

/* The first error of a parse (libxml2 reports the last one; the first is the cause). */
typedef struct {
  int  set;
  long line;
  char msg[256];
} first_error;

/* libxml2's structured error callback (never calls Lua): keeps the first error. */
static void keep_first_error(void *data, xmlErrorPtr e) {
  xmlParserCtxtPtr ctxt = data;
  first_error *fe = ctxt ? ctxt->_private : NULL;
  if (!fe || fe->set || !e || e->level < XML_ERR_ERROR) return;
  fe->set = 1;
  fe->line = e->line;
  snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "not well-formed");
}

/* The line of the first "<!DOCTYPE" in s, else 1. */
static long doctype_line(const char *s, size_t len) {
  const char *p = NULL, *q;
  long line = 1;
  size_t k;
  for (k = 0; k + 9 <= len; k++)
    if (memcmp(s + k, "<!DOCTYPE", 9) == 0) { p = s + k; break; }
  if (!p) return 1;
  for (q = s; q < p; q++) if (*q == '\n') line++;
  return line;
}

/* parse_xml(string [, name]) -> root table | nil, "name:LINE: message" */
static int l_parse_xml(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "<string>");
  int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
  xmlParserCtxtPtr ctxt;
  xmldoc_box *box;
  xmlNodePtr root;
  first_error fe;
#if LIBXML_VERSION >= 21300
  options |= XML_PARSE_NO_XXE;
#endif
  luaL_argcheck(L, len <= (size_t)0x7fffffff, 1, "document too large");
  memset(&fe, 0, sizeof fe);
  /* the box first, empty: then the document can never leak */
  box = lua_newuserdatauv(L, sizeof *box, 0);
  box->doc = NULL;
  luaL_setmetatable(L, CT_XMLDOC_MT);

  ctxt = xmlNewParserCtxt();
  if (!ctxt) return luaL_error(L, "%s: out of memory", name);
  ctxt->_private = &fe;
  if (ctxt->sax) ctxt->sax->serror = keep_first_error;
  box->doc = xmlCtxtReadMemory(ctxt, s, (int)len, name, NULL, options);
  if (!box->doc || !ctxt->wellFormed) {
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[256];
    size_t n;
    long line = fe.set ? fe.line : e ? e->line : 0;
    snprintf(msg, sizeof msg, "%s", fe.set ? fe.msg : e && e->message ? e->message : "not well-formed");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
    for (n = 0; msg[n]; n++) if (msg[n] == '\n') msg[n] = ' ';
    xmlFreeParserCtxt(ctxt);
    if (box->doc) { xmlFreeDoc(box->doc); box->doc = NULL; }
    lua_pushnil(L);
    lua_pushfstring(L, "%s:%d: %s", name, (int)line, msg);
    return 2;
  }
  xmlFreeParserCtxt(ctxt);
  if (box->doc->intSubset || box->doc->extSubset) {
    xmlFreeDoc(box->doc);
    box->doc = NULL;
    lua_pushnil(L);
    lua_pushfstring(L, "%s:%d: a DOCTYPE is not allowed", name, (int)doctype_line(s, len));
    return 2;
  }
  root = xmlDocGetRootElement(box->doc);
  if (!root) {
    xmlFreeDoc(box->doc);
    box->doc = NULL;
    lua_pushnil(L);
    lua_pushfstring(L, "%s:1: no root element", name);
    return 2;
  }
  push_element(L, root, 0);
  xmlFreeDoc(box->doc);
  box->doc = NULL;
  return 1;
}


/* ---- the streaming reader ------------------------------------------------------ */

enum { RD_NEW, RD_ROOT, RD_AT_NODE, RD_DONE, RD_FAILED };

typedef struct {
  xmlTextReaderPtr r;
  int              state;   /* RD_*: RD_AT_NODE when the reader stands on a node not yet returned */
  int              root_empty;
  first_error      fe;
  const char      *text;    /* the document of a string reader (kept by its user value) */
  size_t           len;
  char            *path;    /* the file of a file reader */
  int              fd;      /* its descriptor (fs.c), -1 */
  char             name[256];
  char             root[64];
} xmlreader_box;

static int xmlreader_close(lua_State *L) {
  xmlreader_box *b = luaL_checkudata(L, 1, CT_XMLREADER_MT);
  if (b->r) {
    xmlTextReaderPtr r = b->r;
    b->r = NULL;
    xmlFreeTextReader(r);
  }
  free(b->path);
  b->path = NULL;
  if (b->fd >= 0) close(b->fd);
  b->fd = -1;
  b->state = RD_DONE;
  lua_pushnil(L);
  lua_setiuservalue(L, 1, 1);                          /* the text may go now */
  return 0;
}

/* libxml2's structured error callback for a reader (never calls Lua). */
static void reader_error(void *data, xmlErrorPtr e) {
  first_error *fe = data;
  if (!fe || fe->set || !e || e->level < XML_ERR_ERROR) return;
  fe->set = 1;
  fe->line = e->line;
  snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "not well-formed");
}

static int reader_options(void) {
  int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
#if LIBXML_VERSION >= 21300
  options |= XML_PARSE_NO_XXE;
#endif
  return options;
}

/* The first error of the whole document, parsed again at once as parse_xml parses it:
   libxml2's reader, which parses ahead in pieces, names some errors after the piece (a
   document cut short: "Extra content at the end").  Only on the way out of an error. */
static int reparse_error(xmlreader_box *b, first_error *out) {
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  xmlDocPtr doc;
  if (!ctxt) return 0;
  memset(out, 0, sizeof *out);
  ctxt->_private = out;
  if (ctxt->sax) ctxt->sax->serror = keep_first_error;
  if (b->text) {
    doc = xmlCtxtReadMemory(ctxt, b->text, (int)b->len, b->name, NULL, reader_options());
  } else {
    int fd = ct_fs_open_read(b->path, NULL);
    doc = fd >= 0 ? xmlCtxtReadFd(ctxt, fd, b->name, NULL, reader_options()) : NULL;
    if (fd >= 0) close(fd);
  }
  if (doc) xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  return out->set;
}

/* Pushes nil, "name:LINE: message" for the reader's first error (or `what` at `line`)
   and stops the reader.  Returns 2. */
static int reader_fail(lua_State *L, xmlreader_box *b, const char *what, long line) {
  char msg[256];
  size_t n;
  first_error fe = b->fe;
  if (!what) reparse_error(b, &fe);
  if (fe.set && !what) line = fe.line;
  snprintf(msg, sizeof msg, "%s", what ? what : fe.set ? fe.msg : "not well-formed");
  n = strlen(msg);
  while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
  for (n = 0; msg[n]; n++) if (msg[n] == '\n') msg[n] = ' ';
  if (line <= 0 && b->r) line = xmlTextReaderGetParserLineNumber(b->r);
  b->state = RD_FAILED;
  lua_pushnil(L);
  lua_pushfstring(L, "%s:%d: %s", b->name, (int)line, msg);
  return 2;
}

/* The line of the reader's current node. */
static long reader_line(xmlreader_box *b) {
  xmlNodePtr n = xmlTextReaderCurrentNode(b->r);
  long line = n ? xmlGetLineNo(n) : -1;
  return line > 0 ? line : xmlTextReaderGetParserLineNumber(b->r);
}

static xmlreader_box *new_reader_box(lua_State *L, const char *name) {
  xmlreader_box *b = lua_newuserdatauv(L, sizeof *b, 1);
  memset(b, 0, sizeof *b);
  b->fd = -1;
  snprintf(b->name, sizeof b->name, "%s", name);
  luaL_setmetatable(L, CT_XMLREADER_MT);
  return b;
}


/* xml_reader(string [, name]) -> reader: reads the text as a stream (kept alive by the
   reader). */
static int l_xml_reader(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "<string>");
  xmlreader_box *b;
  luaL_argcheck(L, len <= (size_t)0x7fffffff, 1, "document too large");
  b = new_reader_box(L, name);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  b->text = s;
  b->len = len;
  b->r = xmlReaderForMemory(s, (int)len, name, NULL, reader_options());
  if (!b->r) return luaL_error(L, "%s: out of memory", name);
  xmlTextReaderSetStructuredErrorHandler(b->r, reader_error, &b->fe);
  return 1;
}

/* xml_file_reader(path [, name]) -> reader | nil, "path: message": reads the file as it goes. */
static int l_xml_file_reader(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  const char *name = luaL_optstring(L, 2, path);
  xmlreader_box *b;
  ct_error_t err;
  int fd;
  b = new_reader_box(L, name);
  if ((fd = ct_fs_open_read(path, &err)) < 0) return lct_pusherror(L, &err);   /* its own message */
  b->fd = fd;
  if (!(b->path = strdup(path))) return luaL_error(L, "%s: out of memory", path);
  b->r = xmlReaderForFd(fd, name, NULL, reader_options());
  if (!b->r) return luaL_error(L, "%s: cannot be read", path);
  xmlTextReaderSetStructuredErrorHandler(b->r, reader_error, &b->fe);
  return 1;
}

/* Pushes the attributes of the element the reader stands on as a table.  [-0, +1] */
static void push_reader_attrs(lua_State *L, xmlreader_box *b) {
  xmlNodePtr n = xmlTextReaderCurrentNode(b->r);
  xmlAttrPtr a;
  lua_newtable(L);
  for (a = n ? n->properties : NULL; a; a = a->next) {
    push_name(L, a->name, a->ns);
    push_attr_value(L, a);
    lua_rawset(L, -3);
  }
}

/* Pushes a table {tag =, attrs =, line =} for the element the reader stands on.  [-0, +1] */
static void push_reader_head(lua_State *L, xmlreader_box *b) {
  lua_createtable(L, 0, 5);
  lua_pushstring(L, (const char *)xmlTextReaderConstName(b->r));
  lua_setfield(L, -2, "tag");
  lua_pushinteger(L, (lua_Integer)reader_line(b));
  lua_setfield(L, -2, "line");
  push_reader_attrs(L, b);
  lua_setfield(L, -2, "attrs");
}

/* reader:root() -> {tag =, attrs =, line =, empty = bool} | nil, msg: the root element
   without its children (reader:next gives them).  A DOCTYPE is refused. */
static int l_reader_root(lua_State *L) {
  xmlreader_box *b = luaL_checkudata(L, 1, CT_XMLREADER_MT);
  int rc;
  if (!b->r || b->state != RD_NEW) return luaL_error(L, "reader:root() comes first, once");
  while ((rc = xmlTextReaderRead(b->r)) == 1) {
    int type = xmlTextReaderNodeType(b->r);
    if (type == XML_READER_TYPE_DOCUMENT_TYPE)
      return reader_fail(L, b, "a DOCTYPE is not allowed",
                         b->text ? doctype_line(b->text, b->len) : xmlTextReaderGetParserLineNumber(b->r));
    if (type == XML_READER_TYPE_ELEMENT) break;
  }
  if (rc != 1) {
    /* nothing but white space, comments or a declaration: libxml2 says "Extra content" */
    return reader_fail(L, b, NULL, 1);
  }
  snprintf(b->root, sizeof b->root, "%s", (const char *)xmlTextReaderConstName(b->r));
  push_reader_head(L, b);
  b->root_empty = xmlTextReaderIsEmptyElement(b->r) == 1;
  lua_pushboolean(L, b->root_empty);
  lua_setfield(L, -2, "empty");
  b->state = RD_ROOT;
  return 1;
}

/* Skips the subtree of the element the reader stands on, setting in the table at the top
   the tag of every element inside it; leaves the reader past it.  Returns the read status
   (1 standing on the next node, 0 at the end, -1 an error). */
static int skip_subtree(lua_State *L, xmlreader_box *b) {
  int depth = xmlTextReaderDepth(b->r), rc;
  if (xmlTextReaderIsEmptyElement(b->r) == 1) return xmlTextReaderRead(b->r);
  while ((rc = xmlTextReaderRead(b->r)) == 1) {
    int type = xmlTextReaderNodeType(b->r);
    if (xmlTextReaderDepth(b->r) <= depth) {
      if (type == XML_READER_TYPE_END_ELEMENT) return xmlTextReaderRead(b->r);
      return 1;
    }
    if (type == XML_READER_TYPE_ELEMENT) {
      lua_pushstring(L, (const char *)xmlTextReaderConstName(b->r));
      lua_pushboolean(L, 1);
      lua_rawset(L, -3);
    }
  }
  return rc;
}

/* reader:next([skip]) -> child | nil | nil, msg: the root's next child: an element as
   parse_xml builds it, or a text (white space too); nil after the last.  Elements whose
   tag is a key of `skip` are not built: {tag =, attrs =, line =, skipped = true,
   inside = {tag = true, ...}} (the tags of the elements in it). */
static int l_reader_next(lua_State *L) {
  xmlreader_box *b = luaL_checkudata(L, 1, CT_XMLREADER_MT);
  int rc = 1;
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
  if (b->state == RD_NEW) return luaL_error(L, "reader:root() comes first");
  if (b->state == RD_FAILED) return luaL_error(L, "the reader failed already");
  if (b->state == RD_DONE || !b->r) return 0;
  if (b->state == RD_ROOT) rc = xmlTextReaderRead(b->r);
  b->state = RD_ROOT;
  if (b->root_empty) {                                 /* <root/>: what follows must be well-formed */
    while (rc == 1) rc = xmlTextReaderRead(b->r);
    if (rc < 0 || b->fe.set) return reader_fail(L, b, NULL, 0);
    b->state = RD_DONE;
    return 0;
  }
  for (; rc == 1; rc = xmlTextReaderRead(b->r)) {
    int type = xmlTextReaderNodeType(b->r), depth = xmlTextReaderDepth(b->r);
    if (depth == 0 && type == XML_READER_TYPE_END_ELEMENT) {
      /* the root ends: what follows (comments, white space) must still be well-formed */
      while ((rc = xmlTextReaderRead(b->r)) == 1) {}
      if (rc < 0 || b->fe.set) return reader_fail(L, b, NULL, 0);
      b->state = RD_DONE;
      return 0;
    }
    if (depth != 1) continue;
    if (type == XML_READER_TYPE_ELEMENT) {
      const char *tag = (const char *)xmlTextReaderConstName(b->r);
      int skip = 0;
      if (lua_istable(L, 2)) {
        lua_getfield(L, 2, tag);
        skip = lua_toboolean(L, -1);
        lua_pop(L, 1);
      }
      if (skip) {
        push_reader_head(L, b);
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "skipped");
        lua_newtable(L);
        rc = skip_subtree(L, b);
        lua_setfield(L, -2, "inside");
      } else {
        xmlNodePtr n = xmlTextReaderExpand(b->r);
        if (!n || b->fe.set) return reader_fail(L, b, NULL, 0);
        push_element(L, n, 1);
        rc = xmlTextReaderNext(b->r);
      }
      if (rc < 0 || b->fe.set) {
        lua_pop(L, 1);
        return reader_fail(L, b, NULL, 0);
      }
      b->state = rc == 1 ? RD_AT_NODE : RD_DONE;
      return 1;
    }
    if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA || type == XML_READER_TYPE_WHITESPACE ||
        type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
      const xmlChar *v = xmlTextReaderConstValue(b->r);
      lua_pushstring(L, v ? (const char *)v : "");
      return 1;
    }
  }
  if (rc < 0 || b->fe.set) return reader_fail(L, b, NULL, 0);
  return reader_fail(L, b, "the document ends inside its root element", 0);
}

static const luaL_Reg reader_methods[] = {
  { "root", l_reader_root },
  { "next", l_reader_next },
  { "close", xmlreader_close },
  { NULL, NULL },
};

int lct_open_xml(lua_State *L) {
  if (luaL_newmetatable(L, CT_XMLDOC_MT)) {
    lua_pushcfunction(L, xmldoc_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushliteral(L, "not your business");
    lua_setfield(L, -2, "__metatable");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, CT_XMLREADER_MT)) {
    lua_pushcfunction(L, xmlreader_close);
    lua_setfield(L, -2, "__gc");
    luaL_newlib(L, reader_methods);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "not your business");
    lua_setfield(L, -2, "__metatable");
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, l_parse_xml);
  lua_setfield(L, -2, "parse_xml");
  lua_pushcfunction(L, l_xml_reader);
  lua_setfield(L, -2, "xml_reader");
  lua_pushcfunction(L, l_xml_file_reader);
  lua_setfield(L, -2, "xml_file_reader");
  return 0;
}
