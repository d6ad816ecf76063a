/*
** l_xml.c: ct.parse_xml(string [, name]) (bindings layer): parses XML with libxml2
** (no network, no DTD, no entity expansion; a DOCTYPE is refused) and returns the
** root element as plain tables {tag =, attrs = {...}, line = N, children = {...}},
** text nodes as strings.  A parse error returns nil, "name:LINE: message".
** The xmlDoc lives in a userdata box whose __gc frees it, so an error raised while
** the tables are built (out of memory) cannot leak it; no Lua error ever crosses a
** libxml2 frame (the tables are built after parsing, from the finished tree).
*/
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <lauxlib.h>

#include "l_xml.h"

#define CT_XMLDOC_MT "chromatype.XmlDoc"   /* internal: owns an xmlDoc */

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

int lct_open_xml(lua_State *L) {
  if (luaL_newmetatable(L, CT_XMLDOC_MT)) {
    lua_pushcfunction(L, xmldoc_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushliteral(L, "not your business");
    lua_setfield(L, -2, "__metatable");
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, l_parse_xml);
  lua_setfield(L, -2, "parse_xml");
  return 0;
}
