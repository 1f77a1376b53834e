import Foundation
import Testing

@testable import FirebaseREST

/// Timeouts, network failures, retries and percent-encoding — shared by every service.
@Suite struct TransportTests {
  @Test func hangingTransportTimesOut() async throws {
    let auth = IdentityToolkitClient(apiKey: "K", options: options(HangingTransport(), timeout: .milliseconds(200)))
    let start = ContinuousClock.now
    await #expect(throws: FirebaseTransportError.timedOut(after: .milliseconds(200))) {
      _ = try await auth.signUpAnonymously()
    }
    // A bound against waiting for the transport, which never answers; not a speed check.
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test func networkFailureIsTyped() async throws {
    let auth = IdentityToolkitClient(apiKey: "K", options: options(FailingTransport()))
    do {
      _ = try await auth.signUpAnonymously()
      Issue.record("expected an error")
    } catch FirebaseTransportError.network(let message) {
      #expect(!message.isEmpty)
    }
  }

  @Test func getIsRetriedOn503ButPostIsNot() async throws {
    let transport = RecordingTransport { _, index in
      index == 0 ? response(503, "busy") : response(200, #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{}}"#)
    }
    var opts = options(transport)
    opts.retryPolicy = FirebaseRetryPolicy(maxRetries: 2, sleep: { _ in })
    let firestore = FirestoreClient(projectID: "p", tokenProvider: StaticIDTokenProvider(nil), options: opts)
    _ = try await firestore.getDocument("a/b")
    #expect(transport.requests.count == 2)

    let posts = RecordingTransport(status: 503, body: "busy")
    var postOpts = options(posts)
    postOpts.retryPolicy = FirebaseRetryPolicy(maxRetries: 2, sleep: { _ in })
    await #expect(throws: IdentityToolkitError.self) {
      _ = try await IdentityToolkitClient(apiKey: "K", options: postOpts).signUpAnonymously()
    }
    #expect(posts.requests.count == 1)
  }

  @Test func percentEncodingKeepsOnlyUnreserved() {
    #expect(firebasePercentEncode("a/b+c d") == "a%2Fb%2Bc%20d")
    #expect(firebasePercentEncode("!*'();:@&=$,?#[]%") == "%21%2A%27%28%29%3B%3A%40%26%3D%24%2C%3F%23%5B%5D%25")
    #expect(firebasePercentEncode("-._~AZaz09") == "-._~AZaz09")
    #expect(firebasePercentEncode("é") == "%C3%A9")
  }

  @Test func badBaseURLIsTypedNotACrash() async throws {
    let auth = IdentityToolkitClient(
      apiKey: "K", identityToolkitURL: URL(string: "file:///tmp")!, options: options(RecordingTransport()))
    await #expect(throws: FirebaseTransportError.self) { _ = try await auth.signUpAnonymously() }
  }
}
