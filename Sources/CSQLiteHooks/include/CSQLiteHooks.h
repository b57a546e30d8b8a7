#ifndef CSQLITEHOOKS_H
#define CSQLITEHOOKS_H

/// SQLite functions the library calls that Swift cannot reach through GRDB's module: the
/// pre-update hook (declared by sqlite3.h only under SQLITE_ENABLE_PREUPDATE_HOOK) and the
/// variadic sqlite3_db_config. The connection and values are SQLite's own (opaque to Swift).

struct sqlite3;
struct sqlite3_value;

/// Called before each row a statement changes (triggers' and foreign-key actions' included):
/// op is SQLITE_INSERT, SQLITE_UPDATE or SQLITE_DELETE; oldKey and newKey are the rowids
/// (undefined for WITHOUT ROWID tables).
typedef void (*dbai_preupdate_callback)(
    void *context, struct sqlite3 *db, int op, const char *database, const char *table,
    long long oldKey, long long newKey);

/// 1 when this SQLite calls pre-update hooks, else 0 (the hook then never fires).
int dbai_preupdate_available(void);
/// Sets (or, with a NULL callback, removes) the connection's pre-update hook.
void dbai_set_preupdate_hook(struct sqlite3 *db, dbai_preupdate_callback callback, void *context);
/// Inside the hook: the number of columns of the row.
int dbai_preupdate_count(struct sqlite3 *db);
/// Inside the hook: column `column` of the row before (UPDATE, DELETE) the change; SQLITE_OK or an error.
int dbai_preupdate_old(struct sqlite3 *db, int column, struct sqlite3_value **value);
/// Inside the hook: column `column` of the row after (INSERT, UPDATE) the change.
int dbai_preupdate_new(struct sqlite3 *db, int column, struct sqlite3_value **value);
/// Inside the hook: 0 for a change made by the statement itself, 1 for one made by its trigger, …
int dbai_preupdate_depth(struct sqlite3 *db);
/// Turns the connection's triggers on or off (SQLITE_DBCONFIG_ENABLE_TRIGGER); returns SQLITE_OK
/// or an error. SQLite prepares statements again after the change; TEMP triggers still fire.
int dbai_set_triggers_enabled(struct sqlite3 *db, int enabled);

#endif
