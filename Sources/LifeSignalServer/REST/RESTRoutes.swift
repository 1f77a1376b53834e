import Foundation
import Hummingbird
import LifeSignalBackend
import NIOCore

/// `/rest/v1/<table>`: PostgREST's read grammar over the exposed tables.
///
/// Each request is parsed into a ``ReadPlan`` (no SQL yet), the plan into SQL by
/// ``RESTSQLBuilder``, and the rows into a response here. On PostgreSQL the statement runs
/// under the caller's role with their claims in `request.jwt.claims`, so grants and
/// row-level security decide; on SQLite the builder applies the same declared policies.
struct RESTRoutes<Context: AuthenticatedRequestContext> {
    let backend: LifeSignalBackend
    let schema: SchemaCache
    let bodyLimit: Int
    var limits: QueryLimits = .standard

    func register(on router: Router<Context>) {
        let group = router.group("rest/v1").add(middleware: APIErrorMiddleware { error, _, context in
            RESTError.translating(error, role: (try? context.authentication.caller())?.caller.role ?? .anon)
        })
        group.get { request, context in try await self.openAPI(request, context: context) }
        group.get(":table") { request, context in
            try await self.read(request, context: context, table: context.parameters.get("table") ?? "", head: false)
        }
        group.head(":table") { request, context in
            try await self.read(request, context: context, table: context.parameters.get("table") ?? "", head: true)
        }
        group.post(":table") { request, context in
            try await self.write(request, context: context, table: context.parameters.get("table") ?? "", kind: .insert)
        }
        group.put(":table") { request, context in
            try await self.write(request, context: context, table: context.parameters.get("table") ?? "", kind: .insert, put: true)
        }
        group.patch(":table") { request, context in
            try await self.write(request, context: context, table: context.parameters.get("table") ?? "", kind: .update)
        }
        group.delete(":table") { request, context in
            try await self.write(request, context: context, table: context.parameters.get("table") ?? "", kind: .delete)
        }
    }

    private func read(_ request: Request, context: Context, table name: String, head: Bool) async throws -> Response {
        let (caller, claims) = try context.authentication.caller()
        do {
            guard let table = await schema.table(name) else { throw RESTError.unknownTable(name) }
            let singular = try RESTMediaType.negotiate(request) == .object
            var plan = try RESTQueryParser.readPlan(RESTQueryParser.pairs(request.uri.query), limits: limits)
            if !head, let range = request.headers[.range] { try Self.apply(range: range, to: &plan) }
            if let maxRows = limits.maxRows { plan.limit = min(plan.limit ?? maxRows, maxRows) }
            let builder = RESTSQLBuilder(table: table, dialect: backend.database.dialect, caller: caller, claims: claims)
            let columns = try builder.outputColumns(plan)
            let select = try builder.select(plan, columns: columns)
            let wantsCount = Self.preferences(request).contains("count=exact")
            let countSQL = wantsCount ? try builder.count(plan) : nil

            let (body, rowCount, total) = try await CallerTransaction(database: backend.database)
                .readPage(caller: caller, claims: claims, select: select, count: countSQL, columns: columns)

            if singular && rowCount != 1 {
                return RESTError(status: .notAcceptable, code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
                                 details: "The result contains \(rowCount) rows").response
            }
            var headers: HTTPFields = [:]
            let lower = plan.offset
            // `lower + rowCount` cannot overflow: that many rows exist past `lower`.
            let range = rowCount > 0 ? "\(lower)-\(lower + (rowCount - 1))" : "*"
            headers[.contentRange] = "\(range)/\(total.map(String.init) ?? "*")"
            var status = HTTPResponse.Status.ok
            if let total {
                headers[.preferenceApplied] = "count=exact"
                if lower > total && total > 0 {
                    var response = RESTError(status: .rangeNotSatisfiable, code: "PGRST103", message: "Requested range not satisfiable",
                                             details: "An offset of \(lower) was requested, but there are only \(total) rows.").response
                    response.headers[.contentRange] = "*/\(total)"
                    return response
                }
                if rowCount < total { status = .partialContent }
            }
            var output = body
            if singular {
                // One row: strip the array brackets PostgreSQL or the renderer wrote.
                output = String(body.dropFirst().dropLast())
                headers[.contentType] = "application/vnd.pgrst.object+json; charset=utf-8"
            } else {
                headers[.contentType] = JSONResponse.contentType
            }
            return Response(status: status, headers: headers, body: head ? .init() : .init(byteBuffer: ByteBuffer(string: output)))
        } catch let error as RESTError {
            return error.response
        } catch let error as DatabaseError {
            return RESTError.database(error, role: caller.role).response
        } catch {
            return RESTError(status: .internalServerError, code: "PGRST000", message: "Internal error").response
        }
    }

    /// `GET /rest/v1/`: the OpenAPI description of what this caller's role may use.
    private func openAPI(_ request: Request, context: Context) async throws -> Response {
        let (caller, claims) = try context.authentication.caller()
        let document = RESTOpenAPI.document(tables: await schema.all, role: DatabaseRole.acting(as: caller, claims: claims), host: request.head.authority)
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) else {
            return RESTError(status: .internalServerError, code: "PGRST000", message: "Could not describe the schema").response
        }
        return Response(status: .ok, headers: [.contentType: "application/openapi+json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Runs `body` in a transaction as the caller (see ``CallerTransaction``).
    func run<T: Sendable>(caller: Caller, claims: TokenClaims?, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await CallerTransaction(database: backend.database).run(caller: caller, claims: claims, body)
    }

    /// The `Range: <from>-[<to>]` header (GET only), intersected with `limit`/`offset`.
    /// Anything not of that form is ignored, as PostgREST does.
    ///
    /// Every bound is the client's, up to `Int.max`: the arithmetic is checked, and a bound
    /// past what `Int` holds means "no bound" (no table has that many rows).
    static func apply(range: String, to plan: inout ReadPlan) throws(RESTError) {
        let parts = range.utf8.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring.UTF8View) in part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        guard parts.count == 2, !parts[0].isEmpty, isDigits(parts[0]), isDigits(parts[1]),
              let from = Int(Substring(parts[0])) else { return }
        // A `to` too large for `Int` is still a valid header: it bounds nothing.
        let to = parts[1].isEmpty ? nil : Int(Substring(parts[1])) ?? Int.max
        if let to, to < from {
            throw RESTError(status: .rangeNotSatisfiable, code: "PGRST103", message: "Requested range not satisfiable",
                            details: "The lower boundary must be lower than or equal to the upper boundary in the Range header.")
        }
        let lower = max(plan.offset, from)
        let queryUpper = plan.limit.map { limit in
            let (end, overflow) = plan.offset.addingReportingOverflow(limit)
            return overflow ? Int.max : end - 1
        }
        let upper = [queryUpper, to].compactMap { $0 }.min()
        plan.offset = lower
        if let upper {
            let (count, overflow) = (upper - lower).addingReportingOverflow(1)
            plan.limit = overflow ? Int.max : max(0, count)
        }
    }

    static func preferences(_ request: Request) -> [String] {
        request.headers[values: .prefer].flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}

/// The exposed tables, read from the database at start (and again on ``reload()``).
actor SchemaCache {
    private let database: any Database
    private var tables: [String: TableSchema] = [:]

    init(database: any Database) { self.database = database }

    func reload() async throws { tables = try await Introspection.tables(in: database) }

    func table(_ name: String) -> TableSchema? { tables[name] }

    var all: [TableSchema] { Array(tables.values) }
}
