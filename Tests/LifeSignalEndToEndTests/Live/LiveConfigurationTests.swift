import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Testing

/// ``LiveConfiguration``: the environment over the `LIFESIGNAL_CONFIG` file, settings only for
/// the providers selected, and refusals that name the variable or the file key at fault.
@Suite("Live configuration")
struct LiveConfigurationTests {
    /// A config file in a fresh temporary directory.
    static func file(_ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("config.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("from the environment only: a mix gets each selected provider's settings, and only those")
    func environmentOnly() throws {
        let configuration = try LiveConfiguration(environment: [
            "LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_PROVIDER_CONTENT": "local",
            "LIFESIGNAL_URL": "https://project.supabase.co", "LIFESIGNAL_ANON_KEY": "anon-key",
            "LIFESIGNAL_DATA_DIR": "/srv/lifesignal", "LIFESIGNAL_TEST_OTP": "+15550001111=123456",
            // Not selected, so not read: a bad Firebase setting does not matter.
            "LIFESIGNAL_FIREBASE_REGION": "Not A Region", "PATH": "/usr/bin",
        ])
        #expect(
            configuration
                == LiveConfiguration(
                    selection: ProviderSelection(default: .supabase, overrides: [.content: .local]),
                    local: LocalSettings(
                        dataDirectory: URL(fileURLWithPath: "/srv/lifesignal", isDirectory: true),
                        testOTPs: try TestOTPs(parsing: "+15550001111=123456")),
                    supabase: SupabaseSettings(url: try #require(URL(string: "https://project.supabase.co")), anonKey: "anon-key")))
        #expect(configuration.local?.databaseURL == "/srv/lifesignal/lifesignal.sqlite")
        #expect(configuration.providers == [.supabase, .local])

        // Nothing set: everything local, in ~/.lifesignal (read, never written, by parsing).
        let defaults = try LiveConfiguration(environment: [:])
        #expect(defaults.providers == [.local] && defaults.supabase == nil && defaults.firebase == nil)
        #expect(defaults.local?.dataDirectory.lastPathComponent == ".lifesignal" && defaults.local?.jwtSecret == nil)
    }

    @Test("from the file only: keys are the variables' names without LIFESIGNAL_, in lower case")
    func fileOnly() throws {
        let path = try Self.file(
            """
            {"provider": "firebase", "provider_content": "local", "firebase_project_id": "demo-lifesignal",
             "firebase_emulator_host": "127.0.0.1", "firebase_region": "europe-west1",
             "database_url": "postgres://app:secret@db.internal/lifesignal", "jwt_secret": "a-secret-of-at-least-32-characters!!"}
            """)
        let configuration = try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": path, "LIFESIGNAL_DATA_DIR": "/srv/ls"])
        #expect(
            configuration
                == LiveConfiguration(
                    selection: ProviderSelection(default: .firebase, overrides: [.content: .local]),
                    local: LocalSettings(
                        dataDirectory: URL(fileURLWithPath: "/srv/ls", isDirectory: true),
                        databaseURL: "postgres://app:secret@db.internal/lifesignal", jwtSecret: "a-secret-of-at-least-32-characters!!"),
                    firebase: FirebaseSettings(projectID: "demo-lifesignal", region: "europe-west1", emulatorHost: "127.0.0.1")))
        #expect(LocalSettings.redacted(configuration.local?.databaseURL ?? "") == "postgres://app:****@db.internal/lifesignal")
    }

    @Test("the environment overrides the file, setting by setting")
    func environmentOverridesFile() throws {
        let path = try Self.file(#"{"provider": "local", "url": "http://file.example:1", "anon_key": "file-key"}"#)
        let configuration = try LiveConfiguration(environment: [
            "LIFESIGNAL_CONFIG": path, "LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_URL": "http://env.example:2",
            // An empty variable is unset: the file's value stands.
            "LIFESIGNAL_ANON_KEY": "",
        ])
        #expect(configuration.providers == [.supabase] && configuration.local == nil)
        #expect(configuration.supabase == SupabaseSettings(url: try #require(URL(string: "http://env.example:2")), anonKey: "file-key"))
    }

    @Test("an unknown provider is refused naming the variable, or the key and the file")
    func unknownProvider() throws {
        #expect(throws: DomainError.invalidArgument("LIFESIGNAL_PROVIDER_PINGS=parse is not a provider; use local, supabase or firebase")) {
            try LiveConfiguration(environment: ["LIFESIGNAL_PROVIDER_PINGS": "parse"])
        }
        let path = try Self.file(#"{"provider": "appwrite"}"#)
        #expect(throws: DomainError.invalidArgument("\"provider\": \"appwrite\" in \(path) is not a provider; use local, supabase or firebase")) {
            try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": path])
        }
        // The environment's good value overrides the file's bad one.
        #expect(try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": path, "LIFESIGNAL_PROVIDER": "local"]).providers == [.local])
    }

    @Test("a selected provider missing a required setting is refused by name")
    func missingSettings() {
        let supabase = ["LIFESIGNAL_PROVIDER": "supabase"]
        #expect(throws: DomainError.invalidArgument("The supabase provider needs LIFESIGNAL_URL (or \"url\" in the LIFESIGNAL_CONFIG file)")) {
            try LiveConfiguration(environment: supabase)
        }
        #expect(throws: DomainError.invalidArgument("The supabase provider needs LIFESIGNAL_ANON_KEY (or \"anon_key\" in the LIFESIGNAL_CONFIG file)")) {
            try LiveConfiguration(environment: supabase.merging(["LIFESIGNAL_URL": "http://127.0.0.1:54321"]) { $1 })
        }
        #expect(
            throws: DomainError.invalidArgument(
                "The firebase provider needs LIFESIGNAL_FIREBASE_PROJECT_ID (or \"firebase_project_id\" in the LIFESIGNAL_CONFIG file)")
        ) {
            try LiveConfiguration(environment: ["LIFESIGNAL_PROVIDER_FILES": "firebase", "LIFESIGNAL_FIREBASE_API_KEY": "key"])
        }
        // Production needs the API key; the emulators do not.
        #expect(
            throws: DomainError.invalidArgument(
                "The firebase provider needs LIFESIGNAL_FIREBASE_API_KEY (or \"firebase_api_key\" in the LIFESIGNAL_CONFIG file)")
        ) {
            try LiveConfiguration(environment: ["LIFESIGNAL_PROVIDER": "firebase", "LIFESIGNAL_FIREBASE_PROJECT_ID": "demo"])
        }
        #expect(throws: Never.self) {
            try LiveConfiguration(environment: [
                "LIFESIGNAL_PROVIDER": "firebase", "LIFESIGNAL_FIREBASE_PROJECT_ID": "demo", "LIFESIGNAL_FIREBASE_EMULATOR_HOST": "localhost",
            ])
        }
    }

    @Test("a bad value is refused naming where it was written")
    func badValues() throws {
        #expect(throws: DomainError.invalidArgument("LIFESIGNAL_URL=ftp://files.example is not an http(s) URL")) {
            try LiveConfiguration(environment: ["LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_URL": "ftp://files.example", "LIFESIGNAL_ANON_KEY": "k"])
        }
        let path = try Self.file(#"{"provider": "supabase", "url": "not a url", "anon_key": "k"}"#)
        #expect(throws: DomainError.invalidArgument("\"url\": \"not a url\" in \(path) is not an http(s) URL")) {
            try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": path])
        }
        #expect(
            throws: DomainError.invalidArgument(
                "LIFESIGNAL_TEST_OTP=+15550001111 is not a list of phone=code pairs: LIFESIGNAL_TEST_OTP entries look like +15550001111=123456, not \"+15550001111\""
            )
        ) {
            try LiveConfiguration(environment: ["LIFESIGNAL_TEST_OTP": "+15550001111"])
        }
        #expect(throws: DomainError.invalidArgument("LIFESIGNAL_FIREBASE_REGION=Europe West is not a name of lower-case letters, digits and hyphens")) {
            try LiveConfiguration(environment: [
                "LIFESIGNAL_PROVIDER": "firebase", "LIFESIGNAL_FIREBASE_PROJECT_ID": "demo", "LIFESIGNAL_FIREBASE_API_KEY": "key",
                "LIFESIGNAL_FIREBASE_REGION": "Europe West",
            ])
        }
        #expect(
            throws: DomainError.invalidArgument(
                "LIFESIGNAL_FIREBASE_EMULATOR_HOST=127.0.0.1:9099 is not a host name (no scheme or port: the emulators' default ports are used)")
        ) {
            try LiveConfiguration(environment: [
                "LIFESIGNAL_PROVIDER": "firebase", "LIFESIGNAL_FIREBASE_PROJECT_ID": "demo", "LIFESIGNAL_FIREBASE_EMULATOR_HOST": "127.0.0.1:9099",
            ])
        }
    }

    @Test("a malformed or unreadable file, an unknown key and a value that is not a string are refused")
    func malformedFile() throws {
        for text in ["provider = local", "[\"local\"]", ""] {
            let path = try Self.file(text)
            #expect(throws: DomainError.invalidArgument("LIFESIGNAL_CONFIG=\(path) is not a JSON object")) {
                try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": path])
            }
        }
        let typo = try Self.file(#"{"provider": "local", "databse_url": "/tmp/x.sqlite"}"#)
        #expect(
            throws: DomainError.invalidArgument(
                "\"databse_url\" in \(typo) is not a setting; a key is a LIFESIGNAL_ variable's name without the prefix, in lower case (\"provider\", \"database_url\", …)"
            )
        ) {
            try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": typo])
        }
        let number = try Self.file(#"{"firebase_project_id": 42}"#)
        #expect(throws: DomainError.invalidArgument("\"firebase_project_id\" in \(number) must be a string")) {
            try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": number])
        }
        let missing = "/nonexistent-\(UUID().uuidString)/config.json"
        #expect(throws: DomainError.invalidArgument("LIFESIGNAL_CONFIG=\(missing) cannot be read")) {
            try LiveConfiguration(environment: ["LIFESIGNAL_CONFIG": missing])
        }
    }
}
