import Foundation
import Testing

@testable import FirebaseREST

/// The clients send through the transport core with Firebase's options: time limit, network
/// failures, retries of reads only (the core itself is tested in HTTPTransportCoreTests).
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

    /// Firebase's own policy: reads are retried twice on 429 and 503, never on 520 (a status
    /// Google front ends do not send; the transport core's default retries it for Supabase).
    @Test func theDefaultPolicyIsFirebases() async throws {
        var policy = FirebaseHTTPOptions().retryPolicy
        policy.sleep = { _ in }
        for (status, attempts) in [(503, 3), (429, 3), (520, 1), (500, 1)] {
            let transport = RecordingTransport(status: status, body: "busy")
            var opts = options(transport)
            opts.retryPolicy = policy
            let firestore = FirestoreClient(projectID: "p", tokenProvider: StaticIDTokenProvider(nil), options: opts)
            await #expect(throws: FirestoreError.self) { _ = try await firestore.getDocument("a/b") }
            #expect(transport.requests.count == attempts, "\(status)")
        }
    }

    @Test func badBaseURLIsTypedNotACrash() async throws {
        let auth = IdentityToolkitClient(
            apiKey: "K", identityToolkitURL: URL(string: "file:///tmp")!, options: options(RecordingTransport()))
        await #expect(throws: FirebaseTransportError.self) { _ = try await auth.signUpAnonymously() }
    }
}
