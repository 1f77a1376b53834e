import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one seam between this library and the network.
///
/// Every request — Identity Toolkit, Firestore, Storage, callable functions and FCM — goes
/// through a single `FirebaseHTTPTransport`. The default is ``FirebaseURLSessionTransport``;
/// tests replace it with a recorder, and a server embedding the library may route requests
/// in-process.
///
/// Implementations only move bytes: they must not retry, add headers or interpret status
/// codes. Retries, timeouts and authentication are applied above the transport so that every
/// transport behaves the same. (The names carry a `Firebase` prefix because apps often import
/// this module beside other wire clients that have their own `HTTPTransport`.)
public protocol FirebaseHTTPTransport: Sendable {
  /// Sends one request and returns the response, whatever its status code.
  ///
  /// Throw only when no HTTP response was obtained (connection refused, DNS failure, …).
  /// Throwing ``FirebaseTransportError/timedOut(after:)`` marks the failure as a timeout.
  func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse
}

/// An HTTP verb. A struct rather than an enum so any verb can be expressed.
public struct FirebaseHTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The upper-case verb as sent on the request line.
  public var rawValue: String

  /// Creates a method from its verb; the verb is upper-cased.
  public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

  /// `GET`.
  public static let get = FirebaseHTTPMethod(rawValue: "GET")
  /// `POST`.
  public static let post = FirebaseHTTPMethod(rawValue: "POST")
  /// `PATCH`.
  public static let patch = FirebaseHTTPMethod(rawValue: "PATCH")
  /// `DELETE`.
  public static let delete = FirebaseHTTPMethod(rawValue: "DELETE")

  /// Whether repeating the request cannot change server state. Only these are retried.
  public var isIdempotentRead: Bool { self == .get || rawValue == "HEAD" }

  public var description: String { rawValue }
}

/// A fully built request, as handed to a ``FirebaseHTTPTransport``.
public struct FirebaseHTTPRequest: Sendable, Equatable {
  /// The verb.
  public var method: FirebaseHTTPMethod
  /// The absolute URL, its path and query already percent-encoded.
  public var url: URL
  /// The header fields. Names are stored as the library spells them; use
  /// ``header(_:)`` for a case-insensitive lookup.
  public var headers: [String: String]
  /// The body bytes, or `nil` for no body.
  public var body: Data?
  /// How long the transport may wait. The library enforces this limit itself as well, so a
  /// transport that ignores it cannot hang a caller.
  public var timeout: Duration?

  /// Creates a request.
  public init(
    method: FirebaseHTTPMethod,
    url: URL,
    headers: [String: String] = [:],
    body: Data? = nil,
    timeout: Duration? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// The value of the header named `name`, compared case-insensitively.
  public func header(_ name: String) -> String? {
    headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}

/// A response, as returned by a ``FirebaseHTTPTransport``.
public struct FirebaseHTTPResponse: Sendable, Equatable {
  /// The status code.
  public var status: Int
  /// The header fields; use ``header(_:)`` for a case-insensitive lookup.
  public var headers: [String: String]
  /// The body bytes (empty when there is none).
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is in the 2xx range.
  public var isSuccess: Bool { (200..<300).contains(status) }

  /// The value of the header named `name`, compared case-insensitively.
  public func header(_ name: String) -> String? {
    headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// The body as text for error messages: UTF-8 when it decodes, a byte count otherwise.
  var bodyText: String {
    String(data: body, encoding: .utf8) ?? "<\(body.count) bytes>"
  }
}
