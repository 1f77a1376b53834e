import Foundation
import LifeSignalBackend

/// Step 3 of a `/rest/v1` write: its statements, run in the caller's transaction
/// (``CallerTransaction``). An upsert row is looked up first, for 201 versus 200 and, on
/// SQLite, for the UPDATE policy PostgreSQL's `ON CONFLICT DO UPDATE` would apply.
extension PlannedWrite {
    /// The rows the statements returned, and how many were inserted rather than updated.
    func run(in connection: any SQLConnection) async throws -> (rows: [SQLRow], inserted: Int) {
        var rows: [SQLRow] = []
        var inserted = 0
        switch kind {
        case .insert:
            let target = plan.resolution == nil ? nil : try builder.conflictTarget(plan)
            for row in plan.rows {
                let existed = try await Self.exists(row, target: target, builder: builder, in: connection)
                if existed, plan.resolution == .mergeDuplicates {
                    try await Self.requireUpdatable(row, target: target, builder: builder, in: connection)
                }
                let returned = try await connection.query(try builder.insert(row, plan: plan))
                try await builder.checkNewRows(returned, command: existed ? .update : .insert, in: connection)
                if !existed { inserted += returned.count }
                rows += returned
            }
        case .update:
            rows = try await connection.query(try builder.update(plan.rows[0], plan: plan))
            try await builder.checkNewRows(rows, command: .update, in: connection)
        case .delete:
            rows = try await connection.query(try builder.delete(plan: plan))
        }
        if singular && rows.count != 1 {
            // Thrown inside the transaction, so the write is rolled back.
            throw RESTError.notSingular(rows.count)
        }
        return (rows, inserted)
    }

    /// Whether an upsert row will update an existing row (for 200 versus 201).
    static func exists(_ row: [String: JSONValue], target: [String]?, builder: RESTSQLBuilder, in connection: any SQLConnection) async throws -> Bool {
        guard let conditions = try conflictConditions(row, target: target, builder: builder) else { return false }
        let sql = SQL.raw("SELECT 1 AS found FROM \(builder.quote(builder.table.name)) WHERE ") + conditions
        return try await connection.first(sql) != nil
    }

    /// On SQLite, refuses an upsert whose conflicting row the caller's UPDATE policy does not
    /// reach (its `USING`), as PostgreSQL's `ON CONFLICT DO UPDATE` does. The new row's
    /// `WITH CHECK` alone is not enough: it would let a caller take over another's row by
    /// upserting it with themselves as the owner.
    static func requireUpdatable(_ row: [String: JSONValue], target: [String]?, builder: RESTSQLBuilder, in connection: any SQLConnection) async throws {
        guard builder.dialect == .sqlite, builder.role != .serviceRole,
            let conditions = try conflictConditions(row, target: target, builder: builder)
        else { return }
        try builder.requireGrant(.update)
        let rules = Schema.policy(for: builder.table.name)?.rules(for: .update, role: builder.role) ?? []
        let sql =
            SQL.raw("SELECT 1 AS found FROM \(builder.quote(builder.table.name)) WHERE ") + conditions
            + SQL.raw(" AND ") + builder.policyPredicate(rules.compactMap(\.using))
        guard try await connection.first(sql) == nil else { return }
        throw RESTError(
            status: .forbidden, code: .insufficientPrivilege,
            message: "new row violates row-level security policy (USING expression) for table \"\(builder.table.name)\"")
    }

    /// `target = value AND …` for an upsert row's conflict columns; `nil` when it lacks one.
    private static func conflictConditions(_ row: [String: JSONValue], target: [String]?, builder: RESTSQLBuilder) throws(RESTError) -> SQL? {
        guard let target, !target.isEmpty else { return nil }
        var conditions: [SQL] = []
        for name in target {
            guard let value = row[name], let column = builder.table.column(name) else { return nil }
            conditions.append(SQL.raw("\(builder.quote(name)) = ") + "\(try builder.writeValue(value, for: column))")
        }
        return SQL.join(conditions, separator: " AND ")
    }
}
