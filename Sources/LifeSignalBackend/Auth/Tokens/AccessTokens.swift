import Foundation
import LifeSignalDomain

/// Authentication's tokens part: LifeSignal's own access tokens and API keys, HS256 JWTs
/// signed with the project secret (jwt-kit, ``JWTSigner``). It knows no database: what a token
/// stands for is decided from the token alone; whether its session still stands is
/// ``Sessions``' question.
public struct AccessTokens: Sendable {
    /// Seconds an access token is good for (GoTrue's default, `expires_in`).
    public static let lifetime = 3600

    let signer: JWTSigner
    /// The `iss` claim of the tokens made here.
    let issuer: String
    let clock: BackendClock

    init(secret: String, issuer: String, clock: BackendClock) {
        self.signer = JWTSigner(secret: secret)
        self.issuer = issuer
        self.clock = clock
    }

    /// A LifeSignal token (an access token or an API key) and nothing else: the `apikey`
    /// header's check. Bearers of the APIs go through ``AuthService/authenticate(_:)``, which
    /// also accepts other issuers' tokens.
    public func verify(_ token: String) async throws(TokenError) -> TokenClaims {
        try await signer.verify(token, now: clock.now())
    }

    /// The caller a bearer token stands for. No token is an anonymous caller; a token that is
    /// present but invalid is an error, never silently anonymous.
    public func caller(bearer token: String?) async throws(TokenError) -> Caller {
        guard let token, !token.isEmpty else { return .anonymous }
        return try Self.caller(claims: await verify(token))
    }

    /// The caller verified claims stand for.
    public static func caller(claims: TokenClaims) throws(TokenError) -> Caller {
        switch claims.role {
        case DatabaseRole.anon.rawValue: return .anonymous
        case DatabaseRole.serviceRole.rawValue: return .service
        case DatabaseRole.authenticated.rawValue:
            guard let sub = claims.sub, let id = UserID(string: sub) else {
                throw .malformed("invalid claim: missing sub claim")
            }
            return .user(id)
        default: throw .unknownRole(claims.role)
        }
    }

    /// A long-lived API key for `role` (`anon` or `service_role`), as Supabase's legacy keys.
    public func apiKey(role: DatabaseRole) async -> String {
        var claims = TokenClaims(role: role.rawValue)
        claims.iss = "supabase"
        claims.ref = "lifesignal"
        claims.iat = 1_700_000_000
        claims.exp = 4_900_000_000
        return await signer.sign(claims)
    }

    /// An access token for `user` in `session`, signed in by `method` (the token's `amr`).
    func accessToken(for user: AuthUser, session: UUID, method: AuthenticationMethod, now: Date) async -> String {
        var claims = TokenClaims(role: DatabaseRole.authenticated.rawValue)
        claims.iss = issuer
        claims.sub = user.id.description
        claims.aud = "authenticated"
        claims.iat = Int(now.timeIntervalSince1970)
        claims.exp = claims.iat.map { $0 + Self.lifetime }
        claims.sessionID = session.uuidString.lowercased()
        claims.phone = user.phone?.digits
        claims.email = user.email
        claims.aal = "aal1"
        claims.amr = [method]
        claims.isAnonymous = false
        let provider = user.phone != nil ? "phone" : "email"
        claims.appMetadata = TokenAppMetadata(provider: provider, providers: [provider], role: user.appRole)
        return await signer.sign(claims)
    }
}
