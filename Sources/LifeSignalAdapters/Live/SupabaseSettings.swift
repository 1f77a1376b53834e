import Foundation
import LifeSignalDomain
import SupabaseREST

/// Where a Supabase-compatible server answers (`lifesignal serve`, or a Supabase project
/// running LifeSignal's schema and functions) and the anon key it gives out.
///
/// The same variables the command line's client commands read: `LIFESIGNAL_URL` and
/// `LIFESIGNAL_ANON_KEY`.
public struct SupabaseSettings: Sendable, Hashable {
    public var url: URL
    public var anonKey: String

    public init(url: URL, anonKey: String) {
        self.url = url
        self.anonKey = anonKey
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
        self.init(url: url, anonKey: try values.required("LIFESIGNAL_ANON_KEY", by: .supabase))
    }

    /// Adapters over a new client. The session is kept in memory: an app that stays signed
    /// in across launches builds its own client with a persistent ``AuthLocalStorage``.
    public func adapters() -> SupabaseAdapters {
        SupabaseAdapters(client: SupabaseClient(supabaseURL: url, supabaseKey: anonKey))
    }
}
