import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// Files in the project's one Storage bucket, each LifeSignal bucket a folder of it
    /// (`avatars/<uid>/…`), as the avatar code keeps them. Download URLs carry the object's
    /// download token, so they open without signing in.
    public var fileStorageClient: FileStorageClient {
        let adapters = self
        return FileStorageClient(
            upload: { bucket, path, data, contentType in
                try FileRules.validate(bucket: bucket, data: data, contentType: contentType)
                let storage = try adapters.requireFileStorage()
                _ = try await Self.mapped { try await storage.upload(data, to: Self.object(bucket, path), contentType: contentType) }
                return path
            },
            download: { bucket, path in
                let storage = try adapters.requireFileStorage()
                return try await Self.mapped { try await storage.download(Self.object(bucket, path)) }
            },
            delete: { bucket, path in
                let storage = try adapters.requireFileStorage()
                try await Self.mapped { try await storage.delete(Self.object(bucket, path)) }
            },
            downloadURL: { bucket, path in
                let storage = try adapters.requireFileStorage()
                let object = Self.object(bucket, path)
                return try await Self.mapped {
                    let metadata = try await storage.metadata(object)
                    guard let token = metadata.downloadTokens?.split(separator: ",").first else {
                        throw DomainError.internal("Firebase Storage gave \(path) no download token")
                    }
                    return try storage.downloadURL(for: object, token: String(token))
                }
            })
    }

    /// The Storage client, or a refusal naming what is missing (files are refused, not lost).
    func requireFileStorage() throws(DomainError) -> FirebaseStorageClient {
        guard let storage else { throw .failedPrecondition("No Firebase Storage bucket is configured, so files cannot be stored") }
        return storage
    }

    /// The object in the project bucket that stands for `path` in LifeSignal bucket `bucket`.
    static func object(_ bucket: String, _ path: String) -> String { bucket + "/" + path }
}
