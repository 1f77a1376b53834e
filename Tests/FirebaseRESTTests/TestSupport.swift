import Foundation
import Testing

@testable import FirebaseREST

/// Captures every request and answers from a closure (given the request and its 0-based
/// index), so a test can assert the exact bytes that would go on the wire.
final class RecordingTransport: FirebaseHTTPTransport, @unchecked Sendable {
    typealias Handler = @Sendable (FirebaseHTTPRequest, Int) async throws -> FirebaseHTTPResponse
    private let lock = NSLock()
    private var _requests: [FirebaseHTTPRequest] = []
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    /// Always answers `status` with `body`.
    convenience init(status: Int = 200, body: String = "{}", headers: HTTPHeaders = [:]) {
        self.init { _, _ in FirebaseHTTPResponse(status: status, headers: headers, body: Data(body.utf8)) }
    }

    var requests: [FirebaseHTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return _requests
    }

    var last: FirebaseHTTPRequest? { requests.last }

    func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
        let index = record(request)
        return try await handler(request, index)
    }

    private func record(_ request: FirebaseHTTPRequest) -> Int {
        lock.lock()
        defer { lock.unlock() }
        _requests.append(request)
        return _requests.count - 1
    }
}

/// A transport that never answers and ignores cancellation, to prove timeouts are enforced.
///
/// It suspends on a continuation nobody resumes rather than looping on `Task.sleep`: once
/// cancelled, a sleeping loop would spin and starve the two-thread cooperative pool.
struct HangingTransport: FirebaseHTTPTransport {
    func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        throw CancellationError()
    }
}

/// A transport whose connection always fails.
struct FailingTransport: FirebaseHTTPTransport {
    var error: any Error = URLError(.notConnectedToInternet)
    func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse { throw error }
}

func options(_ transport: any FirebaseHTTPTransport, timeout: Duration = .seconds(5)) -> FirebaseHTTPOptions {
    FirebaseHTTPOptions(transport: transport, timeout: timeout, retryPolicy: .none)
}

func response(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> FirebaseHTTPResponse {
    FirebaseHTTPResponse(status: status, headers: headers, body: Data(body.utf8))
}

/// The request body decoded as JSON, for comparisons that must not depend on key order.
func jsonBody(_ request: FirebaseHTTPRequest?) throws -> FirebaseJSON {
    let body = try #require(request?.body)
    return try JSONDecoder().decode(FirebaseJSON.self, from: body)
}

func json(_ text: String) throws -> FirebaseJSON {
    try JSONDecoder().decode(FirebaseJSON.self, from: Data(text.utf8))
}

extension FirebaseHTTPRequest {
    /// The URL exactly as it would be sent, percent-encoding included.
    var rawURL: String { url.absoluteString }
    var bodyText: String { body.flatMap { String(data: $0, encoding: .utf8) } ?? "" }
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var _now: Date
    init(_ now: Date = Date(timeIntervalSince1970: 1_700_000_000)) { _now = now }
    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return _now
    }
    func advance(_ seconds: TimeInterval) {
        lock.lock()
        _now += seconds
        lock.unlock()
    }
}
