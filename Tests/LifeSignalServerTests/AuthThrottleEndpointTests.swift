import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

/// The sign-in throttles over HTTP: GoTrue's 429 codes in both error formats, with
/// `Retry-After`, and nothing stored or sent for a refused request.
@Suite("/auth/v1 throttles")
struct AuthThrottleEndpointTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    @Test("a second code within the minute is 429 over_sms_send_rate_limit and sends nothing", arguments: Engine.allCases)
    func codeResend(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        #expect(try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550007777"]).status == 200)
        test.clock.advance(by: 20)

        let versioned = try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550007777"])
        #expect(versioned.status == 429)
        #expect(versioned.json?["code"] as? String == "over_sms_send_rate_limit")
        #expect(versioned.json?["message"] as? String == "For security purposes, you can only request this after 40 seconds.")
        #expect(versioned.header("Retry-After") == "40")
        let legacy = try await server.json("POST", "/auth/v1/otp", ["phone": "15550007777"])
        #expect(legacy.status == 429)
        #expect(legacy.json?["error_code"] as? String == "over_sms_send_rate_limit")
        #expect(legacy.json?["code"] as? Int == 429)
        #expect(legacy.header("x-sb-error-code") == "over_sms_send_rate_limit")
        #expect(await test.sms.sent.count == 1)
        #expect(try await test.count("auth_one_time_codes") == 1)

        test.clock.advance(by: 40)
        #expect(try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550007777"]).status == 200)
        #expect(await test.sms.sent.count == 2)
    }

    @Test("the eleventh password in fifteen minutes is 429 over_request_rate_limit, even when right", arguments: Engine.allCases)
    func passwordGuessing(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let credentials: [String: any Sendable] = ["email": "ada@example.org", "password": "lovelace1815"]
        #expect(try await server.json("POST", "/auth/v1/signup", headers: Self.version, credentials).status == 200)
        for _ in 0..<PasswordAttempts.limit {
            let wrong = try await server.json(
                "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
                ["email": "ada@example.org", "password": "babbage"])
            #expect(wrong.status == 400 && wrong.json?["code"] as? String == "invalid_credentials")
        }
        let refused = try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials)
        #expect(refused.status == 429)
        #expect(refused.json?["code"] as? String == "over_request_rate_limit")
        #expect(refused.header("Retry-After") == String(Int(PasswordAttempts.window)))
        #expect(try await test.count("auth_sessions") == 1, "only the sign-up's session exists")

        test.clock.advance(by: PasswordAttempts.window)
        #expect(try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials).status == 200)
    }
}

/// Password sign-in as a lever over HTTP: parallel guesses cannot pass the lockout, and
/// hashing never runs more than its bound at once.
@Suite("/auth/v1 password levers")
struct AuthPasswordLeverTests {
    static let version = AuthThrottleEndpointTests.version

    @Test("thirty parallel wrong passwords: ten are checked, the rest 429, and the right one is refused after", arguments: Engine.allCases)
    func parallelGuesses(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let credentials: [String: any Sendable] = ["email": "ada@example.org", "password": "lovelace1815"]
        #expect(try await server.json("POST", "/auth/v1/signup", headers: Self.version, credentials).status == 200)
        let hashedBefore = test.backend.auth.passwords.hashing.statistics.completed

        let replies = try await withThrowingTaskGroup(of: TestServer.Reply.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await server.json(
                        "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
                        ["email": "ada@example.org", "password": "babbage"])
                }
            }
            return try await group.reduce(into: [TestServer.Reply]()) { $0.append($1) }
        }
        let wrong = replies.filter { $0.status == 400 && $0.json?["code"] as? String == "invalid_credentials" }
        let refused = replies.filter { $0.status == 429 && $0.json?["code"] as? String == "over_request_rate_limit" }
        #expect(wrong.count == PasswordAttempts.limit)
        #expect(refused.count == 30 - PasswordAttempts.limit)
        #expect(refused.allSatisfy { $0.header("Retry-After") == String(Int(PasswordAttempts.window)) })
        #expect(test.backend.auth.passwords.hashing.statistics.completed - hashedBefore == PasswordAttempts.limit)

        let right = try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials)
        #expect(right.status == 429 && right.json?["code"] as? String == "over_request_rate_limit")
        #expect(try await test.count("auth_sessions") == 1, "only the sign-up's session exists")
    }

    @Test("parallel sign-ups and sign-ins never hash more than the bound at once, and each is answered", arguments: Engine.allCases)
    func hashingBound(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) {
            $0.passwordIterations = 50_000
            $0.signInLimits.passwordHashConcurrency = 2
            $0.signInLimits.passwordHashWaiting = 100
        }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let credentials: [String: any Sendable] = ["email": "person\(index)@example.org", "password": "secret-\(index)"]
                    let signup = try await server.json("POST", "/auth/v1/signup", headers: Self.version, credentials)
                    guard signup.status == 200 else { return signup.status }
                    return try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 24))
        let stats = test.backend.auth.passwords.hashing.statistics
        #expect(stats.completed == 48, "every hash went through the pool")
        #expect(stats.peakInFlight >= 1 && stats.peakInFlight <= 2)
        #expect(stats.refused == 0)
    }

    @Test("with the hashing line full, a sign-in is 429 over_request_rate_limit with Retry-After, not a pile", arguments: [Engine.sqlite])
    func hashingLineFull(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) {
            $0.signInLimits.passwordHashConcurrency = 1
            $0.signInLimits.passwordHashWaiting = 0
        }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let credentials: [String: any Sendable] = ["email": "ada@example.org", "password": "lovelace1815"]
        #expect(try await server.json("POST", "/auth/v1/signup", headers: Self.version, credentials).status == 200)
        let gate = DispatchSemaphore(value: 0)
        let pool = test.backend.auth.passwords.hashing
        let holder = Task { try await pool.run { gate.wait() } }
        let deadline = ContinuousClock.now + .seconds(10)
        while pool.statistics.inFlight == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }

        let busy = try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials)
        #expect(busy.status == 429 && busy.json?["code"] as? String == "over_request_rate_limit")
        #expect(busy.header("Retry-After") == "1")
        let signup = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "bob@example.org", "password": "builder99"])
        #expect(signup.status == 429 && signup.json?["code"] as? String == "over_request_rate_limit")
        #expect(try await server.request("GET", "/health").status == 200, "the rest of the server is not held up")

        gate.signal()
        try await holder.value
        #expect(try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials).status == 200)
    }
}
