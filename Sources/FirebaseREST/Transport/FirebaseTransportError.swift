import Foundation

/// A failure to obtain an HTTP response at all.
///
/// Errors the server *answered* with are not transport errors: they surface as each
/// service's typed error (``IdentityToolkitError``, ``FirestoreError``, …). A
/// `FirebaseTransportError` means there is no status code to look at.
public enum FirebaseTransportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A URL could not be built from the configuration or the given path. Raised instead of
  /// crashing because document and object paths often come from user input.
  case invalidURL(String)
  /// No response arrived within the per-request time limit.
  case timedOut(after: Duration)
  /// The connection failed (refused, reset, DNS, TLS, …). The text describes the cause.
  case network(message: String)

  public var description: String {
    switch self {
    case .invalidURL(let url): "Invalid URL: \(url)"
    case .timedOut(let duration): "The request timed out after \(duration)"
    case .network(let message): "Network error: \(message)"
    }
  }
}

/// A successful (2xx) response whose body could not be decoded into the expected type.
///
/// Raised for non-JSON bodies, truncated JSON and shape mismatches. The raw body is kept so
/// the caller can log what the server actually sent.
public struct FirebaseDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The name of the Swift type that was being decoded.
  public var type: String
  /// The HTTP status of the response.
  public var status: Int
  /// The raw response body.
  public var body: Data
  /// The decoder's explanation.
  public var message: String

  /// Creates a decoding error.
  public init(type: String, status: Int, body: Data, message: String) {
    self.type = type
    self.status = status
    self.body = body
    self.message = message
  }

  public var description: String {
    "Could not decode \(type) from a \(status) response (\(body.count) bytes): \(message)"
  }
}

extension FirebaseHTTPResponse {
  /// Decodes the body as `T`, turning any failure into a ``FirebaseDecodingError``.
  func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
    do {
      return try decoder.decode(T.self, from: body)
    } catch {
      throw FirebaseDecodingError(
        type: String(describing: T.self), status: status, body: body, message: String(describing: error))
    }
  }
}
