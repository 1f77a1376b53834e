import Foundation

/// Firebase Storage through the rules-aware v0 API (`firebasestorage.googleapis.com`).
///
/// Requests carry `Authorization: Firebase <ID token>` — the scheme the mobile SDKs use, not
/// `Bearer` — so Storage security rules see the user. Object paths are percent-encoded
/// completely (`/` → `%2F`, `+` → `%2B`, every reserved character), because the object name
/// is a single path segment on this API.
///
/// Uploads are single-request (`POST …/o?name=`), fine for avatars and small files; the
/// resumable protocol the SDKs use for large files is not implemented.
public struct FirebaseStorageClient: Sendable {
    /// The bucket (`<project>.appspot.com` or `<project>.firebasestorage.app`).
    public var bucket: String
    /// `https://firebasestorage.googleapis.com`, or the emulator's `http://host:port`.
    public var baseURL: URL
    let tokenProvider: any IDTokenProvider
    let pipeline: HTTPPipeline

    /// The production endpoint.
    public static let productionURL = URL(string: "https://firebasestorage.googleapis.com")!

    /// Creates a client for `bucket`.
    public init(
        bucket: String,
        baseURL: URL = Self.productionURL,
        tokenProvider: any IDTokenProvider,
        options: FirebaseHTTPOptions = FirebaseHTTPOptions()
    ) {
        self.bucket = bucket
        self.baseURL = baseURL
        self.tokenProvider = tokenProvider
        self.pipeline = options.pipeline
    }

    /// Uploads `data` to `path`, replacing any object there.
    @discardableResult
    public func upload(_ data: Data, to path: String, contentType: String) async throws -> StorageObjectMetadata {
        let url = try objectsURL(nil, query: [("name", try validated(path))])
        return try await send(.post, url, body: data, contentType: contentType).decode(StorageObjectMetadata.self)
    }

    /// Downloads the object's bytes.
    public func download(_ path: String) async throws -> Data {
        try await send(.get, try objectsURL(path, query: [("alt", "media")])).body
    }

    /// The object's metadata.
    public func metadata(_ path: String) async throws -> StorageObjectMetadata {
        try await send(.get, try objectsURL(path)).decode(StorageObjectMetadata.self)
    }

    /// Deletes the object; a missing object throws ``FirebaseStorageError/Kind/objectNotFound``.
    public func delete(_ path: String) async throws {
        _ = try await send(.delete, try objectsURL(path))
    }

    /// The public download URL for an object with a download token (from
    /// ``StorageObjectMetadata/downloadTokens``); it needs no Authorization header.
    public func downloadURL(for path: String, token: String) throws -> URL {
        try objectsURL(path, query: [("alt", "media"), ("token", token)])
    }

    // MARK: Plumbing

    private func validated(_ path: String) throws -> String {
        guard !path.isEmpty else {
            throw FirebaseStorageError(kind: .invalidArgument, message: "Empty object path", httpStatus: 0)
        }
        return path
    }

    /// `{base}/v0/b/{bucket}/o[/{encoded path}][?query]`.
    func objectsURL(_ path: String?, query: [(String, String)] = []) throws -> URL {
        var string = baseURL.baseWithoutTrailingSlash + "/v0/b/" + percentEncode(bucket) + "/o"
        if let path { string += "/" + percentEncode(try validated(path)) }
        if !query.isEmpty { string += "?" + percentEncodedQuery(query) }
        return try httpURL(string)
    }

    private func send(
        _ method: HTTPMethod, _ url: URL, body: Data? = nil, contentType: String? = nil
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(method: method, url: url, body: body)
        if let token = try await tokenProvider.idToken() { request.headers["Authorization"] = "Firebase " + token }
        if let contentType { request.headers["Content-Type"] = contentType }
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw FirebaseStorageError(response: response) }
        return response
    }
}
