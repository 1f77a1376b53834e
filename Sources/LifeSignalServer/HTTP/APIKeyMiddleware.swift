import Hummingbird
import LifeSignalBackend

/// Supabase's gateway rule: every request carries an `apikey` (header or `?apikey=`) that is a
/// JWT signed with the project secret whose role is `anon` or `service_role`. Keys minted
/// elsewhere with the same secret therefore work. Preflight and health checks are exempt, and so are public storage objects.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let auth: AuthService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Public objects are fetched by plain URL (an <img src>), as on Supabase.
        if request.method == .options || request.uri.path == "/health" || request.uri.path == "/metrics"
            || (request.method == .get && request.uri.path.hasPrefix("/storage/v1/object/public/")) {
            return try await next(request, context)
        }
        guard let key = request.headers[.apiKey] ?? Self.queryKey(request.uri.query) else {
            return JSONResponse.make(.unauthorized, [
                "message": "No API key found in request",
                "hint": "No `apikey` request header or url param was found.",
            ])
        }
        guard let claims = try? auth.verify(key),
              claims.role == DatabaseRole.anon.rawValue || claims.role == DatabaseRole.serviceRole.rawValue
        else {
            return JSONResponse.make(.unauthorized, [
                "message": "Invalid API key",
                "hint": "Double check your Supabase `anon` or `service_role` API key.",
            ])
        }
        return try await next(request, context)
    }

    static func queryKey(_ query: String?) -> String? {
        guard let query else { return nil }
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == "apikey" { return String(pair[1]).removingPercentEncoding }
        }
        return nil
    }
}
