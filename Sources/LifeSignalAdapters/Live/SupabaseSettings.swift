import Foundation
import LifeSignalDomain
import SupabaseREST

/// Where a Supabase-compatible server answers (`lifesignal serve`, or a Supabase project
/// running LifeSignal's schema and functions) and the anon key it gives out.
///
/// The same variables the command line's client commands read: `LIFESIGNAL_URL` and
/// `LIFESIGNAL_ANON_KEY`; and `LIFESIGNAL_SESSION_FILE`, where the session is kept so the
/// person stays signed in across launches.
public struct SupabaseSettings: Sendable, Hashable {
    public var url: URL
    public var anonKey: String
    /// The file the session (with its refresh token) is kept in, mode 0600; `nil` keeps it
    /// in memory, so each launch starts signed out.
    public var sessionFile: URL?

    public init(url: URL, anonKey: String, sessionFile: URL? = nil) {
        self.url = url
        self.anonKey = anonKey
        self.sessionFile = sessionFile
    }

    /// Reads the settings of a selected Supabase provider: both are required.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming the variable that is missing, or
    ///   the URL when it is not http(s).
    public init(_ values: ConfigurationValues) throws(DomainError) {
        let text = try values.required("LIFESIGNAL_URL", by: .supabase)
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw values.invalid("LIFESIGNAL_URL", "is not an http(s) URL")
        }
        let sessionFile = values["LIFESIGNAL_SESSION_FILE"].map { URL(fileURLWithPath: $0) }
        self.init(url: url, anonKey: try values.required("LIFESIGNAL_ANON_KEY", by: .supabase), sessionFile: sessionFile)
    }

    /// Adapters over a new client, keeping the session in ``sessionFile`` when one is set.
    public func adapters() -> SupabaseAdapters {
        let options = sessionFile.map { SupabaseClientOptions(auth: .init(storage: FileAuthStorage(url: $0))) } ?? SupabaseClientOptions()
        return SupabaseAdapters(client: SupabaseClient(supabaseURL: url, supabaseKey: anonKey, options: options))
    }
}
