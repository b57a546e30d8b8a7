import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// An inner join tested with `IS NULL` answers nothing until it becomes a LEFT JOIN.
@Suite("Anti-joins written as inner joins")
struct AntiJoinCorrectionTests {
    @Test("an inner join tested with IS NULL on a column that cannot be NULL after it becomes a LEFT JOIN")
    func antiJoin() async throws {
        let (executor, schema, _, _) = try await ShopDatabase.fixture()
        let sql = "SELECT COUNT(T1.id) FROM products AS T1 INNER JOIN reviews AS T2 ON T1.id = T2.product_id WHERE T2.id IS NULL"
        let rewritten = try #require(AntiJoinCorrection().applied(to: sql, schema: schema))
        #expect(rewritten == "SELECT COUNT(T1.id) FROM products AS T1 LEFT JOIN reviews AS T2 ON T1.id = T2.product_id WHERE T2.id IS NULL")
        #expect(try await executor.query(rewritten).rows.first?[0] == .integer(1))
        #expect(AntiJoinCorrection().applied(to: 
            "SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id WHERE r.product_id IS NULL", schema: schema)
            == "SELECT p.name FROM products p LEFT JOIN reviews r ON r.product_id = p.id WHERE r.product_id IS NULL")
        // A nullable column compared in the ON condition, and a BETWEEN among the WHERE's terms.
        #expect(AntiJoinCorrection().applied(to:
            "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id AND o.promo_code_id = 2 WHERE o.promo_code_id IS NULL AND c.id BETWEEN 1 AND 3",
            schema: schema)
            == "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND o.promo_code_id = 2 WHERE o.promo_code_id IS NULL AND c.id BETWEEN 1 AND 3")
    }

    @Test("anti-join left alone: LEFT JOIN already, IS NOT NULL, a column that may be NULL, a comma join")
    func antiJoinLeftAlone() async throws {
        let (_, schema, _, _) = try await ShopDatabase.fixture()
        for sql in [
            "SELECT p.name FROM products p LEFT JOIN reviews r ON r.product_id = p.id WHERE r.id IS NULL",
            "SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id WHERE r.id IS NOT NULL",
            "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.promo_code_id IS NULL",
            "SELECT p.name FROM products p, reviews r WHERE r.product_id = p.id AND r.id IS NULL",
            "SELECT p.name FROM products p JOIN reviews r ON r.id IS NULL",
            // The test is not a condition every row must meet: other rows can match.
            "SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id WHERE r.id IS NULL OR r.rating >= 4",
            "SELECT p.name, r.id IS NULL FROM products p JOIN reviews r ON r.product_id = p.id",
            "SELECT COUNT(CASE WHEN r.id IS NULL THEN 1 END), COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id",
            "SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id WHERE p.id IN (SELECT x.id FROM products x WHERE r.id IS NULL)",
            // The alias tested outside names a table joined inside a subquery or a CTE too.
            "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL AND c.city IN (SELECT c2.city FROM customers c2 JOIN orders o ON o.customer_id = c2.id)",
            "WITH reviewed AS (SELECT p.id FROM products p JOIN reviews r ON r.product_id = p.id) SELECT p.name FROM products p LEFT JOIN reviews r ON r.product_id = p.id WHERE r.id IS NULL",
            "SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id WHERE r.id IS NULL UNION SELECT name FROM customers",
            // A RIGHT or FULL join can null-extend any table before it; a NATURAL join has no ON.
            "SELECT COUNT(*) FROM customers c RIGHT JOIN orders o ON o.customer_id = c.id WHERE o.customer_id IS NULL",
            "SELECT COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id RIGHT JOIN orders o ON o.id = r.id WHERE r.id IS NULL",
            "SELECT COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id FULL JOIN orders o ON o.id = r.id WHERE r.id IS NULL",
            "SELECT COUNT(*) FROM products p NATURAL JOIN reviews r WHERE r.product_id IS NULL",
            // The ON condition does not require the column: under OR, with IS, beside IS NULL.
            "SELECT COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id AND (o.promo_code_id = 1 OR o.promo_code_id IS NULL) WHERE o.promo_code_id IS NULL",
            "SELECT COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id OR o.promo_code_id = 1 WHERE o.promo_code_id IS NULL",
            "SELECT COUNT(*) FROM customers c JOIN orders o ON o.promo_code_id IS c.id WHERE o.promo_code_id IS NULL",
            "SELECT COUNT(*) FROM customers c JOIN orders o ON o.promo_code_id = c.id IS NULL WHERE o.promo_code_id IS NULL",
            // A CTE that shadows a table; a CASE whose AND is not the WHERE's.
            "WITH reviews AS (SELECT NULL AS id, 1 AS product_id) SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id WHERE r.id IS NULL",
            "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id WHERE CASE WHEN c.id > 1 THEN 1 ELSE 0 END = 1 AND o.promo_code_id IS NULL OR c.id = 1",
            "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id AND CASE WHEN o.promo_code_id = 1 AND c.id = 1 THEN 1 ELSE o.promo_code_id IS NULL END WHERE o.promo_code_id IS NULL",
        ] {
            #expect(AntiJoinCorrection().applied(to: sql, schema: schema) == nil, "\(sql)")
        }
    }

    @Test("anti-join left alone: a primary key that is not INTEGER PRIMARY KEY can hold NULL")
    func antiJoinTextKey() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE products(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE tags(name TEXT PRIMARY KEY, product_id INTEGER);
            INSERT INTO products VALUES (1, 'A'), (2, 'B');
            INSERT INTO tags VALUES (NULL, 1), ('x', 2);
            """)
        let executor = try database.executor()
        let schema = try await executor.schema()
        let sql = "SELECT p.name FROM products p JOIN tags t ON t.product_id = p.id WHERE t.name IS NULL"
        #expect(try await executor.query(sql).rows == [[.text("A")]])
        #expect(AntiJoinCorrection().applied(to: sql, schema: schema) == nil)
        // INTEGER PRIMARY KEY DESC is no rowid: it can hold NULL.
        let descending = try ScratchDatabase("""
            CREATE TABLE products(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE notes(id INTEGER PRIMARY KEY DESC, product_id INTEGER);
            INSERT INTO products VALUES (1, 'A'), (2, 'B');
            INSERT INTO notes VALUES (NULL, 1), (5, 2);
            """)
        let notes = "SELECT p.name FROM products p JOIN notes n ON n.product_id = p.id WHERE n.id IS NULL"
        let descendingExecutor = try descending.executor()
        #expect(try await descendingExecutor.query(notes).rows == [[.text("A")]])
        #expect(AntiJoinCorrection().applied(to: notes, schema: try await descendingExecutor.schema()) == nil)
        // Its INTEGER PRIMARY KEY is the rowid, never NULL: there the join is an anti-join.
        #expect(AntiJoinCorrection().applied(to: "SELECT t.name FROM tags t JOIN products p ON p.name = t.name WHERE p.id IS NULL", schema: schema)
            == "SELECT t.name FROM tags t LEFT JOIN products p ON p.name = t.name WHERE p.id IS NULL")
    }
}
