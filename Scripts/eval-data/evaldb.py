"""What the generated evaluation databases share: writing the rows into a fresh SQLite file."""

import os
import sqlite3


def write_database(out, schema, tables):
    """Writes `tables` ([(name, rows)], in insertion order) into a new database at `out` made
    from the `schema` script, compacts it, and prints a line of row counts."""
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.executescript(schema)
    for name, rows in tables:
        marks = ", ".join("?" * len(rows[0]))
        db.executemany(f"INSERT INTO {name} VALUES ({marks})", [tuple(r) for r in rows])
    db.commit()
    db.execute("VACUUM")
    db.close()
    total = sum(len(rows) for _, rows in tables)
    print(f"wrote {out}: " + ", ".join(f"{name} {len(rows)}" for name, rows in tables)
          + f" ({total} rows)")
