import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import NIOCore

/// `/storage/v1/object/…`: upload, download and delete in buckets, answering in Supabase
/// Storage's shapes (`{"Key": …}` on upload, ``StorageError`` on failure).
struct StorageRoutes<Context: AuthenticatedRequestContext> {
    let backend: LifeSignalBackend
    /// A bulk delete's body: 1,000 paths of up to 1,024 bytes each, as Supabase allows.
    static var removeBodyLimit: Int { 1_100 * 1024 }

    /// - Parameters:
    ///   - router: where requests with an API key go.
    ///   - publicObjects: where a plain URL (an `<img src>`) fetches a public object, as on
    ///     Supabase: no API key.
    func register(on router: some RouterMethods<Context>, publicObjects: some RouterMethods<Context>) {
        let translate = APIErrorMiddleware<Context> { error, _, _ in StorageError.translating(error) }
        publicObjects.group("storage/v1").add(middleware: translate)
            .get("object/public/:bucket/**") { request, context in try await self.download(request, context, anonymous: true) }
        let group = router.group("storage/v1").add(middleware: translate)
        group.post("object/:bucket/**") { request, context in try await self.upload(request, context, upsert: request.headers[.xUpsert] == "true") }
        group.put("object/:bucket/**") { request, context in try await self.upload(request, context, upsert: true) }
        group.get("object/authenticated/:bucket/**") { request, context in try await self.download(request, context, anonymous: false) }
        group.get("object/:bucket/**") { request, context in try await self.download(request, context, anonymous: false) }
        group.delete("object/:bucket/**") { request, context in try await self.removeOne(request, context) }
        group.delete("object/:bucket") { request, context in try await self.removeMany(request, context) }
    }

    private func path(_ context: Context) -> String {
        context.parameters.getCatchAll().joined(separator: "/").removingPercentEncoding ?? ""
    }

    /// The request's caller: anonymous without a token; a refused token is ``StorageError``'s
    /// `unauthenticated`.
    private func caller(_ context: Context) throws -> Caller {
        try context.authentication.caller().caller
    }

    /// Everything that decides an upload's fate but its bytes is in the head: the caller, the
    /// bucket, the folder, the type and the declared length are all checked before a byte of
    /// the body is read, so a stranger cannot make the server read (and hold) megabytes. The
    /// body is then read up to the bucket's own limit, not the server-wide one.
    private func upload(_ request: Request, _ context: Context, upsert: Bool) async throws -> Response {
        let who = try caller(context)
        let bucketName = context.parameters.get("bucket") ?? ""
        guard let bucket = StorageBucket.named(bucketName) else { throw StorageFailure.bucketNotFound(bucketName) }
        let name = path(context)
        try Self.requireWriter(who, path: name)
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        // The declared type only lets a body be read: the backend then stores the upload
        // only if its bytes are that image type (docs/security.md, "Uploads").
        guard bucket.accepts(contentType), ImageFormat(declared: contentType) != nil else {
            throw StorageFailure.unsupportedType(contentType)
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > bucket.maximumBytes {
            throw StorageFailure.tooLarge(limit: bucket.maximumBytes)
        }
        let data: Data
        do { data = try await request.collectBody(limit: bucket.maximumBytes + 1) } catch is BodyTooLarge {
            throw StorageFailure.tooLarge(limit: bucket.maximumBytes)
        }
        let stored = try await backend.files.upload(
            caller: who, bucket: bucketName, path: name, data: data, contentType: contentType, upsert: upsert)
        return JSONResponse.make(.ok, ["Key": "\(stored.bucket)/\(stored.name)"])
    }

    /// The backend's write rule (a person writes only under their own folder), checked from the
    /// head so a refused upload's body is never read; the backend checks it again when it writes.
    private static func requireWriter(_ caller: Caller, path: String) throws {
        switch caller {
        case .service: return
        case .anonymous: throw StorageFailure.unauthenticated
        case .user(let id):
            guard path.split(separator: "/").first.map(String.init) == id.description else {
                throw StorageFailure.forbidden("Objects go under your own folder: \(id)/…")
            }
        }
    }

    /// An object is served as the type its bytes are (``FileStorageService/download``), and
    /// with headers that keep a browser from treating it as anything but a picture, even one
    /// that reaches the API's origin directly: `nosniff` forbids guessing another type,
    /// `sandbox` runs a document opened from it with no script and a unique origin. Anything
    /// not an image taken is sent as an attachment, and `?download[=name]` asks for one, as on
    /// Supabase.
    private func download(_ request: Request, _ context: Context, anonymous: Bool) async throws -> Response {
        let who: Caller = anonymous ? .anonymous : try caller(context)
        let name = path(context)
        let (data, object) = try await backend.files.download(caller: who, bucket: context.parameters.get("bucket") ?? "", path: name)
        var headers: HTTPFields = [.contentType: object.contentType, .cacheControl: "max-age=3600"]
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = "sandbox"
        let asked = request.uri.queryParameters["download"].map(String.init)
        if asked != nil || ImageFormat(declared: object.contentType) == nil {
            let file = asked.flatMap { $0.isEmpty ? nil : $0 } ?? String(name.split(separator: "/").last ?? "download")
            headers[.contentDisposition] = Self.attachment(named: file)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `attachment` with the name twice (RFC 6266): an ASCII stand-in that no quote, control
    /// character or line break survives into, and the exact name percent-encoded (RFC 8187).
    static func attachment(named name: String) -> String {
        let plain = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
            })
        let exact = name.addingPercentEncoding(withAllowedCharacters: .attachmentNameCharacters) ?? plain
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(exact)"
    }

    private func removeOne(_ request: Request, _ context: Context) async throws -> Response {
        let removed = try await backend.files.remove(caller: try caller(context), bucket: context.parameters.get("bucket") ?? "", paths: [path(context)])
        guard !removed.isEmpty else { throw StorageFailure.objectNotFound(path(context)) }
        return JSONResponse.make(.ok, ["message": "Successfully deleted"])
    }

    /// Supabase's bulk form: `DELETE /object/<bucket>` with `{"prefixes": [paths]}`.
    private func removeMany(_ request: Request, _ context: Context) async throws -> Response {
        // The caller first, so a stranger's body is never read.
        let who = try caller(context)
        guard who != .anonymous else { throw StorageFailure.unauthenticated }
        let body: RemoveRequest
        do { body = try JSONDecoder().decode(RemoveRequest.self, from: try await request.collectBody(limit: Self.removeBodyLimit)) } catch {
            throw StorageFailure.invalidPath("Expected {\"prefixes\": [\"path\", …]} of at most \(Self.removeBodyLimit) bytes")
        }
        let bucket = context.parameters.get("bucket") ?? ""
        let removed = try await backend.files.remove(caller: who, bucket: bucket, paths: body.prefixes)
        return JSONResponse.make(.ok, removed.map { ["name": $0, "bucket_id": bucket] })
    }
}

extension CharacterSet {
    /// RFC 8187's `attr-char`: what a `filename*` value may hold without percent-encoding.
    static var attachmentNameCharacters: CharacterSet {
        CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~")
    }
}

struct RemoveRequest: Decodable {
    var prefixes: [String]
}
