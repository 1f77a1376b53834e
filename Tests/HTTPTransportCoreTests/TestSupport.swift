import Foundation
import Testing

@testable import HTTPTransportCore

/// Captures every request and answers with `handler(request, index)` (index 0-based), so a
/// test can assert what the pipeline handed to the transport on each attempt.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest, Int) async throws -> HTTPResponse
    private let recorded = LockedValue<[HTTPRequest]>([])
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    /// Always answers `status`.
    convenience init(status: Int, headers: HTTPHeaders = [:]) {
        self.init { _, _ in HTTPResponse(status: status, headers: headers) }
    }

    var requests: [HTTPRequest] { recorded.value }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = recorded.withValue { list -> Int in
            list.append(request)
            return list.count - 1
        }
        return try await handler(request, index)
    }
}

/// A transport that never answers and ignores cancellation, to prove the pipeline's own
/// deadline and the caller's cancellation do not wait for it.
///
/// It suspends on a continuation nobody resumes rather than looping on `Task.sleep`: once
/// cancelled, a sleeping loop would spin and starve the two-thread cooperative pool.
struct HangingTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        throw CancellationError()
    }
}

/// Records the delays a retry policy asks for instead of sleeping.
final class SleepRecorder: Sendable {
    private let recorded = LockedValue<[Duration]>([])
    var delays: [Duration] { recorded.value }

    func policy(maxRetries: Int = 3, maxDelay: Duration = .seconds(8), jitter: Double = 0.25) -> RetryPolicy {
        RetryPolicy(
            maxRetries: maxRetries, maxDelay: maxDelay, jitter: jitter,
            sleep: { [recorded] duration in recorded.withValue { $0.append(duration) } })
    }
}

let exampleURL = URL(string: "https://example.test/items")!

func pipeline(
    _ transport: any HTTPTransport,
    retry: RetryPolicy = .none,
    timeout: Duration = .seconds(5),
    retryCountHeader: String? = nil,
    defaultHeaders: HTTPHeaders = [:]
) -> HTTPPipeline {
    HTTPPipeline(
        transport: transport, retryPolicy: retry, defaultTimeout: timeout, retryCountHeader: retryCountHeader,
        defaultHeaders: defaultHeaders)
}

func request(_ method: HTTPMethod = .get, url: URL = exampleURL, headers: HTTPHeaders = [:]) -> HTTPRequest {
    HTTPRequest(method: method, url: url, headers: headers)
}
