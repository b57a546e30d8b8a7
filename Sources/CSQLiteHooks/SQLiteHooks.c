#if defined(__linux__)
// Debian's and the static build's libsqlite3 are compiled with the pre-update hook.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>
#include "CSQLiteHooks.h"

#if defined(SQLITE_ENABLE_PREUPDATE_HOOK)

int dbai_preupdate_available(void) { return 1; }

void dbai_set_preupdate_hook(struct sqlite3 *db, dbai_preupdate_callback callback, void *context) {
    sqlite3_preupdate_hook(db, callback, context);
}

int dbai_preupdate_count(struct sqlite3 *db) { return sqlite3_preupdate_count(db); }

int dbai_preupdate_old(struct sqlite3 *db, int column, struct sqlite3_value **value) {
    return sqlite3_preupdate_old(db, column, value);
}

int dbai_preupdate_new(struct sqlite3 *db, int column, struct sqlite3_value **value) {
    return sqlite3_preupdate_new(db, column, value);
}

int dbai_preupdate_depth(struct sqlite3 *db) { return sqlite3_preupdate_depth(db); }

#else

// The system SQLite of Apple platforms has no pre-update hook: writes record no row values.
int dbai_preupdate_available(void) { return 0; }
void dbai_set_preupdate_hook(struct sqlite3 *db, dbai_preupdate_callback callback, void *context) {
    (void)db; (void)callback; (void)context;
}
int dbai_preupdate_count(struct sqlite3 *db) { (void)db; return 0; }
int dbai_preupdate_old(struct sqlite3 *db, int column, struct sqlite3_value **value) {
    (void)db; (void)column; *value = 0; return SQLITE_MISUSE;
}
int dbai_preupdate_new(struct sqlite3 *db, int column, struct sqlite3_value **value) {
    (void)db; (void)column; *value = 0; return SQLITE_MISUSE;
}
int dbai_preupdate_depth(struct sqlite3 *db) { (void)db; return 0; }

#endif

int dbai_set_triggers_enabled(struct sqlite3 *db, int enabled) {
    int now = -1;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled ? 1 : 0, &now);
}
