/*
** l_xml.h: ct.parse_xml, XML text to plain Lua tables through libxml2 (bindings layer).
*/
#ifndef L_XML_H
#define L_XML_H

#include <lua.h>

/* Adds parse_xml, xml_reader and xml_file_reader to the module table at the top.  Returns 0.  [-0, +0] */
int lct_open_xml(lua_State *L);

#endif /* L_XML_H */
