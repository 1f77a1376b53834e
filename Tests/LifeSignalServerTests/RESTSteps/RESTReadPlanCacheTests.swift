import Foundation
import HTTPTypes
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

@testable import LifeSignalBackend
@testable import LifeSignalServer

/// The cache of planned reads alone: what its key tells apart, when a plan is made again, and
/// its bounds. (That people reading with the same query string each see only their own rows,
/// on both engines, is `PeoplePrivacyTests`; a plan made before a schema reload is not served
/// after it, `SchemaReloadTests`.)
@Suite("REST read plan cache")
struct RESTReadPlanCacheTests {
    private static let ann = Caller.user(UserID(rawValue: UUID()))
    private static let bob = Caller.user(UserID(rawValue: UUID()))

    private func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }

    private func key(
        table: String = "locations", role: DatabaseRole = .authenticated, caller: Caller = ann, query: String? = "select=id",
        dialect: SQLDialect, head: Bool = false, headers: [(String, String)] = []
    ) -> RESTReadPlanCache.Key? {
        RESTReadPlanCache.Key(table: table, role: role, caller: caller, dialect: dialect, head: head, query: query, headers: fields(headers))
    }

    @Test("on SQLite, where the caller's id is in the SQL, two people never share a plan; on PostgreSQL the role's plan is shared")
    func callerInTheKeyOnSQLiteOnly() {
        #expect(key(caller: Self.ann, dialect: .sqlite) != key(caller: Self.bob, dialect: .sqlite))
        #expect(key(caller: Self.ann, dialect: .postgres) == key(caller: Self.bob, dialect: .postgres))
        #expect(key(role: .authenticated, dialect: .postgres) != key(role: .contentEditor, dialect: .postgres))
        #expect(key(role: .anon, caller: .anonymous, dialect: .postgres) != key(role: .serviceRole, caller: .service, dialect: .postgres))
    }

    @Test("everything step 1 reads is in the key: table, query string, Accept, Range (not a HEAD's), Prefer and HEAD")
    func requestInTheKey() {
        let plain = key(dialect: .postgres)
        #expect(plain == key(dialect: .postgres))
        #expect(plain != key(table: "events", dialect: .postgres))
        #expect(plain != key(query: "select=name", dialect: .postgres))
        #expect(key(query: nil, dialect: .postgres) == key(query: "", dialect: .postgres))
        #expect(plain != key(dialect: .postgres, headers: [("Accept", "application/vnd.pgrst.object+json")]))
        #expect(plain != key(dialect: .postgres, headers: [("Range", "0-4")]))
        #expect(plain != key(dialect: .postgres, headers: [("Prefer", "count=exact")]))
        #expect(plain != key(dialect: .postgres, head: true))
        // A HEAD ignores Range, so the two are one plan.
        #expect(key(dialect: .postgres, head: true, headers: [("Range", "0-4")]) == key(dialect: .postgres, head: true))
        // Headers step 1 does not read do not split the cache.
        #expect(plain == key(dialect: .postgres, headers: [("User-Agent", "test"), ("X-Client-Info", "supabase-swift")]))
    }

    @Test("a query string past the bound is not kept")
    func longQueriesAreNotKept() {
        let long = "select=id&name=eq." + String(repeating: "a", count: RESTReadPlanCache.longestQuery)
        #expect(key(query: long, dialect: .postgres) == nil)
        let cache = RESTReadPlanCache()
        let made = Counter()
        for _ in 0..<3 { _ = try? cache.plan(for: nil, generation: 1) { made.plan() } }
        #expect(made.count == 3 && cache.count == 0)
    }

    @Test("a plan is made once per key and generation; a refusal is not kept; a new generation starts empty")
    func madeOncePerGeneration() throws {
        let cache = RESTReadPlanCache()
        let made = Counter()
        let first = try #require(key(dialect: .postgres))
        _ = try cache.plan(for: first, generation: 1) { made.plan() }
        _ = try cache.plan(for: first, generation: 1) { made.plan() }
        #expect(made.count == 1)
        let refused = try #require(key(query: "select=nope", dialect: .postgres))
        for _ in 0..<2 {
            #expect(throws: RESTError.self) {
                try cache.plan(for: refused, generation: 1) { () throws(RESTError) -> PlannedRead in
                    made.count += 1
                    throw RESTError(status: .badRequest, code: .undefinedColumn, message: "no such column")
                }
            }
        }
        #expect(made.count == 3 && cache.count == 1)
        _ = try cache.plan(for: first, generation: 2) { made.plan() }
        #expect(made.count == 4 && cache.count == 1)
        // A plan made under an older generation than the cache's is not kept.
        let other = try #require(key(query: "select=name", dialect: .postgres))
        _ = try cache.plan(for: other, generation: 1) { made.plan() }
        #expect(cache.count == 1)
    }

    @Test("at capacity an entry is dropped for each one added")
    func bounded() throws {
        let cache = RESTReadPlanCache()
        let made = Counter()
        for n in 0..<(RESTReadPlanCache.capacity + 50) {
            let distinct = try #require(key(query: "select=id&limit=\(n)", dialect: .postgres))
            _ = try cache.plan(for: distinct, generation: 1) { made.plan() }
        }
        #expect(cache.count == RESTReadPlanCache.capacity)
        #expect(made.count == RESTReadPlanCache.capacity + 50)
    }
}

/// Counts the plans made; hands out one fixed plan.
private final class Counter: @unchecked Sendable {
    var count = 0

    func plan() -> PlannedRead {
        count += 1
        return PlannedRead(page: PageQuery(select: SQL.raw("SELECT 1"), count: nil), columns: [], offset: 0, singular: false)
    }
}
