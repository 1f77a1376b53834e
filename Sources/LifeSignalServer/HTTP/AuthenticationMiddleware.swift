import Foundation
import Hummingbird
import LifeSignalBackend

/// Reads `Authorization: Bearer`, checks it through ``AuthService/authenticate(_:)`` (the one
/// place every kind of token accepted is decided) and stores the outcome in the context.
///
/// It runs once, before the rate limiter, which counts a signed-in caller by their id; every
/// route then reads ``AuthenticatedRequestContext/authentication`` instead of the header, so
/// a token is verified once per request. It refuses nothing itself: whether a token is needed
/// and how a bad one is answered belong to each API (see ``Authentication``).
struct AuthenticationMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let auth: AuthService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.authentication = await authenticate(request.bearerToken)
        return try await next(request, context)
    }

    func authenticate(_ token: String?) async -> Authentication {
        guard let token else { return .none }
        do {
            let claims = try await auth.authenticate(token)
            return .verified(claims: claims, caller: try AccessTokens.caller(claims: claims))
        } catch {
            return .refused(error)
        }
    }
}

extension Request {
    /// The bearer token of the `Authorization` header, if any.
    var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        // Trimmed by hand: Foundation's `trimmingCharacters` goes through NSString on Linux,
        // which cost 3 % of the server's CPU on a check-in.
        let token = parts[1].utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var end = token.endIndex
        while end > token.startIndex, let last = token[..<end].last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            end = token.index(before: end)
        }
        return String(Substring(token[..<end]))
    }
}
