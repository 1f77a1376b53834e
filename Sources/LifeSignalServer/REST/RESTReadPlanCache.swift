import Foundation
import HTTPTypes
import LifeSignalBackend
import Synchronization

/// A read as far as steps 1–3 take it: its SQL and what step 4 needs to shape the answer.
/// Built once from a ``RESTReadPlan``; a repeated request takes it from ``RESTReadPlanCache``.
struct PlannedRead: Sendable {
    /// The `SELECT`, the total's `SELECT count(*)` when `Prefer: count=exact` asked for it, and
    /// what the engine made of them once (``Database/preparePage(select:count:)``).
    let page: PageQuery
    let columns: [(name: String, column: ColumnSchema)]
    let offset: Int
    let singular: Bool
}

extension PlannedRead {
    init(_ plan: RESTReadPlan, database: any Database) throws(RESTError) {
        page = database.preparePage(select: try plan.select(), count: try plan.count())
        columns = plan.columns
        offset = plan.query.offset
        singular = plan.singular
    }
}

/// Reads already planned, by everything planning reads from: the table and the schema's
/// generation, the role (and on SQLite the caller), the query string and the headers step 1
/// reads. Most reads repeat — an app asks for the same page of locations again and again — and
/// parsing, checking every name and writing the SQL was about a seventh of the server's time
/// on such a read (`docs/performance.md`).
///
/// Only plans that succeed are kept; a refused request is planned (and refused) again each
/// time. Bounded: at ``capacity`` an entry is dropped for each one added, and a query string
/// longer than ``longestQuery`` is not kept at all, so a stranger inventing queries costs the
/// cache at most its capacity and each request no more than planning it.
final class RESTReadPlanCache: Sendable {
    static let capacity = 512
    static let longestQuery = 2_048

    /// What a read's plan depends on, besides the server's fixed limits.
    struct Key: Hashable, Sendable {
        let table: String
        let role: DatabaseRole
        /// The caller on SQLite only, where the builder writes the table's policies into the
        /// SQL with the caller's id bound (``RESTSQLBuilder/policyPredicate(_:)``). On
        /// PostgreSQL the SQL is the role's alone: row-level security reads the claims the
        /// connection is given for each read.
        let caller: Caller?
        let head: Bool
        let query: String
        let accept: [String]
        /// A HEAD's `Range` is ignored (as step 1 ignores it).
        let range: String?
        let prefer: [String]

        /// `nil` for a request not worth keeping (a query string past ``longestQuery``).
        init?(table: String, role: DatabaseRole, caller: Caller, dialect: SQLDialect, head: Bool, query: String?, headers: HTTPFields) {
            let query = query ?? ""
            guard query.utf8.count <= RESTReadPlanCache.longestQuery else { return nil }
            self.table = table
            self.role = role
            self.caller = dialect == .sqlite ? caller : nil
            self.head = head
            self.query = query
            accept = headers[values: .accept]
            range = head ? nil : headers[.range]
            prefer = headers[values: .prefer]
        }
    }

    private struct Kept {
        var generation = -1
        var plans: [Key: PlannedRead] = [:]
    }

    private let kept = Mutex(Kept())

    /// The plan for `key` under the schema's `generation`, made by `make` when it is not kept.
    /// A new generation empties the cache: its plans were checked against the old tables.
    func plan(for key: Key?, generation: Int, make: () throws(RESTError) -> PlannedRead) throws(RESTError) -> PlannedRead {
        guard let key else { return try make() }
        let found: PlannedRead? = kept.withLock { kept in
            if kept.generation != generation {
                kept.plans.removeAll(keepingCapacity: true)
                kept.generation = generation
            }
            return kept.plans[key]
        }
        if let found { return found }
        let made = try make()
        kept.withLock { kept in
            guard kept.generation == generation else { return }
            if kept.plans.count >= Self.capacity, kept.plans[key] == nil { kept.plans.remove(at: kept.plans.startIndex) }
            kept.plans[key] = made
        }
        return made
    }

    /// How many plans are kept (for tests).
    var count: Int { kept.withLock { $0.plans.count } }
}
