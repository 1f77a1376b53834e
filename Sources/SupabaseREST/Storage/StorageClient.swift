import Foundation

/// Supabase Storage: `<url>/storage/v1/object/<bucket>/<path>`.
///
/// Paths keep their `/` separators; every other reserved character is percent-encoded.
/// Requests carry the session's access token (else the key), so bucket policies see the user.
/// Only downloads are retried (they are `GET`s); uploads and removals never are.
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

/// Operations on one bucket.
///
/// Errors: ``StorageError`` for every non-2xx answer, ``ResponseDecodingError`` for a 2xx
/// answer that is not the documented JSON, ``TransportError`` when no answer arrived.
public struct StorageFileAPI: Sendable {
    /// The bucket's name.
    public let bucket: String
    let client: StorageClient

    /// Uploads `data` to `path` (`POST`); fails with 409 `Duplicate` when the object exists,
    /// unless `options.upsert`.
    @discardableResult
    public func upload(_ path: String, data: Data, options: FileOptions = FileOptions()) async throws -> FileUploadResponse {
        try await send(.post, path: path, data: data, options: options)
    }

    /// Replaces the object at `path` (`PUT`).
    @discardableResult
    public func update(_ path: String, data: Data, options: FileOptions = FileOptions()) async throws -> FileUploadResponse {
        try await send(.put, path: path, data: data, options: options)
    }

    /// The object's bytes, read with the caller's rights (`GET /object/<bucket>/<path>`).
    public func download(path: String) async throws -> Data {
        let request = HTTPRequest(method: .get, url: try objectURL(path), headers: await authorized())
        return try await perform(request).body
    }

    /// Removes objects (`DELETE /object/<bucket>` with `{"prefixes": [...]}`); returns the
    /// names the server removed — paths the caller may not delete or that do not exist are
    /// simply absent.
    @discardableResult
    public func remove(paths: [String]) async throws -> [String] {
        var headers = await authorized()
        headers["Content-Type"] = "application/json"
        let body = try SupabaseJSON.makeEncoder().encode(["prefixes": paths])
        let url = try buildURL(base: client.url, path: "storage/v1/object", segment: bucket)
        let response = try await perform(HTTPRequest(method: .delete, url: url, headers: headers, body: body))
        struct Removed: Decodable { var name: String }
        return try response.decode([Removed].self).map(\.name)
    }

    /// The URL anyone can download a public bucket's object from
    /// (`/storage/v1/object/public/<bucket>/<path>`); no request is made.
    ///
    /// - Parameter download: Add `download=` so browsers save the file instead of showing it.
    public func getPublicURL(path: String, download: Bool = false) throws -> URL {
        try buildURL(
            base: client.url, path: "storage/v1/object/public/" + (try bucketSegment()),
            segment: path, keepSlashInSegment: true,
            query: download ? [QueryItem(name: "download", value: "")] : [])
    }

    private func objectURL(_ path: String) throws -> URL {
        try buildURL(base: client.url, path: "storage/v1/object/" + (try bucketSegment()), segment: path, keepSlashInSegment: true)
    }

    /// The bucket as one escaped path segment; an empty name is refused rather than producing
    /// `/object//path`, which would address another route.
    private func bucketSegment() throws -> String {
        guard !bucket.isEmpty else { throw TransportError.invalidURL("storage bucket name is empty") }
        return percentEncodePathSegment(bucket, keepSlash: false)
    }

    private func authorized() async -> HTTPHeaders {
        var headers = client.headers
        if let token = await client.bearerToken() { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }

    private func send(_ method: HTTPMethod, path: String, data: Data, options: FileOptions) async throws -> FileUploadResponse {
        var headers = await authorized()
        headers["Content-Type"] = options.contentType ?? "application/octet-stream"
        headers["Cache-Control"] = "max-age=\(options.cacheControl)"
        headers["x-upsert"] = options.upsert ? "true" : "false"
        let request = HTTPRequest(method: method, url: try objectURL(path), headers: headers, body: data)
        let response = try await perform(request)
        return try response.decode(FileUploadResponse.self)
    }

    private func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await client.pipeline.send(request)
        guard response.isSuccess else { throw StorageError.from(response) }
        return response
    }
}
