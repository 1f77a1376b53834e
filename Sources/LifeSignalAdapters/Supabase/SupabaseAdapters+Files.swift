import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

extension SupabaseAdapters {
    /// Files through Storage (`client.storage.from(bucket)`). The public URL is built with no
    /// request, so it is checked to name a file first: the promise is a URL that works.
    public var fileStorageClient: FileStorageClient {
        let storage = client.storage
        return FileStorageClient(
            upload: { bucket, path, data, contentType in
                try FileRules.validate(bucket: bucket, data: data, contentType: contentType)
                _ = try await Self.files {
                    try await storage.from(bucket).upload(path, data: data, options: FileOptions(contentType: contentType, upsert: true))
                }
                return path
            },
            download: { bucket, path in try await Self.files { try await storage.from(bucket).download(path: path) } },
            delete: { bucket, path in
                // Storage answers a bulk removal with what it removed: nothing means no such file.
                let removed = try await Self.files { try await storage.from(bucket).remove(paths: [path]) }
                guard !removed.isEmpty else { throw DomainError.notFound("File \(path)") }
            },
            downloadURL: { bucket, path in
                let files = storage.from(bucket)
                _ = try await Self.files { try await files.download(path: path) }
                return try await Self.files { try files.getPublicURL(path: path) }
            })
    }

    /// Runs a Storage call, mapping its refusals (which come in Storage's own shape, not the
    /// functions' `{code, message}`) into the domain.
    static func files<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as SupabaseREST.StorageError {
            throw fromStorage(error)
        } catch {
            throw SupabaseErrorMapping.map(error)
        }
    }

    /// Storage's statuses → domain errors; 413 and 415 are a file the bucket does not take.
    static func fromStorage(_ error: SupabaseREST.StorageError) -> DomainError {
        switch error.statusCode.flatMap(Int.init) {
        case 400, 413, 415, 422: .invalidArgument(error.message)
        case 401: .unauthenticated
        case 403: .forbidden(error.message)
        case 404: .notFound("File")
        case 409: .alreadyExists("File")
        case 429: .rateLimited(retryAfter: 0)
        default: .internal(error.message)
        }
    }
}
