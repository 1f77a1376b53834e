import Foundation

/// Upload options: the content type (else `application/octet-stream`), the `Cache-Control`
/// lifetime and whether an existing object may be replaced.
public struct FileOptions: Sendable, Hashable {
    /// `Cache-Control: max-age=<seconds>` stored with the object (supabase-swift: `"3600"`).
    public var cacheControl: String
    /// The object's media type; `application/octet-stream` when `nil`.
    public var contentType: String?
    /// Replace an existing object instead of failing with 409 (`x-upsert: true`).
    public var upsert: Bool

    /// Creates options.
    public init(cacheControl: String = "3600", contentType: String? = nil, upsert: Bool = false) {
        self.cacheControl = cacheControl
        self.contentType = contentType
        self.upsert = upsert
    }
}

/// What an upload answers: the object's key, `<bucket>/<path>`.
public struct FileUploadResponse: Decodable, Sendable, Hashable {
    /// The path inside the bucket.
    public var path: String
    /// `<bucket>/<path>`, as Storage's `Key`.
    public var fullPath: String

    enum CodingKeys: String, CodingKey { case key = "Key" }

    public init(from decoder: any Decoder) throws {
        fullPath = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .key)
        path = fullPath.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? fullPath
    }
}

/// A Storage failure: Supabase Storage's `{"statusCode", "error", "message"}`.
///
/// Storage sends `statusCode` as a string (`"404"`); older versions sent a number, which is
/// accepted too. A non-2xx response that is not such a document still becomes a
/// `StorageError`, carrying the HTTP status and the body text (or `HTTP <status>` when empty),
/// so the server's or a proxy's words are never lost.
public struct StorageError: Error, Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The HTTP status as text (`"404"`).
    public var statusCode: String?
    /// Storage's short error name (`not_found`, `Duplicate`, `InvalidKey`, …).
    public var error: String?
    /// The human-readable message.
    public var message: String

    /// Creates an error.
    public init(statusCode: String? = nil, error: String? = nil, message: String) {
        self.statusCode = statusCode
        self.error = error
        self.message = message
    }

    private enum CodingKeys: String, CodingKey { case statusCode, error, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        error = try? container.decodeIfPresent(String.self, forKey: .error)
        if let text = try? container.decodeIfPresent(String.self, forKey: .statusCode) {
            statusCode = text
        } else {
            statusCode = (try? container.decodeIfPresent(Int.self, forKey: .statusCode)).flatMap { $0 }.map(String.init)
        }
    }

    /// The error for a non-2xx `response`.
    static func from(_ response: HTTPResponse) -> StorageError {
        if var decoded = try? JSONDecoder().decode(StorageError.self, from: response.body) {
            if decoded.statusCode == nil { decoded.statusCode = String(response.status) }
            return decoded
        }
        let text = String(decoding: response.body.prefix(500), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return StorageError(
            statusCode: String(response.status), error: nil,
            message: text.isEmpty ? "HTTP \(response.status)" : text)
    }

    public var description: String {
        "StorageError(\(statusCode ?? "?") \(error ?? "")): \(message)"
    }
}
