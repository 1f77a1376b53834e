import Foundation

/// A failure to obtain an HTTP response at all.
///
/// Errors the server *answered* with are not transport errors: they surface as
/// ``PostgrestError``, ``HTTPError``, ``FunctionsError`` or ``AuthError``. A `TransportError`
/// means there is no status code to look at.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A URL could not be built from the given base URL, table, function name or query.
  /// Raised instead of crashing because those parts often come from user input.
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

/// A 2xx response whose body could not be decoded into the type the caller asked for.
///
/// Raised for non-JSON bodies, truncated JSON and shape mismatches. The raw body is kept so
/// that the caller can log what the server actually sent.
public struct ResponseDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
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

extension JSONDecoder {
  /// Decodes `T`, turning any failure into a ``ResponseDecodingError``.
  func decodeResponse<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws -> T {
    do {
      return try decode(T.self, from: response.body)
    } catch {
      throw ResponseDecodingError(
        type: String(describing: T.self),
        status: response.status,
        body: response.body,
        message: String(describing: error)
      )
    }
  }
}
