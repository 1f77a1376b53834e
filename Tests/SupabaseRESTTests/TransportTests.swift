import Foundation
import RFC3339
import Testing

@testable import SupabaseREST

/// The client sends through the transport core with supabase-swift's rules (numbered retries
/// of reads, timeouts on every service), its URL encoding and date parsing; the core itself is
/// tested in HTTPTransportCoreTests.
@Suite struct TransportTests {
    @Test func getIsRetriedThreeTimesOn503WithRetryCountHeader() async throws {
        let sleeps = SleepRecorder()
        let transport = RecordingTransport { _, _ in HTTPResponse(status: 503, body: Data()) }
        let client = makeClient(transport, retry: sleeps.policy())
        await #expect(throws: HTTPError.self) { try await client.from("t").select().execute() }
        #expect(transport.requests.count == 4)
        #expect(transport.requests.map { $0.headers["X-Retry-Count"] } == [nil, "1", "2", "3"])
        #expect(sleeps.delays.count == 3)
        // Capped exponential backoff with ±25 % jitter around 0.5 s, 1 s, 2 s.
        for (delay, base) in zip(sleeps.delays, [0.5, 1.0, 2.0]) {
            #expect(delay.timeInterval >= base * 0.75 - 0.001 && delay.timeInterval <= base * 1.25 + 0.001)
        }
    }

    @Test func retrySucceedsOn520ThenOK() async throws {
        let transport = RecordingTransport { _, index in
            index == 0 ? HTTPResponse(status: 520) : jsonResponse(200, "[1]")
        }
        let value: [Int] = try await makeClient(transport).from("t").select().execute().value
        #expect(value == [1])
        #expect(transport.requests.count == 2)
    }

    @Test func mutationsAreNeverRetried() async throws {
        for method in ["insert", "update", "delete", "rpc"] {
            let transport = RecordingTransport { _, _ in HTTPResponse(status: 503) }
            let client = makeClient(transport)
            await #expect(throws: HTTPError.self) {
                switch method {
                case "insert": try await client.from("t").insert(["a": 1]).execute()
                case "update": try await client.from("t").update(["a": 1]).eq("id", value: 1).execute()
                case "delete": try await client.from("t").delete().eq("id", value: 1).execute()
                default: try await client.rpc("f").execute()
                }
            }
            #expect(transport.requests.count == 1, "\(method)")
        }
    }

    @Test func retryAfterIsHonouredOn429() async throws {
        let sleeps = SleepRecorder()
        let transport = RecordingTransport { _, index in
            index == 0
                ? HTTPResponse(status: 429, headers: ["Retry-After": "2"])
                : jsonResponse(200, "[]")
        }
        try await makeClient(transport, retry: sleeps.policy()).from("t").select().execute()
        #expect(sleeps.delays == [.seconds(2)])
        #expect(transport.requests.count == 2)
    }

    @Test func excessiveRetryAfterReturnsTheResponse() async throws {
        let sleeps = SleepRecorder()
        let transport = RecordingTransport { _, _ in
            jsonResponse(429, #"{"code":"over_request_rate_limit","message":"slow down"}"#, headers: ["Retry-After": "3600"])
        }
        await #expect(throws: PostgrestError(code: "over_request_rate_limit", message: "slow down")) {
            try await makeClient(transport, retry: sleeps.policy()).from("t").select().execute()
        }
        #expect(transport.requests.count == 1)
        #expect(sleeps.delays.isEmpty)
    }

    @Test func networkErrorsAreRetriedForGetOnly() async throws {
        let transport = RecordingTransport { _, index in
            if index < 2 { throw URLError(.networkConnectionLost) }
            return jsonResponse(200, "[]")
        }
        try await makeClient(transport).from("t").select().execute()
        #expect(transport.requests.count == 3)

        let failing = RecordingTransport { _, _ in throw TransportError.network(message: "down") }
        await #expect(throws: TransportError.network(message: "down")) {
            try await makeClient(failing).from("t").select().execute()
        }
        #expect(failing.requests.count == 4)

        let post = RecordingTransport { _, _ in throw TransportError.network(message: "down") }
        await #expect(throws: TransportError.network(message: "down")) {
            try await makeClient(post).from("t").insert(["a": 1]).execute()
        }
        #expect(post.requests.count == 1)
    }

    @Test func aHangingTransportTimesOut() async throws {
        // Never answers and ignores cancellation on purpose: the timeout must not wait for it.
        let transport = RecordingTransport { _, _ in
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            return HTTPResponse(status: 200)
        }
        let client = makeClient(transport, retry: .none, timeout: .milliseconds(100))
        let start = ContinuousClock.now
        await #expect(throws: TransportError.timedOut(after: .milliseconds(100))) {
            try await client.from("t").select().execute()
        }
        // A bound against waiting for the transport, which never answers; not a speed check (a
        // full parallel run on two cores took 2.6 s here).
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func timeoutsReachEveryService() async throws {
        let transport = RecordingTransport { _, _ in
            try await Task.sleep(for: .seconds(30))
            return HTTPResponse(status: 200)
        }
        let client = makeClient(transport, retry: .none, timeout: .milliseconds(50))
        await #expect(throws: TransportError.timedOut(after: .milliseconds(50))) {
            try await client.functions.invoke("f")
        }
        await #expect(throws: AuthError.transport(.timedOut(after: .milliseconds(50)))) {
            try await client.auth.signInWithOTP(phone: "+1")
        }
    }

    @Test func callerCancellationIsPrompt() async throws {
        let transport = RecordingTransport { _, _ in
            try await Task.sleep(for: .seconds(30))
            return HTTPResponse(status: 200)
        }
        let client = makeClient(transport, retry: .none, timeout: .seconds(30))
        let task = Task { try await client.from("t").select().execute() }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func queryComponentEncoding() {
        #expect(percentEncodeQueryComponent("*") == "%2A")
        #expect(percentEncodeQueryComponent("a,b") == "a%2Cb")
        #expect(percentEncodeQueryComponent("50% off+tax") == "50%25%20off%2Btax")
        #expect(percentEncodeQueryComponent("(x):[y]@#!$&'=;") == "%28x%29%3A%5By%5D%40%23%21%24%26%27%3D%3B")
        #expect(percentEncodeQueryComponent("a/b?c-d._~") == "a/b?c-d._~")
        #expect(percentEncodeQueryComponent("é") == "%C3%A9")
    }

    @Test func iso8601Spellings() throws {
        let noon = Date(timeIntervalSince1970: 1_717_588_800)
        #expect(RFC3339.parse("2024-06-05T12:00:00Z") == noon)
        #expect(RFC3339.parse("2024-06-05T12:00:00+00:00") == noon)
        #expect(RFC3339.parse("2024-06-05T14:00:00+02:00") == noon)
        #expect(RFC3339.parse("2024-06-05T14:00:00+0200") == noon)
        #expect(RFC3339.parse("2024-06-05 12:00:00") == noon)
        let micro = try #require(RFC3339.parse("2024-06-05T12:00:00.123456Z"))
        #expect(abs(micro.timeIntervalSince(noon) - 0.123456) < 0.000_001)
        #expect(RFC3339.parse("2024-06-05", .lenient) == Date(timeIntervalSince1970: 1_717_545_600))
        #expect(RFC3339.parse("2024-13-05") == nil)
        #expect(RFC3339.parse("yesterday") == nil)
        #expect(RFC3339.parse("2024-06-05T12:00:00Zjunk") == nil)
        #expect(RFC3339.format(noon, fractionDigits: 3, zone: .z) == "2024-06-05T12:00:00.000Z")
    }
}
