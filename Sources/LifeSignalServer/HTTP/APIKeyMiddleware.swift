import Foundation
import Hummingbird
import LifeSignalBackend

/// Supabase's gateway rule: every request carries an `apikey` (header or `?apikey=`) that is a
/// JWT signed with the project secret whose role is `anon` or `service_role`. Keys minted
/// elsewhere with the same secret therefore work. Preflight, health and readiness checks are exempt, and so are public storage objects.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let auth: AuthService
    /// Keys already verified: a project has a handful, sent with every request, and
    /// re-checking the signature each time was measurable under load.
    let accepted = AcceptedKeys()

    /// A valid anon or service-role key, remembered until it expires.
    private func verify(_ key: String) -> Bool {
        guard let claims = try? auth.verify(key),
              claims.role == DatabaseRole.anon.rawValue || claims.role == DatabaseRole.serviceRole.rawValue else { return false }
        accepted.insert(key, expiresAt: claims.exp.map { Date(timeIntervalSince1970: TimeInterval($0)) }, now: auth.clock.now())
        return true
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Public objects are fetched by plain URL (an <img src>), as on Supabase.
        if request.method == .options || request.uri.path == "/health" || request.uri.path == "/ready" || request.uri.path == "/metrics"
            || (request.method == .get && request.uri.path.hasPrefix("/storage/v1/object/public/"))
            // Responder and invitation links: the signed token in the path is the credential.
            || request.uri.path.hasPrefix("/r/") || request.uri.path.hasPrefix("/i/")
            // Provider callbacks: their own signature (X-Twilio-Signature) is the credential.
            || request.uri.path.hasPrefix("/hooks/") {
            return try await next(request, context)
        }
        guard let key = request.headers[.apiKey] ?? Self.queryKey(request.uri.query) else {
            return JSONResponse.make(.unauthorized, [
                "message": "No API key found in request",
                "hint": "No `apikey` request header or url param was found.",
            ])
        }
        guard accepted.contains(key, now: auth.clock.now()) || verify(key) else {
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

/// The API keys a server has verified, each until its `exp` (checked against the backend's
/// clock on every use). Bounded: when full, the oldest entries make room.
final class AcceptedKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var expiries: [String: Date?] = [:]
    private var order: [String] = []
    private let capacity = 64

    func contains(_ key: String, now: Date) -> Bool {
        lock.withLock {
            guard let expiry = expiries[key] else { return false }
            if let expiry, expiry <= now {
                expiries[key] = nil
                return false
            }
            return true
        }
    }

    func insert(_ key: String, expiresAt: Date?, now: Date) {
        lock.withLock {
            guard expiries[key] == nil else { return }
            if order.count >= capacity { expiries[order.removeFirst()] = nil }
            expiries[key] = expiresAt
            order.append(key)
        }
    }
}
