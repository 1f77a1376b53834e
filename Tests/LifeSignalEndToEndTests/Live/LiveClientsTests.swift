import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalPostgres
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

/// ``LiveClients`` opened from a configuration, used only through its deferred clients (what
/// every `liveValue` is): the embedded backend, a real server over HTTP, and a mix.
@Suite("Live clients")
struct LiveClientsTests {
    /// The embedded backend, over either engine (some cases use PostgreSQL).
    static let embedded = LocalAdapters.embeddedBackend(engines: [.postgres, .sqlite])

    /// A fresh directory under the system's temporary one: tests never touch ~/.lifesignal.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-live-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Signs in through the deferred auth client, checks in and reads the profile back.
    static func signInAndCheckIn(_ set: ClientSet, phone: String, code: String) async throws -> (AuthSession, CheckInResult) {
        try await set.auth.sendCode(try PhoneNumber(phone))
        let session = try await set.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        let result = try await set.checkIn.checkIn()
        let profile = try await set.user.profile()
        #expect(profile.id == session.userID && profile.phone == phone)
        // The database keeps microseconds; the in-process result has the clock's full precision.
        #expect(abs((profile.lastCheckIn ?? .distantPast).timeIntervalSince(result.checkedInAt)) < 0.001)
        return (session, result)
    }

    @Test("local: the embedded backend opens in the data directory, once, and keeps a generated secret there")
    func local() async throws {
        let directory = try Self.temporaryDirectory()
        let live = LiveClients(
            configuration: try LiveConfiguration(environment: [
                "LIFESIGNAL_DATA_DIR": directory.path, "LIFESIGNAL_TEST_OTP": "+15550007001=700100",
            ]), embedded: Self.embedded)
        let set = live.deferred
        // Before the first call nothing is opened or written.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("jwt-secret").path))
        let (session, _) = try await Self.signInAndCheckIn(set, phone: "+15550007001", code: "700100")

        // One set behind every deferred client: the session is the opened set's.
        #expect(try await live.clients().auth.currentSession() == session)
        #expect(await set.auth.currentSession() == session)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("lifesignal.sqlite").path))
        let secret = directory.appendingPathComponent("jwt-secret").path
        #expect(try FileManager.default.attributesOfItem(atPath: secret)[.posixPermissions] as? Int == 0o600)

        // A synchronous stream relays the opened client's: the device token, once made.
        let token = try await set.messaging.token()
        #expect(try await firstElement(of: set.messaging.tokenStream()) == token)
        await live.close()

        // Reopened after close, on the same file and secret: the person is still there.
        let again = LiveClients(
            configuration: try LiveConfiguration(environment: [
                "LIFESIGNAL_DATA_DIR": directory.path, "LIFESIGNAL_TEST_OTP": "+15550007001=700100",
            ]), embedded: Self.embedded)
        try await again.deferred.auth.sendCode(try PhoneNumber("+15550007001"))
        let second = try await again.deferred.auth.verifyCode(try PhoneNumber("+15550007001"), try OneTimeCode("700100"))
        #expect(second.userID == session.userID && !second.isNewUser)
        #expect(try await again.deferred.checkIn.history(10).count == 1)
        await again.close()
    }

