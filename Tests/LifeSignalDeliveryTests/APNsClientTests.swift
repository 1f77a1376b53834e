import Crypto
import Foundation
import LifeSignalTestSupport
import Testing

@testable import LifeSignalDelivery

/// ``APNsClient`` against a stand-in for APNs (`Tests/Compatibility/apns_standin.py`): Python's
/// `h2` over real TLS on 127.0.0.1 with a certificate it makes at start, checking the provider
/// token with PyJWT against the public half of a key made here, and every header and the
/// payload as APNs does.
@Suite("APNs: HTTP/2 client against a stand-in")
struct APNsClientTests {
    static let team = "TEAM123456", keyID = "KEY1234567", topic = "org.lifesignal.app"

    /// A wall clock the test moves, for the provider token's age.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var offset: TimeInterval

        init(offset: TimeInterval = 0) { self.offset = offset }
        func set(offset: TimeInterval) { lock.withLock { self.offset = offset } }
        var now: Date { lock.withLock { Date().addingTimeInterval(offset) } }
    }

    struct Setup {
        let standIn: StandInProcess
        let key: P256.Signing.PrivateKey
    }

    static func device(_ prefix: String = "") -> String {
        prefix + String(repeating: "ab", count: (64 - prefix.count) / 2)
    }

    static func start() async throws -> Setup {
        let key = P256.Signing.PrivateKey()
        let standIn = try await StandInProcess.start("apns_standin.py", arguments: ["{dir}", key.publicKey.pemRepresentation, team, keyID, topic])
        return Setup(standIn: standIn, key: key)
    }

    static func configuration(_ setup: Setup, trust: Bool = true, timeout: Duration = .seconds(60)) throws -> APNsConfiguration {
        APNsConfiguration(
            teamID: team, keyID: keyID, privateKeyPEM: setup.key.pemRepresentation, topic: topic,
            baseURL: try #require(URL(string: "https://127.0.0.1:\(setup.standIn.port)")),
            additionalTrustRootsPEM: trust ? try String(contentsOfFile: setup.standIn.certificatePath, encoding: .utf8) : nil,
            timeout: timeout)
    }

    /// Runs `body` with a client and always shuts the client down, also when `body` throws.
    @discardableResult
    static func withClient<T>(
        _ configuration: APNsConfiguration, clock: Clock = Clock(),
        _ body: (APNsClient) async throws -> T
    ) async throws -> T {
        let client = try APNsClient(configuration: configuration, now: { clock.now })
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("a time-sensitive alert goes out over HTTP/2 with every header, a verified ES256 provider token and APNs' payload shape")
    func delivers() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        let id = UUID()
        let notification = APNsNotification(
            title: "Ann missed her check-in", body: "Her 09:00 check-in passed 5 minutes ago.", interruptionLevel: .timeSensitive,
            threadID: "person-ann", data: ["type": "non_responsive_dependent", "notificationId": "n-1"], collapseID: "missed-ann",
            timeToLive: .seconds(3600))
        let echoed = try await Self.withClient(try Self.configuration(setup)) { try await $0.send(notification, to: Self.device(), id: id) }
        #expect(echoed == id)

        let record = try await setup.standIn.nextMessage()
        #expect(record["status"] as? Int == 200)
        #expect(record["alpn"] as? String == "h2")
        #expect(record["method"] as? String == "POST")
        #expect(record["path"] as? String == "/3/device/\(Self.device())")
        #expect(record["jwt_verified"] as? Bool == true)
        let header = try #require(record["jwt_header"] as? [String: Any])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == Self.keyID)
        let claims = try #require(record["jwt_claims"] as? [String: Any])
        #expect(claims["iss"] as? String == Self.team)
        let iat = try #require(claims["iat"] as? Int)
        #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 600)

        let headers = try #require(record["headers"] as? [String: String])
        #expect(headers["authorization"]?.hasPrefix("bearer ") == true)
        #expect(headers["apns-topic"] == Self.topic)
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-collapse-id"] == "missed-ann")
        #expect(headers["apns-id"] == id.uuidString.lowercased())
        let expiration = try #require(headers["apns-expiration"].flatMap(Double.init))
        #expect(abs(expiration - Date().addingTimeInterval(3600).timeIntervalSince1970) < 600)

        let payload = try #require(record["payload"] as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == ["title": "Ann missed her check-in", "body": "Her 09:00 check-in passed 5 minutes ago."])
        #expect(aps["sound"] as? String == "default")
        #expect(aps["interruption-level"] as? String == "time-sensitive")
        #expect(aps["thread-id"] as? String == "person-ann")
        #expect(payload["type"] as? String == "non_responsive_dependent")
        #expect(payload["notificationId"] as? String == "n-1")
    }

    @Test("a critical alert carries the critical sound dictionary; a quiet one priority 5 and expiration 0")
    func criticalAndQuiet() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        try await Self.withClient(try Self.configuration(setup)) { client in
            try await client.send(
                APNsNotification(title: "SOS from Ann", body: "Ann raised an SOS.", interruptionLevel: .critical), to: Self.device(), id: UUID())
            try await client.send(
                APNsNotification(title: "Reminder", body: "Check in soon.", sound: nil, interruptionLevel: .passive, priority: 5, timeToLive: nil),
                to: Self.device(), id: UUID())
        }
        let critical = try await setup.standIn.nextMessage()
        #expect(critical["status"] as? Int == 200)
        let aps = try #require((critical["payload"] as? [String: Any])?["aps"] as? [String: Any])
        #expect(aps["interruption-level"] as? String == "critical")
        let sound = try #require(aps["sound"] as? [String: Any])
        #expect(sound["critical"] as? Int == 1)
        #expect(sound["name"] as? String == "default")
        #expect(sound["volume"] as? Double == 1.0)

        let quiet = try await setup.standIn.nextMessage()
        #expect(quiet["status"] as? Int == 200)
        #expect((quiet["headers"] as? [String: String])?["apns-priority"] == "5")
        #expect((quiet["headers"] as? [String: String])?["apns-expiration"] == "0")
        let quietAPS = try #require((quiet["payload"] as? [String: Any])?["aps"] as? [String: Any])
        #expect(quietAPS["sound"] == nil)
        #expect(quietAPS["interruption-level"] as? String == "passive")
    }

    @Test("one provider token serves many sends and is renewed once it is 50 minutes old, before APNs would refuse it")
    func tokenReuseAndRenewal() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        // The first token is made 55 minutes ago: APNs (and the stand-in) still take it.
        let clock = Clock(offset: -55 * 60)
        let notification = APNsNotification(title: "Ping", body: "Bob is checking on you")
        try await Self.withClient(try Self.configuration(setup), clock: clock) { client in
            try await client.send(notification, to: Self.device(), id: UUID())
            try await client.send(notification, to: Self.device(), id: UUID())
            clock.set(offset: -10 * 60)  // 45 minutes old: still used
            try await client.send(notification, to: Self.device(), id: UUID())
            #expect(await client.providerTokensIssued == 1)
            clock.set(offset: 0)  // 55 minutes old: replaced
            try await client.send(notification, to: Self.device(), id: UUID())
            try await client.send(notification, to: Self.device(), id: UUID())
            #expect(await client.providerTokensIssued == 2)
        }
        var records: [[String: Any]] = []
        for _ in 0..<5 { records.append(try await setup.standIn.nextMessage()) }
        #expect(records.allSatisfy { $0["status"] as? Int == 200 && $0["jwt_verified"] as? Bool == true })
        let tokens = records.map { $0["jwt"] as? String ?? "" }
        #expect(Set(tokens[0..<3]).count == 1)
        #expect(Set(tokens[3..<5]).count == 1)
        #expect(tokens[0] != tokens[3])
        let first = try #require((records[0]["jwt_claims"] as? [String: Any])?["iat"] as? Int)
        let renewed = try #require((records[3]["jwt_claims"] as? [String: Any])?["iat"] as? Int)
        #expect(renewed - first >= 50 * 60)
    }

    @Test("concurrent sends share one HTTP/2 connection and one provider token, also when they all start before it is made")
    func concurrentSends() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        // Cold: every send asks for the provider token before the first is signed.
        try await Self.withClient(try Self.configuration(setup)) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device(), id: UUID()) }
                }
                try await group.waitForAll()
            }
            #expect(await client.providerTokensIssued == 1)
        }
        var cold: [[String: Any]] = []
        for _ in 0..<10 { cold.append(try await setup.standIn.nextMessage()) }
        #expect(Set(cold.compactMap { $0["jwt"] as? String }).count == 1)
        // Warm: once connected, sends are streams on that one connection.
        try await Self.withClient(try Self.configuration(setup)) { client in
            try await client.send(APNsNotification(title: "first", body: "b"), to: Self.device(), id: UUID())
            let pairs = try await withThrowingTaskGroup(of: (sent: UUID, echoed: UUID).self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let id = UUID()
                        return (id, try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device(), id: id))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(pairs.count == 20 && pairs.allSatisfy { $0.sent == $0.echoed })
            #expect(await client.providerTokensIssued == 1)
        }
        var records: [[String: Any]] = []
        for _ in 0..<21 { records.append(try await setup.standIn.nextMessage()) }
        #expect(records.allSatisfy { $0["status"] as? Int == 200 && $0["alpn"] as? String == "h2" })
        #expect(Set(records.compactMap { $0["connection"] as? Int }).count == 1)
    }

    @Test("a provider token signed with another key is refused 403 InvalidProviderToken, for good")
    func wrongKey() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        var configuration = try Self.configuration(setup)
        configuration.privateKeyPEM = P256.Signing.PrivateKey().pemRepresentation
        try await Self.withClient(configuration) { client in
            await #expect {
                try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device(), id: UUID())
            } throws: { error in
                guard let error = error as? APNsError else { return false }
                return error.status == 403 && error.reason == "InvalidProviderToken" && !error.isTransient && !error.isUnregistered
            }
        }
        let record = try await setup.standIn.nextMessage()
        #expect(record["jwt_verified"] as? Bool == false)
        #expect(record["jwt_error"] is String)
    }

    @Test("403 ExpiredProviderToken: a new token and one more try; refused again, the error is final")
    func expiredProviderToken() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        let id = UUID()
        try await Self.withClient(try Self.configuration(setup)) { client in
            let echoed = try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device("4030"), id: id)
            #expect(echoed == id)
            #expect(await client.providerTokensIssued == 2)
            await #expect {
                try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device("4031"), id: UUID())
            } throws: { error in
                guard let error = error as? APNsError else { return false }
                return error.status == 403 && error.reason == "ExpiredProviderToken" && !error.isTransient && !error.isUnregistered
            }
            #expect(await client.providerTokensIssued == 3)
        }
        let refused = try await setup.standIn.nextMessage()
        let retried = try await setup.standIn.nextMessage()
        #expect(refused["status"] as? Int == 403 && retried["status"] as? Int == 200)
        #expect((refused["jwt"] as? String) != (retried["jwt"] as? String))
        // The retry is the same notification: the same apns-id.
        #expect((retried["headers"] as? [String: String])?["apns-id"] == id.uuidString.lowercased())
        #expect((refused["headers"] as? [String: String])?["apns-id"] == id.uuidString.lowercased())
        let again = [try await setup.standIn.nextMessage(), try await setup.standIn.nextMessage()]
        #expect(again.allSatisfy { $0["reason"] as? String == "ExpiredProviderToken" })
        #expect(setup.standIn.messageCount == 4)
    }

    @Test("APNs' refusals say whether to try again and whether the device token is dead")
    func refusals() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        let cases: [(prefix: String, status: Int, reason: String, transient: Bool, unregistered: Bool)] = [
            ("400b", 400, "BadDeviceToken", false, true), ("4001", 400, "DeviceTokenNotForTopic", false, true),
            ("4100", 410, "Unregistered", false, true), ("4290", 429, "TooManyRequests", true, false),
            ("5000", 500, "InternalServerError", true, false), ("5030", 503, "ServiceUnavailable", true, false),
        ]
        try await Self.withClient(try Self.configuration(setup)) { client in
            for expected in cases {
                await #expect {
                    try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device(expected.prefix), id: UUID())
                } throws: { error in
                    guard let error = error as? APNsError, case .refused(let status, let reason, let timestamp) = error else { return false }
                    // 410 says since when the token is dead (the stand-in: a day ago).
                    let stamped = status != 410 || timestamp.map { abs($0.timeIntervalSinceNow + 86_400) < 600 } == true
                    return status == expected.status && reason == expected.reason && stamped
                        && error.isTransient == expected.transient && error.isUnregistered == expected.unregistered
                }
            }
        }
        #expect(setup.standIn.messageCount == cases.count)
    }

    @Test("a stand-in that never answers is a transient timeout, within a generous bound")
    func hang() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        let started = ContinuousClock.now
        try await Self.withClient(try Self.configuration(setup, timeout: .seconds(3))) { client in
            await #expect {
                try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device("dead"), id: UUID())
            } throws: { error in
                guard let error = error as? APNsError, case .timedOut = error else { return false }
                return error.isTransient && !error.isUnregistered
            }
        }
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect((try await setup.standIn.nextMessage())["status"] is NSNull)
    }

    @Test("an untrusted certificate is refused before anything is sent; a closed port is a transient connection failure")
    func untrustedAndUnreachable() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        try await Self.withClient(try Self.configuration(setup, trust: false)) { client in
            await #expect {
                try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device(), id: UUID())
            } throws: { error in
                guard let error = error as? APNsError, case .tls = error else { return false }
                return !error.isTransient
            }
        }
        #expect(setup.standIn.messageCount == 0)
        let configuration = try Self.configuration(setup)
        setup.standIn.stop()
        try await Task.sleep(for: .milliseconds(500))
        try await Self.withClient(configuration) { client in
            await #expect {
                try await client.send(APNsNotification(title: "a", body: "b"), to: Self.device(), id: UUID())
            } throws: { error in
                guard let error = error as? APNsError, case .connection = error else { return false }
                return error.isTransient
            }
        }
    }

    @Test("bad device tokens, an oversize payload and other invalid notifications are refused before any request")
    func refusedBeforeSending() async throws {
        let setup = try await Self.start()
        defer { setup.standIn.stop() }
        let plain = APNsNotification(title: "a", body: "b")
        try await Self.withClient(try Self.configuration(setup)) { client in
            for token in ["", "abc", "zz" + Self.device().dropFirst(2), "ab/../x", String(repeating: "ab", count: 101), Self.device() + " "] {
                await #expect(throws: APNsError.self) { try await client.send(plain, to: token, id: UUID()) }
            }
            let invalid = [
                APNsNotification(title: "a", body: String(repeating: "x", count: 4100)),
                APNsNotification(title: "a", body: "b", data: ["note": String(repeating: "é", count: 2100)]),
                APNsNotification(title: "a", body: "b", collapseID: String(repeating: "c", count: 65)),
                APNsNotification(title: "a", body: "b", data: ["aps": "x"]),
                APNsNotification(title: "a", body: "b", priority: 7),
                APNsNotification(title: "", body: ""),
            ]
            for notification in invalid {
                await #expect {
                    try await client.send(notification, to: Self.device(), id: UUID())
                } throws: { error in
                    guard let error = error as? APNsError, case .invalidRequest = error else { return false }
                    return !error.isTransient
                }
            }
            // At the limits exactly: a 64-byte collapse id goes out.
            try await client.send(APNsNotification(title: "a", body: "b", collapseID: String(repeating: "c", count: 64)), to: Self.device(), id: UUID())
        }
        #expect(setup.standIn.messageCount == 1)
        #expect((try await setup.standIn.nextMessage())["status"] as? Int == 200)

        var configuration = try Self.configuration(setup)
        configuration.privateKeyPEM = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n"
        #expect(throws: APNsError.self) { _ = try APNsClient(configuration: configuration) }
        configuration = try Self.configuration(setup)
        configuration.baseURL = try #require(URL(string: "http://127.0.0.1:\(setup.standIn.port)"))
        #expect(throws: APNsError.self) { _ = try APNsClient(configuration: configuration) }
        #expect(!String(describing: try Self.configuration(setup)).contains("PRIVATE"))
    }
}
