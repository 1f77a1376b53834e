import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A stored object's description.
public struct StoredObject: Sendable, Hashable {
    public var bucket: String
    public var name: String
    public var contentType: String
    public var size: Int
    public var owner: UserID?
    public var updatedAt: Date
}

/// Files in buckets, with the rules of ``StorageBucket``: the rules behind `/storage/v1`.
///
/// A signed-in person writes only under a folder named by their own id (`<uid>/avatar.png`),
/// as Supabase's usual storage policy `auth.uid()::text = (storage.foldername(name))[1]`.
/// Every bucket holds pictures only, and only ones whose bytes are a PNG, JPEG, WebP or HEIC
/// image of the type declared and within ``imageLimits``: a file that a browser could run as
/// a page (SVG, HTML) is never stored, whatever its `Content-Type` says.
public struct FileStorageService: Sendable {
    let database: any Database
    let clock: BackendClock
    /// The widest and tallest picture stored.
    public let imageLimits: ImageLimits

    public init(database: any Database, clock: BackendClock, imageLimits: ImageLimits = .standard) {
        self.database = database
        self.clock = clock
        self.imageLimits = imageLimits
    }

    public func upload(caller: Caller, bucket bucketName: String, path: String, data: Data, contentType: String, upsert: Bool) async throws -> StoredObject {
        let bucket = try Self.bucket(bucketName)
        try Self.validate(path)
        let owner = try Self.requireWriter(caller, path: path)
        guard data.count <= bucket.maximumBytes else { throw StorageFailure.tooLarge(limit: bucket.maximumBytes) }
        guard bucket.accepts(contentType) else { throw StorageFailure.unsupportedType(contentType) }
        // Stored as the type the bytes are, never as the uploader's words for it.
        let contentType = try Self.image(data, declared: contentType, limits: imageLimits).format.mimeType
        let now = clock.now()
        let ownerValue: SQLValue = owner.map { .uuid($0.rawValue) } ?? .null
        let conflict =
            upsert
            ? " ON CONFLICT (bucket, name) DO UPDATE SET data = excluded.data, content_type = excluded.content_type, size = excluded.size, updated_at = excluded.updated_at, owner = excluded.owner"
            : ""
        do {
            try await database.query(
                SQL.raw("") + """
                    INSERT INTO storage_objects (bucket, name, owner, content_type, size, data, created_at, updated_at)
                    VALUES (\(bucket.name), \(path), \(ownerValue), \(contentType), \(data.count), \(SQLValue.bytes(data)), \(SQLValue(now)), \(SQLValue(now)))
                    """ + SQL.raw(conflict))
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw StorageFailure.alreadyExists(path)
        }
        return StoredObject(bucket: bucket.name, name: path, contentType: contentType, size: data.count, owner: owner, updatedAt: now)
    }

    /// The object's bytes and type. Public buckets need no caller; private ones, the owner.
    public func download(caller: Caller, bucket bucketName: String, path: String) async throws -> (data: Data, object: StoredObject) {
        let bucket = try Self.bucket(bucketName)
        try Self.validate(path)
        guard
            let row = try await database.query(
                "SELECT owner, content_type, size, data, updated_at FROM storage_objects WHERE bucket = \(bucket.name) AND name = \(path)"
            ).first
        else { throw StorageFailure.objectNotFound(path) }
        let owner = row.optionalUUID("owner").map { UserID(rawValue: $0) }
        if !bucket.isPublic {
            switch caller {
            case .service: break
            case .user(let id) where id == owner: break
            default: throw StorageFailure.objectNotFound(path)
            }
        }
        guard case .bytes(let data) = row["data"] else { throw DatabaseError.decoding("storage_objects.data is not bytes") }
        // Served as what the bytes are: an object stored before uploads were sniffed (an SVG
        // recorded as image/svg+xml) comes back as opaque bytes, never as markup.
        let type = ImageSniffer.format(of: data)?.mimeType ?? "application/octet-stream"
        return (
            data,
            StoredObject(
                bucket: bucket.name, name: path, contentType: type,
                size: try row.int("size"), owner: owner, updatedAt: try row.date("updated_at"))
        )
    }

    /// The upload's bytes as a picture a bucket takes. The declared type must name one of the
    /// formats taken and agree with the bytes (a client that calls a PNG `image/jpeg` has a
    /// bug worth hearing about); the bytes must be that format through their header, and the
    /// picture within `limits`. Public so that clients can check a file before sending it.
    public static func image(_ data: Data, declared: String, limits: ImageLimits) throws(StorageFailure) -> ImageInfo {
        guard ImageFormat(declared: declared) != nil else { throw .unsupportedType(declared) }
        do throws(ImageRejection) { return try ImageSniffer.check(data, declared: declared, limits: limits) } catch { throw .rejectedImage(error) }
    }

    /// Removes the caller's objects among `paths`; returns the names removed.
    public func remove(caller: Caller, bucket bucketName: String, paths: [String]) async throws -> [String] {
        let bucket = try Self.bucket(bucketName)
        return try await database.transaction { connection in
            var names: [String] = []
            for path in paths {
                try Self.validate(path)
                _ = try Self.requireWriter(caller, path: path)
                let rows = try await connection.query(
                    "DELETE FROM storage_objects WHERE bucket = \(bucket.name) AND name = \(path) RETURNING name")
                names += try rows.map { try $0.string("name") }
            }
            return names
        }
    }

    static func bucket(_ name: String) throws -> StorageBucket {
        guard let bucket = StorageBucket.named(name) else { throw StorageFailure.bucketNotFound(name) }
        return bucket
    }

    /// Paths are `/`-separated names: no empty segments, no `.` or `..`, at most 1,024 bytes.
    static func validate(_ path: String) throws {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, path.utf8.count <= 1024,
            segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
            !path.contains(where: { $0.isNewline || $0 == "\0" })
        else { throw StorageFailure.invalidPath(path) }
    }

    /// The owner a write is recorded for; a signed-in person only under their own folder.
    static func requireWriter(_ caller: Caller, path: String) throws -> UserID? {
        switch caller {
        case .service: return nil
        case .anonymous: throw StorageFailure.unauthenticated
        case .user(let id):
            guard path.split(separator: "/").first.map(String.init) == id.description else {
                throw StorageFailure.forbidden("Objects go under your own folder: \(id)/…")
            }
            return id
        }
    }
}

extension LifeSignalBackend {
    /// Files in buckets (avatars).
    public var files: FileStorageService { FileStorageService(database: database, clock: clock, imageLimits: configuration.imageLimits) }
}
