import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// Limits per client address over HTTP: anonymous requests, and sign-in codes per address
/// and per number. The address is the socket's peer; `X-Forwarded-For` counts only from a
/// configured trusted proxy.
@Suite("Limits per client address")
struct ClientAddressLimitTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    /// A burst of five, then one a second.
    static func smallLimits(trusting proxies: [String]) -> @Sendable (inout ServerConfiguration) -> Void {
        { $0.clientLimits = ClientLimits(anonymousPerMinute: 60, anonymousBurst: 5, trustedProxies: proxies) }
    }

    @Test("anonymous requests past the burst are 429 with Retry-After; another address behind a trusted proxy is served", arguments: Engine.allCases)
    func anonymousBurst(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, configure: Self.smallLimits(trusting: ["127.0.0.1"]))
        defer { Task { await server.stop() } }
        let user = try await test.signIn("+15550001111")
        for _ in 0..<5 { #expect(try await server.request("GET", "/rest/v1/locations").status == 200) }
        let limited = try await server.request("GET", "/rest/v1/locations")
        #expect(limited.status == 429)
        #expect(limited.json?["code"] as? String == "over_request_rate_limit")
        #expect(limited.header("Retry-After") == "1")
        // A forged or expired token is still anonymous: it cannot step round the limit.
        #expect(try await server.request("GET", "/rest/v1/locations", bearer: "not.a.token").status == 429)
        let sign = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
            ["email": "ada@example.org", "password": "x"])
        #expect(sign.status == 429, "sign-in is anonymous too")

        // Not limited: a signed-in person (their own limit), the service role, health checks,
        // and a different client behind the trusted proxy.
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: user.accessToken).status == 200)
        #expect(try await server.request("GET", "/rest/v1/locations", apiKey: .some(server.serviceKey), bearer: server.serviceKey).status == 200)
        #expect(try await server.request("GET", "/health", apiKey: .some(nil)).status == 200)
        let other = try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "198.51.100.23"])
        #expect(other.status == 200)
        // The proxy appends the address it saw; what the client wrote to its left is ignored.
        for _ in 0..<4 {
            #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "10.9.9.9, 198.51.100.23"]).status == 200)
        }
        #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "10.9.9.8, 198.51.100.23"]).status == 429)

        test.clock.advance(by: 1)
        #expect(try await server.request("GET", "/rest/v1/locations").status == 200, "a token a second refills")
        #expect(try await server.request("GET", "/rest/v1/locations").status == 429)
    }

    @Test("IPv6 clients are counted per /64", arguments: [Engine.sqlite])
    func ipv6Prefix(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, configure: Self.smallLimits(trusting: ["127.0.0.1"]))
        defer { Task { await server.stop() } }
        for index in 1...5 {
            #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "2001:db8:0:1::\(index)"]).status == 200)
        }
        #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "2001:db8:0:1:ffff::9"]).status == 429)
        #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "2001:db8:0:2::1"]).status == 200)
    }

    @Test("without a trusted proxy, X-Forwarded-For is ignored: the socket's peer is the client", arguments: [Engine.sqlite])
    func untrustedHeader(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, configure: Self.smallLimits(trusting: []))
        defer { Task { await server.stop() } }
        for index in 0..<5 {
            #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "198.51.100.\(index)"]).status == 200)
        }
        #expect(try await server.request("GET", "/rest/v1/locations", headers: ["X-Forwarded-For": "198.51.100.99"]).status == 429)
    }

    @Test("codes per number per day and per client address per hour: 429 over_sms_send_rate_limit, nothing sent", arguments: Engine.allCases)
    func codeCaps(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) {
            $0.signInLimits.codesPerNumberPerDay = 2
            $0.signInLimits.codesPerAddressPerHour = 4
        }
        let server = try await TestServer.start(test.backend) { $0.clientLimits.trustedProxies = ["127.0.0.1"] }
        defer { Task { await server.stop() } }
        func otp(_ phone: String, from address: String) async throws -> TestServer.Reply {
            try await server.json("POST", "/auth/v1/otp", headers: Self.version.merging(["X-Forwarded-For": address]) { $1 }, ["phone": phone])
        }
        #expect(try await otp("+15550007777", from: "203.0.113.1").status == 200)
        test.clock.advance(by: 60)
        #expect(try await otp("+15550007777", from: "203.0.113.2").status == 200)
        test.clock.advance(by: 60)
        let perNumber = try await otp("+15550007777", from: "203.0.113.3")
        #expect(perNumber.status == 429)
        #expect(perNumber.json?["code"] as? String == "over_sms_send_rate_limit")
        #expect(perNumber.header("Retry-After") == String(Int(SignInLimits.codeNumberWindow) - 120))

        for index in 0..<3 { #expect(try await otp("+1555000200\(index)", from: "203.0.113.1").status == 200) }
        let perAddress = try await otp("+15550002009", from: "203.0.113.1")
        #expect(perAddress.status == 429)
        #expect(perAddress.json?["code"] as? String == "over_sms_send_rate_limit")
        #expect(perAddress.header("Retry-After") == String(Int(SignInLimits.codeAddressWindow) - 120))
        #expect(try await otp("+15550002009", from: "203.0.113.4").status == 200, "another address is served")
        #expect(await test.sms.sent.count == 6)
        #expect(try await test.count("auth_one_time_codes") == 5)
    }
}
