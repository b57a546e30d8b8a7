@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// A small web shop's database in the Rails style (plural tables, `id` keys, money in INTEGER
/// cents, timestamps with times, NULLable foreign keys), for the corrections of model SQL.
enum ShopDatabase {
    static let script = """
        CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
        CREATE TABLE promo_codes(id INTEGER PRIMARY KEY, code TEXT NOT NULL);
        CREATE TABLE products(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price_cents INTEGER NOT NULL);
        CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
            promo_code_id INTEGER REFERENCES promo_codes(id), status TEXT NOT NULL, total_cents INTEGER NOT NULL,
            created_at TEXT NOT NULL);
        CREATE TABLE order_items(id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id),
            product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, unit_price_cents INTEGER NOT NULL);
        CREATE TABLE reviews(id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id), rating INTEGER NOT NULL);
        INSERT INTO customers VALUES (1, 'Ada', 'Oslo'), (2, 'Ben', NULL), (3, 'Cleo', 'Oslo');
        INSERT INTO promo_codes VALUES (1, 'SPRING'), (2, 'WELCOME'), (3, 'UNUSED');
        INSERT INTO products VALUES (1, 'Mug', 1299), (2, 'Poster', 25050), (3, 'Pin', 199);
        INSERT INTO orders VALUES
            (1, 1, 1, 'paid', 2598, '2025-06-30 14:05:00'),
            (2, 1, NULL, 'paid', 25249, '2025-01-01 09:00:00'),
            (3, 2, 2, 'pending', 199, '2025-07-01 08:00:00');
        INSERT INTO order_items VALUES (1, 1, 1, 2, 1299), (2, 2, 2, 1, 25050), (3, 2, 3, 1, 199), (4, 3, 3, 1, 199);
        INSERT INTO reviews VALUES (1, 1, 5), (2, 1, 4), (3, 2, 4);
        """

    /// A fresh copy with its executor, schema and column profiles.
    static func fixture() async throws -> (executor: SQLExecutor, schema: DatabaseSchema, profiles: [ColumnProfile], database: ScratchDatabase) {
        let database = try ScratchDatabase(script)
        let executor = try database.executor()
        let schema = try await executor.schema()
        return (executor, schema, try await executor.columnProfiles(in: schema), database)
    }
}
