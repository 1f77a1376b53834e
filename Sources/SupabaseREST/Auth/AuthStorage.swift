import Foundation
import Synchronization

/// Where the signed-in session is kept between launches.
///
/// Same protocol as supabase-swift's. Linux has no keychain, so supabase-swift has no
/// default there; this library defaults to ``InMemoryAuthStorage`` and offers
/// ``FileAuthStorage`` for command-line tools that must stay signed in.
public protocol AuthLocalStorage: Sendable {
    /// Stores `value` under `key`, replacing any previous value.
    func store(key: String, value: Data) throws
    /// The value stored under `key`, or `nil`.
    func retrieve(key: String) throws -> Data?
    /// Removes the value stored under `key` (no error when there is none).
    func remove(key: String) throws
}

/// Keeps the session in memory only: signed out at every launch. The default.
public final class InMemoryAuthStorage: AuthLocalStorage, Sendable {
    private let values = LockedValue<[String: Data]>([:])

    /// Creates an empty storage.
    public init() {}

    public func store(key: String, value: Data) throws { values.withValue { $0[key] = value } }
    public func retrieve(key: String) throws -> Data? { values.value[key] }
    public func remove(key: String) throws { values.withValue { $0[key] = nil } }
}

/// Keeps the session in one JSON file (`{"<key>": "<base64 value>"}`).
///
/// Writes are atomic (write-then-rename) so a crash never leaves half a session behind,
/// and the file is created with mode 0600 because it holds a refresh token, which is as
/// good as a password until it is used.
public final class FileAuthStorage: AuthLocalStorage, Sendable {
    /// The file holding the values.
    public let url: URL
    /// One reader or writer of the file at a time, in this process.
    private let file = Mutex(())

    /// Creates a storage backed by the file at `url` (created on first write, with its
    /// parent directories).
    public init(url: URL) {
        self.url = url
    }

    public func store(key: String, value: Data) throws {
        try mutate { $0[key] = value.base64EncodedString() }
    }

    public func retrieve(key: String) throws -> Data? {
        try file.withLock { _ throws(any Error) in try read()[key].flatMap { Data(base64Encoded: $0) } }
    }

    public func remove(key: String) throws {
        try mutate { $0[key] = nil }
    }

    private func mutate(_ body: (inout [String: String]) -> Void) throws {
        try file.withLock { _ throws(any Error) in try rewrite(body) }
    }

    private func rewrite(_ body: (inout [String: String]) -> Void) throws {
        // A corrupt file (a crash of another writer, a hand edit) is replaced rather than
        // making every later sign-in fail: what it held is unreadable anyway.
        var values = (try? read()) ?? [:]
        body(&values)
        let data = try JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// The stored values; throws when the file exists but cannot be read or is not the
    /// expected JSON object (so `retrieve` reports it, and the session is treated as absent).
    private func read() throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let data = try Data(contentsOf: url)
        if data.isEmpty { return [:] }
        guard let values = try JSONSerialization.jsonObject(with: data) as? [String: String] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return values
    }
}

/// Reads and writes the session under one storage key.
///
/// Dates are stored as seconds since 1970 rather than ISO 8601 text so that a stored
/// session reads back identical, microseconds included.
struct SessionStore: Sendable {
    let storage: any AuthLocalStorage
    let key: String

    /// The stored session; `nil` when absent or unreadable (a corrupt entry is treated as
    /// "signed out" rather than failing every request).
    func load() -> Session? {
        guard let data = try? storage.retrieve(key: key) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(Session.self, from: data)
    }

    func save(_ session: Session) throws {
        do {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.outputFormatting = .sortedKeys
            try storage.store(key: key, value: try encoder.encode(session))
        } catch {
            throw AuthError.storage(String(describing: error))
        }
    }

    func remove() throws {
        do {
            try storage.remove(key: key)
        } catch {
            throw AuthError.storage(String(describing: error))
        }
    }
}
