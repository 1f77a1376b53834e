import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// Files in the embedded backend's buckets. Public URLs point at ``publicURL``, where
    /// `lifesignal serve` over the same data answers them.
    public var fileStorageClient: FileStorageClient {
        let files = backend.files
        let publicURL = self.publicURL
        let sessions = self.sessions
        let adapters = self
        /// Reading a public bucket needs no session; with one, the person reads as themselves.
        @Sendable func reader() async throws -> Caller {
            await sessions.session == nil ? .anonymous : try await adapters.caller()
        }
        return FileStorageClient(
            upload: { bucket, path, data, contentType in
                try FileRules.validate(bucket: bucket, data: data, contentType: contentType)
                let caller = try await caller()
                return try await Self.storage {
                    try await files.upload(caller: caller, bucket: bucket, path: path, data: data, contentType: contentType, upsert: true)
                }.name
            },
            download: { bucket, path in
                let caller = try await reader()
                return try await Self.storage { try await files.download(caller: caller, bucket: bucket, path: path) }.data
            },
            delete: { bucket, path in
                let caller = try await caller()
                let removed = try await Self.storage { try await files.remove(caller: caller, bucket: bucket, paths: [path]) }
                guard !removed.isEmpty else { throw DomainError.notFound("File \(path)") }
            },
            downloadURL: { bucket, path in
                // The URL is only promised for a file that is there, as on Firebase.
                let caller = try await reader()
                _ = try await Self.storage { try await files.download(caller: caller, bucket: bucket, path: path) }
                return publicURL.appendingPathComponent("storage/v1/object/public/\(bucket)/\(path)")
            })
    }
}
