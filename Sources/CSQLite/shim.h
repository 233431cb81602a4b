// The system SQLite (libsqlite3-dev on Linux); docs/logs.md.
#include <sqlite3.h>
