/// The transport is HTTPTransportCore's, shared with SupabaseREST; it is re-exported so that
/// code importing FirebaseREST names `HTTPTransport`, `HTTPRequest`, `RetryPolicy`, `AnyJSON`, …
/// without a second import.
@_exported import HTTPTransportCore

// The names this module gave the transport and its JSON value before they were shared. They were prefixed so as
// not to collide with SupabaseREST's in an app importing both; now both modules use the same
// types, and these aliases only keep existing code compiling.

/// The transport protocol; see ``HTTPTransport``.
public typealias FirebaseHTTPTransport = HTTPTransport
/// A request; see ``HTTPRequest``.
public typealias FirebaseHTTPRequest = HTTPRequest
/// A response; see ``HTTPResponse``.
public typealias FirebaseHTTPResponse = HTTPResponse
/// A verb; see ``HTTPMethod``.
public typealias FirebaseHTTPMethod = HTTPMethod
/// No response at all; see ``TransportError``.
public typealias FirebaseTransportError = TransportError
/// A 2xx body that did not decode; see ``ResponseDecodingError``.
public typealias FirebaseDecodingError = ResponseDecodingError
/// The URLSession transport; see ``URLSessionTransport``.
public typealias FirebaseURLSessionTransport = URLSessionTransport
/// Retries of reads; see ``RetryPolicy`` and ``RetryPolicy/firebase``.
public typealias FirebaseRetryPolicy = RetryPolicy
/// Any JSON value (callable function data, APNs payloads, error details); see ``AnyJSON``.
public typealias FirebaseJSON = AnyJSON
