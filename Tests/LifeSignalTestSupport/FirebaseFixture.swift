import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// A backend that accepts one Firebase project's ID tokens, whose keys a local key server
/// publishes, and the means to issue (and forge) such tokens.
public struct FirebaseFixture: Sendable {
    public static let projectID = "lifesignal-standin"

    public let test: TestBackend
    public let keyServer: FirebaseKeyServer
    public let issuer = FirebaseTokenIssuer(projectID: Self.projectID)
    public let keyA: FirebaseSigningKey
    public let keyB: FirebaseSigningKey

    public var auth: AuthService { test.backend.auth }
    public var now: Date { test.clock.now }

    /// `refetchInterval` and `fetchTimeout` are the verifier's; the clock starts where
    /// `TestDatabases` starts it and moves only when a test moves it. The default fetch timeout
    /// is a bound against a hang, not a speed check: under the whole suite on two cores a fetch
    /// from 127.0.0.1 took over 2 s. Tests of a hanging key server set a short one.
    public static func make(
        _ engine: Engine, format: FirebaseKeyServer.Format = .jwks, maxAge: Int = 3600,
        refetchInterval: TimeInterval = 10, fetchTimeout: Duration = .seconds(60)
    ) async throws -> FirebaseFixture {
        let keyA = try FirebaseSigningKey.fixedA()
        let keyB = try FirebaseSigningKey.fixedB()
        let keyServer = try await FirebaseKeyServer.start(publishing: [keyA], format: format, maxAge: maxAge)
        let test = try await TestDatabases.backend(engine) {
            $0.firebase = FirebaseAuthSettings(
                projectID: projectID, keysURL: keyServer.url, refetchInterval: refetchInterval,
                fetchTimeout: fetchTimeout)
        }
        return FirebaseFixture(test: test, keyServer: keyServer, keyA: keyA, keyB: keyB)
    }

    /// A genuine ID token for `uid` signed by `key` (key A by default), its claims changed by `change`.
    public func token(
        _ uid: String, key: FirebaseSigningKey? = nil, phone: String? = nil, email: String? = nil,
        change: (inout [String: any Sendable]) -> Void = { _ in }
    ) throws -> String {
        var claims = issuer.claims(uid: uid, now: now, phone: phone, email: email)
        change(&claims)
        return try (key ?? keyA).sign(claims)
    }

    public func count(_ table: String) async throws -> Int { try await test.count(table) }
}
