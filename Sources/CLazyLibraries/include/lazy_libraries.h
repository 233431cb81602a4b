// The `sophon` executable's deferred libraries (docs/benchmarks.md, "Start-up"): libcurl, which
// the statically linked FoundationNetworking calls, and libcrypto, which Vertex AI's RS256
// signer calls, are opened on the first call of one of their functions instead of by the
// loader at start. A command that sends nothing (`sophon -c 'echo ok'`, a script of `let` and
// `expect`) then never maps them and the 28 libraries they need.
//
// This target defines each function the executable calls from those libraries as a small
// forwarder: the first call opens the library (`dlopen` of its soname) and every call jumps to
// the library's own function (`dlsym`). `scripts/build` then removes the two libraries from
// the binary's list of libraries to open at start (`patchelf --remove-needed`: nothing in the
// binary refers to them any more); a plain `swift build` keeps them in the list, so they are
// opened at start as before and the forwarders simply find them already loaded.
//
// Nothing here is called from Swift: the forwarders take the place of the libraries' own
// functions at link time, so this header declares nothing.
#ifndef SOPHON_LAZY_LIBRARIES_H
#define SOPHON_LAZY_LIBRARIES_H
#endif
