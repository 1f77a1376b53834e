import Foundation
import Hummingbird
import LifeSignalBackend
import NIOCore

/// `/rest/v1`: PostgREST over the exposed tables, in PostgREST's four steps, each its own file
/// and tested alone; the routes only wire them:
///
/// 1. request (``RESTReadRequest``, ``RESTWriteRequest``): query string and headers parsed;
/// 2. plan (``RESTReadPlan``, ``PlannedWrite``): against the schema cache, as the caller;
/// 3. SQL (``RESTSQLBuilder``), run as the caller (``CallerTransaction``,
///    `RESTWriteExecution.swift`): on PostgreSQL under the caller's role with their claims in
///    `request.jwt.claims`, so grants and row-level security decide; on SQLite the builder
///    applies the same declared policies;
/// 4. response (``RESTReadResponse``, ``RESTWriteResponse``): ranges, counts, negotiation.
///
/// The caller comes from the context (``AuthenticationMiddleware``); whatever a step throws is
/// answered as a ``RESTError`` by the group's middleware.
struct RESTRoutes<Context: AuthenticatedRequestContext> {
    let backend: LifeSignalBackend
    let schema: SchemaCache
    let bodyLimit: Int
    var limits: QueryLimits = .standard
    /// Reads planned before (steps 1–3), shared by every copy of these routes.
    let plans = RESTReadPlanCache()

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("rest/v1").add(
            middleware: APIErrorMiddleware { error, _, context in
                RESTError.translating(error, role: (try? context.authentication.caller())?.caller.role ?? .anon)
            })
        group.get { request, context in try await self.openAPI(request, context: context) }
        group.get(":table") { request, context in try await self.read(request, context: context, head: false) }
        group.head(":table") { request, context in try await self.read(request, context: context, head: true) }
        group.post(":table") { request, context in try await self.write(request, context: context, kind: .insert) }
        group.put(":table") { request, context in try await self.write(request, context: context, kind: .insert, put: true) }
        group.patch(":table") { request, context in try await self.write(request, context: context, kind: .update) }
        group.delete(":table") { request, context in try await self.write(request, context: context, kind: .delete) }
    }

    /// The route's table from the schema cache (404 `PGRST205` for one it does not hold).
    private func table(_ context: Context) async throws(RESTError) -> TableSchema {
        let name = context.parameters.get("table") ?? ""
        guard let table = schema.table(name) else { throw RESTError.unknownTable(name) }
        return table
    }

    private func read(_ request: Request, context: Context, head: Bool) async throws -> Response {
        let (caller, claims) = try context.authentication.caller()
        let name = context.parameters.get("table") ?? ""
        let dialect = backend.database.dialect
        let role = DatabaseRole.acting(as: caller, claims: claims)
        let snapshot = schema.snapshot
        let query = request.uri.query
        let key = RESTReadPlanCache.Key(
            table: name, role: role, caller: caller, dialect: dialect, head: head, query: query, headers: request.headers)
        let read = try plans.plan(for: key, generation: snapshot.generation) { () throws(RESTError) -> PlannedRead in
            guard let table = snapshot.tables[name] else { throw RESTError.unknownTable(name) }
            let parsed = try RESTReadRequest(query: query, headers: request.headers, head: head, limits: limits)
            let plan = try RESTReadPlan(parsed, table: table, dialect: dialect, caller: caller, claims: claims, maxRows: limits.maxRows)
            return try PlannedRead(plan, database: backend.database)
        }
        let page = try await CallerTransaction(database: backend.database).readPage(
            caller: caller, claims: claims, page: read.page, columns: read.columns)
        return try RESTReadResponse.make(page, offset: read.offset, singular: read.singular, head: head).response
    }

    /// `put` marks a PUT: an insert that must name exactly one row by its primary key.
    private func write(_ request: Request, context: Context, kind: WritePlan.Kind, put: Bool = false) async throws -> Response {
        let (caller, claims) = try context.authentication.caller()
        let table = try await table(context)
        let parsed = try await RESTWriteRequest.read(
            kind: kind, put: put, query: request.uri.query, headers: request.headers,
            limits: limits
        ) { try await request.collectBody(limit: bodyLimit) }
        guard let write = try PlannedWrite.make(parsed, table: table, dialect: backend.database.dialect, caller: caller, claims: claims) else {
            return RESTWriteResponse.noContent.response
        }
        let (rows, inserted) = try await CallerTransaction(database: backend.database).run(caller: caller, claims: claims) { connection in
            try await write.run(in: connection)
        }
        return RESTWriteResponse.make(write, rows: rows, inserted: inserted).response
    }

    /// `GET /rest/v1/`: the OpenAPI description of what this caller's role may use.
    private func openAPI(_ request: Request, context: Context) async throws -> Response {
        let (caller, claims) = try context.authentication.caller()
        let document = RESTOpenAPI.document(tables: schema.all, role: DatabaseRole.acting(as: caller, claims: claims), host: request.head.authority)
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) else {
            throw RESTError(status: .internalServerError, code: .internalError, message: "Could not describe the schema")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/openapi+json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
