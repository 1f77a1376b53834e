import Foundation
import Testing

@testable import HTTPTransportCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's order of things: default headers, then attempts raced against the time
/// limit, retries of reads only, `Retry-After` honoured, errors mapped to ``TransportError``.
@Suite struct HTTPPipelineTests {
    @Test func aReadIsRetriedOnRetryableStatusesAndEachRetryIsNumbered() async throws {
        let sleeps = SleepRecorder()
        let transport = RecordingTransport(status: 503)
        let response = try await pipeline(transport, retry: sleeps.policy(), retryCountHeader: "X-Retry-Count")
            .send(request())
        #expect(response.status == 503, "the last answer is returned once retries are spent")
        #expect(transport.requests.map { $0.headers["X-Retry-Count"] } == [nil, "1", "2", "3"])
        #expect(sleeps.delays.count == 3)
        for (delay, base) in zip(sleeps.delays, [0.5, 1.0, 2.0]) {
            #expect(delay.timeInterval >= base * 0.75 - 0.001 && delay.timeInterval <= base * 1.25 + 0.001, "\(delay)")
        }
    }

    @Test func withoutARetryCountHeaderRetriesCarryNone() async throws {
        let transport = RecordingTransport { _, index in HTTPResponse(status: index == 0 ? 429 : 200) }
        let response = try await pipeline(transport, retry: SleepRecorder().policy()).send(request())
        #expect(response.status == 200)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.headers.count == 0 })
    }

    @Test func otherStatusesAreReturnedAtOnce() async throws {
        for status in [200, 400, 404, 500, 502] {
            let transport = RecordingTransport(status: status)
            let response = try await pipeline(transport, retry: SleepRecorder().policy()).send(request())
            #expect(response.status == status)
            #expect(transport.requests.count == 1, "\(status)")
        }
    }

    @Test func writesAreNeverRetriedEvenWithRetryAfter() async throws {
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            let sleeps = SleepRecorder()
            let transport = RecordingTransport(status: 503, headers: ["Retry-After": "1"])
            let response = try await pipeline(transport, retry: sleeps.policy()).send(request(method))
            #expect(response.status == 503)
            #expect(transport.requests.count == 1, "\(method)")
            #expect(sleeps.delays.isEmpty)
        }
        let heads = RecordingTransport(status: 503)
        _ = try await pipeline(heads, retry: SleepRecorder().policy(maxRetries: 1)).send(request(.head))
        #expect(heads.requests.count == 2, "HEAD is a read")
    }

    @Test func retryAfterReplacesTheBackoff() async throws {
        let sleeps = SleepRecorder()
        let transport = RecordingTransport { _, index in
            switch index {
            case 0: HTTPResponse(status: 429, headers: ["retry-after": "2"])
            case 1: HTTPResponse(status: 503, headers: ["Retry-After": "0"])
            default: HTTPResponse(status: 200)
            }
        }
        let response = try await pipeline(transport, retry: sleeps.policy()).send(request())
        #expect(response.status == 200)
        #expect(sleeps.delays == [.seconds(2), .zero])
        #expect(transport.requests.count == 3)
    }

    @Test func anExcessiveRetryAfterReturnsTheAnswer() async throws {
        let sleeps = SleepRecorder()
        let transport = RecordingTransport(status: 429, headers: ["Retry-After": "3600"])
        let response = try await pipeline(transport, retry: sleeps.policy()).send(request())
        #expect(response.status == 429 && response.header("retry-after") == "3600")
        #expect(transport.requests.count == 1)
        #expect(sleeps.delays.isEmpty)
    }

    @Test func networkErrorsAreRetriedForReadsOnlyAndMappedToTransportError() async throws {
        let flaky = RecordingTransport { _, index in
            if index < 2 { throw URLError(.networkConnectionLost) }
            return HTTPResponse(status: 200)
        }
        #expect(try await pipeline(flaky, retry: SleepRecorder().policy()).send(request()).status == 200)
        #expect(flaky.requests.count == 3)

        let down = RecordingTransport { _, _ in throw URLError(.cannotConnectToHost) }
        await #expect {
            _ = try await pipeline(down, retry: SleepRecorder().policy()).send(request())
        } throws: { error in
            guard case TransportError.network(let message) = error else { return false }
            return !message.isEmpty
        }
        #expect(down.requests.count == 4)

        let post = RecordingTransport { _, _ in throw TransportError.network(message: "down") }
        await #expect(throws: TransportError.network(message: "down")) {
            _ = try await pipeline(post, retry: SleepRecorder().policy()).send(request(.post))
        }
        #expect(post.requests.count == 1)
    }

    @Test func aHangingTransportTimesOutAndATimeoutIsNotRetried() async throws {
        let transport = RecordingTransport { _, _ in
            // Never answers and ignores cancellation on purpose: the deadline must not wait for it.
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            return HTTPResponse(status: 200)
        }
        let started = ContinuousClock.now
        await #expect(throws: TransportError.timedOut(after: .milliseconds(100))) {
            _ = try await pipeline(transport, retry: SleepRecorder().policy(), timeout: .milliseconds(100)).send(request())
        }
        #expect(transport.requests.count == 1)
        // A bound against waiting for the transport, which never answers; not a speed check.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aRequestsOwnTimeoutWinsOverTheDefault() async throws {
        var slow = request()
        slow.timeout = .milliseconds(80)
        await #expect(throws: TransportError.timedOut(after: .milliseconds(80))) {
            _ = try await pipeline(HangingTransport(), timeout: .seconds(60)).send(slow)
        }
        let transport = RecordingTransport(status: 200)
        _ = try await pipeline(transport, timeout: .seconds(7)).send(request())
        #expect(transport.requests.first?.timeout == .seconds(7), "the transport is told the limit too")
    }

    @Test func aCancelledCallerStopsWaitingAtOnce() async throws {
        let waiting = Task { try await pipeline(HangingTransport(), timeout: .seconds(60)).send(request()) }
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(ContinuousClock.now - started < .seconds(30), "a bound against a hang")
    }

    @Test func defaultHeadersAreAddedOnlyWhereTheRequestSetsNone() async throws {
        let transport = RecordingTransport(status: 200)
        let defaults: HTTPHeaders = ["X-Client-Version": "Swift/1", "Content-Type": "application/json"]
        _ = try await pipeline(transport, defaultHeaders: defaults)
            .send(request(.post, headers: ["content-type": "image/png", "Authorization": "Bearer t"]))
        #expect(
            transport.requests.first?.headers.lowercasedDictionary == [
                "x-client-version": "Swift/1", "content-type": "image/png", "authorization": "Bearer t",
            ])
    }
}
