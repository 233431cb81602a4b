// The one loader behind every forwarder of this target (see include/lazy_libraries.h).
#ifndef SOPHON_LAZY_LOADER_H
#define SOPHON_LAZY_LOADER_H

// The address of `symbol` in the library `soname`, opening the library on first use. A library
// or function that cannot be found ends the process with a message on stderr and status 127,
// as the loader itself does for a missing library: there is no way to go on without it.
void *sophon_lazy_symbol(const char *soname, const char *symbol);

// Declares the cached address of one function and resolves it once (a benign race: two
// threads may both look it up; both store the same address).
#define SOPHON_LAZY(soname, name)                                                              \
    static __typeof__(&name) resolved_##name;                                                   \
    __typeof__(&name) name##_target = __atomic_load_n(&resolved_##name, __ATOMIC_ACQUIRE);        \
    if (name##_target == 0) {                                                                   \
        name##_target = (__typeof__(&name))sophon_lazy_symbol(soname, #name);                   \
        __atomic_store_n(&resolved_##name, name##_target, __ATOMIC_RELEASE);                    \
    }

#endif
