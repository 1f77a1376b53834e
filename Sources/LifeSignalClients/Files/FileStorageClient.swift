import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// Files in storage buckets (seed `002_…`'s `FileStorageClient`), the same on every backend.
///
/// A bucket's rules are the server's: the one bucket, `avatars`, takes images up to 5 MB,
/// lets a person write only under their own folder (`<user id>/…`) and lets anyone read.
/// Refusals arrive as ``DomainError``: a missing file ``DomainError/notFound(_:)``, another
/// person's folder ``DomainError/forbidden(_:)``, a file the bucket does not take
/// ``DomainError/invalidArgument(_:)``.
@DependencyClient
public struct FileStorageClient: Sendable {
    /// Stores `data` at `path` in `bucket`, replacing what was there; returns the path.
    public var upload: @Sendable (_ bucket: String, _ path: String, _ data: Data, _ contentType: String) async throws -> String
    /// The file's bytes.
    public var download: @Sendable (_ bucket: String, _ path: String) async throws -> Data
    /// Removes the file; a file that is not there is ``DomainError/notFound(_:)``, so a
    /// mistyped path is not mistaken for a success.
    public var delete: @Sendable (_ bucket: String, _ path: String) async throws -> Void
    /// A URL the file can be fetched from without signing in (to show in an image view or
    /// share); ``DomainError/notFound(_:)`` when there is no such file.
    public var downloadURL: @Sendable (_ bucket: String, _ path: String) async throws -> URL
}

extension FileStorageClient: TestDependencyKey {
    public static let testValue = FileStorageClient()

    /// One `avatars` bucket in memory, with the real bucket's limits (images, 5 MB) and one
    /// picture already in it, so screens have something to show.
    public static var previewValue: FileStorageClient {
        let me = "00000000-0000-4000-8000-00000000c001"
        let files = LockIsolated(["avatars/\(me)/avatar": Data([0x89, 0x50, 0x4E, 0x47])])
        @Sendable func key(_ bucket: String, _ path: String) throws -> String {
            guard bucket == "avatars" else { throw DomainError.notFound("Bucket \(bucket)") }
            guard !path.isEmpty, !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
                throw DomainError.invalidArgument("Invalid file path \(path)")
            }
            return bucket + "/" + path
        }
        @Sendable func existing(_ bucket: String, _ path: String) throws -> Data {
            guard let data = files.value[try key(bucket, path)] else { throw DomainError.notFound("File \(path)") }
            return data
        }
        return FileStorageClient(
            upload: { bucket, path, data, contentType in
                let name = try key(bucket, path)
                guard contentType.lowercased().hasPrefix("image/") else {
                    throw DomainError.invalidArgument("Files of type \(contentType) are not accepted here")
                }
                guard data.count <= 5 * 1024 * 1024 else { throw DomainError.invalidArgument("The file is larger than 5242880 bytes") }
                files.withValue { $0[name] = data }
                return path
            },
            download: { bucket, path in try existing(bucket, path) },
            delete: { bucket, path in
                _ = try existing(bucket, path)
                let name = try key(bucket, path)
                files.withValue { $0[name] = nil }
            },
            downloadURL: { bucket, path in
                _ = try existing(bucket, path)
                guard let url = URL(string: "https://example.com/storage/\(bucket)/\(path)") else {
                    throw DomainError.invalidArgument("Invalid file path \(path)")
                }
                return url
            })
    }
}

extension DependencyValues {
    public var fileStorageClient: FileStorageClient {
        get { self[FileStorageClient.self] }
        set { self[FileStorageClient.self] = newValue }
    }
}
