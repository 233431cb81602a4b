#define _GNU_SOURCE
#include "lazy_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

// Writes "sophon: MESSAGE: DETAIL\n" on stderr and ends the process with status 127.
static void fail(const char *message, const char *detail) {
    fprintf(stderr, "sophon: %s: %s\n", message, detail != NULL ? detail : "unknown error");
    fflush(stderr);
    _exit(127);
}

void *sophon_lazy_symbol(const char *soname, const char *symbol) {
    // dlopen is thread-safe and returns the same handle for a library already open.
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) fail("cannot load a library it needs", dlerror());
    void *address = dlsym(library, symbol);
    if (address == NULL) fail("a library it needs lacks a function", dlerror());
    return address;
}
