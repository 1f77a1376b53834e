import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// Firebase's public signing keys, fetched from ``FirebaseAuthSettings/keysURL`` and kept as
/// the key server's `Cache-Control: max-age` allows.
///
/// Keys are fetched when none are held, when the held set has expired, or when a token names
/// a `kid` the set lacks (Google publishes a new key before signing with it, so an unknown kid
/// is a rotation or a forgery). Whatever the reason, one fetch runs at a time — concurrent
/// callers share it — and a new one starts at most once per
/// ``FirebaseAuthSettings/refetchInterval``. A fetch that fails or outlasts
/// ``FirebaseAuthSettings/fetchTimeout`` refuses the tokens waiting for it: the cache fails
/// closed, and expired keys are never used.
actor FirebaseKeyCache {
    /// One fetched key set, verified against as a whole.
    struct KeySet: Sendable {
        let collection: JWTKeyCollection
        let kids: Set<String>
        let fetchedAt: Date
        let expiresAt: Date
    }

    /// Why no key could be had for a `kid`.
    enum Failure: Error, Sendable, Equatable {
        /// The current keys (fresh, or fetched just now) have no key by that id.
        case unknownKey
        /// The keys could not be fetched (or not again yet) and none that are still fresh are held.
        case unavailable(String)
    }

    /// Reads the key URL: the body and the `max-age` it may be kept for, if the server gave one.
    typealias Fetch = @Sendable (URL, Duration) async throws -> (body: Data, maxAge: TimeInterval?)

    private let settings: FirebaseAuthSettings
    private let clock: BackendClock
    private let fetch: Fetch
    private var current: KeySet?
    private var lastAttempt: Date?
    private var inFlight: (id: Int, task: Task<KeySet, any Error>)?
    private var nextFetchID = 0

    init(settings: FirebaseAuthSettings, clock: BackendClock, fetch: @escaping Fetch = FirebaseKeyCache.httpFetch) {
        self.settings = settings
        self.clock = clock
        self.fetch = fetch
    }

    /// The keys to verify a token whose header names `kid`.
    func keys(for kid: String) async throws(Failure) -> JWTKeyCollection {
        let now = clock.now()
        if let current, current.expiresAt > now, current.kids.contains(kid) { return current.collection }
        let (id, task): (Int, Task<KeySet, any Error>)
        if let inFlight {
            (id, task) = inFlight
        } else {
            if let lastAttempt, now < lastAttempt.addingTimeInterval(settings.refetchInterval) {
                // Too soon to ask the key server again: answer from what is held.
                if let current, current.expiresAt > now { throw .unknownKey }
                throw .unavailable("the Firebase signing keys could not be fetched; retrying shortly")
            }
            lastAttempt = now
            nextFetchID += 1
            (id, task) = (nextFetchID, Task { [settings, fetch, clock] in try await Self.load(settings: settings, fetch: fetch, clock: clock) })
            inFlight = (id, task)
        }
        let result = await task.result
        if inFlight?.id == id { inFlight = nil }
        switch result {
        case .success(let set):
            if set.fetchedAt >= current?.fetchedAt ?? .distantPast { current = set }
            guard set.kids.contains(kid) else { throw .unknownKey }
            return set.collection
        case .failure(let error):
            throw .unavailable("the Firebase signing keys could not be fetched (\(error))")
        }
    }

    /// Fetches and parses the keys within the fetch timeout.
    private static func load(settings: FirebaseAuthSettings, fetch: @escaping Fetch, clock: BackendClock) async throws -> KeySet {
        let exchange = Task { try await fetch(settings.keysURL, settings.fetchTimeout) }
        // The HTTP client's own deadline should end it first; this bound holds whatever it does.
        guard let outcome = await TimeLimit.result(of: exchange, within: settings.fetchTimeout) else {
            throw KeySourceError("no answer from \(settings.keysURL.absoluteString) within \(settings.fetchTimeout)")
        }
        let (body, maxAge) = try outcome.get()
        let keys = try FirebaseKeyParser.publicKeys(from: body)
        let collection = JWTKeyCollection()
        for (kid, key) in keys {
            await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        }
        let fetchedAt = clock.now()
        let lifetime = max(maxAge ?? settings.defaultMaxAge, settings.refetchInterval)
        return KeySet(collection: collection, kids: Set(keys.keys), fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(lifetime))
    }

    /// The key URL over AsyncHTTPClient's shared client (no lifecycle to manage), bounded by
    /// `timeout` for the answer and its body alike.
    static let httpFetch: Fetch = { url, timeout in
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let deadline =
            NIODeadline.now()
            + TimeAmount.nanoseconds(
                Int64(timeout.components.seconds) * 1_000_000_000
                    + timeout.components.attoseconds / 1_000_000_000)
        let response = try await HTTPClient.shared.execute(request, deadline: deadline)
        guard response.status == .ok else { throw KeySourceError("\(url.absoluteString) answered \(response.status.code)") }
        // Google's key documents are a few kilobytes; a megabyte bounds a misbehaving server.
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Data(body.readableBytesView), maxAge(cacheControl: response.headers["Cache-Control"].joined(separator: ",")))
    }

    /// `max-age` of a `Cache-Control` value, in seconds (`nil` without one, or `no-store`/`no-cache`: 0).
    static func maxAge(cacheControl: String) -> TimeInterval? {
        var age: TimeInterval?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "max-age":
                if parts.count == 2, let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) {
                    age = TimeInterval(max(0, seconds))
                }
            case "no-store", "no-cache": return 0
            default: break
            }
        }
        return age
    }
}

/// A key URL that could not be read or parsed.
struct KeySourceError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads both formats Google publishes Firebase's keys in.
enum FirebaseKeyParser {
    /// RSA public keys by `kid` from a JWKS (`{"keys": [{"kty": "RSA", "kid", "n", "e", …}]}`)
    /// or Google's x509 document (`{"<kid>": "<PEM certificate>"}`). Keys for other algorithms
    /// or uses are left out; a document with no usable key is an error.
    static func publicKeys(from body: Data) throws -> [String: Insecure.RSA.PublicKey] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw KeySourceError("the key document is not a JSON object")
        }
        var keys: [String: Insecure.RSA.PublicKey] = [:]
        if let jwks = object["keys"] as? [[String: Any]] {
            for jwk in jwks {
                guard jwk["kty"] as? String == "RSA", let kid = jwk["kid"] as? String, !kid.isEmpty,
                    let n = jwk["n"] as? String, let e = jwk["e"] as? String,
                    (jwk["alg"] as? String).map({ $0 == "RS256" }) ?? true,
                    (jwk["use"] as? String).map({ $0 == "sig" }) ?? true,
                    let key = try? Insecure.RSA.PublicKey(modulus: n, exponent: e)
                else { continue }
                keys[kid] = key
            }
        } else {
            for (kid, value) in object {
                guard !kid.isEmpty, let pem = value as? String, let key = try? Insecure.RSA.PublicKey(certificatePEM: pem) else { continue }
                keys[kid] = key
            }
        }
        guard !keys.isEmpty else { throw KeySourceError("the key document holds no RSA signing key") }
        return keys
    }
}
