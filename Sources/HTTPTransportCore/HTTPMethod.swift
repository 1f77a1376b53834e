/// An HTTP method.
///
/// A struct rather than an enum so that a caller can express any verb a server accepts
/// without waiting for a library update.
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

    /// Whether repeating the request cannot change server state. Only these are retried by
    /// ``HTTPPipeline``: repeating a `POST` could insert a row, create a document or send a
    /// push twice.
    public var isIdempotentRead: Bool { self == .get || self == .head }

    public var description: String { rawValue }
}
