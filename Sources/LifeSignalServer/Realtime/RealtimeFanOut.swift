import Foundation
import LifeSignalBackend

/// Subscribers of one change who would read the changed row alike: the same caller, the same
/// claims and the same filter. One read serves them all.
///
/// Claims are compared without `exp` and `iat`, which only differ between tokens of one
/// session (a refreshed token) and which no access policy reads; expired subscribers are
/// dropped before grouping. Anything else a policy might read (`sub`, `role`, `session_id`,
/// `aal`, …) keeps subscribers apart.
struct RealtimeReadGroup: Hashable {
    let caller: Caller
    let claims: TokenClaims?
    let filterText: String?

    init(caller: Caller, claims: TokenClaims?, filterText: String?) {
        self.caller = caller
        self.claims = claims.map { claims in
            var timeless = claims
            timeless.exp = nil
            timeless.iat = nil
            return timeless
        }
        self.filterText = filterText
    }
}

extension RealtimeDispatcher {
    /// Reads at once for different groups: enough to keep the read-only connections (three on
    /// SQLite) busy, few enough that a burst of changes leaves PostgreSQL's pool to requests.
    static let concurrentReads = 4

    /// The changed row as each group reads it (`nil`: hidden from them, failing their filter,
    /// or already gone); for a delete, an empty string for each group that could have read
    /// the deleted row (``couldRead(deleted:in:as:claims:filter:)``). Each group is read once,
    /// as its first member, on the read path of `GET /rest/v1`
    /// (``CallerTransaction/readPage(caller:claims:page:columns:)``): a read-only
    /// connection on SQLite, never the writer's turn.
    func readRows(
        of change: CapturedChange, in table: TableSchema,
        for groups: [RealtimeReadGroup: (claims: TokenClaims?, filter: FilterNode?)]
    ) async -> [RealtimeReadGroup: String] {
        let key = change.key ?? [:]
        guard change.kind == .delete || !key.isEmpty else { return [:] }
        var rows: [RealtimeReadGroup: String] = [:]
        var pending = groups.makeIterator()
        await withTaskGroup(of: (RealtimeReadGroup, String?).self) { tasks in
            func startNext() -> Bool {
                guard let (group, member) = pending.next() else { return false }
                tasks.addTask {
                    if change.kind == .delete {
                        let seen = await couldRead(deleted: change, in: table, as: group.caller, claims: member.claims, filter: member.filter)
                        return (group, seen ? "" : nil)
                    }
                    return (group, await readRow(key: key, in: table, as: group.caller, claims: member.claims, filter: member.filter))
                }
                return true
            }
            for _ in 0..<Self.concurrentReads where !startNext() { break }
            while let (group, row) = await tasks.next() {
                if let row { rows[group] = row }
                _ = startNext()
            }
        }
        return rows
    }

    private func readRow(key: [String: String], in table: TableSchema, as caller: Caller, claims: TokenClaims?, filter: FilterNode?) async -> String? {
        hub.counters.read()
        var plan = ReadPlan()
        plan.filters = key.sorted { $0.key < $1.key }.map { .predicate(column: $0.key, negated: false, op: .eq, value: .scalar($0.value)) }
        if let filter { plan.filters.append(filter) }
        plan.limit = 1
        do {
            let builder = RESTSQLBuilder(table: table, dialect: backend.database.dialect, caller: caller, claims: claims)
            let columns = try builder.outputColumns(plan)
            let select = try builder.select(plan, columns: columns)
            let page = try await CallerTransaction(database: backend.database)
                .readPage(caller: caller, claims: claims, select: select, columns: columns)
            return page.rows == 1 ? String(page.body.dropFirst().dropLast()) : nil
        } catch {
            // A role without a grant, or a filter value the column's type refuses: nothing
            // this group may see.
            logger.debug("realtime: row not delivered", metadata: ["table": "\(table.name)", "error": "\(error)"])
            return nil
        }
    }
}
