import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one seam between this library and the network.
///
/// Every request the library makes — PostgREST, Functions and Auth — goes through a single
/// `HTTPTransport`. The default is ``URLSessionTransport``; tests and servers embedding the
/// client replace it with their own implementation (a recorder, an in-process router, …).
///
/// Implementations only move bytes: they must not retry, add headers or interpret status
/// codes. Retries, timeouts and authentication headers are applied above the transport, so
/// that every transport behaves the same.
public protocol HTTPTransport: Sendable {
  /// Sends one request and returns the response, whatever its status code.
  ///
  /// Throw only when no HTTP response was obtained (connection refused, DNS failure, …).
  /// Throwing ``TransportError/timedOut(after:)`` marks the failure as a timeout.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// An HTTP method.
///
/// A struct rather than an enum so that a caller can express any verb PostgREST or a
/// function accepts without waiting for a library update.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The upper-case verb as sent on the request line.
  public var rawValue: String

  /// Creates a method from its verb; the verb is upper-cased.
  public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

  /// `GET`.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`.
  public static let options = HTTPMethod(rawValue: "OPTIONS")

  /// Whether repeating the request cannot change server state. Only these are retried.
  public var isIdempotentRead: Bool { self == .get || self == .head }

  public var description: String { rawValue }
}

/// A fully built HTTP request, as handed to an ``HTTPTransport``.
public struct HTTPRequest: Sendable, Equatable {
  /// The verb.
  public var method: HTTPMethod
  /// The absolute URL, query string already percent-encoded.
  public var url: URL
  /// The header fields (names compare case-insensitively).
  public var headers: HTTPHeaders
  /// The body bytes, or `nil` for no body (then no `Content-Type` is set either).
  public var body: Data?
  /// How long the transport may wait for the response. The library also enforces this
  /// limit itself, so a transport that ignores it cannot hang a caller.
  public var timeout: Duration?

  /// Creates a request.
  public init(
    method: HTTPMethod,
    url: URL,
    headers: HTTPHeaders = [:],
    body: Data? = nil,
    timeout: Duration? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }
}

/// An HTTP response, as returned by an ``HTTPTransport``.
public struct HTTPResponse: Sendable, Equatable {
  /// The status code (200, 404, …).
  public var status: Int
  /// The header fields (names compare case-insensitively).
  public var headers: HTTPHeaders
  /// The body bytes (empty when there is none).
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Alias of ``status``, the name `HTTPURLResponse` uses.
  public var statusCode: Int { status }

  /// Whether the status is in the 2xx range.
  public var isSuccess: Bool { (200..<300).contains(status) }
}
