import Foundation

/// A fully built HTTP request, as handed to an ``HTTPTransport``.
public struct HTTPRequest: Sendable, Equatable {
    /// The verb.
    public var method: HTTPMethod
    /// The absolute URL, its path and query already percent-encoded.
    public var url: URL
    /// The header fields (names compare case-insensitively).
    public var headers: HTTPHeaders
    /// The body bytes, or `nil` for no body.
    public var body: Data?
    /// How long the transport may wait for the response. ``HTTPPipeline`` also enforces this
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

    /// The value of the header named `name`, compared case-insensitively; the same as
    /// `headers[name]`, read more easily in assertions.
    public func header(_ name: String) -> String? { headers[name] }
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

    /// The value of the header named `name`, compared case-insensitively; the same as
    /// `headers[name]`, read more easily in assertions.
    public func header(_ name: String) -> String? { headers[name] }

    /// Decodes the body as `T`, turning any failure into a ``ResponseDecodingError`` that keeps
    /// the raw body, so the caller can log what the server actually sent.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw ResponseDecodingError(
                type: String(describing: T.self), status: status, body: body, message: String(describing: error))
        }
    }
}
