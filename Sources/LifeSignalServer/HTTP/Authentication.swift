import LifeSignalBackend

/// What a request's `Authorization: Bearer` token proved, found once by
/// ``AuthenticationMiddleware`` and read by the rate limiter and every route.
///
/// A refused token is kept as refused, with why: each API words the refusal its own way
/// (GoTrue's `bad_jwt`, PostgREST's `PGRST301`, …), and none may read it as anonymous.
enum Authentication: Sendable {
    /// No bearer token was sent.
    case none
    /// A valid token, and the caller it stands for.
    case verified(claims: TokenClaims, caller: Caller)
    /// A token was sent and refused: a ``TokenError``, or what kept it from being checked
    /// (a ``DatabaseError`` while the database is out of reach).
    case refused(any Error)

    /// The caller of a route open to everyone: anonymous without a token, an error for a
    /// refused one.
    func caller() throws(BearerTokenError) -> (caller: Caller, claims: TokenClaims?) {
        switch self {
        case .none: return (.anonymous, nil)
        case .verified(let claims, let caller): return (caller, claims)
        case .refused(let why): throw .refused(why)
        }
    }

    /// The caller of a route that needs a token.
    func required() throws(BearerTokenError) -> (caller: Caller, claims: TokenClaims) {
        switch self {
        case .none: throw .missing
        case .verified(let claims, let caller): return (caller, claims)
        case .refused(let why): throw .refused(why)
        }
    }

    /// The claims of a valid token, if one was sent.
    var claims: TokenClaims? {
        if case .verified(let claims, _) = self { return claims }
        return nil
    }
}

/// Why a route could not take the request's token; each API's error type words it.
enum BearerTokenError: Error {
    /// The route needs a token and none was sent.
    case missing
    /// The token was refused (see ``Authentication/refused(_:)``).
    case refused(any Error)
}
