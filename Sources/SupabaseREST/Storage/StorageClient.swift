import Foundation

/// Supabase Storage: `<url>/storage/v1/object/<bucket>/<path>`.
///
/// Paths keep their `/` separators; every other reserved character is percent-encoded.
/// Requests carry the session's access token (else the key), so bucket policies see the user.
public struct StorageClient: Sendable {
    let url: URL
    let headers: HTTPHeaders
    let bearerToken: @Sendable () async -> String?
    let pipeline: HTTPPipeline

    /// The files of one bucket: `client.storage.from("avatars")`.
    public func from(_ bucket: String) -> StorageFileAPI {
        StorageFileAPI(bucket: bucket, client: self)
    }
}

/// Upload options: the content type (else `application/octet-stream`) and whether an
/// existing object may be replaced.
public struct FileOptions: Sendable, Hashable {
    public var contentType: String?
    public var upsert: Bool
    public var cacheControl: String

    public init(cacheControl: String = "3600", contentType: String? = nil, upsert: Bool = false) {
        self.cacheControl = cacheControl
        self.contentType = contentType
        self.upsert = upsert
    }
}

/// What an upload answers: the object's key, `<bucket>/<path>`.
public struct FileUploadResponse: Decodable, Sendable, Hashable {
    public var path: String
    public var fullPath: String

    enum CodingKeys: String, CodingKey { case key = "Key" }

    public init(from decoder: any Decoder) throws {
        fullPath = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .key)
        path = fullPath.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? fullPath
    }
}

/// A Storage failure: Supabase Storage's `{"statusCode", "error", "message"}`.
public struct StorageError: Error, Sendable, Hashable, Decodable {
    public var statusCode: String?
    public var error: String?
    public var message: String
}

/// Operations on one bucket.
public struct StorageFileAPI: Sendable {
    public let bucket: String
    let client: StorageClient

    /// Uploads `data` to `path`; fails with 409 when it exists unless `options.upsert`.
    @discardableResult
    public func upload(_ path: String, data: Data, options: FileOptions = FileOptions()) async throws -> FileUploadResponse {
        try await send(.post, path: path, data: data, options: options)
    }

    /// Replaces the object at `path`.
    @discardableResult
    public func update(_ path: String, data: Data, options: FileOptions = FileOptions()) async throws -> FileUploadResponse {
        try await send(.put, path: path, data: data, options: options)
    }

    /// The object's bytes (authenticated download).
    public func download(path: String) async throws -> Data {
        let request = HTTPRequest(method: .get, url: try objectURL(path), headers: try await authorized(), body: nil, timeout: nil)
        return try await perform(request).body
    }

    /// Removes objects; returns the names the server removed.
    @discardableResult
    public func remove(paths: [String]) async throws -> [String] {
        var headers = try await authorized()
        headers["Content-Type"] = "application/json"
        let body = try JSONEncoder().encode(["prefixes": paths])
        let url = try buildURL(base: client.url, path: "storage/v1/object", segment: bucket)
        let response = try await perform(HTTPRequest(method: .delete, url: url, headers: headers, body: body, timeout: nil))
        struct Removed: Decodable { var name: String }
        return try JSONDecoder().decode([Removed].self, from: response.body).map(\.name)
    }

    /// The URL anyone can download a public bucket's object from.
    public func getPublicURL(path: String) throws -> URL {
        try buildURL(base: client.url, path: "storage/v1/object/public/\(bucket)", segment: path, keepSlashInSegment: true)
    }

    private func objectURL(_ path: String) throws -> URL {
        try buildURL(base: client.url, path: "storage/v1/object/\(bucket)", segment: path, keepSlashInSegment: true)
    }

    private func authorized() async throws -> HTTPHeaders {
        var headers = client.headers
        if let token = await client.bearerToken() { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }

    private func send(_ method: HTTPMethod, path: String, data: Data, options: FileOptions) async throws -> FileUploadResponse {
        var headers = try await authorized()
        headers["Content-Type"] = options.contentType ?? "application/octet-stream"
        headers["Cache-Control"] = "max-age=\(options.cacheControl)"
        headers["x-upsert"] = options.upsert ? "true" : "false"
        let request = HTTPRequest(method: method, url: try objectURL(path), headers: headers, body: data, timeout: nil)
        let response = try await perform(request)
        do { return try JSONDecoder().decode(FileUploadResponse.self, from: response.body) } catch {
            throw StorageError(statusCode: String(response.status), error: "invalid_response", message: "Unreadable upload reply")
        }
    }

    private func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await client.pipeline.send(request)
        guard response.isSuccess else {
            throw (try? JSONDecoder().decode(StorageError.self, from: response.body))
                ?? StorageError(statusCode: String(response.status), error: nil, message: String(decoding: response.body, as: UTF8.self))
        }
        return response
    }
}
