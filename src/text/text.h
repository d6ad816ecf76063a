/*
** text.h: the door of the text stage (src/text/): shaping with HarfBuzz, script runs,
** bidi, line breaks, hyphenation and alternates.  Its API is ct.h's "shaping" part; this
** header gives the stage what it stands on (fonts) and nothing above.
*/
#ifndef CT_TEXT_H
#define CT_TEXT_H

#include "font/font.h"

#endif /* CT_TEXT_H */
