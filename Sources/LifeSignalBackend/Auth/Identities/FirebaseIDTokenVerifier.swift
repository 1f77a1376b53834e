import Foundation
import JWTKit
import LifeSignalDomain

/// Who a verified Firebase ID token names: its project's uid, and the contact details
/// Firebase vouches for.
public struct FirebaseIdentity: Sendable, Hashable {
    /// The Firebase uid (`sub`).
    public var uid: String
    /// `phone_number`, set by Firebase only for a number it verified by SMS.
    public var phoneNumber: String?
    public var email: String?
    public var emailVerified: Bool
    /// `firebase.sign_in_provider` (`phone`, `password`, `google.com`, `anonymous`, …).
    public var signInProvider: String?
    public var issuedAt: Int
    public var expiresAt: Int
    public var authTime: Int
}

/// Verifies Firebase Auth ID tokens as Firebase's "Verify ID tokens using a third-party JWT
/// library" asks: header `alg` RS256 and a `kid` among the published keys, signature by that
/// key (jwt-kit), `exp` in the future, `iat` and `auth_time` in the past, `aud` the project
/// id, `iss` `https://securetoken.google.com/<project id>`, `sub` a non-empty uid of at most
/// 128 characters. Times are judged with ``JWTSigner/leeway`` for clock skew, on the
/// backend's clock.
///
/// Every refusal is a ``TokenError``, so the server words it as it words a bad LifeSignal
/// token (401): a bad signature or a `kid` no published key has is ``TokenError/badSignature``,
/// an old token ``TokenError/expired``, anything else — including keys that cannot be fetched —
/// ``TokenError/malformed(_:)`` saying why.
public struct FirebaseIDTokenVerifier: Sendable {
    public let settings: FirebaseAuthSettings
    let clock: BackendClock
    let keys: FirebaseKeyCache

    init(settings: FirebaseAuthSettings, clock: BackendClock, fetch: @escaping FirebaseKeyCache.Fetch = FirebaseKeyCache.httpFetch) {
        self.settings = settings
        self.clock = clock
        self.keys = FirebaseKeyCache(settings: settings, clock: clock, fetch: fetch)
    }

    /// Whether `token` claims to come from this project (its unverified `iss`): such a token is
    /// verified here, and only here.
    func claimsToBeOurs(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.json(parts[1]) else { return false }
        return payload["iss"] as? String == settings.issuer
    }

    public func verify(_ token: String) async throws(TokenError) -> FirebaseIdentity {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("Expected 3 parts in JWT; got \(parts.count)") }
        guard let header = Self.json(parts[0]) else { throw .malformed("Firebase ID token: the header is not JSON") }
        guard header["alg"] as? String == "RS256" else { throw .malformed("Firebase ID token: alg must be RS256") }
        guard let kid = header["kid"] as? String, !kid.isEmpty else { throw .malformed("Firebase ID token: no kid") }
        let collection: JWTKeyCollection
        do {
            collection = try await keys.keys(for: kid)
        } catch {
            switch error {
            case .unknownKey: throw .badSignature
            case .unavailable(let why): throw .malformed("Firebase ID token: \(why)")
            }
        }
        let payload: FirebaseIDTokenPayload
        do {
            payload = try await collection.verify(token, as: FirebaseIDTokenPayload.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed("Firebase ID token: \(error)")
        }
        return try check(payload)
    }

    /// The claim rules, in Firebase's order.
    private func check(_ payload: FirebaseIDTokenPayload) throws(TokenError) -> FirebaseIdentity {
        let now = clock.now().timeIntervalSince1970
        let leeway = Double(JWTSigner.leeway)
        guard let exp = payload.exp, let iat = payload.iat, let authTime = payload.authTime else {
            throw .malformed("Firebase ID token: exp, iat and auth_time are required")
        }
        if now - leeway > exp { throw .expired }
        if iat > now + leeway { throw .malformed("Firebase ID token: iat is in the future") }
        if authTime > now + leeway { throw .malformed("Firebase ID token: auth_time is in the future") }
        guard payload.aud == [settings.projectID] else { throw .malformed("Firebase ID token: aud is not this project") }
        guard payload.iss == settings.issuer else { throw .malformed("Firebase ID token: iss is not this project") }
        guard let uid = payload.sub, !uid.isEmpty, uid.count <= 128 else {
            throw .malformed("Firebase ID token: sub must be a uid of 1 to 128 characters")
        }
        return FirebaseIdentity(
            uid: uid, phoneNumber: payload.phoneNumber, email: payload.email, emailVerified: payload.emailVerified ?? false,
            signInProvider: payload.firebase?.signInProvider,
            issuedAt: Self.seconds(iat), expiresAt: Self.seconds(exp), authTime: Self.seconds(authTime))
    }

    /// A time claim as whole seconds, clamped: a signed number is still input.
    private static func seconds(_ value: Double) -> Int {
        Int(exactly: value.rounded(.down)) ?? (value < 0 ? Int.min : Int.max)
    }

    static func json(_ part: Substring) -> [String: Any]? {
        guard let data = Base64URL.decode(part).map({ Data($0) }) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}

/// The claims of a Firebase ID token this server reads. Times are numbers (not always
/// integers in other issuers' tokens); `aud` may be a string or an array.
struct FirebaseIDTokenPayload: JWTPayload {
    struct Firebase: Codable, Sendable {
        var signInProvider: String?
        enum CodingKeys: String, CodingKey { case signInProvider = "sign_in_provider" }
    }

    var iss: String?
    var aud: [String]?
    var sub: String?
    var exp: Double?
    var iat: Double?
    var authTime: Double?
    var email: String?
    var emailVerified: Bool?
    var phoneNumber: String?
    var firebase: Firebase?

    enum CodingKeys: String, CodingKey {
        case iss, aud, sub, exp, iat, email, firebase
        case authTime = "auth_time"
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decodeIfPresent(String.self, forKey: .iss)
        if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
            aud = [one]
        } else {
            aud = try container.decodeIfPresent([String].self, forKey: .aud)
        }
        sub = try container.decodeIfPresent(String.self, forKey: .sub)
        exp = try container.decodeIfPresent(Double.self, forKey: .exp)
        iat = try container.decodeIfPresent(Double.self, forKey: .iat)
        authTime = try container.decodeIfPresent(Double.self, forKey: .authTime)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        firebase = try container.decodeIfPresent(Firebase.self, forKey: .firebase)
    }

    /// The claims are checked by ``FirebaseIDTokenVerifier`` against the backend's clock;
    /// jwt-kit checks only the signature.
    func verify(using _: some JWTAlgorithm) async throws {}
}
