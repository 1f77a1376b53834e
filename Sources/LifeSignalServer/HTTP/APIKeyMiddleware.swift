import Foundation
import Hummingbird
import LifeSignalBackend
import Synchronization

/// Supabase's gateway rule: every request carries an `apikey` (header or `?apikey=`) that is a
/// JWT signed with the project secret whose role is `anon` or `service_role`. Keys minted
/// elsewhere with the same secret therefore work. It guards the API's route group only: probes,
/// links, provider callbacks and public storage objects are routes of other groups.
///
/// The key's role is kept in the context: the rate limiter lets service-role requests through.
struct APIKeyMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let auth: AuthService
    /// Keys already verified: a project has a handful, sent with every request, and
    /// re-checking the signature each time was measurable under load.
    let accepted = AcceptedKeys()

    /// The role of a valid anon or service-role key, remembered until the key expires.
    private func role(of key: String) async -> DatabaseRole? {
        let now = auth.clock.now()
        if let known = accepted.role(of: key, now: now) { return known }
        // An API key is always this project's own HS256 key, never a bearer token of another
        // issuer: it is checked here, not through `AuthService.authenticate`.
        guard let claims = try? await auth.tokens.verify(key), let role = DatabaseRole(rawValue: claims.role),
            role == .anon || role == .serviceRole
        else { return nil }
        accepted.insert(key, role: role, expiresAt: claims.exp.map { Date(timeIntervalSince1970: TimeInterval($0)) }, now: now)
        return role
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = request.apiKey
        var context = context
        context.apiKeyRole = if let key { await role(of: key) } else { nil }
        guard key != nil else {
            return JSONResponse.make(
                .unauthorized,
                [
                    "message": "No API key found in request",
                    "hint": "No `apikey` request header or url param was found.",
                ])
        }
        guard context.apiKeyRole != nil else {
            return JSONResponse.make(
                .unauthorized,
                [
                    "message": "Invalid API key",
                    "hint": "Double check your Supabase `anon` or `service_role` API key.",
                ])
        }
        return try await next(request, context)
    }
}

extension Request {
    /// The request's `apikey`: the header, or `?apikey=` (how a browser's WebSocket sends it).
    var apiKey: String? {
        if let key = headers[.apiKey] { return key }
        guard let query = uri.query else { return nil }
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == "apikey" { return String(pair[1]).removingPercentEncoding }
        }
        return nil
    }
}

/// The API keys a server has verified and their roles, each until its `exp` (checked against
/// the backend's clock on every use). Bounded: when full, the oldest entries make room.
final class AcceptedKeys: Sendable {
    private struct Known {
        var entries: [String: (role: DatabaseRole, expiry: Date?)] = [:]
        var order: [String] = []
    }

    private let known = Mutex(Known())
    private let capacity = 64

    func role(of key: String, now: Date) -> DatabaseRole? {
        known.withLock { known in
            guard let entry = known.entries[key] else { return nil }
            if let expiry = entry.expiry, expiry <= now {
                known.entries[key] = nil
                return nil
            }
            return entry.role
        }
    }

    func insert(_ key: String, role: DatabaseRole, expiresAt: Date?, now: Date) {
        known.withLock { known in
            guard known.entries[key] == nil else { return }
            if known.order.count >= capacity, !known.order.isEmpty { known.entries[known.order.removeFirst()] = nil }
            known.entries[key] = (role, expiresAt)
            known.order.append(key)
        }
    }
}