    @Test("supabase: the deferred clients talk to a real server over HTTP", arguments: [Engine.sqlite, .postgres])
    func supabase(engine: Engine) async throws {
        let phone = "+15550007002"
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "\(phone)=700200"))
        let server = try await TestServer.start(test.backend)
        defer {
            Task {
                await server.stop()
                try? await test.backend.close()
            }
        }
        let configuration = try LiveConfiguration(environment: [
            "LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_URL": server.baseURL.absoluteString, "LIFESIGNAL_ANON_KEY": server.anonKey,
        ])
        #expect(configuration.local == nil)
        let live = LiveClients(configuration: configuration, embedded: Self.embedded)
        let (session, result) = try await Self.signInAndCheckIn(live.deferred, phone: phone, code: "700200")
        // The server's database holds the check-in.
        let row = try #require(try await test.backend.database.query("SELECT user_id FROM check_ins").first)
        #expect(try row.uuid("user_id") == session.userID.rawValue)
        #expect(
            try await test.backend.checkIns.status(caller: await test.backend.auth.tokens.caller(bearer: session.accessToken)).lastCheckIn
                == result.checkedInAt)
        await live.close()
    }

    @Test("supabase with LIFESIGNAL_SESSION_FILE: the next launch starts signed in; without it, signed out")
    func supabaseSessionFile() async throws {
        let phone = "+15550007004"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=700400"))
        let server = try await TestServer.start(test.backend)
        defer {
            Task {
                await server.stop()
                try? await test.backend.close()
            }
        }
        let file = try Self.temporaryDirectory().appendingPathComponent("session.json")
        let base = ["LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_URL": server.baseURL.absoluteString, "LIFESIGNAL_ANON_KEY": server.anonKey]
        let persistent = try LiveConfiguration(environment: base.merging(["LIFESIGNAL_SESSION_FILE": file.path]) { $1 })
        #expect(persistent.supabase?.sessionFile == file)

        let first = LiveClients(configuration: persistent, embedded: Self.embedded)
        let (session, _) = try await Self.signInAndCheckIn(first.deferred, phone: phone, code: "700400")
        await first.close()
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the file holds a refresh token")

        let relaunched = LiveClients(configuration: persistent, embedded: Self.embedded)
        #expect(await relaunched.deferred.auth.currentSession()?.userID == session.userID)
        #expect(try await relaunched.deferred.checkIn.history(10).count == 1, "the kept session reaches the server")
        await relaunched.close()

        let inMemory = LiveClients(configuration: try LiveConfiguration(environment: base), embedded: Self.embedded)
        #expect(await inMemory.deferred.auth.currentSession() == nil)
        await inMemory.close()
    }

    @Test("a mix: auth, check-in and profile over Supabase, content in-process on the server's database; one sign-in serves both")
    func mixed() async throws {
        let phone = "+15550007003"
        let directory = try Self.temporaryDirectory()
        let database = directory.appendingPathComponent("shared.sqlite").path
        let secret = "live-mix-secret-with-at-least-32-characters"
        let backend = try await LifeSignalBackend.open(
            databaseURL: database, configuration: .init(jwtSecret: secret, testOTPs: try TestOTPs(parsing: "\(phone)=700300")), engines: [.sqlite])
        let server = try await TestServer.start(backend)
        defer {
            Task {
                await server.stop()
                try? await backend.close()
            }
        }
        let live = LiveClients(
            configuration: try LiveConfiguration(environment: [
                "LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_PROVIDER_CONTENT": "local",
                "LIFESIGNAL_URL": server.baseURL.absoluteString, "LIFESIGNAL_ANON_KEY": server.anonKey,
                "LIFESIGNAL_DATABASE_URL": database, "LIFESIGNAL_JWT_SECRET": secret, "LIFESIGNAL_DATA_DIR": directory.path,
            ]), embedded: Self.embedded)
        let set = live.deferred
        await #expect(throws: DomainError.unauthenticated) { _ = try await set.content.saveRoute(.init(name: "Loop")) }
        let (session, _) = try await Self.signInAndCheckIn(set, phone: phone, code: "700300")

        // Written in-process as the person signed in over HTTP, on the server's database, once
        // an operator has made them a content editor.
        await #expect(throws: ContentRules.notEditor(.routes)) { _ = try await set.content.saveRoute(.init(name: "Loop")) }
        _ = try await backend.auth.updateAppMetadata(of: session.userID, merging: #"{"role":"editor"}"#)
        let route = try await set.content.saveRoute(.init(name: "Ridge Walk", durationMinutes: 45))
        #expect(route.createdBy == session.userID.rawValue)
        #expect(try await set.content.routes(ContentFilter()) == [route])
        let row = try #require(try await backend.database.query("SELECT created_by FROM routes WHERE id = \(SQLValue.uuid(route.id))").first)
        #expect(try row.uuid("created_by") == session.userID.rawValue)

        try await set.auth.signOut()
        await #expect(throws: DomainError.unauthenticated) { try await set.content.deleteRoute(route.id) }
        await live.close()
    }

    @Test("without the embedded backend linked and given, a local configuration is refused in words that say so")
    func localNeedsTheEmbeddedBackend() async throws {
        let directory = try Self.temporaryDirectory()
        let live = LiveClients(configuration: try LiveConfiguration(environment: ["LIFESIGNAL_DATA_DIR": directory.path]))
        let error = await #expect(throws: DomainError.self) { _ = try await live.clients() }
        #expect(error?.message.contains("LifeSignalLocalAdapters") == true)
        // Nothing was opened: no database file in the data directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasSuffix(".sqlite") })
    }

    @Test("a failed open is thrown by every throwing call and not kept: the next call, after the fix, opens")
    func failedOpenIsRetried() async throws {
        let directory = try Self.temporaryDirectory()
        let path = directory.appendingPathComponent("config.json")
        try Data(#"{"provider": "supabase"}"#.utf8).write(to: path)
        let live = LiveClients(environment: { ["LIFESIGNAL_CONFIG": path.path] }, embedded: Self.embedded)
        let set = live.deferred
        let missing = DomainError.invalidArgument("The supabase provider needs LIFESIGNAL_URL (or \"url\" in the LIFESIGNAL_CONFIG file)")
        await #expect(throws: missing) { _ = try await set.checkIn.status() }
        await #expect(throws: missing) { try await set.auth.sendCode(try PhoneNumber("+15550007004")) }
        await #expect(throws: missing) { _ = try await set.files.upload("avatars", "x/avatar", Data([1]), "image/png") }
        // The calls that cannot throw answer as a backend with nothing to say.
        #expect(await set.auth.currentSession() == nil)
        #expect(await Self.ends(set.auth.sessionChanges()))
        #expect(await Self.ends(set.messaging.messageStream()))

        // The file is fixed while the process runs: the next call opens.
        try Data(#"{"provider": "local", "data_dir": "\#(directory.path)", "test_otp": "+15550007004=700400"}"#.utf8).write(to: path)
        _ = try await Self.signInAndCheckIn(set, phone: "+15550007004", code: "700400")
        await live.close()
    }

    @Test("a database that cannot be opened is a failed precondition naming it")
    func unopenableDatabase() async throws {
        let live = LiveClients(
            configuration: LiveConfiguration(
                local: LocalSettings(
                    dataDirectory: try Self.temporaryDirectory(), databaseURL: "/dev/null/lifesignal.sqlite", jwtSecret: "a-secret-of-at-least-32-characters!!")
            ), embedded: Self.embedded)
        do {
            _ = try await live.deferred.content.locations(ContentFilter())
            Issue.record("opened a database under /dev/null")
        } catch {
            guard case .failedPrecondition(let message) = error as? DomainError else { throw error }
            #expect(message.hasPrefix("The database /dev/null/lifesignal.sqlite cannot be opened: "))
        }
    }

    /// Whether `stream` finishes (rather than hanging for ``streamPatience``).
    static func ends<Element: Sendable>(_ stream: AsyncStream<Element>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stream {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(streamPatience))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
