import Hummingbird
import NIOCore

/// The server's one CORS layer. It sits in front of the API-key check, so a preflight needs
/// no key and refusals carry the headers too (a browser hides a response without them, and a
/// 401 would look like a network failure).
///
/// Supabase answers CORS in two different ways, and clients rely on each:
/// - `/rest/v1` and `/auth/v1` follow PostgREST's CORS: only a request with
///   `Origin` is touched, that origin is echoed back, and a preflight allows `Authorization`
///   plus whatever headers it asked for.
/// - `/functions/v1` follows what an Edge Function answers for itself (Supabase's recommended `corsHeaders`): a wildcard origin
///   and the fixed header set supabase-js exports, on every reply, `Origin` or not; a
///   preflight gets `200 ok`.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How the paths under one prefix answer cross-origin requests.
    enum Rule: Sendable {
        /// PostgREST's rule: echo the request's `Origin`.
        case echoOrigin
        /// An Edge Function's rule: `*` and a fixed header list.
        case edgeFunction
    }

    /// Path prefixes (e.g. `/rest/v1/`) and their rule; paths under none are left alone.
    let rules: [(prefix: String, rule: Rule)]

    static var allowedMethods: String { "GET, POST, PATCH, PUT, DELETE, OPTIONS" }
    static var exposedHeaders: String {
        "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit"
    }
    static var edgeFunctionHeaders: HTTPFields {
        [
            .accessControlAllowOrigin: "*",
            .accessControlAllowHeaders: "authorization, x-client-info, apikey, content-type",
            .accessControlAllowMethods: "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.pathSlice
        guard let rule = rules.first(where: { path.hasPrefix($0.prefix) })?.rule else { return try await next(request, context) }
        switch rule {
        case .echoOrigin:
            guard let origin = request.headers[.origin] else { return try await next(request, context) }
            if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
                var allowed = "Authorization"
                if let asked = request.headers[.accessControlRequestHeaders], !asked.isEmpty { allowed += ", " + asked }
                return Response(
                    status: .ok,
                    headers: [
                        .accessControlAllowOrigin: origin,
                        .accessControlAllowCredentials: "true",
                        .accessControlAllowMethods: Self.allowedMethods,
                        .accessControlAllowHeaders: allowed,
                        .accessControlMaxAge: "86400",
                        .vary: "Origin",
                    ])
            }
            var response = try await Self.answer(request, context: context, next: next)
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlAllowCredentials] = "true"
            response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
            response.headers[.vary] = "Origin"
            return response
        case .edgeFunction:
            if request.method == .options {
                return Response(status: .ok, headers: Self.edgeFunctionHeaders, body: .init(byteBuffer: ByteBuffer(string: "ok")))
            }
            var response = try await Self.answer(request, context: context, next: next)
            for field in Self.edgeFunctionHeaders { response.headers[field.name] = field.value }
            return response
        }
    }

    /// The reply of the rest of the chain, with a thrown HTTP error (the router's 404, a body
    /// limit) turned into its response here so that it gets the CORS headers too.
    private static func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }
}
