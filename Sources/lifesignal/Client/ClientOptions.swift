import ArgumentParser
import Foundation
import LifeSignalAdapters
import LifeSignalDomain
import SupabaseREST

/// How a client command reaches a server: its URL and anon key (both printed by
/// `lifesignal serve`), and where the signed-in session is kept between commands.
struct ClientOptions: ParsableArguments {
    @Option(help: "The server's URL (env LIFESIGNAL_URL).")
    var url: String?

    @Option(name: .customLong("anon-key"), help: "The server's anon key, as `serve` prints it (env LIFESIGNAL_ANON_KEY).")
    var anonKey: String?

    @Flag(help: "Print JSON instead of sentences, for scripts.")
    var json = false

    /// The session file: `<data dir>/cli-session.json`, mode 0600 (it holds a refresh token).
    func sessionFile() throws -> URL { try LifeSignalEnvironment.dataDirectory().appendingPathComponent("cli-session.json") }

    func client() throws -> SupabaseClient {
        let values = try LifeSignalEnvironment.values()
        let text = url ?? values["LIFESIGNAL_URL"] ?? "http://127.0.0.1:54321"
        guard let serverURL = URL(string: text), serverURL.scheme == "http" || serverURL.scheme == "https", serverURL.host != nil else {
            throw ValidationError("\"\(text)\" is not an http(s) URL")
        }
        guard let key = anonKey ?? values["LIFESIGNAL_ANON_KEY"], !key.isEmpty else {
            throw ValidationError("Pass --anon-key or set LIFESIGNAL_ANON_KEY (`lifesignal serve` prints the key)")
        }
        return SupabaseClient(
            supabaseURL: serverURL, supabaseKey: key,
            options: SupabaseClientOptions(auth: .init(storage: FileAuthStorage(url: try sessionFile()))))
    }

    func adapters() throws -> SupabaseAdapters { SupabaseAdapters(client: try client()) }
}

/// What a client command prints and how it exits.
enum CommandOutput {
    /// Prints `value` as JSON: pretty, or on one line (`compact`) for streams read line by line.
    static func json(_ value: some Encodable, compact: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ContentValue.iso8601(date))
        }
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Runs a command body; a domain error is printed on standard error as a sentence, and the
    /// process exits with the error's code (see ``exitCode(for:)``).
    static func run(_ body: () async throws -> Void) async throws {
        do { try await body() } catch let error as DomainError {
            FileHandle.standardError.write(Data("error: \(sentence(for: error))\n".utf8))
            throw ExitCode(exitCode(for: error))
        }
    }

    static func sentence(for error: DomainError) -> String {
        error == .unauthenticated ? "Sign in first: lifesignal login --phone <number>" : error.message
    }

    /// 2 bad input, 3 not signed in, 4 not allowed, 5 not found, 6 already exists, 1 anything else.
    static func exitCode(for error: DomainError) -> Int32 {
        switch error {
        case .invalidArgument, .invalidPhone, .invalidOTP, .otpExpired, .tooManyAttempts: 2
        case .unauthenticated: 3
        case .forbidden: 4
        case .notFound: 5
        case .alreadyExists: 6
        default: 1
        }
    }
}
