import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Issue 31's counts over HTTP: a stranger cannot use up a number's sign-in codes, and two
/// servers on one PostgreSQL with requests in parallel cannot pass a number's invitation cap.
@Suite("Sending caps over HTTP")
struct SendingCapsEndpointTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    @Test("a stranger asking codes for a number once a minute from one address leaves its owner able to sign in from another", arguments: Engine.allCases)
    func strangerCannotLockTheOwnerOut(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.clientLimits.trustedProxies = ["127.0.0.1"] }
        defer { Task { await server.stop() } }
        let phone = "+15550004242"
        let stranger = Self.version.merging(["X-Forwarded-For": "203.0.113.9"]) { $1 }
        var answers: [Int] = []
        for _ in 0..<12 {
            answers.append(try await server.json("POST", "/auth/v1/otp", headers: stranger, ["phone": phone]).status)
            test.clock.advance(by: 61)
        }
        let allowed = test.backend.configuration.signInLimits.codesPerNumberPerAddressPerDay
        #expect(answers == Array(repeating: 200, count: allowed) + Array(repeating: 429, count: 12 - allowed), "\(answers)")
        #expect(await test.sms.sent.count == allowed)

        // The owner, from their own connection, asks and signs in.
        let owner = Self.version.merging(["X-Forwarded-For": "198.51.100.7"]) { $1 }
        #expect(try await server.json("POST", "/auth/v1/otp", headers: owner, ["phone": phone]).status == 200)
        let code = try #require(await test.sms.lastCode(for: try PhoneNumber(phone))).value
        let session = try await server.json("POST", "/auth/v1/verify", headers: owner, ["type": "sms", "phone": phone, "token": code])
        #expect(session.status == 200 && session.json?["access_token"] is String)
        // And the stranger is still refused for the rest of the day.
        test.clock.advance(by: 3600)
        #expect(try await server.json("POST", "/auth/v1/otp", headers: stranger, ["phone": phone]).status == 429)
    }

    @Test("two servers on one PostgreSQL, 50 invitations to one number at once: the number gets 3 SMS")
    func invitationCapHoldsAcrossServers() async throws {
        let sms = RecordingChannelSender()
        let first = try await TestDatabases.backend(.postgres) { $0.deliveryChannels = DeliveryChannels(sms: sms) }
        let second = try await TestDatabases.reopen(first) { $0.deliveryChannels = DeliveryChannels(sms: sms) }
        let servers = [try await TestServer.start(first.backend), try await TestServer.start(second.backend)]
        defer { Task { for server in servers { await server.stop() } } }
        // Fifty people, each signed in (tokens from either server work on both: one secret).
        var tokens: [String] = []
        for index in 0..<50 {
            let session = try await first.signIn("+1555006\(String(format: "%04d", index))")
            tokens.append(session.accessToken)
        }
        let target = "+15550069999"
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask {
                    let server = servers[index % 2]
                    return try await server.json(
                        "POST", "/functions/v1/invite-contact", bearer: token, ["phone": target, "roles": ["responder"]]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(await sms.messages(to: target).count == 3)
        let rows = try await first.backend.database.query("SELECT count(*) AS n FROM deliveries WHERE address = \(target) AND kind = 'invitation'")
        #expect(try rows.first?.int("n") == 3)
        #expect(try await first.count("contact_invitations") == 50, "every invitation waits in the app")
    }
}
