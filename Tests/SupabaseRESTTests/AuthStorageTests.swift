import Foundation
import Testing

@testable import SupabaseREST

/// The session storages: in memory, and one private JSON file that survives relaunches and
/// corruption.
@Suite struct AuthStorageTests {
    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("supabase-rest-\(UUID().uuidString)/nested/session.json")
    }

    @Test func inMemoryStoresPerKeyAndForgets() throws {
        let storage = InMemoryAuthStorage()
        try storage.store(key: "a", value: Data("1".utf8))
        try storage.store(key: "b", value: Data("2".utf8))
        try storage.store(key: "a", value: Data("3".utf8))
        #expect(try storage.retrieve(key: "a") == Data("3".utf8))
        try storage.remove(key: "a")
        try storage.remove(key: "never-stored")
        #expect(try storage.retrieve(key: "a") == nil)
        #expect(try storage.retrieve(key: "b") == Data("2".utf8))
    }

    @Test func fileCreatesDirectoriesKeepsKeysApartAndIsPrivate() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let storage = FileAuthStorage(url: url)
        #expect(try storage.retrieve(key: "k") == nil)
        let binary = Data([0, 0xFF, 0x10])
        try storage.store(key: "k", value: binary)
        try storage.store(key: "other", value: Data("x".utf8))
        #expect(try FileAuthStorage(url: url).retrieve(key: "k") == binary)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try storage.remove(key: "k")
        #expect(try storage.retrieve(key: "k") == nil)
        #expect(try storage.retrieve(key: "other") == Data("x".utf8))
    }

    @Test func aCorruptFileReadsAsSignedOutAndIsReplacedOnTheNextSignIn() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"sb-project-auth-token": "#.utf8).write(to: url)
        #expect(throws: (any Error).self) { try FileAuthStorage(url: url).retrieve(key: "sb-project-auth-token") }

        let transport = RecordingTransport(body: sessionJSON(access: "fresh"))
        let client = makeClient(transport, storage: FileAuthStorage(url: url))
        #expect(client.auth.currentSession == nil)
        await #expect(throws: AuthError.sessionMissing) { _ = try await client.auth.session }
        try await client.auth.signIn(email: "a@b.c", password: "pw")
        #expect(makeClient(transport, storage: FileAuthStorage(url: url)).auth.currentSession?.accessToken == "fresh")
    }

    @Test func aSessionStoredByAnotherKeyOrProjectIsNotUsed() async throws {
        let storage = InMemoryAuthStorage()
        let transport = RecordingTransport(body: sessionJSON(access: "mine"))
        try await makeClient(transport, storage: storage).auth.signIn(email: "a@b.c", password: "pw")
        let other = SupabaseClient(
            supabaseURL: URL(string: "https://other.supabase.co")!, supabaseKey: anonKey,
            options: .init(auth: .init(storage: storage), global: .init(transport: transport)))
        #expect(other.auth.currentSession == nil)
        #expect(try storage.retrieve(key: "sb-other-auth-token") == nil)
    }

    @Test func aFailingStorageIsATypedError() async throws {
        struct Broken: AuthLocalStorage {
            struct Failure: Error {}
            func store(key: String, value: Data) throws { throw Failure() }
            func retrieve(key: String) throws -> Data? { nil }
            func remove(key: String) throws { throw Failure() }
        }
        let transport = RecordingTransport(body: sessionJSON())
        await #expect {
            try await makeClient(transport, storage: Broken()).auth.signIn(email: "a@b.c", password: "pw")
        } throws: { error in
            guard case AuthError.storage = error else { return false }
            return true
        }
    }
}
