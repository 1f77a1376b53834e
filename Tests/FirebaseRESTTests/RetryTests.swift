import Foundation
import Testing

@testable import FirebaseREST

/// Retries of idempotent reads: capped exponential backoff with jitter, `Retry-After`
/// honoured, never a write.
@Suite struct RetryTests {
  final class Delays: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []
    var values: [Duration] { lock.withLock { recorded } }
    func policy(maxRetries: Int = 3, maxDelay: Duration = .seconds(8)) -> FirebaseRetryPolicy {
      FirebaseRetryPolicy(maxRetries: maxRetries, maxDelay: maxDelay, sleep: { [self] delay in lock.withLock { recorded.append(delay) } })
    }
  }

  static let document = #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{}}"#

  func firestore(_ transport: RecordingTransport, _ policy: FirebaseRetryPolicy) -> FirestoreClient {
    var opts = options(transport)
    opts.retryPolicy = policy
    return FirestoreClient(projectID: "p", tokenProvider: StaticIDTokenProvider(nil), options: opts)
  }

  @Test func backoffDoublesWithJitterUpToTheCap() async throws {
    let delays = Delays()
    let transport = RecordingTransport(status: 503, body: #"{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}"#)
    await #expect(throws: FirestoreError.self) {
      _ = try await firestore(transport, delays.policy(maxRetries: 4, maxDelay: .seconds(1.5))).getDocument("a/b")
    }
    #expect(transport.requests.count == 5)
    for (delay, base) in zip(delays.values, [0.5, 1.0, 1.5, 1.5]) {
      let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
      #expect(seconds >= base * 0.75 - 0.001 && seconds <= base * 1.25 + 0.001, "\(delay) around \(base)")
    }
  }

  @Test func retryAfterSecondsAndDatesAreHonoured() async throws {
    let delays = Delays()
    let transport = RecordingTransport { _, index in
      switch index {
      case 0: FirebaseHTTPResponse(status: 429, headers: ["retry-after": "2"], body: Data())
      case 1: FirebaseHTTPResponse(status: 503, headers: ["Retry-After": "0"], body: Data())
      default: response(200, Self.document)
      }
    }
    _ = try await firestore(transport, delays.policy()).getDocument("a/b")
    #expect(delays.values == [.seconds(2), .zero])
    #expect(transport.requests.count == 3)

    let now = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(FirebaseRetryPolicy.retryAfter("Tue, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
    #expect(FirebaseRetryPolicy.retryAfter("soon", now: now) == nil)
  }

  @Test func anExcessiveRetryAfterReturnsTheAnswer() async throws {
    let delays = Delays()
    let transport = RecordingTransport { _, _ in
      FirebaseHTTPResponse(
        status: 429, headers: ["Retry-After": "3600"],
        body: Data(#"{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}"#.utf8))
    }
    await #expect {
      _ = try await firestore(transport, delays.policy()).getDocument("a/b")
    } throws: { error in
      (error as? FirestoreError)?.message == "Quota exceeded"
    }
    #expect(transport.requests.count == 1)
    #expect(delays.values.isEmpty)
  }

  @Test func writesAreNeverRetriedEvenWithRetryAfter() async throws {
    let delays = Delays()
    let transport = RecordingTransport { _, _ in FirebaseHTTPResponse(status: 503, headers: ["Retry-After": "1"], body: Data()) }
    await #expect(throws: (any Error).self) {
      try await firestore(transport, delays.policy()).deleteDocument("a/b")
    }
    #expect(transport.requests.count == 1)
    #expect(delays.values.isEmpty)
  }
}
