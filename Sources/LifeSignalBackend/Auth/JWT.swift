import Foundation
import JWTKit
import LifeSignalDomain

/// The claims LifeSignal puts in, and reads from, HS256 tokens: GoTrue's access-token claims
/// for users, and `role` alone for the anon and service-role API keys.
public struct TokenClaims: Codable, Sendable, Hashable {
    public var iss: String?
    public var sub: String?
    public var aud: String?
    public var role: String
    public var exp: Int?
    public var iat: Int?
    public var sessionID: String?
    public var phone: String?
    public var email: String?
    public var aal: String?
    public var isAnonymous: Bool?
    public var ref: String?
    /// How the session was signed in (GoTrue's `amr` claim): `password` or `otp`, with when.
    public var amr: [AuthenticationMethod]?
    /// GoTrue's `app_metadata`: what only the service role sets (``TokenAppMetadata/role``
    /// makes a content editor).
    public var appMetadata: TokenAppMetadata?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, role, exp, iat, phone, email, aal, ref, amr
        case sessionID = "session_id"
        case isAnonymous = "is_anonymous"
        case appMetadata = "app_metadata"
    }

    public init(role: String) { self.role = role }
}

/// The `app_metadata` claim as GoTrue writes it: the sign-in providers, and the `role` an
/// operator gave the person with the service role (`"editor"`, see
/// ``DatabaseRole/contentEditor``). Other keys of the stored metadata are not carried.
public struct TokenAppMetadata: Codable, Sendable, Hashable {
    public var provider: String?
    public var providers: [String]?
    public var role: String?

    public init(provider: String? = nil, providers: [String]? = nil, role: String? = nil) {
        self.provider = provider
        self.providers = providers
        self.role = role
    }
}

/// One entry of the `amr` claim: a way the session's owner proved who they are, and when
/// (unix seconds). Kept across refreshes, as GoTrue keeps it with the session.
public struct AuthenticationMethod: Codable, Sendable, Hashable {
    public var method: String
    public var timestamp: Int

    public init(method: String, timestamp: Int) {
        self.method = method
        self.timestamp = timestamp
    }
}

/// Why a token was refused; the server words each as PostgREST and GoTrue do.
public enum TokenError: Error, Sendable, Hashable {
    case malformed(String)
    case badSignature
    case expired
    case unknownRole(String)
}

/// Signs and verifies HS256 JSON Web Tokens with the project's secret, through jwt-kit.
///
/// jwt-kit checks the signature (its HMAC key in a `JWTKeyCollection`, whose methods are
/// asynchronous); what is LifeSignal's own stays here: only HS256 is taken, whatever the
/// header says, the errors are worded as PostgREST and GoTrue word them, and expiry is judged
/// on the backend's clock with ``leeway``. Tokens are byte for byte what the hand-written
/// signer made (header `{"alg":"HS256","typ":"JWT"}`, claims with sorted keys), so tokens from
/// before and after are interchangeable.
public struct JWTSigner: Sendable {
    /// The key collection, made once: adding a key to it is an actor call.
    private let keys: Task<JWTKeyCollection, Never>
    /// Tokens are accepted this many seconds past `exp`, as PostgREST allows for clock skew.
    public static let leeway = 30

    /// `secret` must be at least 32 bytes: jwt-kit refuses (traps on, in debug builds) a key
    /// shorter than SHA-256's output, as Supabase refuses such a project secret.
    public init(secret: String) {
        let key = HMACKey(from: Data(secret.utf8))
        keys = Task {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return await JWTKeyCollection().add(
                hmac: key, digestAlgorithm: .sha256,
                serializer: DefaultJWTSerializer(jsonEncoder: encoder))
        }
    }

    public func sign(_ claims: TokenClaims) async -> String {
        // Encoding a struct of strings and integers with the one key held cannot fail.
        (try? await keys.value.sign(SignedClaims(claims), header: ["typ": "JWT"])) ?? ""
    }

    /// Checks the signature and expiry (against `now`) and returns the claims.
    public func verify(_ token: String, now: Date) async throws(TokenError) -> TokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("Expected 3 parts in JWT; got \(parts.count)") }
        // jwt-kit would try any header's `alg` with the key it has; only HS256 is ours.
        guard let headerData = Base64URL.decode(parts[0]).map({ Data($0) }),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            header["alg"] as? String == "HS256"
        else { throw .malformed("Wrong or unsupported encoding algorithm") }
        let claims: TokenClaims
        do {
            claims = try await keys.value.verify(token, as: SignedClaims.self).claims
        } catch let error as JWTError where error.errorType == .malformedToken {
            // Raised only after the signature checked out: the claims are what is wrong.
            throw .malformed("JWT claims are not valid JSON")
        } catch {
            throw .badSignature
        }
        // Subtracted from now, not added to `exp`: a signed `exp` near `Int.max` must not overflow.
        if let exp = claims.exp, Int(now.timeIntervalSince1970) - Self.leeway > exp { throw .expired }
        return claims
    }
}

/// ``TokenClaims`` as jwt-kit's payload, its JSON exactly the claims' own. jwt-kit's claim
/// checks are not used: expiry is judged by ``JWTSigner/verify(_:now:)`` on the backend's clock.
struct SignedClaims: JWTPayload {
    let claims: TokenClaims

    init(_ claims: TokenClaims) { self.claims = claims }
    init(from decoder: any Decoder) throws { claims = try TokenClaims(from: decoder) }
    func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }
    func verify(using _: some JWTAlgorithm) async throws {}
}
