import Foundation
import Hummingbird
import LifeSignalBackend
import NIOCore

/// POST, PUT, PATCH and DELETE on `/rest/v1/<table>` (reference §A.10–A.11).
extension RESTRoutes {
    /// `put` marks a PUT: an insert plan that must name exactly one row by its primary key.
    func write(_ request: Request, context: Context, table name: String, kind: WritePlan.Kind, put: Bool = false) async throws -> Response {
        let (caller, claims) = try context.authentication.caller()
        do {
            guard let table = await schema.table(name) else { throw RESTError.unknownTable(name) }
            let singular = try RESTMediaType.negotiate(request) == .object
            let body = kind == .delete ? Data() : try await request.collectBody(limit: bodyLimit)
            let pairs = RESTQueryParser.pairs(request.uri.query)
            let parsed = try WritePlanParser.parse(kind: kind, pairs: pairs, preferences: Self.preferences(request), body: body, limits: limits)
            let plan = put ? try RESTPutPlan.upsert(from: parsed, pairs: pairs, table: table) : parsed
            let builder = RESTSQLBuilder(table: table, dialect: backend.database.dialect, caller: caller, claims: claims)
            let columns = try builder.outputColumns(ReadPlan(select: plan.select))
            switch kind {
            case .insert: try builder.requireGrant(.insert)
            case .update:
                guard !plan.filters.isEmpty else {
                    throw RESTError(status: .badRequest, code: "21000", message: "UPDATE requires a WHERE clause")
                }
                if plan.columns.isEmpty || plan.rows.isEmpty { return Response(status: .noContent, headers: [.contentRange: "*/*"]) }
                try builder.requireGrant(.update)
            case .delete:
                guard !plan.filters.isEmpty else {
                    throw RESTError(status: .badRequest, code: "21000", message: "DELETE requires a WHERE clause")
                }
                try builder.requireGrant(.delete)
            }
            let (rows, inserted) = try await run(caller: caller, claims: claims) { connection in
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
                    throw RESTError(status: .notAcceptable, code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
                                    details: "The result contains \(rows.count) rows")
                }
                return (rows, inserted)
            }
            if put && plan.returning != .representation { return Response(status: .noContent, headers: [.contentRange: "*/*"]) }
            return respond(kind: kind, plan: plan, rows: rows, inserted: inserted, columns: columns, singular: singular)
        } catch let error as RESTError {
            return error.response
        } catch let error as DatabaseError {
            return RESTError.database(error, role: caller.role).response
        } catch is BodyTooLarge {
            return RESTError(status: .contentTooLarge, code: "PGRST413", message: "Request body exceeds \(bodyLimit) bytes").response
        } catch {
            return RESTError(status: .internalServerError, code: "PGRST000", message: "Internal error").response
        }
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
              let conditions = try conflictConditions(row, target: target, builder: builder) else { return }
        try builder.requireGrant(.update)
        let rules = Schema.policy(for: builder.table.name)?.rules(for: .update, role: builder.role) ?? []
        let sql = SQL.raw("SELECT 1 AS found FROM \(builder.quote(builder.table.name)) WHERE ") + conditions
            + SQL.raw(" AND ") + builder.policyPredicate(rules.compactMap(\.using))
        guard try await connection.first(sql) == nil else { return }
        throw RESTError(status: .forbidden, code: "42501",
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

    func respond(kind: WritePlan.Kind, plan: WritePlan, rows: [SQLRow], inserted: Int,
                 columns: [(name: String, column: ColumnSchema)], singular: Bool) -> Response {
        var headers: HTTPFields = [:]
        var applied: [String] = []
        if kind == .insert, plan.resolution != nil { applied.append("resolution=\(plan.resolution?.rawValue ?? "")") }
        if plan.missingDefault { applied.append("missing=default") }
        if plan.returning != .minimal { applied.append("return=\(plan.returning.rawValue)") }
        if plan.countExact { applied.append("count=exact") }
        if !applied.isEmpty { headers[.preferenceApplied] = applied.joined(separator: ", ") }
        let total = plan.countExact ? String(rows.count) : "*"
        switch kind {
        case .insert: headers[.contentRange] = "*/\(total)"
        case .update: headers[.contentRange] = rows.isEmpty ? "*/\(total)" : "0-\(rows.count - 1)/\(total)"
        case .delete: headers[.contentRange] = "*/\(total)"
        }
        let status: HTTPResponse.Status
        switch kind {
        case .insert:
            let allUpdates = plan.resolution == .mergeDuplicates && inserted == 0
            status = allUpdates ? .ok : .created
        case .update, .delete:
            status = plan.returning == .representation ? .ok : .noContent
        }
        guard plan.returning == .representation else {
            return Response(status: status, headers: headers)
        }
        let objects = JSONRenderer.projected(rows, columns: columns)
        let body = singular ? (objects.first ?? "{}") : "[" + objects.joined(separator: ",") + "]"
        headers[.contentType] = singular ? "application/vnd.pgrst.object+json; charset=utf-8" : JSONResponse.contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
