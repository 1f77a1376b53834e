import Foundation

/// A successful (2xx) response whose body could not be decoded into the type the caller asked
/// for.
///
/// Raised by ``HTTPResponse/decode(_:decoder:)`` for non-JSON bodies, truncated JSON and shape
/// mismatches. The raw body is kept so that the caller can log what the server actually sent.
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
