#ifndef SOPHON_CEDIT_SHIM_H
#define SOPHON_CEDIT_SHIM_H

// Path-qualified includes: they keep working when pkg-config (which adds
// -I/usr/include/editline on Debian) is absent.
#include <histedit.h>
#include <editline/readline.h>
#include <locale.h>

/// Sets LC_CTYPE from the environment so libedit edits UTF-8 by character.
static inline void cedit_set_locale_from_environment(void) {
    setlocale(LC_CTYPE, "");
}

#endif
