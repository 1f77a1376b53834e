/// The one seam between a wire client and the network.
///
/// Every request a wire client makes (PostgREST, Auth, Functions and Storage for Supabase;
/// Identity Toolkit, Firestore, Storage, callable functions and FCM for Firebase) goes through
/// a single `HTTPTransport`. The default is ``URLSessionTransport``; tests replace it with a
/// recorder, and a server embedding a client may route requests in-process.
///
/// Implementations only move bytes: they must not retry, add headers or interpret status
/// codes. Retries, time limits and authentication are applied above the transport, in
/// ``HTTPPipeline`` and in each wire client, so that every transport behaves the same.
///
/// ```swift
/// struct Canned: HTTPTransport {
///   func send(_ request: HTTPRequest) async throws -> HTTPResponse {
///     HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
///   }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the response, whatever its status code.
    ///
    /// Throw only when no HTTP response was obtained (connection refused, DNS failure, …).
    /// Throwing ``TransportError/timedOut(after:)`` marks the failure as a timeout; any other
    /// error that is not a `CancellationError` is reported as ``TransportError/network(message:)``
    /// by ``HTTPPipeline``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
