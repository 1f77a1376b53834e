import Hummingbird

/// PostgREST's CORS (wire reference §A.13) for `/rest/v1` and `/auth/v1`: browsers calling
/// from another origin get that origin echoed back, preflights are answered here without an
/// API key, and error replies carry the headers too (a browser hides a response without
/// them, so a 401 would look like a network failure).
///
/// Only requests that carry `Origin` are touched. `/functions/v1` keeps the Edge Functions'
/// own wildcard CORS (``FunctionRoutes``), which is a different rule.
struct OriginCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let pathPrefixes: [String]

    static var allowedMethods: String { "GET, POST, PATCH, PUT, DELETE, OPTIONS" }
    static var exposedHeaders: String {
        "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], pathPrefixes.contains(where: { request.uri.path.hasPrefix($0) }) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var allowed = "Authorization"
            if let asked = request.headers[.accessControlRequestHeaders], !asked.isEmpty { allowed += ", " + asked }
            return Response(status: .ok, headers: [
                .accessControlAllowOrigin: origin,
                .accessControlAllowCredentials: "true",
                .accessControlAllowMethods: Self.allowedMethods,
                .accessControlAllowHeaders: allowed,
                .accessControlMaxAge: "86400",
                .vary: "Origin",
            ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlAllowCredentials] = "true"
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        response.headers[.vary] = "Origin"
        return response
    }
}
