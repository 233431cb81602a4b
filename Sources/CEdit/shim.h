#ifndef SOPHON_CEDIT_SHIM_H
#define SOPHON_CEDIT_SHIM_H

// Path-qualified includes: they keep working when pkg-config (which adds
// -I/usr/include/editline on Debian) is absent.
#include <histedit.h>
#include <editline/readline.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

// el_set, el_get and history are C variadic functions, which Swift cannot call.
// Each use the shell needs has one fixed-signature wrapper here. These wrappers
// hold no state of their own: static variables in a header would exist once per
// translation unit, so all state lives on the Swift side.

/// Sets LC_CTYPE from the environment so libedit edits UTF-8 by character.
static inline void cedit_set_locale_from_environment(void) {
    setlocale(LC_CTYPE, "");
}

/// Sets LC_CTYPE from the environment; when that locale does not use UTF-8
/// (LANG unset, or `C`/`POSIX`), falls back to `C.UTF-8` so libedit still edits
/// UTF-8 by character. Returns 1 when LC_CTYPE ends up UTF-8, else 0.
static inline int cedit_prepare_utf8_locale(void) {
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0)) {
        return 1;
    }
    if (setlocale(LC_CTYPE, "C.UTF-8") != NULL || setlocale(LC_CTYPE, "C.utf8") != NULL) {
        return 1;
    }
    return 0;
}

// MARK: - Editor

/// Starts an editor on the process's standard input, output and error streams.
static inline EditLine *cedit_init(const char *program) {
    return el_init(program, stdin, stdout, stderr);
}

/// Sets the terminal type (a terminfo name such as "xterm"), overriding TERM.
static inline int cedit_set_terminal(EditLine *el, const char *type) {
    return el_set(el, EL_TERMINAL, type);
}

/// Selects the key map: "emacs" or "vi". Returns 0 on success.
static inline int cedit_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

/// 1 when the key map is vi's (after `bind -v` in an editrc), else 0.
static inline int cedit_editor_is_vi(EditLine *el) {
    const char *mode = NULL;
    return el_get(el, EL_EDITOR, &mode) == 0 && mode != NULL && strcmp(mode, "vi") == 0;
}

/// 1: libedit restores the terminal around signals during el_gets (and
/// re-sends the signal to the previous handler); 0: it does not.
static inline int cedit_set_signal_handling(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

/// Installs the prompt function (called at each redisplay).
static inline int cedit_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) {
    return el_set(el, EL_PROMPT, prompt);
}

/// Stores one pointer the callbacks can reach through cedit_client_data.
static inline int cedit_set_client_data(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

/// The pointer stored with cedit_set_client_data, or NULL.
static inline void *cedit_client_data(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) {
        return NULL;
    }
    return data;
}

/// Replaces the function that reads one character (for interruptible reads).
/// The function returns 1 with a character, 0 at end of input, -1 on error.
static inline int cedit_set_getc(EditLine *el, int (*getc_fn)(EditLine *, wchar_t *)) {
    return el_set(el, EL_GETCFN, getc_fn);
}

/// Adds a named editor function, to be bound with cedit_bind.
static inline int cedit_add_function(EditLine *el, const char *name, const char *help,
                                     unsigned char (*fn)(EditLine *, int)) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

/// Binds a key sequence (e.g. "^I") to a named editor function.
static inline int cedit_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, NULL);
}

/// Connects an in-memory history to the editor (Up/Down, searches).
static inline int cedit_set_history(EditLine *el, History *hist) {
    return el_set(el, EL_HIST, history, hist);
}

/// The terminal width in columns, or `fallback` when unknown.
static inline int cedit_terminal_columns(EditLine *el, int fallback) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns, NULL) != 0 || columns <= 0) {
        return fallback;
    }
    return columns;
}

/// Writes text to the editor's output stream and flushes it.
static inline void cedit_write_output(EditLine *el, const char *text) {
    FILE *out = NULL;
    if (el_get(el, EL_GETFP, 1, &out) != 0 || out == NULL) {
        out = stdout;
    }
    fputs(text, out);
    fflush(out);
}

// MARK: - History

/// A new in-memory history holding at most `size` entries, with duplicates in a
/// row dropped.
static inline History *cedit_history_init(int size) {
    History *hist = history_init();
    if (hist == NULL) {
        return NULL;
    }
    HistEvent event;
    history(hist, &event, H_SETSIZE, size);
    history(hist, &event, H_SETUNIQUE, 1);
    return hist;
}

/// Adds an entry as the newest. Returns 0 on success.
static inline int cedit_history_enter(History *hist, const char *entry) {
    HistEvent event;
    return history(hist, &event, H_ENTER, entry) < 0 ? -1 : 0;
}

/// Loads a history file in libedit's format. Returns the entries read, or -1.
static inline int cedit_history_load(History *hist, const char *path) {
    HistEvent event;
    return history(hist, &event, H_LOAD, path);
}

/// Saves the whole history to a file in libedit's format (truncating it).
/// Returns the entries written, or -1. Used by tests only.
static inline int cedit_history_save(History *hist, const char *path) {
    HistEvent event;
    return history(hist, &event, H_SAVE, path);
}

/// The number of entries.
static inline int cedit_history_count(History *hist) {
    HistEvent event;
    if (history(hist, &event, H_GETSIZE) < 0) {
        return 0;
    }
    return event.num;
}

/// The oldest entry (moving the history cursor to it), or NULL when empty.
static inline const char *cedit_history_oldest(History *hist) {
    HistEvent event;
    if (history(hist, &event, H_LAST) < 0) {
        return NULL;
    }
    return event.str;
}

/// The entry after the history cursor towards the newest (moving the cursor),
/// or NULL at the newest.
static inline const char *cedit_history_newer(History *hist) {
    HistEvent event;
    if (history(hist, &event, H_PREV) < 0) {
        return NULL;
    }
    return event.str;
}

#endif
