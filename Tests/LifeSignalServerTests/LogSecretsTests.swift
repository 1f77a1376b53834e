import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Logging
import Synchronization
import Testing

/// Everything the server logs, at every level, with metadata: logs end up in files, terminals
/// and log services that far more people can read than hold the project's keys.
final class CapturedLogs: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }

    func logger() -> Logger {
        var logger = Logger(label: "lifesignal.log-secrets-test") { label in CapturingLogHandler(label: label, sink: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// A `LogHandler` writing each record, metadata and source included, into ``CapturedLogs``.
struct CapturingLogHandler: LogHandler {
    let label: String
    let sink: CapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        sink.append("\(event.level) \(label) \(event.source): \(event.message) \(merged) \(event.error.map { "\($0)" } ?? "")")
    }
}

/// The JWT secret, the service key, passwords and users' tokens never reach the server's log,
/// whatever the request does with them, including failures that quote what was sent.
@Suite("Logs carry no secrets")
struct LogSecretsTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]
    /// TestDatabases' project secret.
    static let jwtSecret = "test-secret-with-at-least-32-characters!"

    @Test("sign-in, REST, functions and Realtime calls leave no secret in the trace-level log", arguments: Engine.allCases)
    func noSecrets(engine: Engine) async throws {
        let logs = CapturedLogs()
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend, logger: logs.logger())
        var secrets = [Self.jwtSecret, server.serviceKey]

        // Sign-in: phone OTP, then email and password, then a refresh.
        _ = try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550001111"])
        let verify = try await server.json(
            "POST", "/auth/v1/verify", headers: Self.version,
            ["type": "sms", "phone": "+15550001111", "token": "123456"])
        #expect(verify.status == 200)
        let token = try #require(verify.json?["access_token"] as? String)
        let refresh = try #require(verify.json?["refresh_token"] as? String)
        let password = "correct-horse-battery-staple"
        let signUp = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "ada@example.org", "password": password])
        #expect(signUp.status == 200)
        let wrongPassword = "not-the-password-\(UUID().uuidString)"
        let refused = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
            ["email": "ada@example.org", "password": wrongPassword])
        #expect(refused.status == 400)
        let refreshed = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", headers: Self.version, ["refresh_token": refresh])
        #expect(refreshed.status == 200)
        let newToken = try #require(refreshed.json?["access_token"] as? String)
        secrets += [token, refresh, password, wrongPassword, newToken]
        if let signedUp = signUp.json?["access_token"] as? String { secrets.append(signedUp) }

        // REST: reads, a refused write, a malformed filter, the service key in the query, a forged token.
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: newToken).status == 200)
        #expect(try await server.request("GET", "/rest/v1/users?id=zz.1", bearer: newToken).status == 400)
        // Refused for the unknown column, or (SQLite checks the grant first) as no editor's.
        #expect([400, 403].contains(try await server.json("POST", "/rest/v1/locations", bearer: newToken, ["nope": 1]).status))
        #expect(try await server.request("GET", "/rest/v1/locations?select=id&apikey=\(server.serviceKey)", apiKey: .some(nil)).status == 200)
        var claims = TokenClaims(role: "authenticated")
        claims.sub = UUID().uuidString
        let forged = await JWTSigner(secret: "someone-else-entirely-0123456789abcdef").sign(claims)
        secrets.append(forged)
        #expect(try await server.request("GET", "/rest/v1/users", bearer: forged).status == 401)
        #expect(try await server.request("GET", "/rest/v1/users", apiKey: .some(forged)).status == 401)

        // Functions: a call that works, one with a forged token, one with a bad body.
        #expect(try await server.request("POST", "/functions/v1/check-in", bearer: newToken, body: Data("{}".utf8)).status == 200)
        #expect(try await server.request("POST", "/functions/v1/check-in", bearer: forged, body: Data("{}".utf8)).status == 401)
        #expect(try await server.request("POST", "/functions/v1/update-check-in-settings", bearer: newToken, body: Data("{".utf8)).status == 400)

        // Realtime: the service key in the socket URL and a user token in the join.
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.serviceKey)&vsn=1.0.0")
        try socket.send(
            topic: "realtime:log-test", event: "phx_join",
            payload: [
                "config": ["postgres_changes": [["event": "*", "schema": "public", "table": "locations"]]] as [String: any Sendable],
                "access_token": forged,
            ], ref: "1", joinRef: "1")
        _ = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" })
        await socket.close()
        await server.stop()

        let captured = logs.all
        #expect(!captured.isEmpty, "the capturing handler saw nothing, so the test proves nothing")
        for secret in secrets {
            let leaks = captured.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "a secret (\(secret.prefix(6))…) was logged: \(leaks)")
        }
    }
}
