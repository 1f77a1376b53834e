import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import NIOCore

/// `/storage/v1/object/…`: upload, download and delete in buckets, answering in Supabase
/// Storage's shapes (`{"Key": …}` on upload, `{"statusCode", "error", "message"}` on failure).
struct StorageRoutes<Context: RequestContext> {
    let backend: LifeSignalBackend

    func register(on router: Router<Context>) {
        let group = router.group("storage/v1/object")
        group.post(":bucket/**") { request, context in await self.upload(request, context, upsert: request.headers[.xUpsert] == "true") }
        group.put(":bucket/**") { request, context in await self.upload(request, context, upsert: true) }
        group.get("public/:bucket/**") { request, context in await self.download(request, context, anonymous: true) }
        group.get("authenticated/:bucket/**") { request, context in await self.download(request, context, anonymous: false) }
        group.get(":bucket/**") { request, context in await self.download(request, context, anonymous: false) }
        group.delete(":bucket/**") { request, context in await self.removeOne(request, context) }
        group.delete(":bucket") { request, context in await self.removeMany(request, context) }
    }

    private func path(_ context: Context) -> String {
        context.parameters.getCatchAll().joined(separator: "/").removingPercentEncoding ?? ""
    }

    private func caller(_ request: Request) throws -> Caller {
        do { return try backend.auth.caller(bearer: request.bearerToken) } catch {
            throw StorageFailure.unauthenticated
        }
    }

    private func upload(_ request: Request, _ context: Context, upsert: Bool) async -> Response {
        await respond {
            let bucketName = context.parameters.get("bucket") ?? ""
            guard let bucket = StorageBucket.named(bucketName) else { throw StorageFailure.bucketNotFound(bucketName) }
            let limit = bucket.maximumBytes + 1
            let data: Data
            do { data = try await request.collectBody(limit: limit) } catch is BodyTooLarge {
                throw StorageFailure.tooLarge(limit: limit - 1)
            }
            let contentType = request.headers[.contentType] ?? "application/octet-stream"
            let stored = try await backend.files.upload(
                caller: try caller(request), bucket: bucketName, path: path(context), data: data,
                contentType: contentType, upsert: upsert)
            return JSONResponse.make(.ok, ["Key": "\(stored.bucket)/\(stored.name)"])
        }
    }

    private func download(_ request: Request, _ context: Context, anonymous: Bool) async -> Response {
        await respond {
            let who: Caller = anonymous ? .anonymous : try caller(request)
            let (data, object) = try await backend.files.download(caller: who, bucket: context.parameters.get("bucket") ?? "", path: path(context))
            return Response(status: .ok, headers: [.contentType: object.contentType, .cacheControl: "max-age=3600"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    private func removeOne(_ request: Request, _ context: Context) async -> Response {
        await respond {
            let removed = try await backend.files.remove(caller: try caller(request), bucket: context.parameters.get("bucket") ?? "", paths: [path(context)])
            guard !removed.isEmpty else { throw StorageFailure.objectNotFound(path(context)) }
            return JSONResponse.make(.ok, ["message": "Successfully deleted"])
        }
    }

    /// Supabase's bulk form: `DELETE /object/<bucket>` with `{"prefixes": [paths]}`.
    private func removeMany(_ request: Request, _ context: Context) async -> Response {
        await respond {
            let body: RemoveRequest
            do { body = try JSONDecoder().decode(RemoveRequest.self, from: try await request.collectBody(limit: 1 << 20)) } catch {
                throw StorageFailure.invalidPath("Expected {\"prefixes\": [\"path\", …]}")
            }
            let bucket = context.parameters.get("bucket") ?? ""
            let removed = try await backend.files.remove(caller: try caller(request), bucket: bucket, paths: body.prefixes)
            return JSONResponse.make(.ok, removed.map { ["name": $0, "bucket_id": bucket] })
        }
    }

    private func respond(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch let failure as StorageFailure {
            let (status, error, message): (HTTPResponse.Status, String, String) = switch failure {
            case .bucketNotFound(let name): (.notFound, "Bucket not found", "Bucket \"\(name)\" not found")
            case .objectNotFound: (.notFound, "not_found", "Object not found")
            case .invalidPath(let why): (.badRequest, "InvalidKey", "Invalid key: \(why)")
            case .unauthenticated: (.unauthorized, "Unauthorized", "Invalid or missing token")
            case .forbidden(let why): (.forbidden, "Unauthorized", "new row violates row-level security policy: \(why)")
            case .tooLarge(let limit): (.contentTooLarge, "Payload too large", "The object exceeded the maximum allowed size of \(limit) bytes")
            case .unsupportedType(let type): (.unsupportedMediaType, "invalid_mime_type", "mime type \(type) is not supported")
            case .alreadyExists: (.conflict, "Duplicate", "The resource already exists")
            }
            return JSONResponse.make(status, ["statusCode": String(status.code), "error": error, "message": message])
        } catch {
            return JSONResponse.make(.internalServerError, ["statusCode": "500", "error": "internal", "message": "Internal error"])
        }
    }
}

struct RemoveRequest: Decodable {
    var prefixes: [String]
}
